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
import type { Bech32Prefixes } from "../common/address-codec";
import { DEC, parseFraction } from "../common/decimal";
import { decOf, hexOf, secondsOf, uint } from "../common/genesis-values";
import type { GenesisDelegation, GenesisValidator, StakingOptions } from "./module";
import { ERR_VALIDATOR_OWNER_EXISTS, ensureDescriptionLength, validateCommissionRates, validateStakingParams } from "./types";

/** Runs a module's own check on a genesis value, its refusal naming the genesis field. */
export function named(field: string, check: () => void): void {
  try {
    check();
  } catch (err) {
    throw new Error(`${field}: ${(err as Error).message}`);
  }
}

/** A validator's description, commission rates and minimum self-delegation as a genesis or gentx gives them (absent = the defaults). */
function validatorFields(
  v: { description?: unknown; commission?: { commission_rates?: unknown }; min_self_delegation?: unknown },
  field: string,
  rates: unknown = v.commission?.commission_rates,
): Partial<GenesisValidator> {
  const out: Partial<GenesisValidator> = {};
  const d = (v.description ?? {}) as Record<string, unknown>;
  const text = (key: string, name: "moniker" | "identity" | "website" | "securityContact" | "details") => {
    if (d[key] === undefined) return;
    if (typeof d[key] !== "string") throw new Error(`${field}.description.${key}: expected a string`);
    out[name] = d[key];
  };
  text("moniker", "moniker");
  text("identity", "identity");
  text("website", "website");
  text("security_contact", "securityContact");
  text("details", "details");
  named(`${field}.description`, () =>
    ensureDescriptionLength({ moniker: out.moniker ?? "", identity: out.identity ?? "", website: out.website ?? "", securityContact: out.securityContact ?? "", details: out.details ?? "" }),
  );
  const r = (rates ?? {}) as { rate?: unknown; max_rate?: unknown; max_change_rate?: unknown };
  const rate = (x: unknown, key: string, name: "commissionRate" | "maxRate" | "maxChangeRate") => {
    if (x === undefined) return;
    const f = parseFraction(String(x));
    if (f === undefined) throw new Error(`${field}.commission.commission_rates.${key}: expected a decimal from 0 to 1, got ${JSON.stringify(x)}`);
    out[name] = f;
  };
  rate(r.rate, "rate", "commissionRate");
  rate(r.max_rate, "max_rate", "maxRate");
  rate(r.max_change_rate, "max_change_rate", "maxChangeRate");
  // the SDK's CommissionRates.Validate (src/cosmos/staking/types.ts), naming the field
  named(`${field}.commission.commission_rates`, () => validateCommissionRates({ rate: out.commissionRate ?? 0n, maxRate: out.maxRate ?? DEC, maxChangeRate: out.maxChangeRate ?? 0n }));
  if (v.min_self_delegation !== undefined) out.minSelfDelegation = uint(v.min_self_delegation, `${field}.min_self_delegation`);
  const updated = (v.commission as { update_time?: unknown } | undefined)?.update_time;
  if (updated !== undefined) {
    const ms = typeof updated === "string" ? Date.parse(updated) : NaN;
    if (Number.isNaN(ms)) throw new Error(`${field}.commission.update_time: expected an RFC 3339 time, got ${JSON.stringify(updated)}`);
    out.commissionUpdateTime = BigInt(Math.floor(ms / 1000));
  }
  return out;
}

/**
 * The validators of `app_state.genutil.gen_txs` (what `gentx` and `collect-gentxs` leave): each
 * MsgCreateValidator creates its validator at genesis, its self-delegation taken from the operator's
 * genesis balance, as the SDK's InitChain delivers them. Signatures are not checked (the file is the
 * operator's own); any other message is refused, naming it.
 */
export function genTxValidators(appState: unknown, prefixes: Bech32Prefixes, bondDenom: string): GenesisValidator[] {
  const genTxs = (appState as { genutil?: { gen_txs?: unknown } } | undefined)?.genutil?.gen_txs;
  if (genTxs === undefined || genTxs === null) return [];
  if (!Array.isArray(genTxs)) throw new Error("app_state.genutil.gen_txs: expected an array");
  const out: GenesisValidator[] = [];
  genTxs.forEach((tx, i) => {
    const messages = (tx as { body?: { messages?: unknown } } | null)?.body?.messages;
    if (!Array.isArray(messages)) throw new Error(`app_state.genutil.gen_txs[${i}].body.messages: expected an array`);
    messages.forEach((raw, j) => {
      const field = `app_state.genutil.gen_txs[${i}].body.messages[${j}]`;
      const m = raw as {
        "@type"?: unknown;
        validator_address?: unknown;
        pubkey?: { key?: unknown };
        value?: { denom?: unknown; amount?: unknown };
        commission?: unknown;
        description?: unknown;
        min_self_delegation?: unknown;
      };
      if (m?.["@type"] !== "/cosmos.staking.v1beta1.MsgCreateValidator")
        throw new Error(`${field}: ${JSON.stringify(m?.["@type"])} is not a message this chain runs at genesis (only /cosmos.staking.v1beta1.MsgCreateValidator)`);
      if (typeof m.validator_address !== "string") throw new Error(`${field}.validator_address: expected a ${prefixes.validator}1… address`);
      const operator = hexOf(m.validator_address, prefixes.validator, `${field}.validator_address`);
      if (m.value?.denom !== bondDenom) throw new Error(`${field}.value.denom: invalid coin denomination: got ${JSON.stringify(m.value?.denom)}, expected ${bondDenom}`);
      const tokens = uint(m.value.amount, `${field}.value.amount`);
      const fields = validatorFields({ description: m.description, min_self_delegation: m.min_self_delegation }, field, m.commission);
      if (tokens < (fields.minSelfDelegation ?? 1n)) throw new Error(`${field}: validator's self delegation must be greater than their minimum self delegation`);
      if (out.some((v) => v.operator === operator)) throw new Error(`${field}: ${ERR_VALIDATOR_OWNER_EXISTS}`);
      out.push({ operator, tokens, ...fields, ...(typeof m.pubkey?.key === "string" ? { consensusPubkey: m.pubkey.key } : {}) });
    });
  });
  return out;
}

/** The staking options `app_state.staking` gives, or undefined when the genesis has none. Errors name the field. */
export function stakingFromGenesis(appState: unknown, prefixes: Bech32Prefixes): StakingOptions | undefined {
  const staking = (appState as { staking?: unknown } | undefined)?.staking;
  if (staking === undefined) return undefined;
  if (staking === null || typeof staking !== "object") throw new Error("app_state.staking: expected an object");
  const s = staking as { params?: { unbonding_time?: unknown; max_entries?: unknown; max_validators?: unknown }; validators?: unknown; delegations?: unknown };
  const out: StakingOptions = {};
  if (s.params?.unbonding_time !== undefined) out.unbondingTime = secondsOf(s.params.unbonding_time, "app_state.staking.params.unbonding_time");
  const count = (v: unknown, name: string): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0 || n > 0xffffffff) throw new Error(`app_state.staking.params.${name}: expected a uint32`);
    return n;
  };
  const maxEntries = count(s.params?.max_entries, "max_entries");
  const maxValidators = count(s.params?.max_validators, "max_validators");
  if (maxEntries !== undefined) out.maxEntries = maxEntries;
  if (maxValidators !== undefined) out.maxValidators = maxValidators;
  // x/staking's Params.Validate, the one every path runs (src/cosmos/staking/types.ts), naming the section
  named("app_state.staking.params", () => validateStakingParams({ unbondingTime: out.unbondingTime ?? 1n, maxEntries: out.maxEntries ?? 1, maxValidators: out.maxValidators ?? 1 }));
  const validators = s.validators ?? [];
  if (!Array.isArray(validators)) throw new Error("app_state.staking.validators: expected an array");
  if (validators.length === 0) return out;
  const delegations = s.delegations ?? [];
  if (!Array.isArray(delegations)) throw new Error("app_state.staking.delegations: expected an array");
  const list: GenesisValidator[] = [];
  const parsed: Array<{ v: GenesisValidator; shares: bigint }> = [];
  validators.forEach((raw, i) => {
    const field = `app_state.staking.validators[${i}]`;
    const v = raw as {
      operator_address?: unknown;
      consensus_pubkey?: { key?: unknown };
      tokens?: unknown;
      delegator_shares?: unknown;
      jailed?: unknown;
      description?: unknown;
      commission?: { commission_rates?: unknown };
      min_self_delegation?: unknown;
    };
    if (typeof v?.operator_address !== "string") throw new Error(`${field}.operator_address: expected a ${prefixes.validator}1… address`);
    const operator = hexOf(v.operator_address, prefixes.validator, `${field}.operator_address`);
    const tokens = uint(v.tokens, `${field}.tokens`);
    const shares = v.delegator_shares === undefined ? tokens * DEC : decOf(v.delegator_shares, `${field}.delegator_shares`);
    const g: GenesisValidator = {
      operator,
      tokens,
      ...validatorFields(v, field),
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
    const shares = decOf(d.shares, `${field}.shares`);
    // what the shares are worth at the validator's exchange rate
    const amount = p.shares === 0n ? 0n : (shares * (p.v.tokens as bigint)) / p.shares;
    if (amount > 0n) dels.push({ delegator, operator, amount });
  });
  out.validators = list;
  if (dels.length > 0) out.delegations = dels;
  return out;
}
