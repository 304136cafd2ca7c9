/**
 * Chai matchers on what an advance did, in the style of Hardhat's own (`.to.emit`,
 * `.revertedWithCustomError(…).withArgs(…)`), registered by each host on the project's chai:
 *
 *   await expect(epochs.advance("week")).to.callEpochHook(c, "afterEpochEnd");
 *   await expect(epochs.advance("week")).to.failEpochHook(c, "afterEpochEnd").withCustomError(c, "TooEarly").withArgs(3);
 *   await expect(epochs.advance("week")).to.failEpochHook(c).withReason("not yet");
 *   await expect(epochs.advance("week")).not.to.failEpochHook();
 *
 * The subject is the promise `epochs.advance` returned (it carries its report:
 * src/host/helpers/advance-report.ts), or a report from `epochs.advanceWithReport`, or a promise of
 * one. No chai import: the host hands its chai to `epochsChaiMatchers`.
 */
import { getAddress, isAddress } from "ethers/address";
import { type AdvanceReport, type HookCallReport, reportOf } from "./advance-report";

/** The parts of chai's plugin interface the matchers use (chai 4 and 5 alike). */
interface ChaiAssertion {
  _obj: unknown;
  then?: unknown;
  catch?: unknown;
  assert(passed: boolean, message: string, negatedMessage: string): void;
}
interface ChaiLike {
  Assertion: {
    addMethod(name: string, fn: (this: ChaiAssertion, ...args: never[]) => unknown): void;
    overwriteMethod(name: string, fn: (previous: (this: ChaiAssertion, ...args: unknown[]) => unknown) => (this: ChaiAssertion, ...args: unknown[]) => unknown): void;
  };
}
interface ChaiUtilsLike {
  flag(assertion: ChaiAssertion, key: string, value?: unknown): unknown;
}

/** What a contract argument may be: an address, or an ethers contract (its `getAddress()` / `target`). */
type ContractLike = string | { getAddress(): Promise<string> } | { target: unknown };
/** An ethers contract's interface, to decode a custom error. */
interface WithInterface {
  interface: { parseError(data: string): { name: string; args: ArrayLike<unknown> } | null };
}

type Hook = HookCallReport["hook"];
const HOOKS: readonly Hook[] = ["beforeEpochStart", "afterEpochEnd"];

/** The flag the failed calls a chain of matchers narrows down are kept under. */
const FAILED = "epochs.failedHookCalls";
/** Set when a `withCustomError` narrowed them: its decoded arguments, for `withArgs`. */
const DECODED = "epochs.decodedErrors";

async function addressOf(contract: ContractLike): Promise<string> {
  if (typeof contract === "string") {
    if (!isAddress(contract)) throw new TypeError(`not an address: ${contract}`);
    return getAddress(contract);
  }
  if ("getAddress" in contract && typeof contract.getAddress === "function") return getAddress(await contract.getAddress());
  if ("target" in contract && typeof contract.target === "string") return getAddress(contract.target);
  throw new TypeError("expected a contract (an ethers Contract) or its address");
}

function checkHook(hook: unknown): Hook | undefined {
  if (hook === undefined) return undefined;
  if (typeof hook === "string" && (HOOKS as readonly string[]).includes(hook)) return hook as Hook;
  throw new TypeError(`the hook is "beforeEpochStart" or "afterEpochEnd", not ${JSON.stringify(hook)}`);
}

/** One line per hook call of the report, for the failure messages. */
function seen(report: AdvanceReport): string {
  if (report.hooks.length === 0) return `the advance of "${report.identifier}" (blocks ${report.fromBlock}–${report.toBlock}) called no hook`;
  const calls = report.hooks.map((h) => `  ${h.contract} ${h.hook}("${h.identifier}", ${h.epoch}) ${h.success ? "succeeded" : `failed: ${h.error ?? h.reason ?? "failed"}`}`);
  return `its hook calls were:\n${calls.join("\n")}`;
}

function what(contract: string | undefined, hook: Hook | undefined): string {
  return `${contract ?? "a contract"}'s ${hook ?? "epoch hook"}`;
}

async function subjectReport(subject: unknown): Promise<AdvanceReport> {
  const report = await reportOf(subject);
  if (report === undefined) throw new TypeError("expected the promise epochs.advance(…) returned, or a report of epochs.advanceWithReport(…)");
  return report;
}

/** Makes the assertion awaitable on `p` (chai's assertions are thenables in Hardhat's async matchers). */
function awaitable(assertion: ChaiAssertion, p: Promise<unknown>): ChaiAssertion {
  assertion.then = p.then.bind(p);
  assertion.catch = p.catch.bind(p);
  return assertion;
}

/** Deep equality of a decoded argument with an expected one: numbers as bigints, addresses in any case. */
function sameArg(actual: unknown, expected: unknown): boolean {
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

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v);
}

/** The chai plugin: `chai.use(epochsChaiMatchers)`. */
export function epochsChaiMatchers(chai: ChaiLike, utils: ChaiUtilsLike): void {
  const { Assertion } = chai;

  Assertion.addMethod("callEpochHook", function (this: ChaiAssertion, contract: ContractLike, hook?: Hook) {
    const p = (async () => {
      const wanted = checkHook(hook);
      const address = await addressOf(contract);
      const report = await subjectReport(this._obj);
      const calls = report.hooks.filter((h) => h.success && h.contract === address && (wanted === undefined || h.hook === wanted));
      this.assert(
        calls.length > 0,
        `expected the advance to call ${what(address, wanted)} successfully, but ${seen(report)}`,
        `expected the advance not to call ${what(address, wanted)}, but it did in block ${calls[0]?.block}`,
      );
    })();
    return awaitable(this, p);
  });

  Assertion.addMethod("failEpochHook", function (this: ChaiAssertion, contract?: ContractLike, hook?: Hook) {
    const p = (async () => {
      const wanted = checkHook(hook);
      const address = contract === undefined ? undefined : await addressOf(contract);
      const report = await subjectReport(this._obj);
      const failed = report.hooks.filter((h) => !h.success && (address === undefined || h.contract === address) && (wanted === undefined || h.hook === wanted));
      this.assert(
        failed.length > 0,
        `expected ${what(address, wanted)} to fail in the advance, but ${seen(report)}`,
        `expected ${what(address, wanted)} not to fail in the advance, but ${seen(report)}`,
      );
      return failed;
    })();
    utils.flag(this, FAILED, p);
    return awaitable(this, p);
  });

  /** The failed calls a `failEpochHook` before it matched (it must come first, and not negated). */
  const failedCalls = (assertion: ChaiAssertion, name: string): Promise<HookCallReport[]> => {
    const failed = utils.flag(assertion, FAILED) as Promise<HookCallReport[]> | undefined;
    if (failed === undefined) throw new Error(`.${name}(…) follows .failEpochHook(…)`);
    if (utils.flag(assertion, "negate") === true) throw new Error(`.${name}(…) cannot follow .not.failEpochHook(…): assert what did fail`);
    return failed;
  };

  Assertion.addMethod("withCustomError", function (this: ChaiAssertion, contract: WithInterface, name: string) {
    const failed = failedCalls(this, "withCustomError");
    const p = failed.then((calls) => {
      const decoded: Array<ArrayLike<unknown>> = [];
      const names: string[] = [];
      for (const c of calls) {
        const error = c.revertData === undefined ? null : contract.interface.parseError(c.revertData);
        names.push(error?.name ?? c.reason ?? "no revert data");
        if (error?.name === name) decoded.push(error.args);
      }
      this.assert(decoded.length > 0, `expected the failed hook to revert with custom error ${name}, but it reverted with ${names.join(", ")}`, `expected the failed hook not to revert with custom error ${name}`);
      return decoded;
    });
    utils.flag(this, DECODED, p);
    return awaitable(this, p);
  });

  Assertion.addMethod("withReason", function (this: ChaiAssertion, reason: string) {
    const p = failedCalls(this, "withReason").then((calls) => {
      const reasons = calls.map((c) => c.reason ?? "");
      this.assert(
        reasons.some((r) => r === `execution reverted: ${reason}`),
        `expected the failed hook to revert with reason ${show(reason)}, but: ${reasons.join(", ")}`,
        `expected the failed hook not to revert with reason ${show(reason)}`,
      );
    });
    return awaitable(this, p);
  });

  // Hardhat's chai matchers have a withArgs of their own (after .emit and .revertedWithCustomError): ours
  // answers only after withCustomError, and hands every other use to theirs
  Assertion.overwriteMethod("withArgs", (previous) =>
    function (this: ChaiAssertion, ...expected: unknown[]) {
      const decodedErrors = utils.flag(this, DECODED) as Promise<Array<ArrayLike<unknown>>> | undefined;
      if (decodedErrors === undefined) return previous.apply(this, expected);
      const p = decodedErrors.then((all) => {
        const match = all.some((args) => args.length === expected.length && Array.from(args).every((a, i) => sameArg(a, expected[i])));
        this.assert(
          match,
          `expected the custom error's arguments to be ${show(expected)}, but they were ${all.map((a) => show(Array.from(a))).join(", ")}`,
          `expected the custom error's arguments not to be ${show(expected)}`,
        );
      });
      return awaitable(this, p);
    },
  );
}
