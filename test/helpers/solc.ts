/** Compiles small test contracts with the npm `solc` package (no download), cached per source. */
import solc from "solc";

export interface Compiled {
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
}

const cache = new Map<string, Record<string, Compiled>>();

export function compile(source: string): Record<string, Compiled> {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const input = {
    language: "Solidity",
    sources: { "Test.sol": { content: source } },
    settings: { optimizer: { enabled: false }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const result: Record<string, Compiled> = {};
  for (const [name, c] of Object.entries(out.contracts["Test.sol"])) {
    result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
  }
  cache.set(source, result);
  return result;
}

export interface StandardCompilation {
  /** solc's long version (`0.8.30+commit.…`), as Hardhat sends it with hardhat_addCompilationResult. */
  solcVersion: string;
  input: { language: string; sources: Record<string, { content: string }>; settings: unknown };
  output: {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    sources: Record<string, { id: number; ast: unknown }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string; sourceMap: string }; deployedBytecode: { object: string; sourceMap: string } } }>>;
  };
}

/** A full standard-JSON compilation with Hardhat's output selection (bytecode, source maps, AST), as a build-info holds it. */
export function compileStandard(files: Record<string, string>, settings: Record<string, unknown> = {}): StandardCompilation {
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(files).map(([name, content]) => [name, { content }])),
    settings: {
      optimizer: { enabled: false, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode", "evm.deployedBytecode", "evm.methodIdentifiers", "metadata"], "": ["ast"] } },
      ...settings,
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as StandardCompilation["output"];
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  return { solcVersion: solc.version().replace(/\.Emscripten.*$/, ""), input, output };
}
