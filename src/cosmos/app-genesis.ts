/**
 * A Cosmos genesis.json's `app_state` as this chain takes it (docs/node-config.md, "A team's own
 * genesis"): the staking module's validators and delegations, the validators `gentx` left in
 * `genutil.gen_txs`, distribution's community tax and x/mint, the native coin's balances (EVM balances), other coins, token pairs and channels,
 * the EVM's contracts and the accounts' nonces.
 * One reader for the node's home (src/host/node/home.ts); each part absent when the genesis has none, and
 * every error names the field.
 */
import { getAddress } from "ethers/address";
import type { Bech32Prefixes } from "./bech32/precompile";
import { type GenesisCoins, coinsFromGenesis } from "./coins-genesis";
import { distributionFromGenesis, genTxValidators, stakingFromGenesis } from "./staking/genesis";
import type { DistributionOptions, StakingOptions } from "./staking/module";
import type { GovGenesis } from "./gov/module";
import { govParamsFromJson } from "./gov/messages";
import { type EvmGenesisAccount, evmAccountsFromGenesis } from "./evm-genesis";

export interface AppGenesis {
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
