/**
 * The `epochs` section of a Hardhat config, the same for Hardhat 2 and 3: its user and resolved
 * forms, its checks, and the epochs module's options it gives. No Hardhat import: both hosts use it.
 */
import type { EpochInfo, EpochsOptions, EpochsProfile, Time } from "../epochs";
import { epochsModule } from "../host/lazy";
import type { InProcessNetworkUserConfig } from "./network-settings";
import type { CosmosPrecompilesOptions } from "../cosmos/precompiles";

/** A problem in the `epochs` section (each host shows it as its own plugin error). */
export class EpochsConfigError extends Error {}

export const DEFAULT_HOOK_GAS_LIMIT = 3_000_000;

/** Which tick rule the epochs module runs (docs/epochs.md, "Tick rules"). */
export type EpochsTickRule = "spec" | "evmos" | "sdk";
export type { EpochsProfile };

/**
 * One epoch record of the genesis, with the field names of the `IEpochs.EpochInfo` struct.
 * Times are Unix seconds (or RFC 3339 strings / Dates), durations seconds (or Cosmos "604800s").
 */
export interface EpochInfoUserConfig {
  identifier: string;
  duration: number | bigint | string;
  startTime?: number | bigint | string | Date;
  currentEpoch?: number | bigint | string;
  currentEpochStartTime?: number | bigint | string | Date;
  epochCountingStarted?: boolean;
  currentEpochStartHeight?: number | bigint | string;
}

/** The module's genesis state, as Cosmos's `app_state.epochs` holds it. */
export interface EpochsGenesisUserConfig {
  epochs: EpochInfoUserConfig[];
}

export interface EpochsUserConfig {
  /** Which chain the local chain behaves as: "evmos" (default) or "cosmos-evm" (docs/profiles.md). */
  profile?: EpochsProfile;
  /** Default: the profile's (Evmos: `week`, `day`; cosmos-evm: `day`, `hour`, `minute`, `week`), or `<home>/config/genesis.json` when the node has a home. */
  genesis?: EpochsGenesisUserConfig;
  /** Default: "spec" under evmos, "sdk" under cosmos-evm. */
  tickRule?: EpochsTickRule;
  /** Gas limit of each hook call; default 3,000,000. */
  hookGasLimit?: number;
  /** Hardhat 3 only: the in-process network's settings (src/host/network-settings.ts). */
  network?: InProcessNetworkUserConfig;
  /** The Cosmos precompiles (docs/cosmos-precompiles.md): `bech32: false` leaves it out, `{ prefix }` sets the chain's account prefix. */
  precompiles?: PrecompilesUserConfig;
}

export interface PrecompilesUserConfig {
  bech32?: boolean | { prefix?: string };
}

export interface EpochsConfig {
  profile: EpochsProfile;
  genesis?: EpochsGenesisUserConfig;
  /** Only when the user set one (else the profile's). */
  tickRule?: EpochsTickRule;
  hookGasLimit: number;
  network?: InProcessNetworkUserConfig;
  precompiles?: PrecompilesUserConfig;
}

/** Resolves and checks the `epochs` section; the genesis records themselves are checked at chain start. */
export function resolveEpochsConfig(user: EpochsUserConfig | undefined): EpochsConfig {
  const profile = user?.profile ?? "evmos";
  if (profile !== "evmos" && profile !== "cosmos-evm") {
    throw new EpochsConfigError(`invalid epochs.profile "${String(profile)}": expected "evmos" or "cosmos-evm"`);
  }
  const tickRule = user?.tickRule;
  if (tickRule !== undefined && tickRule !== "spec" && tickRule !== "evmos" && tickRule !== "sdk") {
    throw new EpochsConfigError(`invalid epochs.tickRule "${String(tickRule)}": expected "spec", "evmos" or "sdk"`);
  }
  const hookGasLimit = user?.hookGasLimit ?? DEFAULT_HOOK_GAS_LIMIT;
  if (!Number.isSafeInteger(hookGasLimit) || hookGasLimit <= 0) {
    throw new EpochsConfigError(`invalid epochs.hookGasLimit ${String(hookGasLimit)}: expected a positive integer`);
  }
  const genesis = user?.genesis;
  if (genesis !== undefined && (genesis === null || typeof genesis !== "object" || !Array.isArray(genesis.epochs))) {
    throw new EpochsConfigError("invalid epochs.genesis: expected { epochs: [...] }");
  }
  const precompiles = user?.precompiles;
  if (precompiles !== undefined) checkPrecompiles(precompiles);
  return {
    profile,
    genesis,
    ...(tickRule !== undefined ? { tickRule } : {}),
    hookGasLimit,
    ...(user?.network !== undefined ? { network: user.network } : {}),
    ...(precompiles !== undefined ? { precompiles } : {}),
  };
}

function checkPrecompiles(p: PrecompilesUserConfig): void {
  if (p === null || typeof p !== "object") throw new EpochsConfigError("invalid epochs.precompiles: expected { bech32?: boolean | { prefix } }");
  for (const key of Object.keys(p)) if (key !== "bech32") throw new EpochsConfigError(`invalid epochs.precompiles.${key}: this chain hosts bech32 so far (docs/cosmos-precompiles.md)`);
  const b = p.bech32;
  if (b === undefined || typeof b === "boolean") return;
  // a bech32 human-readable part: 1 to 83 characters from US-ASCII 33–126, one case
  const prefix = (b as { prefix?: unknown } | null)?.prefix;
  if (b === null || typeof b !== "object" || (prefix !== undefined && (typeof prefix !== "string" || !/^[\x21-\x7e]{1,83}$/.test(prefix) || prefix !== prefix.toLowerCase()))) {
    throw new EpochsConfigError(`invalid epochs.precompiles.bech32 ${JSON.stringify(b)}: expected true, false or { prefix: "cosmos" } (a lowercase bech32 prefix)`);
  }
}

/** The Cosmos precompiles' options from the `epochs` section (each off only when the config says so). */
export function cosmosOptionsFromConfig(cfg: EpochsConfig): CosmosPrecompilesOptions {
  const b = cfg.precompiles?.bech32;
  return { bech32: b === false ? false : typeof b === "object" ? { prefix: b.prefix } : {} };
}

function toTime(v: number | bigint | string | Date | undefined, field: string): Time | undefined {
  if (v === undefined) return undefined;
  if (v instanceof Date) return epochsModule().seconds(BigInt(Math.floor(v.getTime() / 1000)));
  if (typeof v === "bigint") return epochsModule().seconds(v);
  if (typeof v === "number") return epochsModule().seconds(BigInt(Math.floor(v)));
  if (/^-?\d+$/.test(v)) return epochsModule().seconds(BigInt(v));
  try {
    return epochsModule().parseTime(v);
  } catch (err) {
    throw new EpochsConfigError(`epochs.genesis: ${field}: ${(err as Error).message}`);
  }
}

function toInt(v: number | bigint | string | undefined): bigint {
  return v === undefined ? 0n : BigInt(v);
}

/** One genesis record of `hardhat.config.ts` (seconds, RFC 3339, Dates or Cosmos durations) → EpochInfo. */
export function epochInfoFromConfig(e: EpochInfoUserConfig, i: number): EpochInfo {
  const where = `epochs[${i}]`;
  const { parseDuration, seconds, newEpochInfo } = epochsModule();
  const duration = typeof e.duration === "string" && e.duration.endsWith("s") ? parseDuration(e.duration) : seconds(BigInt(e.duration));
  const base = newEpochInfo(e.identifier, 0n, toTime(e.startTime, `${where}.startTime`));
  return {
    ...base,
    duration,
    currentEpoch: toInt(e.currentEpoch),
    currentEpochStartTime: toTime(e.currentEpochStartTime, `${where}.currentEpochStartTime`) ?? base.currentEpochStartTime,
    epochCountingStarted: e.epochCountingStarted === true,
    currentEpochStartHeight: toInt(e.currentEpochStartHeight),
  };
}

export function epochsOptionsFromConfig(cfg: EpochsConfig): EpochsOptions {
  return {
    genesis: cfg.genesis === undefined ? undefined : { epochs: cfg.genesis.epochs.map(epochInfoFromConfig) },
    profile: cfg.profile,
    tickRule: cfg.tickRule,
    hookGasLimit: BigInt(cfg.hookGasLimit),
  };
}
