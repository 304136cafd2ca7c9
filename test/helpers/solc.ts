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
