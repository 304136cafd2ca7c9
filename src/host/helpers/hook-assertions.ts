/**
 * What an advance's hook calls are checked against, for any test framework: the chai matchers
 * (src/host/helpers/epochs-matchers.ts) and the node:test assertions on `epochs.assertions`
 * (`EpochHookAssertions`, in the style of hardhat-viem-assertions: a promise in, a failed
 * assertion thrown with what the advance did). A contract is an address, an ethers contract
 * (`getAddress()` / `target`) or a viem contract (`address`, and its `abi` to decode a custom error).
 */
import { AssertionError } from "node:assert";
import { Interface } from "ethers/abi";
import { getAddress, isAddress } from "ethers/address";
import { type AdvanceReport, type HookCallReport, reportOf } from "./advance-report";

/** A contract argument: an address, an ethers contract, or a viem contract. */
export type ContractLike = string | { getAddress(): Promise<string> } | { target: unknown } | { address: string };
/** What decodes a custom error: an ethers contract (its `interface`) or a viem contract (its `abi`). */
export type ErrorDecoder = { interface: { parseError(data: string): { name: string; args: ArrayLike<unknown> } | null } } | { abi: readonly unknown[] };

type Hook = HookCallReport["hook"];
const HOOKS: readonly Hook[] = ["beforeEpochStart", "afterEpochEnd"];

export async function addressOf(contract: ContractLike): Promise<string> {
  if (typeof contract === "string") {
    if (!isAddress(contract)) throw new TypeError(`not an address: ${contract}`);
    return getAddress(contract);
  }
  if ("getAddress" in contract && typeof contract.getAddress === "function") return getAddress(await contract.getAddress());
  if ("target" in contract && typeof contract.target === "string") return getAddress(contract.target);
  if ("address" in contract && typeof contract.address === "string" && isAddress(contract.address)) return getAddress(contract.address);
  throw new TypeError("expected a contract (an ethers or viem contract) or its address");
}

export function checkHook(hook: unknown): Hook | undefined {
  if (hook === undefined) return undefined;
  if (typeof hook === "string" && (HOOKS as readonly string[]).includes(hook)) return hook as Hook;
  throw new TypeError(`the hook is "beforeEpochStart" or "afterEpochEnd", not ${JSON.stringify(hook)}`);
}

/** The report of an advance: the promise `epochs.advance` returned, a report, or a promise of one. */
export async function subjectReport(subject: unknown): Promise<AdvanceReport> {
  const report = await reportOf(subject);
  if (report === undefined) throw new TypeError("expected the promise epochs.advance(…) returned, or a report of epochs.advanceWithReport(…)");
  return report;
}

/** One line per hook call of the report, for the failure messages. */
export function seen(report: AdvanceReport): string {
  if (report.hooks.length === 0) return `the advance of "${report.identifier}" (blocks ${report.fromBlock}–${report.toBlock}) called no hook`;
  const calls = report.hooks.map((h) => `  ${h.contract} ${h.hook}("${h.identifier}", ${h.epoch}) ${h.success ? "succeeded" : `failed: ${h.error ?? h.reason ?? "failed"}`}`);
  return `its hook calls were:\n${calls.join("\n")}`;
}

export function what(contract: string | undefined, hook: Hook | undefined): string {
  return `${contract ?? "a contract"}'s ${hook ?? "epoch hook"}`;
}

/** The calls of the report to `address` (any contract when undefined) and `hook` (either when undefined) that succeeded or failed. */
export function callsOf(report: AdvanceReport, success: boolean, address: string | undefined, hook: Hook | undefined): HookCallReport[] {
  return report.hooks.filter((h) => h.success === success && (address === undefined || h.contract === address) && (hook === undefined || h.hook === hook));
}

/** The failed calls' custom errors as `decoder` decodes them: those named `name`, with every name seen (for the message). */
export function customErrors(calls: readonly HookCallReport[], decoder: ErrorDecoder, name: string): { matching: Array<ArrayLike<unknown>>; names: string[] } {
  const parse = "interface" in decoder ? (data: string) => decoder.interface.parseError(data) : abiDecoder(decoder.abi);
  const matching: Array<ArrayLike<unknown>> = [];
  const names: string[] = [];
  for (const c of calls) {
    const error = c.revertData === undefined ? null : parse(c.revertData);
    names.push(error?.name ?? c.reason ?? "no revert data");
    if (error?.name === name) matching.push(error.args);
  }
  return { matching, names };
}

/** A viem contract's ABI as a custom-error decoder (ethers reads the same JSON ABI). */
function abiDecoder(abi: readonly unknown[]): (data: string) => { name: string; args: ArrayLike<unknown> } | null {
  const iface = new Interface(abi as never);
  return (data) => {
    try {
      return iface.parseError(data);
    } catch {
      return null;
    }
  };
}

/** Deep equality of a decoded argument with an expected one: numbers as bigints, addresses in any case. */
export function sameArg(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "bigint") {
    if (typeof expected === "bigint") return actual === expected;
    if (typeof expected === "number" && Number.isSafeInteger(expected)) return actual === BigInt(expected);
    if (typeof expected === "string" && /^-?\d+$/.test(expected)) return actual === BigInt(expected);
    return false;
  }
  if (typeof actual === "string" && typeof expected === "string" && isAddress(actual) && isAddress(expected)) return getAddress(actual) === getAddress(expected);
  if (actual !== null && typeof actual === "object" && "length" in actual && Array.isArray(expected)) {
    const list = Array.from(actual as ArrayLike<unknown>);
    return list.length === expected.length && list.every((a, i) => sameArg(a, expected[i]));
  }
  return actual === expected;
}

export function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v);
}

/** True when one call's revert reason is `reason` (`execution reverted: <reason>`, the chain's words). */
export function hasReason(calls: readonly HookCallReport[], reason: string): boolean {
  return calls.some((c) => c.reason === `execution reverted: ${reason}`);
}

const fail = (message: string): never => {
  throw new AssertionError({ message, operator: "epochs" });
};

/**
 * Assertions on what an advance did, for node:test (or any runner) and viem, as hardhat-viem-assertions
 * asserts events and reverts: each takes the promise `epochs.advance(…)` returned (or a report) and
 * throws node's AssertionError, with the advance's hook calls in its message, when it does not hold.
 *
 *   await epochs.assertions.hookCalled(epochs.advance("week"), counter, "afterEpochEnd");
 *   await epochs.assertions.hookFailedWithCustomError(epochs.advance("week"), vault, "TooEarly", [3n]);
 */
export class EpochHookAssertions {
  /** A hook of `contract` was called and succeeded (`hook` either when left out). */
  async hookCalled(advance: unknown, contract: ContractLike, hook?: Hook): Promise<void> {
    // the advance first, whatever else is wrong: it never goes on mining behind a failed assertion
    const report = await subjectReport(advance);
    const wanted = checkHook(hook);
    const address = await addressOf(contract);
    if (callsOf(report, true, address, wanted).length === 0) fail(`expected the advance to call ${what(address, wanted)} successfully, but ${seen(report)}`);
  }

  /** No hook (of `contract`, when given) failed. */
  async noHookFailed(advance: unknown, contract?: ContractLike, hook?: Hook): Promise<void> {
    const report = await subjectReport(advance);
    const wanted = checkHook(hook);
    const address = contract === undefined ? undefined : await addressOf(contract);
    if (callsOf(report, false, address, wanted).length > 0) fail(`expected ${what(address, wanted)} not to fail in the advance, but ${seen(report)}`);
  }

  /** A hook (of `contract`, when given) failed; its failed calls. */
  async hookFailed(advance: unknown, contract?: ContractLike, hook?: Hook): Promise<HookCallReport[]> {
    const report = await subjectReport(advance);
    const wanted = checkHook(hook);
    const address = contract === undefined ? undefined : await addressOf(contract);
    const failed = callsOf(report, false, address, wanted);
    if (failed.length === 0) fail(`expected ${what(address, wanted)} to fail in the advance, but ${seen(report)}`);
    return failed;
  }

  /** A hook of `contract` failed with `Error(reason)` (`require(…, reason)`). */
  async hookFailedWith(advance: unknown, contract: ContractLike, reason: string): Promise<void> {
    const failed = await this.hookFailed(advance, contract);
    if (!hasReason(failed, reason)) fail(`expected the failed hook to revert with reason ${show(reason)}, but: ${failed.map((c) => c.reason ?? "").join(", ")}`);
  }

  /** A hook of `contract` failed with its custom error `name` (decoded by the contract's ABI), with `args` when given. */
  async hookFailedWithCustomError(advance: unknown, contract: ContractLike & ErrorDecoder, name: string, args?: readonly unknown[]): Promise<void> {
    const failed = await this.hookFailed(advance, contract);
    const { matching, names } = customErrors(failed, contract, name);
    if (matching.length === 0) fail(`expected the failed hook to revert with custom error ${name}, but it reverted with ${names.join(", ")}`);
    if (args === undefined) return;
    if (!matching.some((a) => a.length === args.length && Array.from(a).every((x, i) => sameArg(x, args[i])))) {
      fail(`expected the custom error's arguments to be ${show(args)}, but they were ${matching.map((a) => show(Array.from(a))).join(", ")}`);
    }
  }
}
