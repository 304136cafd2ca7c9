/**
 * The epochs side of the Hardhat 2 plugin: `epochs` config → the module's options, and `hre.epochs`
 * (src/host/epochs-helpers.ts) over the network's provider.
 */
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { HardhatPluginError } from "hardhat/plugins";
import type { RuntimeOptions } from "../rpc/runtime";
import { PLUGIN_NAME } from "./chain-config";
import { EpochsHelpers } from "../host/epochs-helpers";
import { epochsOptionsFromConfig } from "../host/epochs-config";

export { epochInfoFromConfig, epochsOptionsFromConfig } from "../host/epochs-config";
export type { BlockEventsJson } from "../host/epochs-helpers";

/** Adds the epochs module to a runtime's options (genesis from the config unless the home's genesis.json gave one). */
export function withEpochs(opts: RuntimeOptions, hre: HardhatRuntimeEnvironment): RuntimeOptions {
  if (opts.epochs !== undefined) return opts;
  return { ...opts, epochs: epochsOptionsFromConfig(hre.config.epochs) };
}

/** `hre.epochs`. */
export class HardhatEpochs extends EpochsHelpers {
  constructor(hre: HardhatRuntimeEnvironment) {
    super({
      request: (args) => hre.network.provider.request(args),
      inProcess: () => hre.epochsProvider?.runtime(),
      fail: (message) => new HardhatPluginError(PLUGIN_NAME, message),
    });
  }
}
