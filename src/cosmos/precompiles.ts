/**
 * The Cosmos precompiles the local chain hosts (docs/cosmos-precompiles.md): P-256 at 0x…0100 and
 * bech32 at 0x…0400 under both profiles; staking (0x…0800), distribution (0x…0801), ICS20 (0x…0802),
 * bank (0x…0804), gov (0x…0805), slashing (0x…0806) and the ERC-20s of x/erc20's token pairs (at their
 * own addresses, joining the EVM as they are registered) with their modules, on by default under
 * cosmos-evm and when asked for under evmos. Prefixes and denom are the profile's: `evmos` / `aevmos`
 * under evmos, `cosmos` / `atest` under cosmos-evm (evmd's).
 */
import type { CustomPrecompile, PrecompileFunc, PrecompileInput } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import type { BlockModule } from "../chain/module";
import type { EpochHooks, EpochsProfile } from "../epochs/types";
import { BECH32_PRECOMPILE, type Bech32Prefixes, bech32Prefixes, createBech32Precompile } from "./bech32/precompile";
import { P256_PRECOMPILE, createP256Precompile } from "./p256/precompile";
import { BANK_PRECOMPILE } from "./common/ledger";
import { NATIVE_ERC20, createBankPrecompile } from "./bank/precompile";
import type { TokenPair } from "./erc20/keeper";
import { type GenesisCoin, type GenesisPair, erc20BlockModule } from "./erc20/module";
import { createErc20Precompile } from "./erc20/precompile";
import { ICS20_PRECOMPILE, type IbcChannel } from "./ics20/keeper";
import { DEFAULT_CHANNELS, ics20BlockModule } from "./ics20/module";
import { ICS20_ABI, ICS20_TRANSACTIONS, ics20Handlers } from "./ics20/precompile";
import { keepers } from "./app";
import { MsgRouter } from "./msg-router";
import { mintBlockProvision } from "./mint/module";
import { mintSteadyWork } from "./mint/steady-run";
import { distributionEpochHooks } from "./distribution/module";
import { GOV_PRECOMPILE } from "./gov/keeper";
import { type GovGenesis, govBlockModule } from "./gov/module";
import { GOV_ABI, GOV_TRANSACTIONS, govHandlers } from "./gov/precompile";
import { SLASHING_ABI, SLASHING_TRANSACTIONS, slashingHandlers } from "./slashing/precompile";
import { SLASHING_PRECOMPILE } from "./slashing/keeper";
import { DISTRIBUTION_PRECOMPILE } from "./distribution/keeper";
import { DISTRIBUTION_ABI, DISTRIBUTION_TRANSACTIONS, distributionHandlers } from "./distribution/precompile";
import { type MethodCall, type ModulePrecompileDeps, createModulePrecompile } from "./common/module-precompile";
import type { BlockContext } from "../chain/module";
import { type CosmosModulesSettings, type DistributionOptions, type StakingOptions, stakingBlockModule, stakingSettings } from "./staking/module";
import { PROFILES } from "../epochs/profile";
import { STAKING_PRECOMPILE } from "./staking/types";
import { STAKING_ABI, STAKING_TRANSACTIONS, ValidatorCodec, stakingHandlers } from "./staking/precompile";

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
  /** x/gov and its precompile (needs staking): on with staking unless `false`; a genesis's params, first id and constitution. */
  gov?: boolean | GovGenesis;
  /** The chains' P-256 verifier at 0x…0100 (src/cosmos/p256/precompile.ts): on unless `false` (then the EVM's own, EIP-7951, when the hardfork has it). */
  p256?: boolean;
  /**
   * x/erc20's token pairs (needs staking, which keeps the bank): the native coin's WERC20 (at
   * `nativeErc20`, default WEVMOS's address), the pairs a genesis lists and the genesis coins; on with
   * staking unless `false`.
   */
  erc20?: boolean | { coins?: GenesisCoin[]; nativeErc20?: string; pairs?: GenesisPair[] };
  /** ICS20 transfers at 0x…0802 (needs staking): on with staking unless `false`; `channels` default one open `channel-0`. */
  ics20?: boolean | { channels?: IbcChannel[] };
}


/** The chain's account prefix: the bech32 precompile's setting, else the profile's. */
export function chainBech32Prefix(opts: CosmosPrecompilesOptions, profile: EpochsProfile): string {
  return (opts.bech32 === false ? undefined : opts.bech32?.prefix) ?? PROFILES[profile].bech32Prefix;
}

/** The staking, distribution and bank settings, or undefined when staking is off; `accounts` are the genesis accounts. */
export function cosmosModuleSettings(opts: CosmosPrecompilesOptions, profile: EpochsProfile, accounts: ReadonlyArray<{ address: string; balance: bigint }>): CosmosModulesSettings | undefined {
  const staking = opts.staking ?? PROFILES[profile].cosmosModules;
  if (staking === false) return undefined;
  const distribution = opts.distribution === false ? false : opts.distribution === true || opts.distribution === undefined ? {} : opts.distribution;
  const ics20 = opts.ics20 === false ? false : { channels: opts.ics20 === true || opts.ics20 === undefined ? DEFAULT_CHANNELS : (opts.ics20.channels ?? DEFAULT_CHANNELS) };
  const given = opts.erc20 === true || opts.erc20 === undefined ? {} : opts.erc20 === false ? undefined : opts.erc20;
  const erc20 =
    given === undefined
      ? false
      : { nativeErc20: given.nativeErc20 ?? NATIVE_ERC20, nativeMetadata: PROFILES[profile].nativeMetadata, coins: given.coins ?? [], pairs: given.pairs ?? [], recordTraces: ics20 !== false };
  const settings = stakingSettings(staking === true ? {} : staking, distribution, { bank: opts.bank !== false, slashing: opts.slashing !== false, gov: opts.gov !== false }, PROFILES[profile].denom, accounts, erc20, ics20);
  return { ...settings, govGenesis: typeof opts.gov === "object" ? opts.gov : {} };
}

/**
 * The chain's parts the modules add: block modules (staking's genesis and end block, the transfer
 * module's genesis and timeouts, x/erc20's genesis, x/gov's genesis and end block) and an epochs hook (distribution's minting).
 * `onPairs` is told the token pairs of each state the chain opens (their precompiles join the EVM:
 * `erc20PairPrecompile`).
 */
export function cosmosModules(settings: CosmosModulesSettings | undefined, prefixes: Bech32Prefixes, onPairs: (pairs: TokenPair[]) => void): { blockModules: BlockModule[]; epochHooks: EpochHooks[] } {
  if (settings === undefined) return { blockModules: [], epochHooks: [] };
  const { denom } = settings;
  const minting = settings.distribution !== false && settings.distribution.mint !== undefined;
  return {
    blockModules: [
      {
        ...stakingBlockModule(settings, keepers),
        // x/mint's begin block, under the staking module's name (a home's reserved ranges key its played work by it):
        // each block's provision; played for a run of otherwise quiet blocks (src/cosmos/mint/steady-run.ts)
        ...(minting ? { beginBlock: (ctx: BlockContext) => mintBlockProvision(ctx, denom, keepers), steady: mintSteadyWork(denom, keepers) } : {}),
      },
      // ICS20's genesis first: x/erc20's records the traces of its genesis vouchers in ICS20's account
      ...(settings.ics20 === false ? [] : [ics20BlockModule(settings.ics20, denom, keepers)]),
      ...(settings.erc20 === false ? [] : [erc20BlockModule(settings.erc20, denom, onPairs, keepers)]),
      ...(settings.gov ? [govBlockModule(settings.govGenesis ?? {}, denom, keepers, new MsgRouter(prefixes))] : []),
    ],
    epochHooks: settings.distribution === false ? [] : [distributionEpochHooks(denom, keepers)],
  };
}

/** The ERC-20 precompile of `pair` (WERC20's for the native coin's pair). */
export function erc20PairPrecompile(settings: CosmosModulesSettings, pair: TokenPair, deps: Omit<ModulePrecompileDeps, "denom"> & { value(input: PrecompileInput): bigint }): PrecompileFunc {
  const wrapped = settings.erc20 !== false && pair.erc20.toLowerCase() === settings.erc20.nativeErc20.toLowerCase();
  return createErc20Precompile(pair.erc20, wrapped, { ...deps, denom: settings.denom }, keepers);
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
  const callKeepers = (call: MethodCall) => keepers(call.env);
  out.push({ address: createAddressFromString(STAKING_PRECOMPILE), function: createModulePrecompile(STAKING_PRECOMPILE, STAKING_ABI, stakingHandlers(codec, callKeepers), STAKING_TRANSACTIONS, moduleDeps) });
  if (settings.bank) out.push({ address: createAddressFromString(BANK_PRECOMPILE), function: createBankPrecompile(settings.denom, settings.nativeErc20, keepers) });
  if (settings.ics20 !== false) out.push({ address: createAddressFromString(ICS20_PRECOMPILE), function: createModulePrecompile(ICS20_PRECOMPILE, ICS20_ABI, ics20Handlers(keepers), ICS20_TRANSACTIONS, moduleDeps) });
  if (settings.gov) out.push({ address: createAddressFromString(GOV_PRECOMPILE), function: createModulePrecompile(GOV_PRECOMPILE, GOV_ABI, govHandlers(prefixes, keepers, new MsgRouter(prefixes)), GOV_TRANSACTIONS, moduleDeps) });
  if (settings.slashing) {
    out.push({
      address: createAddressFromString(SLASHING_PRECOMPILE),
      function: createModulePrecompile(SLASHING_PRECOMPILE, SLASHING_ABI, slashingHandlers(keepers), SLASHING_TRANSACTIONS, moduleDeps),
    });
  }
  if (settings.distribution !== false) {
    out.push({
      address: createAddressFromString(DISTRIBUTION_PRECOMPILE),
      function: createModulePrecompile(DISTRIBUTION_PRECOMPILE, DISTRIBUTION_ABI, distributionHandlers(prefixes, codec, callKeepers), DISTRIBUTION_TRANSACTIONS, moduleDeps),
    });
  }
  return out;
}
