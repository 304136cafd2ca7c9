/**
 * x/staking's types as this chain keeps them (src/cosmos/staking/keeper.ts runs them): validators,
 * unbonding and redelegation entries, params, and the hooks the distribution module gives it.
 * Shares and commission rates are Cosmos `LegacyDec`s: integers scaled by 10^18.
 */
import { getAddress } from "ethers/address";
import { DEC } from "../common/decimal";
import { ModuleError } from "../common/errors";

export const STAKING_PRECOMPILE = "0x0000000000000000000000000000000000000800" as const;

export { DEC };

/** x/staking's errors this chain answers with (x/staking/types/errors.go): each text in this one place. */
export const ERR_VALIDATOR_OWNER_EXISTS = "validator already exist for this operator address; must use new validator operator address";
export const ERR_COMMISSION_GT_MAX_RATE = "commission cannot be more than the max rate";
export const ERR_NO_DELEGATION = "no delegation for (address, validator) tuple";

/** CommissionRates.Validate (x/staking/types/commission.go), in its order and words. */
export function validateCommissionRates(r: { rate: bigint; maxRate: bigint; maxChangeRate: bigint }): void {
  if (r.maxRate < 0n) throw new ModuleError("commission must be positive");
  if (r.maxRate > DEC) throw new ModuleError("commission parameter must be positive and less than 100%: invalid request");
  if (r.rate < 0n) throw new ModuleError("commission must be positive");
  if (r.rate > r.maxRate) throw new ModuleError(ERR_COMMISSION_GT_MAX_RATE);
  if (r.maxChangeRate < 0n) throw new ModuleError("commission change rate must be positive");
  if (r.maxChangeRate > r.maxRate) throw new ModuleError("commission change rate cannot be more than the max rate");
}

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

/**
 * A validator without its description: what the block work reads (allocation, tallies). The
 * description is a record of its own (`description/<operator>`), so the bonded set read every block
 * costs a few words a validator, not the 3,630 bytes a description may hold.
 */
export type ValidatorCore = Omit<Validator, "description">;

export const EMPTY_DESCRIPTION: Readonly<Description> = { moniker: "", identity: "", website: "", securityContact: "", details: "" };

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
  /** How many validators the bonded set holds (max_validators); absent in a store written before it: the default. */
  maxValidators?: number;
}

/** x/staking's DefaultMaxValidators. */
export const DEFAULT_MAX_VALIDATORS = 100;

/** x/staking's Params.Validate (x/staking/types/params.go), in its words: every path that sets the params runs it. */
export function validateStakingParams(p: StakingParams): void {
  if (p.unbondingTime <= 0n) throw new ModuleError(`unbonding time must be positive: ${p.unbondingTime * 1_000_000_000n}`);
  if (!Number.isSafeInteger(p.maxEntries) || p.maxEntries <= 0 || p.maxEntries > 0xffffffff) throw new ModuleError("max entries must be positive");
  const max = p.maxValidators ?? DEFAULT_MAX_VALIDATORS;
  if (!Number.isSafeInteger(max) || max <= 0 || max > 0xffffffff) throw new ModuleError("max validators must be positive");
}

/** A token's worth of consensus power (sdk.DefaultPowerReduction, 10^18 on cosmos/evm's 18-decimal chains): fewer tokens have no power and never bond. */
export const POWER_REDUCTION = 10n ** 18n;

/** The SDK's description limits (x/staking/types/validator.go). */
const DESCRIPTION_LIMITS = { moniker: 70, identity: 3000, website: 140, securityContact: 140, details: 280 } as const;
const DESCRIPTION_WORDS: Record<keyof Description, string> = { moniker: "moniker", identity: "identity", website: "website", securityContact: "security contact", details: "details" };

/**
 * Description.EnsureLength: each field within the SDK's limit (in UTF-8 bytes, as Go's `len`), with its
 * error text. Every path that writes a description runs it (create, edit, genesis, the dev helpers).
 */
export function ensureDescriptionLength(d: Description): void {
  for (const f of Object.keys(DESCRIPTION_LIMITS) as Array<keyof Description>) {
    const n = Buffer.byteLength(d[f], "utf8");
    if (n > DESCRIPTION_LIMITS[f]) throw new ModuleError(`invalid ${DESCRIPTION_WORDS[f]} length; got: ${n}, max: ${DESCRIPTION_LIMITS[f]}: invalid request`);
  }
}

/**
 * A new validator with no tokens yet (its self-delegation follows): Unbonded (Unbonding when jailed)
 * until the end block's set update bonds it (StakingKeeper.applyValidatorSetUpdates), as MsgCreateValidator
 * leaves it; `bonded` for a genesis validator that starts in the set. Maximum rate 100 %, changes of 1 % a day unless given.
 */
export function newValidator(v: {
  operator: string;
  consensusPubkey: string;
  commissionRate: bigint;
  time: bigint;
  description?: Partial<Description>;
  jailed?: boolean;
  bonded?: boolean;
  maxRate?: bigint;
  maxChangeRate?: bigint;
  minSelfDelegation?: bigint;
}): Validator {
  const jailed = v.jailed ?? false;
  return {
    operator: getAddress(v.operator),
    consensusPubkey: v.consensusPubkey,
    jailed,
    status: jailed ? BondStatus.Unbonding : v.bonded === true ? BondStatus.Bonded : BondStatus.Unbonded,
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
  beforeSharesModified(delegator: string, validator: string): Promise<void>;
  /** After a delegation is created or its shares changed: it starts a new reward period. */
  afterSharesModified(delegator: string, validator: string): Promise<void>;
}
