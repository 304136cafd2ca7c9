/**
 * The Cosmos precompiles the local chain hosts (docs/cosmos-precompiles.md). So far: bech32 at
 * 0x…0400, on by default under both profiles (Evmos v20 and cosmos/evm both have it), with the
 * profile's account prefix: `evmos` under evmos, `cosmos` under cosmos-evm (evmd's).
 */
import type { CustomPrecompile } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import type { EpochsProfile } from "../epochs/types";
import { BECH32_PRECOMPILE, bech32Prefixes, createBech32Precompile } from "./bech32";

export interface CosmosPrecompilesOptions {
  /** The bech32 precompile: `false` leaves it out; `prefix` is the chain's account prefix (default: the profile's). */
  bech32?: false | { prefix?: string };
}

/** The account prefix of each profile's chain. */
export const PROFILE_BECH32_PREFIX: Readonly<Record<EpochsProfile, string>> = { evmos: "evmos", "cosmos-evm": "cosmos" };

/** The native coin's bank denom (18 decimals, the EVM balance): Evmos's `aevmos`, evmd's `atest`. */
export const PROFILE_DENOM: Readonly<Record<EpochsProfile, string>> = { evmos: "aevmos", "cosmos-evm": "atest" };

/** The chain's account prefix: the bech32 precompile's setting, else the profile's. */
export function chainBech32Prefix(opts: CosmosPrecompilesOptions, profile: EpochsProfile): string {
  return (opts.bech32 === false ? undefined : opts.bech32?.prefix) ?? PROFILE_BECH32_PREFIX[profile];
}

export function cosmosPrecompiles(opts: CosmosPrecompilesOptions, profile: EpochsProfile): CustomPrecompile[] {
  const out: CustomPrecompile[] = [];
  if (opts.bech32 !== false) {
    const prefix = chainBech32Prefix(opts, profile);
    out.push({ address: createAddressFromString(BECH32_PRECOMPILE), function: createBech32Precompile(bech32Prefixes(prefix)) });
  }
  return out;
}
