/** `hardhat epochs:list [--network NAME]`: the chain's epochs, in-process or from a node. */
import epochsTableModule from "../../host/epochs-table.js";
import type { EpochsHelpers } from "../../host/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";

export default async function epochsList(_args: Record<string, unknown>, hre: HardhatRuntimeEnvironment): Promise<void> {
  const conn = await hre.network.getOrCreate();
  console.log(epochsTableModule.epochsTable(await (conn.epochs as EpochsHelpers).all()));
}
