/** The REST readers of src/host/epochs-rest.ts, failing with Hardhat 2's plugin error. */
import { HardhatPluginError } from "hardhat/plugins";
import type { EpochInfo } from "../epochs";
import { EpochsRestError, restCurrentEpoch as currentEpoch, restEpochs as epochs } from "../host/epochs-rest";
import { PLUGIN_NAME } from "./chain-config";

async function asPluginError<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof EpochsRestError) throw new HardhatPluginError(PLUGIN_NAME, err.message);
    throw err;
  }
}

export const restEpochs = (base: string, height?: bigint): Promise<EpochInfo[]> => asPluginError(epochs(base, height));
export const restCurrentEpoch = (base: string, identifier: string): Promise<bigint> => asPluginError(currentEpoch(base, identifier));
