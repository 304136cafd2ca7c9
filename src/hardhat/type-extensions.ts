/**
 * Hardhat config and runtime types this plugin adds: the `epochs` section (user and resolved forms)
 * and `hre.epochsProvider`, the in-process chain behind `hre.network.provider` on the hardhat network.
 */
import "hardhat/types/config";
import "hardhat/types/runtime";
import type { EpochsProvider } from "./provider";
import type { HardhatEpochs } from "./epochs";

import type { EpochsConfig, EpochsUserConfig } from "../host/settings/epochs-config";

export type { AdvanceReport, EpochTickReport, HookCallReport } from "../host/helpers/advance-report";
export type { EpochInfoUserConfig, EpochsConfig, EpochsGenesisUserConfig, EpochsTickRule, EpochsUserConfig } from "../host/settings/epochs-config";

declare module "hardhat/types/config" {
  interface HardhatUserConfig {
    epochs?: EpochsUserConfig;
  }

  interface HardhatConfig {
    epochs: EpochsConfig;
  }
}

declare module "hardhat/types/runtime" {
  interface HardhatRuntimeEnvironment {
    /**
     * The in-process chain's provider when the network is `hardhat` (the same object as
     * `hre.network.provider`); undefined on other networks. Its chain is built on first use.
     */
    epochsProvider?: EpochsProvider;
    /** Epoch queries and test helpers: all, get, current, advance, registerHooks, blockEvents, on… hooks. */
    epochs: HardhatEpochs;
  }
}

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
