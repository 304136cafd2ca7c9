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
 * one. Contracts are ethers or viem contracts or addresses (src/host/helpers/hook-assertions.ts, the checks
 * the node:test assertions share). No chai import: the host hands its chai to `epochsChaiMatchers`.
 */
import type { HookCallReport } from "./advance-report";
import { type ContractLike, type ErrorDecoder, addressOf, callsOf, checkHook, customErrors, hasReason, sameArg, seen, show, subjectReport, what } from "./hook-assertions";

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

type Hook = HookCallReport["hook"];

/** The flag the failed calls a chain of matchers narrows down are kept under. */
const FAILED = "epochs.failedHookCalls";
/** Set when a `withCustomError` narrowed them: its decoded arguments, for `withArgs`. */
const DECODED = "epochs.decodedErrors";

/** Makes the assertion awaitable on `p` (chai's assertions are thenables in Hardhat's async matchers). */
function awaitable(assertion: ChaiAssertion, p: Promise<unknown>): ChaiAssertion {
  assertion.then = p.then.bind(p);
  assertion.catch = p.catch.bind(p);
  return assertion;
}

/**
 * The chai plugin: `chai.use(epochsChaiMatchers)`.
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function epochsChaiMatchers(chai: ChaiLike, utils: ChaiUtilsLike): void {
  const { Assertion } = chai;

  Assertion.addMethod("callEpochHook", function (this: ChaiAssertion, contract: ContractLike, hook?: Hook) {
    const p = (async () => {
      // the advance first, whatever else is wrong: it never goes on mining behind a failed assertion
      const report = await subjectReport(this._obj);
      const wanted = checkHook(hook);
      const address = await addressOf(contract);
      const calls = callsOf(report, true, address, wanted);
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
      const report = await subjectReport(this._obj);
      const wanted = checkHook(hook);
      const address = contract === undefined ? undefined : await addressOf(contract);
      const failed = callsOf(report, false, address, wanted);
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

  Assertion.addMethod("withCustomError", function (this: ChaiAssertion, contract: ErrorDecoder, name: string) {
    const failed = failedCalls(this, "withCustomError");
    const p = failed.then((calls) => {
      const { matching: decoded, names } = customErrors(calls, contract, name);
      this.assert(
        decoded.length > 0,
        `expected the failed hook to revert with custom error ${name}, but it reverted with ${names.join(", ")}`,
        `expected the failed hook not to revert with custom error ${name}`,
      );
      return decoded;
    });
    utils.flag(this, DECODED, p);
    return awaitable(this, p);
  });

  Assertion.addMethod("withReason", function (this: ChaiAssertion, reason: string) {
    const p = failedCalls(this, "withReason").then((calls) => {
      const reasons = calls.map((c) => c.reason ?? "");
      this.assert(
        hasReason(calls, reason),
        `expected the failed hook to revert with reason ${show(reason)}, but: ${reasons.join(", ")}`,
        `expected the failed hook not to revert with reason ${show(reason)}`,
      );
    });
    return awaitable(this, p);
  });

  // Hardhat's chai matchers have a withArgs of their own (after .emit and .revertedWithCustomError): ours
  // answers only after withCustomError, and hands every other use to theirs
  Assertion.overwriteMethod(
    "withArgs",
    (previous) =>
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
