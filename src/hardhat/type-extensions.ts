/**
 * Hardhat config and runtime types this plugin adds: the `epochs` section (user and resolved forms)
 * and `hre.epochsProvider`, the in-process chain behind `hre.network.provider` on the hardhat network.
 */
import "hardhat/types/config";
import "hardhat/types/runtime";
import type { EpochsProvider } from "./provider";
import type { HardhatEpochs } from "./epochs";

import type { EpochsConfig, EpochsUserConfig } from "../host/settings/epochs-config";
import "../host/helpers/epochs-matchers-types";

export type { AdvanceReport, EpochTickReport, HookCallReport } from "../host/helpers/advance-report";
export type { EpochHookAssertion, EpochHookCustomErrorAssertion, FailedEpochHookAssertion } from "../host/helpers/epochs-matchers-types";
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
