/** `hardhat epochs:advance --identifier ID [--count N] [--network NAME]` (or `--to-next ID`): moves a timer on by N epochs, hooks called. */
import epochsHelpersModule, { type EpochsHelpers } from "../../host/helpers/epochs-helpers.js";
import type { HardhatRuntimeEnvironment } from "../shared/hardhat3-api.mjs";
import { withPluginErrors } from "../shared/plugin-error.mjs";
import nodeFilesModule from "../../host/node/node-files.js";
import { isInProcess } from "../hooks/network.mjs";

export default async function epochsAdvance(args: { identifier?: string; count: number; toNext?: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  const { identifier, count } = await withPluginErrors(async () => epochsHelpersModule.advanceRequest(args));
  const conn = await hre.network.getOrCreate();
  // the in-process network (the plugin's `default`) while this project's node runs: warn, `--network localhost` was most likely meant
  if (await isInProcess(conn)) {
    const warning = nodeFilesModule.inProcessWhileNodeRuns(hre.config.paths.cache, "epochs:advance");
    if (warning !== undefined) console.warn(warning);
  }
  const current = await (conn.epochs as EpochsHelpers).advance(identifier, count);
  console.log(`${identifier}: current epoch ${current}`);
}
