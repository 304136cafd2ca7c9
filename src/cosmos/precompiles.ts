/**
 * The Cosmos precompiles the local chain hosts (docs/cosmos-precompiles.md): P-256 at 0x…0100 and
 * bech32 at 0x…0400 under both profiles; staking (0x…0800) and distribution (0x…0801) with their
 * modules, on by default under cosmos-evm and when asked for under evmos. Prefixes and denom are the
 * profile's: `evmos` / `aevmos` under evmos, `cosmos` / `atest` under cosmos-evm (evmd's).
 */
import type { CustomPrecompile } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import type { BlockModule } from "../chain/module";
import type { EpochHooks, EpochsProfile } from "../epochs/types";
import { BECH32_PRECOMPILE, bech32Prefixes, createBech32Precompile } from "./bech32";
import { P256_PRECOMPILE, createP256Precompile } from "./p256";
import { BANK_PRECOMPILE } from "./ledger";
import { createBankPrecompile } from "./bank";
import { setJailed } from "./admin";
import { GOV_ABI, GOV_PRECOMPILE, GOV_TRANSACTIONS, govHandlers } from "./gov";
import { SLASHING_ABI, SLASHING_PRECOMPILE, SLASHING_TRANSACTIONS, slashingHandlers } from "./slashing";
import { DISTRIBUTION_PRECOMPILE, DistributionKeeper } from "./distribution-keeper";
import { DISTRIBUTION_ABI, DISTRIBUTION_TRANSACTIONS, distributionHandlers } from "./distribution-precompile";
import { type MethodCall, type ModulePrecompileDeps, createModulePrecompile } from "./module-precompile";
import { type CosmosModulesSettings, type DistributionOptions, type StakingOptions, distributionEpochHooks, stakingBlockModule, stakingSettings } from "./modules";
import { STAKING_PRECOMPILE } from "./staking-keeper";
import { STAKING_ABI, STAKING_TRANSACTIONS, ValidatorCodec, stakingHandlers } from "./staking-precompile";

export interface CosmosPrecompilesOptions {
  /** The bech32 precompile: `false` leaves it out; `prefix` is the chain's account prefix (default: the profile's). */
  bech32?: false | { prefix?: string };
  /** The staking module and precompile: default on under cosmos-evm, off under evmos; `true` or settings turn it on. */
  staking?: boolean | StakingOptions;
  /** The distribution module and precompile (needs staking): on with staking unless `false`. */
  distribution?: boolean | DistributionOptions;
  /** The bank precompile (needs staking, which keeps the supply): on with staking unless `false`. */
  bank?: boolean;
  /** The slashing precompile's queries and unjail (needs staking): on with staking unless `false`. */
  slashing?: boolean;
  /** The gov precompile's queries over proposals a test sets (needs staking): on with staking unless `false`. */
  gov?: boolean;
  /** The chains' P-256 verifier at 0x…0100 (src/cosmos/p256.ts): on unless `false` (then the EVM's own, EIP-7951, when the hardfork has it). */
  p256?: boolean;
}

/** The account prefix of each profile's chain. */
export const PROFILE_BECH32_PREFIX: Readonly<Record<EpochsProfile, string>> = { evmos: "evmos", "cosmos-evm": "cosmos" };

/** The native coin's bank denom (18 decimals, the EVM balance): Evmos's `aevmos`, evmd's `atest`. */
export const PROFILE_DENOM: Readonly<Record<EpochsProfile, string>> = { evmos: "aevmos", "cosmos-evm": "atest" };

/** The chain's account prefix: the bech32 precompile's setting, else the profile's. */
export function chainBech32Prefix(opts: CosmosPrecompilesOptions, profile: EpochsProfile): string {
  return (opts.bech32 === false ? undefined : opts.bech32?.prefix) ?? PROFILE_BECH32_PREFIX[profile];
}

/** The staking, distribution and bank settings, or undefined when staking is off; `accounts` are the genesis accounts. */
export function cosmosModuleSettings(opts: CosmosPrecompilesOptions, profile: EpochsProfile, accounts: ReadonlyArray<{ address: string; balance: bigint }>): CosmosModulesSettings | undefined {
  const staking = opts.staking ?? profile === "cosmos-evm";
  if (staking === false) return undefined;
  const distribution = opts.distribution === false ? false : opts.distribution === true || opts.distribution === undefined ? {} : opts.distribution;
  return stakingSettings(staking === true ? {} : staking, distribution, { bank: opts.bank !== false, slashing: opts.slashing !== false, gov: opts.gov !== false }, PROFILE_DENOM[profile], accounts);
}

/** The chain's parts the modules add: a block module (staking's genesis and end block) and an epochs hook (distribution's minting). */
export function cosmosModules(settings: CosmosModulesSettings | undefined): { blockModules: BlockModule[]; epochHooks: EpochHooks[] } {
  if (settings === undefined) return { blockModules: [], epochHooks: [] };
  return { blockModules: [stakingBlockModule(settings)], epochHooks: settings.distribution === false ? [] : [distributionEpochHooks()] };
}

/** The precompiles: `deps` tells the module precompiles about the execution they run in. */
export function cosmosPrecompiles(
  opts: CosmosPrecompilesOptions,
  profile: EpochsProfile,
  settings: CosmosModulesSettings | undefined,
  deps: Omit<ModulePrecompileDeps, "denom">,
): CustomPrecompile[] {
  const out: CustomPrecompile[] = [];
  const prefixes = bech32Prefixes(chainBech32Prefix(opts, profile));
  if (opts.p256 !== false) out.push({ address: createAddressFromString(P256_PRECOMPILE), function: createP256Precompile() });
  if (opts.bech32 !== false) out.push({ address: createAddressFromString(BECH32_PRECOMPILE), function: createBech32Precompile(prefixes) });
  if (settings === undefined) return out;
  const moduleDeps = { ...deps, denom: settings.denom };
  const codec = new ValidatorCodec(prefixes);
  const keepers = (call: MethodCall) => {
    const distribution = new DistributionKeeper(call.env);
    return { distribution, staking: distribution.staking() };
  };
  out.push({ address: createAddressFromString(STAKING_PRECOMPILE), function: createModulePrecompile(STAKING_PRECOMPILE, STAKING_ABI, stakingHandlers(codec, keepers), STAKING_TRANSACTIONS, moduleDeps) });
  if (settings.bank) out.push({ address: createAddressFromString(BANK_PRECOMPILE), function: createBankPrecompile(settings.nativeErc20) });
  if (settings.gov) out.push({ address: createAddressFromString(GOV_PRECOMPILE), function: createModulePrecompile(GOV_PRECOMPILE, GOV_ABI, govHandlers(prefixes.account), GOV_TRANSACTIONS, moduleDeps) });
  if (settings.slashing) {
    out.push({
      address: createAddressFromString(SLASHING_PRECOMPILE),
      function: createModulePrecompile(SLASHING_PRECOMPILE, SLASHING_ABI, slashingHandlers(async (env, op) => void (await setJailed(env, op, false))), SLASHING_TRANSACTIONS, moduleDeps),
    });
  }
  if (settings.distribution !== false) {
    out.push({
      address: createAddressFromString(DISTRIBUTION_PRECOMPILE),
      function: createModulePrecompile(DISTRIBUTION_PRECOMPILE, DISTRIBUTION_ABI, distributionHandlers(prefixes, codec, keepers), DISTRIBUTION_TRANSACTIONS, moduleDeps),
    });
  }
  return out;
}
