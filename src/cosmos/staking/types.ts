/**
 * x/staking's types as this chain keeps them (src/cosmos/staking/keeper.ts runs them): validators,
 * unbonding and redelegation entries, params, and the hooks the distribution module gives it.
 * Shares and commission rates are Cosmos `LegacyDec`s: integers scaled by 10^18.
 */
import { getAddress } from "ethers/address";
import type { ModuleEnv } from "../common/ledger";

export const STAKING_PRECOMPILE = "0x0000000000000000000000000000000000000800" as const;

/** 10^18: the scale of a LegacyDec. */
export const DEC = 10n ** 18n;

export enum BondStatus {
  Unspecified = 0,
  Unbonded = 1,
  Unbonding = 2,
  Bonded = 3,
}

export interface Description {
  moniker: string;
  identity: string;
  website: string;
  securityContact: string;
  details: string;
}

export interface Validator {
  /** Operator address, checksummed hex (its bytes are the valoper address's). */
  operator: string;
  consensusPubkey: string;
  jailed: boolean;
  status: BondStatus;
  tokens: bigint;
  /** LegacyDec. */
  delegatorShares: bigint;
  description: Description;
  unbondingHeight: bigint;
  unbondingTime: bigint;
  /** LegacyDec rates. */
  commissionRate: bigint;
  maxRate: bigint;
  maxChangeRate: bigint;
  commissionUpdateTime: bigint;
  minSelfDelegation: bigint;
}

export interface UnbondingEntry {
  creationHeight: bigint;
  completionTime: bigint;
  initialBalance: bigint;
  balance: bigint;
  unbondingId: bigint;
}

export interface RedelegationEntry {
  creationHeight: bigint;
  completionTime: bigint;
  initialBalance: bigint;
  /** LegacyDec. */
  sharesDst: bigint;
  unbondingId: bigint;
}

export interface StakingParams {
  /** Seconds an unbonding or a redelegation takes (x/staking's unbonding_time). */
  unbondingTime: bigint;
  /** Entries per (delegator, validator) pair or redelegation triple (max_entries). */
  maxEntries: number;
}

/** A new validator with no tokens yet (its self-delegation follows): bonded unless jailed, maximum rate 100 %, changes of 1 % a day unless given. */
export function newValidator(v: {
  operator: string;
  consensusPubkey: string;
  commissionRate: bigint;
  time: bigint;
  description?: Partial<Description>;
  jailed?: boolean;
  maxRate?: bigint;
  maxChangeRate?: bigint;
  minSelfDelegation?: bigint;
}): Validator {
  const jailed = v.jailed ?? false;
  return {
    operator: getAddress(v.operator),
    consensusPubkey: v.consensusPubkey,
    jailed,
    status: jailed ? BondStatus.Unbonding : BondStatus.Bonded,
    tokens: 0n,
    delegatorShares: 0n,
    description: { moniker: "", identity: "", website: "", securityContact: "", details: "", ...v.description },
    unbondingHeight: 0n,
    unbondingTime: 0n,
    commissionRate: v.commissionRate,
    maxRate: v.maxRate ?? DEC,
    maxChangeRate: v.maxChangeRate ?? DEC / 100n,
    commissionUpdateTime: v.time,
    minSelfDelegation: v.minSelfDelegation ?? 1n,
  };
}

/** Hooks of the distribution module that run when a delegation changes (x/distribution's staking hooks). */
export interface DelegationHooks {
  /** Before a delegation's shares change: its rewards are withdrawn (BeforeDelegationSharesModified). */
  beforeSharesModified(env: ModuleEnv, delegator: string, validator: string): Promise<void>;
  /** After a delegation is created or its shares changed: it starts a new reward period. */
  afterSharesModified(env: ModuleEnv, delegator: string, validator: string): Promise<void>;
}

/** Staking without a distribution module's hooks: for reads, and where no delegation changes. */
export const NO_HOOKS: DelegationHooks = { beforeSharesModified: async () => undefined, afterSharesModified: async () => undefined };
