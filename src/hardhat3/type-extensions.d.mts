/**
 * What the plugin adds to Hardhat 3's types, for projects that list it: the `epochs` config section
 * and `connection.epochs`. Shipped as written (not compiled: this repository's `hardhat` is 2.x);
 * test/package/hardhat3.test.ts type-checks a Hardhat 3 project against it.
 */
import "hardhat/types/config";
import "hardhat/types/network";
import type { EpochsConfig, EpochsUserConfig } from "../host/settings/epochs-config.js";
import type { EpochsHelpers } from "../host/helpers/epochs-helpers.js";
import "../host/helpers/epochs-matchers-types.js";

declare module "hardhat/types/config" {
  interface HardhatUserConfig {
    epochs?: EpochsUserConfig;
  }

  interface HardhatConfig {
    epochs: EpochsConfig;
  }
}

declare module "hardhat/types/network" {
  // the type parameter must repeat Hardhat's declaration for the interfaces to merge
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface NetworkConnection<ChainTypeT extends ChainType | string = DefaultChainType> {
    /** Epoch queries and test helpers (as `hre.epochs` on Hardhat 2): all, get, current, advance, registerHooks, blockEvents, … */
    epochs: EpochsHelpers;
  }
}
