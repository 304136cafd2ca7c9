/**
 * The hook matchers' types (src/host/helpers/epochs-matchers.ts) on chai's own namespace, as Hardhat's
 * chai matchers extend it: imported by both hosts' type extensions (no Hardhat import here).
 */
/** What `callEpochHook` and the matchers after it return: awaited, they pass or throw (src/host/helpers/epochs-matchers.ts). */
export type EpochHookAssertion = Promise<void>;

/** `failEpochHook(…)`, which the failure's details may follow. */
export interface FailedEpochHookAssertion extends Promise<void> {
  /** The failed hook reverted with `contract`'s custom error `name`. */
  withCustomError(contract: unknown, name: string): EpochHookCustomErrorAssertion;
  /** The failed hook reverted with `require`'s / `revert`'s reason string. */
  withReason(reason: string): EpochHookAssertion;
}

export interface EpochHookCustomErrorAssertion extends Promise<void> {
  /** The custom error's arguments (numbers as bigints, addresses in any case). */
  withArgs(...args: unknown[]): EpochHookAssertion;
}

declare global {
  // chai's own namespace (@types/chai), as Hardhat's chai matchers extend it
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    interface Assertion {
      /** The advance called `contract`'s hook (either, or the one named) and it succeeded. */
      callEpochHook(contract: unknown, hook?: "beforeEpochStart" | "afterEpochEnd"): EpochHookAssertion;
      /** A hook (of `contract`, of the named kind, when given) failed in the advance. */
      failEpochHook(contract?: unknown, hook?: "beforeEpochStart" | "afterEpochEnd"): FailedEpochHookAssertion;
    }
  }
}
