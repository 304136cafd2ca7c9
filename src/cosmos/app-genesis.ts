/**
 * A Cosmos genesis.json's `app_state` as this chain takes it (docs/node-config.md, "A team's own
 * genesis"): the staking module's validators and delegations, the validators `gentx` left in
 * `genutil.gen_txs`, distribution's community tax and x/mint, the native coin's balances (EVM balances), other coins, token pairs and channels,
 * the EVM's contracts and the accounts' nonces.
 * One reader for the node's home (src/host/node/home.ts); each part absent when the genesis has none, and
 * every error names the field.
 */
import { getAddress } from "ethers/address";
import type { Bech32Prefixes } from "./common/address-codec";
import { type GenesisCoins, coinsFromGenesis } from "./coins-genesis";
import { genTxValidators, named, stakingFromGenesis } from "./staking/genesis";
import type { StakingOptions } from "./staking/module";
import type { DistributionOptions } from "./app-settings";
import { decOf, uint } from "./common/genesis-values";
import { validateDistributionParams } from "./distribution/keeper";
import { DEFAULT_MINTER, DEFAULT_MINT_PARAMS, type MintParams, validateMintParams, validateMinter } from "./mint/keeper";
import type { GovGenesis } from "./gov/module";
import { govParamsFromJson } from "./gov/messages";
import { type EvmGenesisAccount, evmAccountsFromGenesis } from "./evm-genesis";

interface AppGenesis {
  staking?: StakingOptions;
  distribution?: DistributionOptions;
  gov?: GovGenesis;
  erc20?: Pick<GenesisCoins, "coins" | "pairs" | "nativeErc20">;
  ics20?: { channels: NonNullable<GenesisCoins["channels"]> };
  /** The native coin's genesis balances, after the gentx validators' self-delegations left them. */
  balances?: Array<{ address: string; balance: bigint }>;
  /** Nonces, code and storage (`evm.accounts`, `auth.accounts`' sequences: src/cosmos/evm-genesis.ts). */
  evmAccounts?: EvmGenesisAccount[];
}

/** @lazy loaded by a deferred require() (knip cannot see it) */
export function readAppGenesis(appState: unknown, prefixes: Bech32Prefixes, denom: string): AppGenesis {
  const staking = stakingFromGenesis(appState, prefixes);
  const bondDenom = (appState as { staking?: { params?: { bond_denom?: unknown } } } | undefined)?.staking?.params?.bond_denom;
  if (bondDenom !== undefined && bondDenom !== denom) throw new Error(`app_state.staking.params.bond_denom: ${JSON.stringify(bondDenom)} is not this chain's coin ${denom} (the EVM's balances)`);
  const coins = coinsFromGenesis(appState, prefixes, denom);
  const balances = new Map<string, bigint>();
  for (const b of coins.native ?? []) balances.set(b.address, (balances.get(b.address) ?? 0n) + b.amount);
  // InitChain delivers each gentx: the operator's coins move into the validator's bonded pool
  const genTxs = genTxValidators(appState, prefixes, denom);
  genTxs.forEach((v, i) => {
    const operator = getAddress(v.operator);
    const held = balances.get(operator) ?? 0n;
    if (held < (v.tokens ?? 0n)) throw new Error(`app_state.genutil.gen_txs[${i}]: ${held}${denom} is smaller than ${v.tokens}${denom}: insufficient funds (the operator's app_state.bank.balances)`);
    balances.set(operator, held - (v.tokens ?? 0n));
  });
  const listed = staking?.validators ?? [];
  for (const v of genTxs) if (listed.some((l) => l.operator === v.operator)) throw new Error(`app_state.genutil.gen_txs: validator ${v.operator} is also in app_state.staking.validators`);
  const validators = [...listed, ...genTxs];
  const withValidators = validators.length > 0 ? { ...staking, validators } : staking;
  const distribution = distributionFromGenesis(appState, denom);
  const gov = govFromGenesis(appState, prefixes, denom);
  const evmAccounts = evmAccountsFromGenesis(appState, prefixes);
  return {
    ...(evmAccounts !== undefined ? { evmAccounts } : {}),
    ...(gov !== undefined ? { gov } : {}),
    ...(withValidators !== undefined ? { staking: withValidators } : {}),
    ...(distribution !== undefined ? { distribution } : {}),
    ...((coins.coins ?? coins.pairs ?? coins.nativeErc20) !== undefined ? { erc20: { ...pick(coins.coins, "coins"), ...pick(coins.pairs, "pairs"), ...pick(coins.nativeErc20, "nativeErc20") } } : {}),
    ...(coins.channels !== undefined ? { ics20: { channels: coins.channels } } : {}),
    ...(balances.size > 0 ? { balances: [...balances].map(([address, balance]) => ({ address, balance })) } : {}),
  };
}

/** `app_state.gov`: params, the first proposal id, the constitution; proposals, deposits and votes at genesis are refused. */
function govFromGenesis(appState: unknown, prefixes: Bech32Prefixes, denom: string): GovGenesis | undefined {
  const gov = (appState as { gov?: Record<string, unknown> } | undefined)?.gov;
  if (gov === undefined) return undefined;
  for (const key of ["proposals", "deposits", "votes"]) {
    const list = gov[key];
    if (Array.isArray(list) && list.length > 0) throw new Error(`app_state.gov.${key}: this chain starts with no proposals (only params, starting_proposal_id and constitution are kept)`);
  }
  const out: GovGenesis = {};
  if (gov.params !== undefined && gov.params !== null) out.params = govParamsFromJson(gov.params as Record<string, unknown>, denom, prefixes, "app_state.gov.params");
  const start = gov.starting_proposal_id;
  if (start !== undefined) {
    if (typeof start !== "string" || !/^[1-9]\d*$/.test(start)) throw new Error(`app_state.gov.starting_proposal_id: expected a positive integer string, got ${JSON.stringify(start)}`);
    out.startingProposalId = BigInt(start);
  }
  if (typeof gov.constitution === "string") out.constitution = gov.constitution;
  return out;
}

const pick = <K extends string, V>(value: V | undefined, key: K): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/**
 * The distribution options a genesis gives: `app_state.distribution.params.community_tax`, and
 * `app_state.mint` (its params and minter), which mints every block instead of the epoch stand-in.
 */
function distributionFromGenesis(appState: unknown, denom: string): DistributionOptions | undefined {
  const app = appState as { distribution?: { params?: { community_tax?: unknown } }; mint?: { minter?: Record<string, unknown>; params?: Record<string, unknown> } } | undefined;
  const out: DistributionOptions = {};
  const tax = app?.distribution?.params?.community_tax;
  if (tax !== undefined) {
    out.communityTax = decOf(tax, "app_state.distribution.params.community_tax", true);
    // the one check every path runs (src/cosmos/distribution/keeper.ts), naming the field
    named("app_state.distribution.params.community_tax", () => validateDistributionParams({ communityTax: out.communityTax as bigint, epochIdentifier: "", rewardsPerEpoch: 0n }));
  }
  const mint = app?.mint;
  if (mint !== undefined) {
    const p = mint.params ?? {};
    if (p.mint_denom !== undefined && p.mint_denom !== denom) throw new Error(`app_state.mint.params.mint_denom: ${JSON.stringify(p.mint_denom)} is not this chain's coin ${denom}`);
    const d = (v: unknown, field: string, fallback: bigint): bigint => (v === undefined ? fallback : decOf(v, field, true));
    const params: MintParams = {
      inflationRateChange: d(p.inflation_rate_change, "app_state.mint.params.inflation_rate_change", DEFAULT_MINT_PARAMS.inflationRateChange),
      inflationMax: d(p.inflation_max, "app_state.mint.params.inflation_max", DEFAULT_MINT_PARAMS.inflationMax),
      inflationMin: d(p.inflation_min, "app_state.mint.params.inflation_min", DEFAULT_MINT_PARAMS.inflationMin),
      goalBonded: d(p.goal_bonded, "app_state.mint.params.goal_bonded", DEFAULT_MINT_PARAMS.goalBonded),
      blocksPerYear: p.blocks_per_year === undefined ? DEFAULT_MINT_PARAMS.blocksPerYear : uint(p.blocks_per_year, "app_state.mint.params.blocks_per_year"),
    };
    // x/mint's Params.Validate and ValidateMinter, the ones every path runs (src/cosmos/mint/keeper.ts)
    named("app_state.mint.params", () => validateMintParams(params));
    const m = mint.minter ?? {};
    const minter = {
      inflation: d(m.inflation, "app_state.mint.minter.inflation", DEFAULT_MINTER.inflation),
      annualProvisions: d(m.annual_provisions, "app_state.mint.minter.annual_provisions", DEFAULT_MINTER.annualProvisions),
    };
    named("app_state.mint.minter", () => validateMinter(minter));
    out.mint = { params, minter };
    // the chain mints every block; no epoch stand-in on top
    out.rewardsPerEpoch = 0n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
