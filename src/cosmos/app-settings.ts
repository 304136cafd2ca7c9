/**
 * The Cosmos modules' settings, as the Hardhat config (`epochs.precompiles`) and a home's genesis.json
 * give them, with their defaults: one place for what is on, which params a genesis writes and what
 * each defaults to. The wiring file (src/cosmos/app.ts) builds the chain's modules from them.
 */
import type { EpochsProfile } from "../epochs/types";
import { PROFILES } from "../epochs/profile";
import { NATIVE_ERC20 } from "./bank/precompile";
import { DEC } from "./staking/types";
import type { GenesisCoin, GenesisPair, Erc20Settings } from "./erc20/module";
import type { GovGenesis } from "./gov/module";
import type { IbcChannel } from "./ics20/keeper";
import { DEFAULT_CHANNELS, type Ics20Settings } from "./ics20/module";
import type { MintParams, Minter } from "./mint/keeper";
import { type StakingOptions, type StakingSettings, stakingSettings } from "./staking/module";

/** x/mint at each block's start (src/cosmos/mint/keeper.ts): a genesis's `app_state.mint`. */
export interface MintOptions {
  params: MintParams;
  minter: Minter;
}

export interface DistributionOptions {
  /** Coins minted at each end of `epochIdentifier`; default 10 coins (10^19). */
  rewardsPerEpoch?: bigint;
  /** Default "day" (Evmos's inflation epoch). */
  epochIdentifier?: string;
  /** LegacyDec; default 0.02 (x/distribution's default community_tax). */
  communityTax?: bigint;
  /** x/mint's provision every block, allocated as the epoch's rewards are (a genesis's `app_state.mint`); default none. */
  mint?: MintOptions;
}

const DEFAULT_REWARDS_PER_EPOCH = 10n * DEC;
export const DEFAULT_COMMUNITY_TAX = (2n * DEC) / 100n;

export interface CosmosModulesSettings {
  staking: StakingSettings;
  distribution: (Required<Omit<DistributionOptions, "mint">> & { mint?: MintOptions }) | false;
  /** The bank precompile (the supply is kept either way). */
  bank: boolean;
  /** The slashing precompile (jailing is kept either way). */
  slashing: boolean;
  /** x/gov and its precompile. */
  gov: boolean;
  /** What the genesis sets in x/gov (src/cosmos/gov/module.ts). */
  govGenesis?: GovGenesis;
  /** The native coin's ERC-20 pair, as the bank precompile names it. */
  nativeErc20: string;
  /** x/erc20's token pairs (src/cosmos/erc20/module.ts); false: none. */
  erc20: Erc20Settings | false;
  /** ICS20 transfers and their channels (src/cosmos/ics20/keeper.ts); false: none. */
  ics20: Ics20Settings | false;
  denom: string;
  /** The native coin held at genesis outside the modules (the dev accounts' balances). */
  genesisSupply: bigint;
}

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
  return {
    denom: PROFILES[profile].denom,
    bank: opts.bank !== false,
    slashing: opts.slashing !== false,
    gov: opts.gov !== false,
    nativeErc20: erc20 === false ? NATIVE_ERC20 : erc20.nativeErc20,
    erc20,
    ics20,
    genesisSupply: accounts.reduce((sum, a) => sum + a.balance, 0n),
    staking: stakingSettings(staking === true ? {} : staking, accounts),
    distribution:
      distribution === false
        ? false
        : {
            rewardsPerEpoch: distribution.rewardsPerEpoch ?? DEFAULT_REWARDS_PER_EPOCH,
            epochIdentifier: distribution.epochIdentifier ?? "day",
            communityTax: distribution.communityTax ?? DEFAULT_COMMUNITY_TAX,
            ...(distribution.mint !== undefined ? { mint: distribution.mint } : {}),
          },
    govGenesis: typeof opts.gov === "object" ? opts.gov : {},
  };
}
