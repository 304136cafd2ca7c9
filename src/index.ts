/**
 * hardhat-epochs: the plugin entry. It resolves the `epochs` config section, makes chain id 9000 the
 * hardhat network's default, serves the hardhat network from our own chain (Hardhat's EDR chain is
 * never built) and registers the tasks (offline solc, `node`).
 */
import { extendConfig, extendEnvironment } from "hardhat/config";
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import "./hardhat/type-extensions";
import "./hardhat/solc";
import "./hardhat/node-task";
import { DEFAULT_CHAIN_ID, resolveEpochsConfig } from "./hardhat/chain-config";
import { createEpochsProvider } from "./hardhat/provider";

export { EpochsProvider, EpochsProviderError, extendRuntimeOptions, runtimeOptionsFor } from "./hardhat/provider";
export type * from "./hardhat/type-extensions";

extendConfig((config, userConfig) => {
  config.epochs = resolveEpochsConfig(userConfig.epochs);
  // Hardhat has already filled in its own default (31337); ours is Evmos's local chain id unless the user chose one.
  if (userConfig.networks?.[HARDHAT_NETWORK_NAME]?.chainId === undefined) {
    config.networks[HARDHAT_NETWORK_NAME].chainId = DEFAULT_CHAIN_ID;
  }
});

extendEnvironment((hre) => {
  if (hre.network.name !== HARDHAT_NETWORK_NAME) return;
  // Replacing the lazy provider before anything asks for it means Hardhat never creates EDR.
  const provider = createEpochsProvider(hre);
  hre.network.provider = provider;
  hre.epochsProvider = provider;
});
