/**
 * What each profile's chain calls its coin and its addresses: light (no imports beyond a type), so
 * the settings read at plugin load (src/host/app-config.ts) share them with the modules.
 */
import type { EpochsProfile } from "../epochs/types";

/** The native coin's bank denom (18 decimals, the EVM balance): Evmos's `aevmos`, evmd's `atest`. */
export const PROFILE_DENOM: Readonly<Record<EpochsProfile, string>> = { evmos: "aevmos", "cosmos-evm": "atest" };

/** The account prefix of each profile's chain. */
export const PROFILE_BECH32_PREFIX: Readonly<Record<EpochsProfile, string>> = { evmos: "evmos", "cosmos-evm": "cosmos" };
