/**
 * The staking module in a Cosmos genesis.json (`app_state.staking`, the Cosmos SDK's shape): read
 * when a node's home has one (its validators, their delegations, the params), and written by
 * `epochs:export-genesis`, so a chain exported here starts again with the same validators and stakes.
 *
 * What is kept: the params `unbonding_time` and `max_entries`; each validator's operator address,
 * tokens, commission rate, moniker and jailed flag; each delegation (delegator, validator, and what
 * its shares are worth). A validator's tokens that no listed delegation accounts for are its
 * operator's self-delegation. Delegated coins are minted into the pools (genesis balances of the
 * dev accounts stay as configured). Unbonding entries, redelegations and rewards start empty.
 */
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { type Bech32Prefixes, fromBech32 } from "./bech32";
import { parseFraction } from "./decimal";
import type { GenesisValidator, StakingOptions } from "./modules";
import type { CosmosQueries } from "./query";

/** A genesis delegation: coins of `delegator` staked with `operator`. */
export interface GenesisDelegation {
  delegator: string;
  operator: string;
  amount: bigint;
}

const DEC = 10n ** 18n;

/** The 20-byte hex address of a bech32 `text` under `prefix`; errors name `field`. */
export function hexOf(text: string, prefix: string, field: string): string {
  try {
    const bytes = fromBech32(text, prefix);
    if (bytes.length !== 20) throw new Error(`${bytes.length} bytes, expected 20`);
    return getAddress(hexlify(bytes));
  } catch (err) {
    throw new Error(`${field}: ${(err as Error).message}`);
  }
}

const uint = (v: unknown, field: string): bigint => {
  if (typeof v === "string" && /^\d+$/.test(v)) return BigInt(v);
  throw new Error(`${field}: expected an integer string, got ${JSON.stringify(v)}`);
};

/** "1000.000000000000000000" → 1000 × 10^18 (a LegacyDec). */
function dec(v: unknown, field: string): bigint {
  const m = typeof v === "string" ? /^(\d+)(?:\.(\d{1,18}))?$/.exec(v) : null;
  if (m === null) throw new Error(`${field}: expected a decimal string, got ${JSON.stringify(v)}`);
  return BigInt(m[1]) * DEC + BigInt((m[2] ?? "").padEnd(18, "0"));
}

/** The staking options `app_state.staking` gives, or undefined when the genesis has none. Errors name the field. */
export function stakingFromGenesis(appState: unknown, prefixes: Bech32Prefixes): StakingOptions | undefined {
  const staking = (appState as { staking?: unknown } | undefined)?.staking;
  if (staking === undefined) return undefined;
  if (staking === null || typeof staking !== "object") throw new Error("app_state.staking: expected an object");
  const s = staking as { params?: { unbonding_time?: unknown; max_entries?: unknown }; validators?: unknown; delegations?: unknown };
  const out: StakingOptions = {};
  const ut = s.params?.unbonding_time;
  if (ut !== undefined) {
    const m = typeof ut === "string" ? /^(\d+)s$/.exec(ut) : null;
    if (m === null) throw new Error(`app_state.staking.params.unbonding_time: expected seconds such as "1814400s", got ${JSON.stringify(ut)}`);
    out.unbondingTime = BigInt(m[1]);
  }
  if (s.params?.max_entries !== undefined) {
    const n = Number(s.params.max_entries);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error("app_state.staking.params.max_entries: expected a positive integer");
    out.maxEntries = n;
  }
  const validators = s.validators ?? [];
  if (!Array.isArray(validators)) throw new Error("app_state.staking.validators: expected an array");
  if (validators.length === 0) return out;
  const delegations = s.delegations ?? [];
  if (!Array.isArray(delegations)) throw new Error("app_state.staking.delegations: expected an array");
  const list: GenesisValidator[] = [];
  const parsed: Array<{ v: GenesisValidator; shares: bigint }> = [];
  validators.forEach((raw, i) => {
    const field = `app_state.staking.validators[${i}]`;
    const v = raw as { operator_address?: unknown; consensus_pubkey?: { key?: unknown }; tokens?: unknown; delegator_shares?: unknown; jailed?: unknown; description?: { moniker?: unknown }; commission?: { commission_rates?: { rate?: unknown } } };
    if (typeof v?.operator_address !== "string") throw new Error(`${field}.operator_address: expected a ${prefixes.validator}1… address`);
    const operator = hexOf(v.operator_address, prefixes.validator, `${field}.operator_address`);
    const tokens = uint(v.tokens, `${field}.tokens`);
    const rate = v.commission?.commission_rates?.rate;
    const commissionRate = rate === undefined ? undefined : parseFraction(String(rate));
    if (rate !== undefined && commissionRate === undefined) throw new Error(`${field}.commission.commission_rates.rate: expected a decimal from 0 to 1`);
    const shares = v.delegator_shares === undefined ? tokens * DEC : dec(v.delegator_shares, `${field}.delegator_shares`);
    const g: GenesisValidator = {
      operator,
      tokens,
      ...(commissionRate !== undefined ? { commissionRate } : {}),
      ...(typeof v.description?.moniker === "string" ? { moniker: v.description.moniker } : {}),
      ...(v.jailed === true ? { jailed: true } : {}),
      ...(typeof v.consensus_pubkey?.key === "string" ? { consensusPubkey: v.consensus_pubkey.key } : {}),
    };
    parsed.push({ v: g, shares });
    list.push(g);
  });
  const dels: GenesisDelegation[] = [];
  delegations.forEach((raw, i) => {
    const field = `app_state.staking.delegations[${i}]`;
    const d = raw as { delegator_address?: unknown; validator_address?: unknown; shares?: unknown };
    if (typeof d?.delegator_address !== "string" || typeof d.validator_address !== "string") throw new Error(`${field}: expected delegator_address and validator_address`);
    const delegator = hexOf(d.delegator_address, prefixes.account, `${field}.delegator_address`);
    const operator = hexOf(d.validator_address, prefixes.validator, `${field}.validator_address`);
    const p = parsed.find((x) => x.v.operator === operator);
    if (p === undefined) throw new Error(`${field}.validator_address: no validator ${d.validator_address} in app_state.staking.validators`);
    const shares = dec(d.shares, `${field}.shares`);
    // what the shares are worth at the validator's exchange rate
    const amount = p.shares === 0n ? 0n : (shares * (p.v.tokens as bigint)) / p.shares;
    if (amount > 0n) dels.push({ delegator, operator, amount });
  });
  out.validators = list;
  if (dels.length > 0) out.delegations = dels;
  return out;
}

/** `app_state.staking` of the chain now: the params, the validators and every delegation. */
export async function stakingGenesisJson(q: CosmosQueries): Promise<Record<string, unknown>> {
  const summary = (await q.summary()) as { staking_params: { unbonding_time: string; max_entries: number; bond_denom: string }; validators: Array<Record<string, unknown>> };
  const delegations: unknown[] = [];
  for (const delegator of await q.delegators()) {
    for (const d of (await q.delegations(delegator)) as Array<{ delegation: Record<string, string> }>) delegations.push(d.delegation);
  }
  return {
    params: { unbonding_time: summary.staking_params.unbonding_time, max_entries: summary.staking_params.max_entries, bond_denom: summary.staking_params.bond_denom },
    validators: summary.validators,
    delegations,
  };
}
