/** The REST readers of src/host/helpers/epochs-rest.ts, failing with Hardhat 2's plugin error. */
import type { EpochInfo } from "../epochs";
import { restCurrentEpoch as currentEpoch, restEpochs as epochs } from "../host/helpers/epochs-rest";
import { withPluginErrors } from "./plugin-error";

export const restEpochs = (base: string, height?: bigint): Promise<EpochInfo[]> => withPluginErrors(() => epochs(base, height));
export const restCurrentEpoch = (base: string, identifier: string): Promise<bigint> => withPluginErrors(() => currentEpoch(base, identifier));
