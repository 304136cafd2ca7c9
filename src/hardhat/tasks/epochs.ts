/**
 * Epoch tasks: `epochs:list`, `epochs:current --identifier ID`, `epochs:advance --identifier ID
 * [--count N]` (or `--to-next ID`), `epochs:export-genesis --out FILE`. They work on the in-process chain by default, a
 * running node with `--network localhost` (any HTTP network), or — the queries — a real chain's REST
 * endpoint with `--rest URL` (Evmos's gateway paths).
 */
import { task, types } from "hardhat/config";
import { HARDHAT_NETWORK_NAME, HardhatPluginError } from "hardhat/plugins";
import { epochsTable } from "../../host/helpers/epochs-table";
import { advanceRequest } from "../../host/helpers/epochs-helpers";
import { inProcessWhileNodeRuns } from "../../host/node/node-files";

import { PLUGIN_NAME } from "../chain-config";
import { withPluginErrors } from "../plugin-error";
import { restCurrentEpoch, restEpochs } from "../epochs-rest";

const TASK_EPOCHS_LIST = "epochs:list";
const TASK_EPOCHS_CURRENT = "epochs:current";
const TASK_EPOCHS_EXPORT_GENESIS = "epochs:export-genesis";
const TASK_EPOCHS_ADVANCE = "epochs:advance";

/** A task's request to the chain, its failure (the node's or the helper's words) told as the plugin's error. */
async function onChain<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, (err as Error).message);
  }
}

task(TASK_EPOCHS_LIST, "Lists the epochs timers (EpochInfos)")
  .addOptionalParam("rest", "A chain's REST endpoint (e.g. http://localhost:1317) instead of a JSON-RPC network", undefined, types.string)
  .setAction(async ({ rest }: { rest?: string }, hre) => {
    const epochs = rest !== undefined ? await restEpochs(rest) : await hre.epochs.all();
    console.log(epochsTable(epochs));
    return epochs;
  });

task(TASK_EPOCHS_CURRENT, "Prints the current epoch of one timer")
  .addParam("identifier", "The timer's identifier, e.g. week or day", undefined, types.string)
  .addOptionalParam("rest", "A chain's REST endpoint instead of a JSON-RPC network", undefined, types.string)
  .setAction(async ({ identifier, rest }: { identifier: string; rest?: string }, hre) => {
    const current = rest !== undefined ? await restCurrentEpoch(rest, identifier) : await onChain(() => hre.epochs.current(identifier));
    console.log(`${identifier}: current epoch ${current}`);
    return current;
  });

task(TASK_EPOCHS_ADVANCE, "Moves the chain's time and mines until a timer's current epoch ended and the next started (hooks called), N times")
  .addOptionalParam("identifier", "The timer's identifier, e.g. week or day", undefined, types.string)
  .addOptionalParam("count", "How many epochs to advance", 1, types.int)
  .addOptionalParam("toNext", "A timer to move to the start of its next epoch (--identifier ID --count 1)", undefined, types.string)
  .setAction(async (args: { identifier?: string; count: number; toNext?: string }, hre) => {
    const request = withPluginErrors(() => advanceRequest(args));
    if (hre.network.name === HARDHAT_NETWORK_NAME) {
      const warning = inProcessWhileNodeRuns(hre.config.paths.cache, TASK_EPOCHS_ADVANCE);
      if (warning !== undefined) console.warn(warning);
    }
    const current = await onChain(() => hre.epochs.advance(request.identifier, request.count));
    console.log(`${request.identifier}: current epoch ${current}`);
    return current;
  });

task(TASK_EPOCHS_EXPORT_GENESIS, "Writes the chain now as a Cosmos genesis.json (epochs, modules, balances, contracts) that a new node starts from")
  .addParam("out", "The file to write", undefined, types.string)
  .setAction(async ({ out }: { out: string }, hre) => {
    const doc = (await onChain(() => hre.epochs.exportGenesis(out))) as { chain_id: string; app_state: { epochs: { epochs: unknown[] }; evm?: { accounts: unknown[] } } };
    console.log(`wrote ${doc.chain_id}'s genesis (${doc.app_state.epochs.epochs.length} epochs, ${doc.app_state.evm?.accounts.length ?? 0} contracts) to ${out}`);
  });
