/** `hardhat epochs:export-genesis --out FILE [--network NAME]`: the chain now as a Cosmos genesis.json that a new node starts from. */
import type { EpochsHelpers } from "../../host/helpers/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../shared/hardhat3-api.mjs";
import { pluginError } from "../shared/plugin-error.mjs";

export default async function epochsExportGenesis(args: { out: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  if (args.out === "") throw pluginError("epochs:export-genesis needs --out FILE");
  const conn = await hre.network.getOrCreate();
  let doc: { chain_id: string; app_state: { epochs: { epochs: unknown[] }; evm?: { accounts: unknown[] } } };
  try {
    doc = (await (conn.epochs as EpochsHelpers).exportGenesis(args.out)) as typeof doc;
  } catch (err) {
    throw pluginError((err as Error).message);
  }
  console.log(`wrote ${doc.chain_id}'s genesis (${doc.app_state.epochs.epochs.length} epochs, ${doc.app_state.evm?.accounts.length ?? 0} contracts) to ${args.out}`);
}
