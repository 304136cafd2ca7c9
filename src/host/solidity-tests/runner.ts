/**
 * Runs a project's Solidity tests (forge-style `.t.sol` contracts) on the epochs chain, for both
 * hosts. Each test contract gets a VM of its own over the chain's head (the Cosmos precompiles,
 * module stores and epoch hooks live in it: src/chain/testing/test-vm.ts); it is deployed from
 * forge's test sender, `setUp()` runs once, and every test function runs from the state `setUp`
 * left, isolated from the others. A test passes when its call returns, nothing it expected is
 * unmet (an expected revert, emit or call) and forge-std's failure flag is not set; `testFail*`
 * passes when that fails. A test with parameters is fuzzed: `runs` inputs from `seed`, inputs that
 * `vm.assume` rejects discarded, the first failing input shrunk and shown.
 */
import { Address, equalsBytes, hexToBytes } from "@ethereumjs/util";
import { type FunctionFragment, Interface, type ParamType } from "ethers/abi";
import { id } from "ethers/hash";
import { getBytes } from "ethers/utils";
import { ASSUME_MAGIC, TEST_SENDER, type EpochClock, TestVm, VM_ADDRESS } from "../../chain";
import type { Node } from "../../chain";
import { failureText } from "../solidity/failure-text";
import { errorText } from "../../utils/error-text";
import type { ContractRegistry } from "../../solidity/registry";
import { formatCustomError } from "../../solidity/registry";
import type { ConsoleLogDecoder } from "../../solidity/console-log";
import { randomValue, showValue, shrinkCandidates } from "./fuzz";
import { Rng } from "../../utils/rng";
import { type InlineConfig, inlineConfig } from "./inline-config";
import type { SuiteResult, TestContractArtifact, TestResult } from "./types";
import { invariantTargets, runInvariant } from "./invariants";

export interface SolidityTestSettings {
  /** Inputs per fuzz test (Hardhat 3 and forge: 256). */
  fuzzRuns: number;
  seed: bigint;
  /** Inputs `vm.assume` may reject per fuzz test before it fails (forge: 65536). */
  maxTestRejects: number;
  /** Milliseconds one test's call may run (0: no bound). */
  timeoutMs: number;
  /** Runs only the tests whose `Contract.function` matches. */
  grep?: RegExp;
  /** Invariant runs and calls per run (forge: 256 and 500; Hardhat 3's profile: `invariant.runs`, `invariant.depth`). */
  invariantRuns: number;
  invariantDepth: number;
  environment: Readonly<Record<string, string | undefined>>;
}

/** The chain the tests run on and what explains their results. */
interface SolidityTestChain {
  /** A source's text (its inline `forge-config` comments), if it can be read. */
  source?: (sourceName: string) => string | undefined;
  node: Node;
  epochs?: EpochClock;
  valoper?: (address: Uint8Array) => string;
  contracts?: ContractRegistry;
  console?: ConsoleLogDecoder;
}

/** The test contracts among `artifacts`: deployable contracts of test sources with at least one `test…` function. */
export function testContracts(artifacts: readonly TestContractArtifact[], isTestSource: (sourceName: string) => boolean): TestContractArtifact[] {
  return artifacts.filter((a) => isTestSource(a.sourceName) && a.bytecode.length > 2 && testFunctions(new Interface(a.abi)).length > 0);
}

function testFunctions(abi: Interface): FunctionFragment[] {
  const out: FunctionFragment[] = [];
  abi.forEachFunction((f) => {
    if (/^(test|invariant)/.test(f.name)) out.push(f);
  });
  return out;
}

/** Runs `suites` (test contracts); `all`: every artifact of the project, for `vm.getCode` and `deployCode`. */
export async function runSolidityTests(
  chain: SolidityTestChain,
  suites: readonly TestContractArtifact[],
  all: readonly TestContractArtifact[],
  settings: SolidityTestSettings,
  onSuite?: (s: SuiteResult) => void,
): Promise<SuiteResult[]> {
  const results: SuiteResult[] = [];
  for (const artifact of suites) {
    const result = await runSuite(chain, artifact, all, settings);
    results.push(result);
    onSuite?.(result);
  }
  return results;
}

const TEST_FAIL_REMOVED = "`testFail*` has been removed. Consider changing to test_Revert[If|When]_Condition and expecting a revert";
const FAILED_SLOT = getBytes("0x6661696c65640000000000000000000000000000000000000000000000000000");

async function runSuite(chain: SolidityTestChain, artifact: TestContractArtifact, all: readonly TestContractArtifact[], settings: SolidityTestSettings): Promise<SuiteResult> {
  const abi = new Interface(artifact.abi);
  const suite: SuiteResult = { source: artifact.sourceName, contract: artifact.contractName, tests: [] };
  const selected = testFunctions(abi).filter((f) => settings.grep === undefined || settings.grep.test(`${artifact.contractName}.${f.name}`) || settings.grep.test(f.format("sighash")));
  if (selected.length === 0) return suite;
  const logs: string[] = [];
  const vm = await TestVm.open(chain.node, {
    artifactCode: (name, deployed) => artifactCode(all, name, deployed),
    environment: settings.environment,
    epochs: chain.epochs,
    valoper: chain.valoper,
    console: (data) => {
      const line = chain.console?.decode(data);
      if (line !== undefined) logs.push(line);
    },
  });
  const explain = (data: Uint8Array, error?: string): string => explainFailure(chain, data, error);
  // a contract that cannot be deployed or set up fails as one test, named as forge and Hardhat 3 name it
  const failSuite = (name: string, reason: string): SuiteResult => {
    suite.tests.push({ name, status: "Failure", reason, logs: [...logs] });
    return suite;
  };
  if (artifact.bytecode.includes("__$")) return failSuite("constructor()", "the contract needs libraries linked, which Solidity tests on this chain do not do yet");
  const deployed = await vm.call(TEST_SENDER, undefined, getBytes(artifact.bytecode));
  if (!deployed.success || deployed.createdAddress === undefined) return failSuite("constructor()", explain(deployed.returnValue));
  const address = deployed.createdAddress;
  await vm.setBalance(address, 2n ** 96n - 1n);
  vm.cheats.reset();
  if (abi.getFunction("setUp") !== null) {
    const setUp = await vm.call(TEST_SENDER, address, getBytes(abi.encodeFunctionData("setUp")));
    const unmet = vm.cheats.unmet();
    if (!setUp.success || unmet !== undefined) return failSuite("setUp()", setUp.success ? unmet! : explain(setUp.returnValue));
  }
  const created = [...vm.cheats.created];
  const inline = inlineConfig(chain.source?.(artifact.sourceName), artifact.contractName);
  const configOf = (fn: FunctionFragment): InlineConfig => inline.get(fn.name) ?? inline.get("") ?? {};
  const mark = await vm.mark();
  const runOnce = async (fn: FunctionFragment, args: unknown[]): Promise<{ ok: boolean; rejected: boolean; reason?: string; gas: bigint }> => {
    logs.length = 0;
    const data = getBytes(abi.encodeFunctionData(fn, args));
    vm.setDeadline(settings.timeoutMs);
    let r;
    try {
      r = await vm.call(TEST_SENDER, address, data);
    } catch (err) {
      await vm.rewind(mark);
      return { ok: false, rejected: false, reason: errorText(err), gas: 0n };
    } finally {
      vm.setDeadline(0);
    }
    if (!r.success && equalsBytes(r.returnValue, ASSUME_MAGIC)) {
      await vm.rewind(mark);
      return { ok: true, rejected: true, gas: 0n };
    }
    const internalRevert = !r.success && configOf(fn).allowInternalExpectRevert === true && vm.cheats.internalRevertMet(r.returnValue);
    let reason = r.success || internalRevert ? vm.cheats.unmet() : explain(r.returnValue);
    if (internalRevert) reason = undefined;
    if (r.success && reason === undefined && (await flaggedFailed(vm, address, abi))) reason = "assertion failed";
    await vm.rewind(mark);
    return { ok: reason === undefined, rejected: false, reason, gas: r.gasUsed };
  };
  for (const fn of selected) {
    const name = fn.format("sighash");
    if (fn.name.startsWith("testFail")) {
      // as Hardhat 3's runner (EDR, after forge 1.0) answers them
      suite.tests.push({ name, status: "Failure", reason: TEST_FAIL_REMOVED, logs: [] });
      continue;
    }
    if (fn.name.startsWith("invariant")) {
      const config = configOf(fn);
      const { targets, senders } = await invariantTargets(vm, address, abi, created, all);
      const check = async (f: FunctionFragment): Promise<string | undefined> => {
        const r = await vm.call(TEST_SENDER, address, getBytes(abi.encodeFunctionData(f)));
        if (!r.success) return explain(r.returnValue);
        return (await flaggedFailed(vm, address, abi)) ? "assertion failed" : undefined;
      };
      const settingsOf = { runs: config.invariantRuns ?? settings.invariantRuns, depth: config.invariantDepth ?? settings.invariantDepth, seed: settings.seed ^ BigInt(id(name).slice(0, 18)) };
      suite.tests.push(await runInvariant(vm, fn, name, targets, senders, settingsOf, () => vm.rewind(mark), check));
      await vm.rewind(mark);
      continue;
    }
    if (fn.inputs.length === 0) {
      vm.cheats.random = new Rng(settings.seed ^ BigInt(id(name).slice(0, 18)));
      const r = await runOnce(fn, []);
      suite.tests.push({ name, status: r.ok ? "Success" : "Failure", reason: r.reason, gas: r.gas, logs: [...logs] });
      continue;
    }
    const config = configOf(fn);
    suite.tests.push(await fuzz(fn, name, runOnce, { ...settings, fuzzRuns: config.fuzzRuns ?? settings.fuzzRuns, maxTestRejects: config.maxTestRejects ?? settings.maxTestRejects }, logs, vm));
  }
  return suite;
}

type RunOnce = (fn: FunctionFragment, args: unknown[]) => Promise<{ ok: boolean; rejected: boolean; reason?: string; gas: bigint }>;

async function fuzz(fn: FunctionFragment, name: string, runOnce: RunOnce, settings: SolidityTestSettings, logs: string[], vm: TestVm): Promise<TestResult> {
  // each test its own sequence from the seed, so adding a test does not change another's inputs
  const rng = new Rng(settings.seed ^ BigInt(id(name).slice(0, 18)));
  const gases: bigint[] = [];
  let rejects = 0;
  for (let run = 0; run < settings.fuzzRuns;) {
    let args: unknown[];
    vm.cheats.random = new Rng(rng.next64());
    try {
      args = fn.inputs.map((p) => randomValue(p, rng));
    } catch (err) {
      return { name, status: "Failure", reason: (err as Error).message, logs: [] };
    }
    const r = await runOnce(fn, args);
    if (r.rejected) {
      if (++rejects > settings.maxTestRejects)
        return { name, status: "Failure", reason: `The \`vm.assume\` cheatcode rejected too many inputs (${settings.maxTestRejects} allowed)`, runs: run, logs: [] };
      continue;
    }
    run++;
    if (r.ok) {
      gases.push(r.gas);
      continue;
    }
    const shrunk = await shrink(fn, args, r.reason, runOnce);
    return { name, status: "Failure", reason: shrunk.reason, runs: run, counterexample: counterexample(fn.inputs, shrunk.args), logs: [...logs] };
  }
  gases.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { name, status: "Success", runs: settings.fuzzRuns, gas: gases[Math.floor(gases.length / 2)], logs: [] };
}

/**
 * A smaller input that still fails (bounded): each whole-number argument searched down to the least
 * value that fails, as if failing were monotonic in it (0 first), then each argument's other candidates.
 */
async function shrink(fn: FunctionFragment, args: unknown[], reason: string | undefined, runOnce: RunOnce): Promise<{ args: unknown[]; reason?: string }> {
  let best = { args, reason };
  let budget = 320;
  const fails = async (tried: unknown[]): Promise<boolean> => {
    budget--;
    const r = await runOnce(fn, tried);
    if (r.ok || r.rejected) return false;
    best = { args: tried, reason: r.reason };
    return true;
  };
  for (let i = 0; i < fn.inputs.length; i++) {
    const v = best.args[i];
    if (typeof v !== "bigint" || v <= 0n) continue;
    const at = (x: bigint): unknown[] => best.args.map((a, j) => (j === i ? x : a));
    if (await fails(at(0n))) continue;
    // 0 passes, v fails: the boundary between
    let lo = 0n;
    let hi = v;
    while (hi - lo > 1n && budget > 64) {
      const mid = (lo + hi) / 2n;
      if (await fails(at(mid))) hi = mid;
      else lo = mid;
    }
  }
  for (let progress = true; progress && budget > 0;) {
    progress = false;
    for (let i = 0; i < fn.inputs.length && budget > 0; i++) {
      for (const candidate of shrinkCandidates(fn.inputs[i], best.args[i])) {
        if (budget-- <= 0) break;
        const tried = [...best.args];
        tried[i] = candidate;
        const r = await runOnce(fn, tried);
        if (!r.ok && !r.rejected) {
          best = { args: tried, reason: r.reason };
          progress = true;
          break;
        }
      }
    }
  }
  return best;
}

function counterexample(inputs: readonly ParamType[], args: unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  inputs.forEach((p, i) => {
    out[p.name !== "" ? p.name : `arg${i}`] = showValue(args[i]);
  });
  return out;
}

const VM = new Address(hexToBytes(VM_ADDRESS));
/** `failed()`'s calldata. */
const FAILED_CALL = getBytes(id("failed()").slice(0, 10));

/** forge-std's failure flag (`fail()` stores it at the cheatcode address), or an old test base's `failed()` (a DSTest that keeps its own). */
async function flaggedFailed(vm: TestVm, address: Address, abi: Interface): Promise<boolean> {
  const flag = await vm.vm.stateManager.getStorage(VM, FAILED_SLOT);
  if (flag.some((b) => b !== 0)) return true;
  if (!keepsOwnFailure(abi)) return false;
  const r = await vm.call(TEST_SENDER, address, FAILED_CALL);
  return r.success && r.returnValue.length >= 32 && r.returnValue[31] === 1;
}

const ownFailure = new WeakMap<Interface, boolean>();

/**
 * Whether a test base keeps a failure flag of its own: DSTest's `failed()` (a `view` reading its
 * `_failed`, with `IS_TEST`). forge-std v1.8+'s `failed()` reads the cheatcode address's flag,
 * already read above, so its tests need no second call.
 */
function keepsOwnFailure(abi: Interface): boolean {
  let known = ownFailure.get(abi);
  if (known === undefined) {
    const failed = abi.getFunction("failed");
    known = failed !== null && failed.inputs.length === 0 && abi.getFunction("IS_TEST") !== null && abi.getFunction("excludeArtifacts") === null;
    ownFailure.set(abi, known);
  }
  return known;
}

/** A failed call's revert in Hardhat's words, the project's custom errors named; a cheatcode's own message as it is. */
function explainFailure(chain: SolidityTestChain, data: Uint8Array, error?: string): string {
  const text = failureText({ error, returnValue: data }, (d) => {
    const found = chain.contracts?.customError(d);
    return found === undefined ? undefined : formatCustomError(found.fragment, found.args);
  });
  const prefix = "VM Exception while processing transaction: reverted with reason string '";
  return text.startsWith(prefix) ? text.slice(prefix.length, -1) : text.replace("VM Exception while processing transaction: ", "");
}

/** `vm.getCode`'s artifact lookup: "Vault.sol", "Vault.sol:Vault", "Vault", or a source path. */
function artifactCode(all: readonly TestContractArtifact[], name: string, deployed: boolean): Uint8Array {
  const [file, contract] = name.includes(":") ? name.split(":") : name.endsWith(".sol") ? [name, undefined] : [undefined, name];
  const found = all.filter(
    (a) =>
      (contract === undefined || a.contractName === contract) &&
      (file === undefined ||
        a.sourceName === file ||
        a.sourceName.endsWith(`/${file}`) ||
        (contract === undefined &&
          a.sourceName.endsWith(`/${file}`) &&
          a.contractName ===
            file
              .replace(/\.sol$/, "")
              .split("/")
              .pop())),
  );
  const match =
    contract === undefined && file !== undefined
      ? found.filter(
          (a) =>
            a.contractName ===
            file
              .replace(/\.sol$/, "")
              .split("/")
              .pop(),
        )
      : found;
  const pick = match.length > 0 ? match : found;
  if (pick.length === 0) throw new Error(`no matching artifact found for ${name}`);
  if (pick.length > 1) throw new Error(`multiple matching artifacts found for ${name}`);
  const code = deployed ? pick[0].deployedBytecode : pick[0].bytecode;
  if (code.includes("__$")) throw new Error(`${name} needs libraries linked`);
  return getBytes(code);
}
