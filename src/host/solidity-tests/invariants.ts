/**
 * Invariant tests (`invariant…` functions), as forge runs them: each run starts from the state
 * `setUp` left and makes `depth` calls, each a random function of a random target contract from a
 * random sender with random arguments; after every call the invariant is checked (a revert or
 * forge-std's failure flag fails it). Targets are the contracts `setUp` deployed, or forge-std's
 * `targetContracts()` / `targetSelectors()`, less `excludeContracts()`; senders `targetSenders()`
 * when set. Calls that revert are skipped (forge's `fail_on_revert = false`).
 */
import { Address, hexToBytes } from "@ethereumjs/util";
import { type FunctionFragment, Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes } from "ethers/utils";
import { TEST_SENDER, type TestVm } from "../../chain";
import { Rng } from "../../utils/rng";
import { randomValue, showValue } from "./fuzz";
import type { TestContractArtifact, TestResult } from "./types";

interface InvariantSettings {
  runs: number;
  depth: number;
  seed: bigint;
}

interface Target {
  address: Address;
  fns: FunctionFragment[];
}

type Check = (fn: FunctionFragment) => Promise<string | undefined>;

/** The targets and senders of a test contract after its `setUp` (`created`: the contracts setUp deployed). */
export async function invariantTargets(
  vm: TestVm,
  test: Address,
  abi: Interface,
  created: readonly Address[],
  artifacts: readonly TestContractArtifact[],
): Promise<{ targets: Target[]; senders: Address[] }> {
  const read = async (name: string): Promise<unknown[] | undefined> => {
    const fn = abi.getFunction(name);
    if (fn === null || fn.inputs.length > 0) return undefined;
    const r = await vm.call(TEST_SENDER, test, getBytes(abi.encodeFunctionData(fn)));
    if (!r.success) return undefined;
    return abi.decodeFunctionResult(fn, r.returnValue).toArray(true)[0] as unknown[];
  };
  const excluded = new Set(((await read("excludeContracts")) ?? []).map((a) => String(a).toLowerCase()));
  const selectors = ((await read("targetSelectors")) ?? []) as Array<[string, string[]]>;
  const listed = ((await read("targetContracts")) ?? []).map((a) => String(a));
  const addresses = listed.length > 0 ? listed : [...selectors.map(([a]) => a), ...created.map((a) => a.toString())];
  const targets: Target[] = [];
  for (const a of [...new Set(addresses.map((x) => getAddress(x)))]) {
    if (excluded.has(a.toLowerCase()) || a.toLowerCase() === test.toString()) continue;
    const address = new Address(hexToBytes(a as `0x${string}`));
    const code = await vm.vm.stateManager.getCode(address);
    const only = selectors.filter(([s]) => getAddress(s) === a).flatMap(([, sels]) => sels.map((x) => x.toLowerCase()));
    const artifact = artifactOf(code, only, artifacts);
    if (artifact === undefined) continue;
    const iface = new Interface(artifact.abi);
    const fns: FunctionFragment[] = [];
    iface.forEachFunction((f) => {
      if (only.length > 0 ? only.includes(f.selector) : f.stateMutability !== "view" && f.stateMutability !== "pure") fns.push(f);
    });
    if (fns.length > 0) targets.push({ address, fns });
  }
  const senders = ((await read("targetSenders")) ?? []).map((a) => new Address(hexToBytes(getAddress(String(a)) as `0x${string}`)));
  return { targets, senders };
}

/** The artifact of deployed `code`: same length, most bytes equal (immutables and metadata differ), holding `selectors`. */
function artifactOf(code: Uint8Array, selectors: string[], artifacts: readonly TestContractArtifact[]): TestContractArtifact | undefined {
  let best: { a: TestContractArtifact; score: number } | undefined;
  for (const a of artifacts) {
    if (a.deployedBytecode.length !== code.length * 2 + 2) continue;
    const iface = new Interface(a.abi);
    if (selectors.some((s) => iface.getFunction(s) === null)) continue;
    const bytes = getBytes(a.deployedBytecode);
    let same = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === code[i]) same++;
    if (best === undefined || same > best.score) best = { a, score: same };
  }
  return best?.a;
}

/** Runs one invariant function; `rewind` goes back to the state after `setUp`, `check` runs the invariant and says why it fails. */
export async function runInvariant(
  vm: TestVm,
  fn: FunctionFragment,
  name: string,
  targets: readonly Target[],
  senders: readonly Address[],
  settings: InvariantSettings,
  rewind: () => Promise<void>,
  check: Check,
): Promise<TestResult> {
  if (targets.length === 0) return { name, status: "Failure", reason: "No contracts to fuzz.", logs: [] };
  const rng = new Rng(settings.seed ^ 0x1f00n);
  for (let run = 0; run < settings.runs; run++) {
    await rewind();
    const sequence: string[] = [];
    const initial = await check(fn);
    if (initial !== undefined) return { name, status: "Failure", reason: initial, runs: run, logs: [] };
    for (let depth = 0; depth < settings.depth; depth++) {
      const target = targets[rng.below(targets.length)];
      const f = target.fns[rng.below(target.fns.length)];
      const sender = senders.length > 0 ? senders[rng.below(senders.length)] : new Address(rng.bytes(20));
      let args: unknown[];
      try {
        args = f.inputs.map((p) => randomValue(p, rng));
      } catch {
        continue;
      }
      const data = getBytes(new Interface([f]).encodeFunctionData(f, args));
      await vm.setBalance(sender, 2n ** 96n);
      const r = await vm.call(sender, target.address, data);
      vm.cheats.reset();
      sequence.push(`${sender.toString()} → ${target.address.toString()}.${f.name}(${args.map(showValue).join(", ")})${r.success ? "" : " (reverted)"}`);
      const broken = await check(fn);
      if (broken !== undefined) {
        const counterexample: Record<string, string> = {};
        sequence.forEach((s, i) => (counterexample[`call ${i + 1}`] = s));
        return { name, status: "Failure", reason: broken, runs: run + 1, counterexample, logs: [] };
      }
    }
  }
  return { name, status: "Success", runs: settings.runs, logs: [] };
}
