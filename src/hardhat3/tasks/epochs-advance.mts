/** `hardhat epochs:advance --identifier ID [--count N] [--network NAME]`: moves a timer on by N epochs, hooks called. */
import type { EpochsHelpers } from "../../host/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";
import { pluginError } from "../plugin-error.mjs";

export default async function epochsAdvance(args: { identifier: string; count: number }, hre: HardhatRuntimeEnvironment): Promise<void> {
  if (args.identifier === "") throw pluginError("epochs:advance needs --identifier ID (e.g. week or day)");
  if (!Number.isSafeInteger(args.count) || args.count < 1) throw pluginError(`--count must be a positive integer, got ${args.count}`);
  const conn = await hre.network.getOrCreate();
  const current = await (conn.epochs as EpochsHelpers).advance(args.identifier, args.count);
  console.log(`${args.identifier}: current epoch ${current}`);
}
