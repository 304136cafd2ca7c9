/**
 * hardhat-epochs for Hardhat 3: the plugin object users list in `plugins` (the package's `import`
 * entry; Hardhat 2 loads the CommonJS entry, src/index.ts). Both run the same chain, RPC and epochs
 * module; this host only wires them into Hardhat 3's hooks and tasks (docs/hardhat3.md).
 */
import appConfigModule from "../host/app-config.js";
import type { HardhatConfigModule, HardhatPlugin, TaskBuilder } from "./hardhat3-api.mjs";
import { flagOptionName } from "./tasks/node-flags.mjs";

// "hardhat/config" is the user's Hardhat 3, loaded when Hardhat loads this plugin (a variable
// specifier: this repository's own `hardhat` is 2.x, whose types would not match; see hardhat3-api.mts)
const HARDHAT_CONFIG = "hardhat/config";
const { task, overrideTask } = (await import(HARDHAT_CONFIG)) as HardhatConfigModule;

const plugin: HardhatPlugin = {
  id: "hardhat-epochs",
  npmPackage: "hardhat-epochs",
  hookHandlers: {
    config: () => import("./hooks/config.mjs"),
    network: () => import("./hooks/network.mjs"),
  },
  tasks: [
    task("epochs:list", "Lists the epochs timers (EpochInfos)")
      .setAction(() => import("./tasks/epochs-list.mjs"))
      .build(),
    task("epochs:current", "Prints the current epoch of one timer")
      .addOption({ name: "identifier", description: "The timer's identifier, e.g. week or day", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/epochs-current.mjs"))
      .build(),
    task("epochs:export-genesis", "Writes a Cosmos genesis.json of the chain's epochs now, that a new node (--home) starts from")
      .addOption({ name: "out", description: "The file to write", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/epochs-export-genesis.mjs"))
      .build(),
    // Hardhat's node serves EDR only; this one serves the epochs chain (the options stay Hardhat's)
    appConfigModule.JSON_RPC_FLAGS.reduce<TaskBuilder>(
      // Evmos's dotted flags cannot pass Hardhat 3's parser: --json-rpc.ws-address is --json-rpc-ws-address here
      (t, { flag, description }) => t.addOption({ name: flagOptionName(flag), description, type: "STRING_WITHOUT_DEFAULT", defaultValue: undefined }),
      overrideTask("node").addOption({
        name: "profile",
        description: 'The chain this node behaves as: "evmos" (default) or "cosmos-evm" (docs/profiles.md)',
        type: "STRING",
        defaultValue: "",
      }),
    )
      .setAction(() => import("./tasks/node.mjs"))
      .build(),
  ],
};

export default plugin;
