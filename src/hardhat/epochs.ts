/**
 * The epochs side of the Hardhat 2 plugin: `epochs` config → the module's options, and `hre.epochs`
 * (src/host/helpers/epochs-helpers.ts) over the network's provider.
 */
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { HardhatPluginError } from "hardhat/plugins";
import type { RuntimeOptions } from "../app/runtime";
import { PLUGIN_NAME } from "./chain-config";
import { EpochsHelpers } from "../host/helpers/epochs-helpers";
import { cosmosOptionsFromConfig, epochsOptionsFromConfig } from "../host/settings/epochs-config";

/** Adds the epochs module (genesis from the config unless the home's genesis.json gave one) and the Cosmos precompiles to a runtime's options. */
export function withEpochs(opts: RuntimeOptions, hre: HardhatRuntimeEnvironment): RuntimeOptions {
  const cosmos = opts.cosmos ?? cosmosOptionsFromConfig(hre.config.epochs);
  if (opts.epochs !== undefined) return { ...opts, cosmos };
  return { ...opts, epochs: epochsOptionsFromConfig(hre.config.epochs), cosmos };
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
