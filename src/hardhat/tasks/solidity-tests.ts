/**
 * `npx hardhat test:solidity`: the project's Solidity tests (`.t.sol` contracts among its sources)
 * on the in-process epochs chain, with forge's cheatcodes and the chain's own
 * (docs/solidity-tests.md). Settings from `epochs.solidityTests`; `--fuzz-runs`, `--seed` and
 * `--grep` override them. Fails (exit code 1) when a test fails.
 */
import { task, types } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import { TASK_COMPILE } from "hardhat/builtin-tasks/task-names";
import type { SolidityTestsUserConfig } from "../../host/settings/epochs-config";
import type { TestContractArtifact } from "../../host/solidity-tests/types";
import { PLUGIN_NAME } from "../chain-config";
import { TASK_TEST_SOLIDITY } from "../task-names";

interface Args {
  fuzzRuns?: number;
  seed?: string;
  grep?: string;
  noCompile: boolean;
  logs: boolean;
}

task(TASK_TEST_SOLIDITY, "Runs the project's Solidity tests (.t.sol) on the epochs chain")
  .addOptionalParam("fuzzRuns", "Inputs per fuzz test (default: epochs.solidityTests.fuzz.runs, else 256)", undefined, types.int)
  .addOptionalParam("seed", "The fuzz seed (decimal or 0x-hex; default: random, printed)", undefined, types.string)
  .addOptionalParam("grep", "Runs only the tests whose Contract.function matches this regular expression", undefined, types.string)
  .addFlag("noCompile", "Don't compile before running")
  .addFlag("logs", "Prints passing tests' console.log lines too")
  .setAction(async (args: Args, hre) => {
    if (!args.noCompile) await hre.run(TASK_COMPILE, { quiet: true });
    // deferred: the chain's code loads when the task runs, not with the config (test/e2e/load-cost.test.ts)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { fuzzSeed, runProjectSolidityTests, testSettings } = require("../../host/solidity-tests/project") as typeof import("../../host/solidity-tests/project");
    const provider = hre.epochsProvider;
    if (provider === undefined) throw new HardhatPluginError(PLUGIN_NAME, `${TASK_TEST_SOLIDITY} runs on the in-process epochs chain: use the hardhat network (it was "${hre.network.name}")`);
    const user: SolidityTestsUserConfig = typeof hre.config.epochs.solidityTests === "object" ? hre.config.epochs.solidityTests : {};
    const artifacts: TestContractArtifact[] = [];
    for (const fqn of await hre.artifacts.getAllFullyQualifiedNames()) {
      const a = await hre.artifacts.readArtifact(fqn);
      artifacts.push({ sourceName: a.sourceName, contractName: a.contractName, abi: a.abi, bytecode: a.bytecode, deployedBytecode: a.deployedBytecode });
    }
    const seedText = args.seed ?? user.fuzz?.seed;
    const seed = fuzzSeed(seedText);
    let grep: RegExp | undefined;
    try {
      grep = args.grep === undefined ? undefined : new RegExp(args.grep);
    } catch (err) {
      throw new HardhatPluginError(PLUGIN_NAME, `--grep: ${(err as Error).message}`);
    }
    if (seedText === undefined) console.log(`Fuzz seed: 0x${seed.toString(16)}`);
    const root = hre.config.paths.root;
    const totals = await runProjectSolidityTests(await provider.runtime(), {
      artifacts,
      isTestSource: (s) => s.endsWith(".t.sol"),
      settings: testSettings({ ...user, fuzz: { ...user.fuzz, runs: args.fuzzRuns ?? user.fuzz?.runs } }, seed, grep),
      projectRoot: root,
      write: (text) => process.stdout.write(text),
      verbose: args.logs,
    });
    if (totals.failed > 0) process.exitCode = 1;
    return totals;
  });
