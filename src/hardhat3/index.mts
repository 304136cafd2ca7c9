/**
 * hardhat-epochs for Hardhat 3: the plugin object users list in `plugins` (the package's `import`
 * entry; Hardhat 2 loads the CommonJS entry, src/index.ts). Both run the same chain, RPC and epochs
 * module; this host only wires them into Hardhat 3's hooks and tasks (docs/hardhat3.md).
 */
import chainFlagsModule from "../host/settings/chain-flags.js";
import type { HardhatConfigModule, HardhatPlugin, TaskBuilder } from "./shared/hardhat3-api.mjs";
import { jsonRpcOptions } from "./tasks/node-flags.mjs";

// "hardhat/config" is the user's Hardhat 3, loaded when Hardhat loads this plugin (a variable
// specifier: this repository's own `hardhat` is 2.x, whose types would not match; see hardhat3-api.mts)
const HARDHAT_CONFIG = "hardhat/config";
const { task, overrideTask } = (await import(HARDHAT_CONFIG)) as HardhatConfigModule;

/** The node's own options beside Evmos's json-rpc flags (undefined = not given), as on Hardhat 2. */
const NODE_OPTIONS: Array<[string, string]> = [
  ["home", "Node home directory (like evmosd --home): config/, data/, keystore/"],
  ["minimumGasPrices", 'Minimum gas price, Cosmos form (e.g. "20aevmos")'],
  ["profile", 'The chain this node behaves as: "evmos" (default) or "cosmos-evm" (docs/profiles.md); chosen once per chain'],
  ["state", "Saved state (Anvil's): load FILE at start when it exists, write it at exit"],
  ["loadState", "Load a state dump (Anvil's format or ours) at start"],
  ["dumpState", "Write the state (Anvil's format plus the epochs records) to FILE at exit"],
  ["stateInterval", "With --state or --dump-state: also write the state every S seconds"],
  ["forkRest", "With --fork: the remote's REST endpoint; the epochs genesis is its epochs at the fork block"],
];

/** Anvil's chain flags (src/host/settings/chain-flags.ts) but --chain-id, which Hardhat's node task has. */
const ANVIL_OPTIONS: Array<[string, string]> = chainFlagsModule.CHAIN_FLAGS.filter((f) => f.name !== "chainId").map((f) => [f.name, f.description]);

const NODE_DESCRIPTION = "Starts the epochs chain (hardhat-epochs) with HTTP and WebSocket JSON-RPC servers, in place of Hardhat Network's node; --chain-id applies, --chain-type does not";

/** keys:new, keys:import, keys:list on a node home's key store (src/host/helpers/key-tasks.ts). */
function keyTasks(): ReturnType<TaskBuilder["build"]>[] {
  const keyOptions = (t: TaskBuilder): TaskBuilder =>
    t
      .addOption({ name: "home", description: "The node's home directory (as for `hardhat node --home`); keys go to DIR/keystore", type: "STRING", defaultValue: "" })
      .addOption({ name: "passphraseFile", description: "A file whose first line is the passphrase (else a prompt that does not echo)", type: "STRING", defaultValue: "" })
      .addFlag({ name: "lightKdf", description: "Use geth's light scrypt parameters (fast to unlock, weaker): for throwaway keys" });
  return [
    keyOptions(task("keys:new", "Creates a key in the home's key store, encrypted with a passphrase"))
      .setAction(() => import("./tasks/keys-new.mjs"))
      .build(),
    keyOptions(task("keys:import", "Imports a hex private key into the home's key store, encrypted with a passphrase"))
      .addOption({ name: "keyFile", description: "A file holding the hex private key (geth's `account import` form); else a prompt that does not echo", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/keys-import.mjs"))
      .build(),
    task("keys:list", "Lists the accounts of the home's key store")
      .addOption({ name: "home", description: "The node's home directory; its key store is DIR/keystore", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/keys-list.mjs"))
      .build(),
  ];
}

const plugin: HardhatPlugin = {
  id: "hardhat-epochs",
  npmPackage: "hardhat-epochs",
  hookHandlers: {
    config: () => import("./hooks/config.mjs"),
    network: () => import("./hooks/network.mjs"),
  },
  tasks: [
    task("epochs:list", "Lists the epochs timers (EpochInfos)")
      .addOption({ name: "rest", description: "A chain's REST endpoint (e.g. http://localhost:1317) instead of a network", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/epochs-list.mjs"))
      .build(),
    task("epochs:current", "Prints the current epoch of one timer")
      .addOption({ name: "identifier", description: "The timer's identifier, e.g. week or day", type: "STRING", defaultValue: "" })
      .addOption({ name: "rest", description: "A chain's REST endpoint (Evmos's or the Cosmos SDK's paths) instead of a network", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/epochs-current.mjs"))
      .build(),
    task("epochs:advance", "Moves the chain's time and mines until a timer's current epoch ended and the next started (hooks called), N times")
      .addOption({ name: "identifier", description: "The timer's identifier, e.g. week or day", type: "STRING_WITHOUT_DEFAULT", defaultValue: undefined })
      .addOption({ name: "count", description: "How many epochs to advance", type: "INT", defaultValue: 1 })
      .addOption({ name: "toNext", description: "A timer to move to the start of its next epoch (--identifier ID --count 1)", type: "STRING_WITHOUT_DEFAULT", defaultValue: undefined })
      .setAction(() => import("./tasks/epochs-advance.mjs"))
      .build(),
    task("epochs:export-genesis", "Writes the chain now as a Cosmos genesis.json (epochs, modules, balances, contracts) that a new node starts from")
      .addOption({ name: "out", description: "The file to write", type: "STRING", defaultValue: "" })
      .setAction(() => import("./tasks/epochs-export-genesis.mjs"))
      .build(),
    ...keyTasks(),
    // Solidity tests on the epochs chain when the project sets `epochs.solidityTests` (else Hardhat's own runner)
    overrideTask(["test", "solidity"])
      .setAction(() => import("./tasks/test-solidity.mjs"))
      .build(),
    // Hardhat's node serves EDR only; this one serves the epochs chain (Hardhat's options stay: --chain-type is refused)
    [...jsonRpcOptions(), ...[...NODE_OPTIONS, ...ANVIL_OPTIONS].map(([name, description]) => ({ name, description, type: "STRING_WITHOUT_DEFAULT", defaultValue: undefined }))]
      .reduce<TaskBuilder>((t, option) => t.addOption(option), overrideTask("node").setDescription(NODE_DESCRIPTION))
      .addFlag({ name: "quiet", description: "Print only errors (failed transactions and hooks) besides the banner" })
      .addFlag({ name: "verbose", description: "Also print each request's parameters and each call's result" })
      .setAction(() => import("./tasks/node.mjs"))
      .build(),
  ],
};

export default plugin;
