/** `hardhat epochs:export-genesis --out FILE [--network NAME]`: a Cosmos genesis.json of the chain's epochs now, that a new node (--home) starts from. */
import { writeFileSync } from "node:fs";
import epochsModule from "../../epochs/index.js";
import type { EpochsHelpers } from "../../host/helpers/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";
import { pluginError } from "../plugin-error.mjs";

export default async function epochsExportGenesis(args: { out: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  if (args.out === "") throw pluginError("epochs:export-genesis needs --out FILE");
  const conn = await hre.network.getOrCreate();
  const helpers = conn.epochs as EpochsHelpers;
  const epochs = await helpers.all();
  const chainId = BigInt((await conn.provider.request({ method: "eth_chainId" })) as string);
  const latest = (await conn.provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as { timestamp: string; number: string };
  // the new chain starts where this one is: its genesis time is the exported height's time
  // the Cosmos modules' sections (staking, bank, erc20, transfer, ibc) at the same height, when the chain has them
  const appState = await helpers.cosmos.genesisSections(latest.number);
  writeFileSync(args.out, epochsModule.toCosmosGenesis({ genesisTime: epochsModule.seconds(BigInt(latest.timestamp)), chainId, epochs, appState }));
  console.log(`wrote ${epochs.length} epochs at height ${BigInt(latest.number)} to ${args.out}`);
}
