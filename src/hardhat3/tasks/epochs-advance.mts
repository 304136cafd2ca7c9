/** `hardhat epochs:advance --identifier ID [--count N] [--network NAME]` (or `--to-next ID`): moves a timer on by N epochs, hooks called. */
import epochsHelpersModule, { type EpochsHelpers } from "../../host/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";
import { pluginError } from "../plugin-error.mjs";

export default async function epochsAdvance(args: { identifier?: string; count: number; toNext?: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  let request: { identifier: string; count: number };
  try {
    request = epochsHelpersModule.advanceRequest(args);
  } catch (err) {
    throw pluginError((err as Error).message);
  }
  const conn = await hre.network.getOrCreate();
  const current = await (conn.epochs as EpochsHelpers).advance(request.identifier, request.count);
  console.log(`${request.identifier}: current epoch ${current}`);
}
