/**
 * The `epochs` section of a Hardhat config, the same for Hardhat 2 and 3: its user and resolved
 * forms, its checks, and the epochs module's options it gives. No Hardhat import: both hosts use it.
 */
import { EpochsConfigError } from "../../utils/user-error";
import type { EpochInfo, EpochsOptions, EpochsProfile, Time } from "../../epochs";
import { epochsModule } from "../lazy";
import type { InProcessNetworkUserConfig } from "./network-settings";
import type { CosmosPrecompilesOptions } from "../../cosmos/app-settings";
import { parseFraction } from "../../cosmos/common/decimal";
import { PROFILE_NAMES, isProfile } from "../../epochs/profile";
import { safeInteger, shown, wholeNumber } from "../../utils/values";

export { EpochsConfigError };

const DEFAULT_HOOK_GAS_LIMIT = 3_000_000;

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
  /**
   * A Cosmos genesis.json (a team's `local_node.sh` one) the in-process network, and `hardhat node`
   * without `--home`, start from as `hardhat node --home` starts from its `config/genesis.json`:
   * Cosmos chain id, time, balances, epochs, validators, the modules' params (src/host/settings/genesis-file.ts).
   * Relative to the project's root.
   */
  genesisFile?: string;
  /** Default: "spec" under evmos, "sdk" under cosmos-evm. */
  tickRule?: EpochsTickRule;
  /** Gas limit of each hook call; default 3,000,000. */
  hookGasLimit?: number;
  /** Hardhat 3 only: the in-process network's settings (src/host/settings/network-settings.ts). */
  network?: InProcessNetworkUserConfig;
  /** The Cosmos precompiles (docs/cosmos-precompiles.md): `bech32: false` leaves it out, `{ prefix }` sets the chain's account prefix. */
  precompiles?: PrecompilesUserConfig;
  /**
   * Solidity tests (`.t.sol`) on the epochs chain (docs/solidity-tests.md): Hardhat 3 runs
   * `hardhat test solidity` here instead of on EDR when set; Hardhat 2's `test:solidity` reads the settings.
   */
  solidityTests?: boolean | SolidityTestsUserConfig;
}

/** Hardhat 2's settings of its Solidity tests (Hardhat 3 takes them from its own `test.solidity`). */
export interface SolidityTestsUserConfig {
  fuzz?: { runs?: number; seed?: string; maxTestRejects?: number };
  /** Invariant tests: runs (default: the fuzz runs) and calls per run (default 500). */
  invariant?: { runs?: number; depth?: number };
  /** Milliseconds one test may run; default none. */
  timeout?: number;
}

export interface PrecompilesUserConfig {
  bech32?: boolean | { prefix?: string };
  /** The staking module and precompile: on by default under cosmos-evm, off under evmos. */
  staking?: boolean | StakingUserConfig;
  /** The distribution module and precompile: on with staking unless `false`. */
  distribution?: boolean | DistributionUserConfig;
  /** The bank precompile: on with staking unless `false`. */
  bank?: boolean;
  /** The slashing precompile: on with staking unless `false`. */
  slashing?: boolean;
  /** The gov precompile (queries over proposals a test sets): on with staking unless `false`. */
  gov?: boolean;
  /** The P-256 verifier at 0x…0100 as the chains have it (3,450 gas): on under both profiles unless `false`. */
  p256?: boolean;
  /** x/erc20's token pairs (the native coin's WERC20, genesis coins): on with staking unless `false`. */
  erc20?: boolean | Erc20UserConfig;
  /** ICS20 transfers at 0x…0802 against a simulated counterparty: on with staking unless `false`; default one open channel-0. */
  ics20?: boolean | { channels?: Array<{ channelId: string; counterpartyChannelId?: string; counterpartyChainId?: string; open?: boolean }> };
}

interface Erc20UserConfig {
  /** Coins at genesis: minted to their holders; an IBC voucher (`ibc/<64 hex>`, or its path `transfer/channel-0/uatom`) is paired as an ERC-20 at its address. */
  coins?: Array<{ denom: string; name?: string; symbol?: string; decimals?: number; balances?: Record<string, bigint | number | string> }>;
}

/** A decimal as a string ("0.1") or a number; amounts in wei as a bigint, a number or a decimal string. */
interface StakingUserConfig {
  /** Default: one validator operated by the first account, 1,000 coins self-bonded. */
  validators?: Array<{ operator: string; tokens?: bigint | number | string; commissionRate?: string | number; moniker?: string; jailed?: boolean }>;
  /** Seconds; default 1,814,400 (21 days). */
  unbondingTime?: number;
  /** Default 7. */
  maxEntries?: number;
  /** How many validators are bonded at once, the strongest by power; default 100. */
  maxValidators?: number;
}

interface DistributionUserConfig {
  /** Wei minted at each end of `epochIdentifier`; default 10 coins. */
  rewardsPerEpoch?: bigint | number | string;
  /** Default "day". */
  epochIdentifier?: string;
  /** Default "0.02". */
  communityTax?: string | number;
}

export interface EpochsConfig {
  profile: EpochsProfile;
  genesis?: EpochsGenesisUserConfig;
  /** As the user wrote it (relative to the project's root). */
  genesisFile?: string;
  /** Only when the user set one (else the profile's). */
  tickRule?: EpochsTickRule;
  hookGasLimit: number;
  network?: InProcessNetworkUserConfig;
  precompiles?: PrecompilesUserConfig;
  solidityTests?: boolean | SolidityTestsUserConfig;
}

/** Resolves and checks the `epochs` section; the genesis records themselves are checked at chain start. */
export function resolveEpochsConfig(user: EpochsUserConfig | undefined): EpochsConfig {
  const profile = user?.profile ?? "evmos";
  if (!isProfile(profile)) {
    throw new EpochsConfigError(`invalid epochs.profile "${String(profile)}": expected ${PROFILE_NAMES}`);
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
  const genesisFile = user?.genesisFile;
  if (genesisFile !== undefined && (typeof genesisFile !== "string" || genesisFile.trim() === ""))
    throw new EpochsConfigError(`invalid epochs.genesisFile ${JSON.stringify(genesisFile)}: expected the path of a genesis.json`);
  if (genesisFile !== undefined && genesis !== undefined)
    throw new EpochsConfigError("epochs.genesis and epochs.genesisFile both set: the genesis file's app_state.epochs is the chain's epochs; set one");
  const precompiles = user?.precompiles;
  if (precompiles !== undefined) checkPrecompiles(precompiles);
  const solidityTests = user?.solidityTests;
  if (solidityTests !== undefined) checkSolidityTests(solidityTests);
  return {
    profile,
    genesis,
    ...(genesisFile !== undefined ? { genesisFile } : {}),
    ...(tickRule !== undefined ? { tickRule } : {}),
    hookGasLimit,
    ...(user?.network !== undefined ? { network: user.network } : {}),
    ...(precompiles !== undefined ? { precompiles } : {}),
    ...(solidityTests !== undefined ? { solidityTests } : {}),
  };
}

function checkSolidityTests(t: boolean | SolidityTestsUserConfig): void {
  if (typeof t === "boolean") return;
  const bad = (what: string): never => {
    throw new EpochsConfigError(`invalid epochs.solidityTests${what}`);
  };
  if (t === null || typeof t !== "object") bad(`: expected true, false or { fuzz?, timeout? }`);
  const runs = t.fuzz?.runs;
  if (runs !== undefined && (!Number.isSafeInteger(runs) || runs < 1)) bad(`.fuzz.runs ${String(runs)}: expected a positive integer`);
  const rejects = t.fuzz?.maxTestRejects;
  if (rejects !== undefined && (!Number.isSafeInteger(rejects) || rejects < 0)) bad(`.fuzz.maxTestRejects ${String(rejects)}: expected a whole number`);
  const seed = t.fuzz?.seed;
  if (seed !== undefined && (typeof seed !== "string" || !/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(seed))) bad(`.fuzz.seed ${JSON.stringify(seed)}: expected a decimal or 0x-hex string`);
  for (const key of ["runs", "depth"] as const) {
    const v = t.invariant?.[key];
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) bad(`.invariant.${key} ${String(v)}: expected a positive integer`);
  }
  if (t.timeout !== undefined && (!Number.isSafeInteger(t.timeout) || t.timeout < 0)) bad(`.timeout ${String(t.timeout)}: expected milliseconds`);
}

const PRECOMPILE_KEYS = ["bech32", "staking", "distribution", "bank", "slashing", "gov", "p256", "erc20", "ics20"];

function checkPrecompiles(p: PrecompilesUserConfig): void {
  if (p === null || typeof p !== "object") throw new EpochsConfigError("invalid epochs.precompiles: expected { bech32?, staking?, distribution? }");
  for (const key of Object.keys(p)) {
    if (!PRECOMPILE_KEYS.includes(key)) throw new EpochsConfigError(`invalid epochs.precompiles.${key}: this chain hosts ${PRECOMPILE_KEYS.join(", ")} (docs/cosmos-precompiles.md)`);
  }
  // parse once to check: the options are made again from the same config when the chain starts
  stakingOptions(p.staking);
  distributionOptions(p.distribution);
  erc20Options(p.erc20);
  ics20Options(p.ics20);
  for (const key of ["bank", "slashing", "gov", "p256"] as const) {
    if (p[key] !== undefined && typeof p[key] !== "boolean") throw new EpochsConfigError(`invalid epochs.precompiles.${key} ${JSON.stringify(p[key])}: expected true or false`);
  }
  const b = p.bech32;
  if (b === undefined || typeof b === "boolean") return;
  // a bech32 human-readable part: 1 to 83 characters from US-ASCII 33–126, one case
  const prefix = (b as { prefix?: unknown } | null)?.prefix;
  if (b === null || typeof b !== "object" || (prefix !== undefined && (typeof prefix !== "string" || !/^[\x21-\x7e]{1,83}$/.test(prefix) || prefix !== prefix.toLowerCase()))) {
    throw new EpochsConfigError(`invalid epochs.precompiles.bech32 ${JSON.stringify(b)}: expected true, false or { prefix: "cosmos" } (a lowercase bech32 prefix)`);
  }
}

/** The Cosmos precompiles' options from the `epochs` section (bech32 off only when the config says so; staking and distribution: the profile's default unless set). */
export function cosmosOptionsFromConfig(cfg: EpochsConfig): CosmosPrecompilesOptions {
  const b = cfg.precompiles?.bech32;
  const staking = stakingOptions(cfg.precompiles?.staking);
  const distribution = distributionOptions(cfg.precompiles?.distribution);
  return {
    bech32: b === false ? false : typeof b === "object" ? { prefix: b.prefix } : {},
    ...(staking !== undefined ? { staking } : {}),
    ...(distribution !== undefined ? { distribution } : {}),
    ...(cfg.precompiles?.bank !== undefined ? { bank: cfg.precompiles.bank } : {}),
    ...(cfg.precompiles?.slashing !== undefined ? { slashing: cfg.precompiles.slashing } : {}),
    ...(cfg.precompiles?.gov !== undefined ? { gov: cfg.precompiles.gov } : {}),
    ...(cfg.precompiles?.p256 !== undefined ? { p256: cfg.precompiles.p256 } : {}),
    ...(cfg.precompiles?.erc20 !== undefined ? { erc20: erc20Options(cfg.precompiles.erc20) } : {}),
    ...(cfg.precompiles?.ics20 !== undefined ? { ics20: ics20Options(cfg.precompiles.ics20) } : {}),
  };
}

function ics20Options(v: PrecompilesUserConfig["ics20"]): CosmosPrecompilesOptions["ics20"] {
  if (v === undefined || typeof v === "boolean") return v;
  const shape = "expected true, false or { channels: [{ channelId, counterpartyChannelId?, counterpartyChainId?, open? }] }";
  if (v === null || typeof v !== "object" || (v.channels !== undefined && (!Array.isArray(v.channels) || v.channels.length === 0)))
    throw new EpochsConfigError(`invalid epochs.precompiles.ics20: ${shape}`);
  if (v.channels === undefined) return {};
  const seen = new Set<string>();
  return {
    channels: v.channels.map((c, i) => {
      const field = `epochs.precompiles.ics20.channels[${i}]`;
      const id = /^channel-\d+$/;
      if (c === null || typeof c !== "object" || typeof c.channelId !== "string" || !id.test(c.channelId))
        throw new EpochsConfigError(`invalid ${field}.channelId: expected a channel identifier like "channel-0"`);
      if (seen.has(c.channelId)) throw new EpochsConfigError(`invalid ${field}.channelId: ${c.channelId} is listed twice`);
      seen.add(c.channelId);
      if (c.counterpartyChannelId !== undefined && (typeof c.counterpartyChannelId !== "string" || !id.test(c.counterpartyChannelId)))
        throw new EpochsConfigError(`invalid ${field}.counterpartyChannelId: expected a channel identifier like "channel-7"`);
      if (c.counterpartyChainId !== undefined && (typeof c.counterpartyChainId !== "string" || c.counterpartyChainId === ""))
        throw new EpochsConfigError(`invalid ${field}.counterpartyChainId: expected a chain id`);
      if (c.open !== undefined && typeof c.open !== "boolean") throw new EpochsConfigError(`invalid ${field}.open: expected true or false`);
      return { channelId: c.channelId, counterpartyChannelId: c.counterpartyChannelId ?? c.channelId, counterpartyChainId: c.counterpartyChainId ?? "counterparty-1", open: c.open ?? true };
    }),
  };
}

function erc20Options(v: PrecompilesUserConfig["erc20"]): CosmosPrecompilesOptions["erc20"] {
  if (v === undefined || typeof v === "boolean") return v;
  const shape = "expected true, false or { coins: [{ denom, name?, symbol?, decimals?, balances? }] }";
  if (v === null || typeof v !== "object" || (v.coins !== undefined && !Array.isArray(v.coins))) throw new EpochsConfigError(`invalid epochs.precompiles.erc20: ${shape}`);
  const seen = new Set<string>();
  return {
    coins: (v.coins ?? []).map((c, i) => {
      const field = `epochs.precompiles.erc20.coins[${i}]`;
      if (c === null || typeof c !== "object" || typeof c.denom !== "string" || !/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(c.denom))
        throw new EpochsConfigError(`invalid ${field}.denom: expected a Cosmos denom (3–128 characters, a letter first)`);
      if (c.denom.startsWith("ibc/") && !/^ibc\/[0-9a-fA-F]{64}$/.test(c.denom)) throw new EpochsConfigError(`invalid ${field}.denom ${c.denom}: an IBC voucher is ibc/ and a 64-hex-digit hash`);
      if (seen.has(c.denom)) throw new EpochsConfigError(`invalid ${field}.denom: ${c.denom} is listed twice`);
      seen.add(c.denom);
      const named = [c.name, c.symbol, c.decimals].filter((x) => x !== undefined).length;
      if (named !== 0 && named !== 3) throw new EpochsConfigError(`invalid ${field}: give name, symbol and decimals together (the coin's bank metadata), or none`);
      if (c.name !== undefined && (typeof c.name !== "string" || typeof c.symbol !== "string" || !Number.isInteger(c.decimals) || (c.decimals as number) < 0 || (c.decimals as number) > 255)) {
        throw new EpochsConfigError(`invalid ${field}: name and symbol are strings, decimals an integer from 0 to 255`);
      }
      if (c.balances !== undefined && (c.balances === null || typeof c.balances !== "object")) throw new EpochsConfigError(`invalid ${field}.balances: expected { "0x…": amount }`);
      const balances = Object.entries(c.balances ?? {}).map(([address, amount]) => {
        if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new EpochsConfigError(`invalid ${field}.balances: ${address} is not a hex address`);
        return { address, amount: wei(amount, `${field}.balances["${address}"]`) };
      });
      return {
        denom: c.denom,
        ...(c.name !== undefined ? { metadata: { name: c.name, symbol: c.symbol as string, decimals: c.decimals as number } } : {}),
        balances: balances.filter((b) => b.amount > 0n),
      };
    }),
  };
}

/** A decimal ("0.1", 0.1) as a LegacyDec (times 10^18), between 0 and 1. */
function rate(v: string | number, field: string): bigint {
  const dec = typeof v === "string" || typeof v === "number" ? parseFraction(v) : undefined;
  if (dec === undefined) throw new EpochsConfigError(`invalid ${field} ${JSON.stringify(v)}: expected a decimal from 0 to 1, like "0.1"`);
  return dec;
}

/** Wei as a bigint, a safe integer or a decimal string. */
function wei(v: bigint | number | string, field: string): bigint {
  const n = wholeNumber(v);
  if (n === undefined) throw new EpochsConfigError(`invalid ${field} ${shown(v)}: expected an amount in wei (a non-negative integer)`);
  return n;
}

function stakingOptions(v: PrecompilesUserConfig["staking"]): CosmosPrecompilesOptions["staking"] {
  if (v === undefined || typeof v === "boolean") return v;
  if (v === null || typeof v !== "object") throw new EpochsConfigError("invalid epochs.precompiles.staking: expected true, false or { validators?, unbondingTime?, maxEntries?, maxValidators? }");
  const { validators, unbondingTime, maxEntries, maxValidators } = v;
  // x/staking's Params.Validate: every one of them positive
  if (unbondingTime !== undefined && safeInteger(unbondingTime, { min: 1 }) === undefined)
    throw new EpochsConfigError(`invalid epochs.precompiles.staking.unbondingTime ${String(unbondingTime)}: expected seconds (a positive integer)`);
  if (maxEntries !== undefined && safeInteger(maxEntries, { min: 1 }) === undefined)
    throw new EpochsConfigError(`invalid epochs.precompiles.staking.maxEntries ${String(maxEntries)}: expected a positive integer`);
  if (maxValidators !== undefined && safeInteger(maxValidators, { min: 1 }) === undefined)
    throw new EpochsConfigError(`invalid epochs.precompiles.staking.maxValidators ${String(maxValidators)}: expected a positive integer`);
  if (validators !== undefined && (!Array.isArray(validators) || validators.length === 0))
    throw new EpochsConfigError("invalid epochs.precompiles.staking.validators: expected a non-empty list of { operator, tokens?, commissionRate?, moniker?, jailed? }");
  const seen = new Set<string>();
  return {
    ...(unbondingTime !== undefined ? { unbondingTime: BigInt(unbondingTime) } : {}),
    ...(maxEntries !== undefined ? { maxEntries } : {}),
    ...(maxValidators !== undefined ? { maxValidators } : {}),
    ...(validators !== undefined
      ? {
          validators: validators.map((g, i) => {
            const field = `epochs.precompiles.staking.validators[${i}]`;
            if (g === null || typeof g !== "object" || typeof g.operator !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(g.operator))
              throw new EpochsConfigError(`invalid ${field}.operator: expected a hex address`);
            if (seen.has(g.operator.toLowerCase())) throw new EpochsConfigError(`invalid ${field}.operator: ${g.operator} is listed twice`);
            seen.add(g.operator.toLowerCase());
            const tokens = g.tokens === undefined ? undefined : wei(g.tokens, `${field}.tokens`);
            if (tokens === 0n) throw new EpochsConfigError(`invalid ${field}.tokens: a validator needs tokens`);
            if (g.moniker !== undefined && typeof g.moniker !== "string") throw new EpochsConfigError(`invalid ${field}.moniker: expected a string`);
            if (g.jailed !== undefined && typeof g.jailed !== "boolean") throw new EpochsConfigError(`invalid ${field}.jailed: expected a boolean`);
            return {
              operator: g.operator,
              ...(tokens !== undefined ? { tokens } : {}),
              ...(g.commissionRate !== undefined ? { commissionRate: rate(g.commissionRate, `${field}.commissionRate`) } : {}),
              ...(g.moniker !== undefined ? { moniker: g.moniker } : {}),
              ...(g.jailed !== undefined ? { jailed: g.jailed } : {}),
            };
          }),
        }
      : {}),
  };
}

function distributionOptions(v: PrecompilesUserConfig["distribution"]): CosmosPrecompilesOptions["distribution"] {
  if (v === undefined || typeof v === "boolean") return v;
  if (v === null || typeof v !== "object") throw new EpochsConfigError("invalid epochs.precompiles.distribution: expected true, false or { rewardsPerEpoch?, epochIdentifier?, communityTax? }");
  if (v.epochIdentifier !== undefined && (typeof v.epochIdentifier !== "string" || v.epochIdentifier === ""))
    throw new EpochsConfigError(`invalid epochs.precompiles.distribution.epochIdentifier ${JSON.stringify(v.epochIdentifier)}: expected an epoch identifier`);
  return {
    ...(v.rewardsPerEpoch !== undefined ? { rewardsPerEpoch: wei(v.rewardsPerEpoch, "epochs.precompiles.distribution.rewardsPerEpoch") } : {}),
    ...(v.epochIdentifier !== undefined ? { epochIdentifier: v.epochIdentifier } : {}),
    ...(v.communityTax !== undefined ? { communityTax: rate(v.communityTax, "epochs.precompiles.distribution.communityTax") } : {}),
  };
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
function epochInfoFromConfig(e: EpochInfoUserConfig, i: number): EpochInfo {
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
