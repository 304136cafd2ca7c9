/** `hardhat epochs:list [--network NAME | --rest URL]`: the chain's epochs, in-process, from a node or from a chain's REST endpoint. */
import epochsTableModule from "../../host/helpers/epochs-table.js";
import type { EpochsHelpers } from "../../host/helpers/epochs-helpers.js";
import epochsRestModule from "../../host/helpers/epochs-rest.js";
import type { HardhatRuntimeEnvironment } from "../shared/hardhat3-api.mjs";
import { asPluginError } from "../shared/plugin-error.mjs";

export default async function epochsList(args: { rest: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  const epochs =
    args.rest !== ""
      ? await epochsRestModule.restEpochs(args.rest).catch((err: unknown) => {
          throw asPluginError(err);
        })
      : await ((await hre.network.getOrCreate()).epochs as EpochsHelpers).all();
  console.log(epochsTableModule.epochsTable(epochs));
}
