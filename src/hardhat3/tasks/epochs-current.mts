/** `hardhat epochs:current --identifier ID [--network NAME | --rest URL]`: the current epoch of one timer. */
import type { EpochsHelpers } from "../../host/helpers/epochs-helpers.js";
import epochsRestModule from "../../host/helpers/epochs-rest.js";
import type { HardhatRuntimeEnvironment } from "../shared/hardhat3-api.mjs";
import { asPluginError, pluginError } from "../shared/plugin-error.mjs";

export default async function epochsCurrent(args: { identifier: string; rest: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  if (args.identifier === "") throw pluginError("epochs:current needs --identifier ID (e.g. week or day)");
  let current: bigint;
  if (args.rest !== "") {
    current = await epochsRestModule.restCurrentEpoch(args.rest, args.identifier).catch((err: unknown) => {
      throw asPluginError(err);
    });
  } else {
    const conn = await hre.network.getOrCreate();
    current = await (conn.epochs as EpochsHelpers).current(args.identifier);
  }
  console.log(`${args.identifier}: current epoch ${current}`);
}
