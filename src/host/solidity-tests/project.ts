/**
 * A project's Solidity tests on its in-process chain, for both hosts: the test contracts found
 * among its artifacts, run on the runtime's chain (src/host/solidity-tests/runner.ts) and told in
 * Hardhat 3's reporter shape. Each host supplies its artifacts, its test sources and its settings.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Runtime } from "../../app/runtime";
import { EPOCHS_MODULE } from "../../epochs";
import type { SolidityTestsUserConfig } from "../settings/epochs-config";
import { consoleLogDecoder } from "../solidity/console-log-source";
import { SolidityTestReporter, type Totals } from "./reporter";
import { type SolidityTestSettings, runSolidityTests, testContracts } from "./runner";
import type { TestContractArtifact } from "./types";

interface ProjectTestRun {
  artifacts: readonly TestContractArtifact[];
  isTestSource(sourceName: string): boolean;
  settings: SolidityTestSettings;
  projectRoot: string;
  write(text: string): void;
  userSource?(sourceName: string): string;
  verbose?: boolean;
  /** Hardhat 3's `test` task runs this among its runners: failures numbered from here, no summary (it prints one). */
  summaryIndex?: number;
}

/** @lazy loaded by a deferred require() (knip cannot see it) */
export async function runProjectSolidityTests(runtime: Runtime, run: ProjectTestRun): Promise<Totals & { failureOutput: string }> {
  const epochs = runtime.epochs;
  const chain = {
    node: runtime.node,
    epochs: epochs === undefined ? undefined : { module: EPOCHS_MODULE, currentEpoch: epochs.currentEpoch.bind(epochs), nextMoveTime: epochs.nextMoveTime.bind(epochs) },
    contracts: runtime.deps.contracts,
    source: (sourceName: string): string | undefined => {
      try {
        return readFileSync(path.resolve(run.projectRoot, sourceName), "utf8");
      } catch {
        return undefined;
      }
    },
    valoper: runtime.valoper,
    console: consoleLogDecoder(run.projectRoot),
  };
  const index = run.summaryIndex ?? 0;
  const reporter = new SolidityTestReporter(run.write, run.userSource, run.verbose, index === 0 ? 1 : index);
  const suites = testContracts(run.artifacts, run.isTestSource);
  await runSolidityTests(chain, suites, run.artifacts, run.settings, (s) => reporter.suite(s));
  const failureOutput = reporter.end(index === 0);
  return { ...reporter.totals, failureOutput };
}

/** forge's and Hardhat 3's defaults. */
const DEFAULT_FUZZ_RUNS = 256;
const DEFAULT_MAX_TEST_REJECTS = 65_536;
const DEFAULT_INVARIANT_DEPTH = 500;

/**
 * A run's settings from a host's config — Hardhat 3's selected test profile or Hardhat 2's
 * `epochs.solidityTests`, the same shape — with forge's defaults where it is silent (invariant runs:
 * the fuzz runs, as Hardhat 3 reports them).
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function testSettings(config: SolidityTestsUserConfig, seed: bigint, grep: RegExp | undefined): SolidityTestSettings {
  const fuzzRuns = config.fuzz?.runs ?? DEFAULT_FUZZ_RUNS;
  return {
    fuzzRuns,
    seed,
    maxTestRejects: config.fuzz?.maxTestRejects ?? DEFAULT_MAX_TEST_REJECTS,
    invariantRuns: config.invariant?.runs ?? fuzzRuns,
    invariantDepth: config.invariant?.depth ?? DEFAULT_INVARIANT_DEPTH,
    timeoutMs: config.timeout ?? 0,
    grep,
    environment: process.env,
  };
}

/** A seed from the user's text (decimal or hex), or a random one. @lazy loaded by a deferred require() (knip cannot see it) */
export function fuzzSeed(text: string | undefined): bigint {
  if (text === undefined || text === "") return BigInt(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER));
  return BigInt(text);
}
