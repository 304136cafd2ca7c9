/**
 * `hardhat test solidity` (and so `hardhat test`) on Hardhat 3: with `epochs: { solidityTests: true }`
 * the project's Solidity tests run on the epochs chain (src/host/solidity-tests/) instead of EDR —
 * the chain the in-process network runs, from the same config or genesis.json — with Hardhat 3's own
 * build, test files and settings (the selected test profile's fuzz runs, seed, rejects and timeout)
 * and its reporter's shape. Without it, Hardhat's own task runs.
 */
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import compilationsModule from "../../host/solidity/compilations.js";
import genesisFileModule from "../../host/settings/genesis-file.js";
import inProcessModule from "../../host/in-process.js";
import projectModule from "../../host/solidity-tests/project.js";
import type { TestContractArtifact } from "../../host/solidity-tests/types.js";
import { runtimeOptionsFor } from "../shared/in-process-chain.mjs";
import type { HardhatRuntimeEnvironment } from "../shared/hardhat3-api.mjs";
import { pluginError } from "../shared/plugin-error.mjs";

interface Args {
  testFiles: string[];
  grep?: string;
  noCompile: boolean;
  testSummaryIndex: number;
  testProfile?: string;
}

/** What this task reads of Hardhat 3 beyond the shared API (Hardhat 3.18's solidity-test and build). */
interface SolidityHre extends HardhatRuntimeEnvironment {
  readonly config: HardhatRuntimeEnvironment["config"] & {
    solidity: { splitTestsCompilation?: boolean };
    test: {
      solidity: { profiles: Record<string, { fuzz?: { runs?: number; seed?: string; maxTestRejects?: number }; invariant?: { runs?: number; depth?: number }; timeout?: number }> };
    };
  };
  readonly tasks: { getTask(id: string | string[]): { run(args?: Record<string, unknown>): Promise<unknown> } };
  readonly solidity: {
    getRootFilePaths(opts: { scope: string }): Promise<string[]>;
    getScope(file: string): Promise<string>;
    getArtifactsDirectory(scope: string): Promise<string>;
  };
}

/** Hardhat 3's fuzz seed when the profile sets none: keccak256("built for ethereum"). */
const HARDHAT_FUZZ_SEED = "0x7727ea51af0441c20da14dcd68a15dac8c9ebd589c5be8fa8c87c1d3720450bc";

export default async function testSolidity(args: Args, hre: SolidityHre, runSuper: (args: Args) => Promise<unknown>): Promise<unknown> {
  const enabled = hre.config.epochs.solidityTests;
  if (enabled === undefined || enabled === false) return runSuper(args);
  const profileName = args.testProfile ?? process.env.HARDHAT_TEST_PROFILE ?? "default";
  const profile = hre.config.test.solidity.profiles[profileName];
  if (profile === undefined) throw pluginError(`test profile "${profileName}" not found: the config declares ${Object.keys(hre.config.test.solidity.profiles).join(", ")}`);
  const root = hre.config.paths.root;
  const split = hre.config.solidity.splitTestsCompilation === true;
  let testRoots: string[];
  if (!args.noCompile) {
    if (split) await hre.tasks.getTask("build").run({ noTests: true });
    const built = (await hre.tasks.getTask("build").run(split ? { files: args.testFiles, noContracts: true } : { files: args.testFiles })) as { testRootPaths: string[] };
    testRoots = built.testRootPaths;
  } else if (args.testFiles.length > 0) {
    testRoots = args.testFiles.map((f) => path.resolve(process.cwd(), f));
  } else {
    testRoots = [];
    for (const file of await hre.solidity.getRootFilePaths({ scope: "contracts" })) if ((await hre.solidity.getScope(file)) === "tests") testRoots.push(file);
  }
  const artifacts: TestContractArtifact[] = [];
  for (const scope of split ? ["contracts", "tests"] : ["contracts"]) artifacts.push(...(await readArtifacts(await hre.solidity.getArtifactsDirectory(scope))));
  const tests = new Set(testRoots.map((f) => path.resolve(f)));
  let grep: RegExp | undefined;
  try {
    grep = args.grep === undefined || args.grep === "" ? undefined : new RegExp(args.grep);
  } catch (err) {
    throw pluginError(`--grep: ${(err as Error).message}`);
  }
  const options = genesisFileModule.withGenesisFile(runtimeOptionsFor(hre), hre.config.epochs.genesisFile, root);
  const runtime = await inProcessModule.buildInProcessRuntime(options, compilationsModule.hardhat3BuildInfos(hre.config.paths.artifacts));
  console.log("Running Solidity tests on the epochs chain\n");
  try {
    const totals = await projectModule.runProjectSolidityTests(runtime, {
      artifacts,
      isTestSource: (sourceName) => tests.has(path.resolve(root, sourceName)),
      settings: projectModule.testSettings(profile, BigInt(profile.fuzz?.seed ?? HARDHAT_FUZZ_SEED), grep),
      projectRoot: root,
      write: (text) => process.stdout.write(text),
      summaryIndex: args.testSummaryIndex,
    });
    console.log();
    const summary = { failed: totals.failed, passed: totals.passed, skipped: totals.skipped, todo: 0, failureOutput: totals.failureOutput };
    if (args.testSummaryIndex === 0 && totals.failed > 0) process.exitCode = 1;
    // Hardhat's Result shape (hardhat/utils/result): the `test` task sums it with the other runners'
    return totals.failed > 0 ? { success: false, error: { summary, suiteResults: [] } } : { success: true, value: { summary, suiteResults: [] } };
  } finally {
    await runtime.close();
  }
}

/** Hardhat 3's artifacts under `dir` (their JSON files; build infos left out). */
async function readArtifacts(dir: string): Promise<TestContractArtifact[]> {
  const out: TestContractArtifact[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "build-info") await walk(full);
      } else if (entry.name.endsWith(".json")) {
        const a = JSON.parse(await readFile(full, "utf8")) as Partial<TestContractArtifact> & { _format?: string };
        if (typeof a._format === "string" && a._format.includes("artifact") && a.abi !== undefined && a.sourceName !== undefined && a.contractName !== undefined) {
          out.push({ sourceName: a.sourceName, contractName: a.contractName, abi: a.abi, bytecode: a.bytecode ?? "0x", deployedBytecode: a.deployedBytecode ?? "0x" });
        }
      }
    }
  };
  await walk(dir);
  return out;
}
