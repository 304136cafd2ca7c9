/**
 * Hardhat config and runtime types this plugin adds: the `epochs` section (user and resolved forms)
 * and `hre.epochsProvider`, the in-process chain behind `hre.network.provider` on the hardhat network.
 */
import "hardhat/types/config";
import "hardhat/types/runtime";
import type { EpochsProvider } from "./provider";
import type { HardhatEpochs } from "./epochs";

/** Which tick rule the epochs module runs (docs/epochs.md, "Tick rules"). */
export type EpochsTickRule = "spec" | "evmos";

/**
 * One epoch record of the genesis, with the field names of the `IEpochs.EpochInfo` struct.
 * Times are Unix seconds (or RFC 3339 strings / Dates), durations seconds (or Cosmos "604800s").
 */
export interface EpochInfoUserConfig {
  identifier: string;
  duration: number | bigint | string;
  startTime?: number | bigint | string | Date;
  currentEpoch?: number | bigint | string;
  currentEpochStartTime?: number | bigint | string | Date;
  epochCountingStarted?: boolean;
  currentEpochStartHeight?: number | bigint | string;
}

/** The module's genesis state, as Cosmos's `app_state.epochs` holds it. */
export interface EpochsGenesisUserConfig {
  epochs: EpochInfoUserConfig[];
}

export interface EpochsUserConfig {
  /** Default: Evmos's `week` then `day` (or `<home>/config/genesis.json` when the node has a home). */
  genesis?: EpochsGenesisUserConfig;
  tickRule?: EpochsTickRule;
  /** Gas limit of each hook call; default 3,000,000. */
  hookGasLimit?: number;
}

export interface EpochsConfig {
  genesis?: EpochsGenesisUserConfig;
  tickRule: EpochsTickRule;
  hookGasLimit: number;
}

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
