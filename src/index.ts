/**
 * hardhat-epochs: the plugin entry. It resolves the `epochs` config section, makes chain id 9000 the
 * hardhat network's default, serves the hardhat network from our own chain (Hardhat's EDR chain is
 * never built) and registers the tasks (offline solc, `node`).
 */
import "./hardhat/compat"; // first: a clear message when this Hardhat or Node.js cannot run the plugin
import { extendConfig, extendEnvironment } from "hardhat/config";
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import "./hardhat/type-extensions";
import "./hardhat/solc";
import "./hardhat/node-task";
import { extendEpochsConfig, followedNode } from "./hardhat/chain-config";
import { createEpochsProvider, extendRuntimeOptions } from "./hardhat/provider";
import { HardhatEpochs, withEpochs } from "./hardhat/epochs";
import { withFork } from "./hardhat/fork";
import { withProviderExtenders } from "./hardhat/provider-extenders";
import { followedNodeNote } from "./host/node/node-files";
import "./hardhat/tasks/epochs";
import "./hardhat/tasks/keys";
import "./hardhat/tasks/solidity-tests";
import "./hardhat/coverage";
import "./hardhat/chai-matchers";

export { EpochsProvider, EpochsProviderError, extendRuntimeOptions, runtimeOptionsFor } from "./hardhat/provider";
export type * from "./hardhat/type-extensions";

extendConfig(extendEpochsConfig);
extendRuntimeOptions(withEpochs);
extendRuntimeOptions(withFork);

extendEnvironment((hre) => {
  hre.epochs = new HardhatEpochs(hre);
  const followed = followedNode.get(hre.config);
  if (hre.network.name === "localhost" && followed !== undefined) console.warn(followedNodeNote(followed, hre.config.paths.cache));
  if (hre.network.name !== HARDHAT_NETWORK_NAME) return;
  // Replacing the lazy provider before anything asks for it means Hardhat never creates EDR; the
  // plugins that extend providers wrap ours instead (src/hardhat/provider-extenders.ts).
  const provider = createEpochsProvider(hre);
  hre.network.provider = withProviderExtenders(provider, hre);
  hre.epochsProvider = provider;
});

// Test suites build a fresh Hardhat environment per test (resetHardhatContext): Hardhat then drops
// the config's modules from require's cache, but the module that loaded the config keeps each old
// config module in its `children`, and through it this plugin's old copy. Leaving the children list
// of whatever required this entry lets each old copy be collected.
for (const parent of Object.values(require.cache)) {
  const i = parent?.children.indexOf(module) ?? -1;
  if (i >= 0) parent?.children.splice(i, 1);
}
