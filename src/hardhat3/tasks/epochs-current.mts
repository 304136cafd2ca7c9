/** `hardhat epochs:current --identifier ID [--network NAME]`: the current epoch of one timer. */
import type { EpochsHelpers } from "../../host/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";

export default async function epochsCurrent(args: { identifier: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  if (args.identifier === "") throw new Error("hardhat-epochs: epochs:current needs --identifier ID (e.g. week or day)");
  const conn = await hre.network.getOrCreate();
  console.log(`${args.identifier}: current epoch ${await (conn.epochs as EpochsHelpers).current(args.identifier)}`);
}
