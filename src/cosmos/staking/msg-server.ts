/**
 * x/staking's Msg server (x/staking/keeper/msg_server.go): one function per Msg, the SDK's checks in
 * its order and words, then the keeper. The staking precompile calls it (ABI arguments → Msg), and so
 * does the Msg router (src/cosmos/msg-router.ts) for a proposal's messages.
 */
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import type { JsonCoin } from "../common/proto-json";
import type { StakingKeeper } from "./keeper";
import { DEC } from "../common/decimal";
import {
  DEFAULT_MAX_VALIDATORS,
  type Description,
  ERR_COMMISSION_GT_MAX_RATE,
  ERR_VALIDATOR_OWNER_EXISTS,
  type StakingParams,
  ensureDescriptionLength,
  newValidator,
  validateCommissionRates,
} from "./types";

export interface StakingMsgKeepers {
  env: ModuleEnv;
  staking: StakingKeeper;
}

/** What `editValidator` leaves as it was: a description field, the commission rate or the minimum self-delegation. */
const DO_NOT_MODIFY = "[do-not-modify]";

/**
 * MsgCreateValidator: a validator that does not exist yet, its commission rates valid, its
 * self-delegation at least its minimum, a 32-byte ed25519 key and a description (Validate, then the
 * msg server's EnsureLength); then the validator and its self-delegation.
 */
export async function createValidator(
  k: StakingMsgKeepers,
  msg: { description: Description; commission: { rate: bigint; maxRate: bigint; maxChangeRate: bigint }; minSelfDelegation: bigint; validatorAddress: string; pubkey: string; value: bigint },
): Promise<void> {
  if ((await k.staking.validator(msg.validatorAddress)) !== undefined) throw new ModuleError(ERR_VALIDATOR_OWNER_EXISTS);
  validateCommissionRates(msg.commission);
  if (msg.value < msg.minSelfDelegation) throw new ModuleError("validator's self delegation must be greater than their minimum self delegation");
  const pk = Buffer.from(msg.pubkey, "base64");
  if (pk.length !== 32) throw new ModuleError(`consensus pubkey len is invalid, got: ${pk.length}, expected: 32`);
  if (Object.values(msg.description).every((x) => x === "")) throw new ModuleError("empty description: invalid request");
  ensureDescriptionLength(msg.description);
  const { rate, maxRate, maxChangeRate } = msg.commission;
  await k.staking.setValidator(
    newValidator({
      operator: msg.validatorAddress,
      consensusPubkey: msg.pubkey,
      commissionRate: rate,
      maxRate,
      maxChangeRate,
      minSelfDelegation: msg.minSelfDelegation,
      time: k.env.time,
      description: msg.description,
    }),
  );
  await k.staking.delegate(msg.validatorAddress, msg.validatorAddress, msg.value);
}

/**
 * MsgEditValidator: the description fields given (DO_NOT_MODIFY keeps one; UpdateDescription ends in
 * EnsureLength), a new commission rate (-1 keeps it: at most once a day, within the max rate and the
 * max change rate) and a larger minimum self-delegation (-1 keeps it).
 */
export async function editValidator(k: StakingMsgKeepers, msg: { description: Description; validatorAddress: string; commissionRate: bigint; minSelfDelegation: bigint }): Promise<void> {
  const v = await k.staking.requireValidator(msg.validatorAddress);
  for (const f of ["moniker", "identity", "website", "securityContact", "details"] as const) if (msg.description[f] !== DO_NOT_MODIFY) v.description[f] = msg.description[f];
  ensureDescriptionLength(v.description);
  if (msg.commissionRate !== -1n) {
    if (msg.commissionRate < 0n || msg.commissionRate > DEC) throw new ModuleError("commission rate must be between 0 and 1 (inclusive): invalid request");
    if (k.env.time - v.commissionUpdateTime < 86_400n) throw new ModuleError("commission cannot be changed more than once in 24h");
    if (msg.commissionRate > v.maxRate) throw new ModuleError(ERR_COMMISSION_GT_MAX_RATE);
    const change = msg.commissionRate > v.commissionRate ? msg.commissionRate - v.commissionRate : v.commissionRate - msg.commissionRate;
    if (change > v.maxChangeRate) throw new ModuleError("commission cannot be changed more than max change rate");
    v.commissionRate = msg.commissionRate;
    v.commissionUpdateTime = k.env.time;
  }
  if (msg.minSelfDelegation !== -1n) {
    if (msg.minSelfDelegation <= v.minSelfDelegation) throw new ModuleError("minimum self delegation can only be increased");
    v.minSelfDelegation = msg.minSelfDelegation;
  }
  await k.staking.setValidator(v);
}

/** The bond denom check every staking Msg with a coin runs first. */
function bondAmount(k: StakingMsgKeepers, coin: JsonCoin): bigint {
  if (coin.denom !== k.env.denom) throw new ModuleError(`invalid coin denomination: got ${coin.denom}, expected ${k.env.denom}`);
  return coin.amount;
}

export async function delegate(k: StakingMsgKeepers, msg: { delegatorAddress: string; validatorAddress: string; amount: JsonCoin }): Promise<bigint> {
  const amount = bondAmount(k, msg.amount);
  return k.staking.delegate(msg.delegatorAddress, msg.validatorAddress, amount);
}

export async function undelegate(k: StakingMsgKeepers, msg: { delegatorAddress: string; validatorAddress: string; amount: JsonCoin }): Promise<{ completionTime: bigint; amount: bigint }> {
  const amount = bondAmount(k, msg.amount);
  return k.staking.undelegate(msg.delegatorAddress, msg.validatorAddress, amount);
}

export async function beginRedelegate(
  k: StakingMsgKeepers,
  msg: { delegatorAddress: string; validatorSrcAddress: string; validatorDstAddress: string; amount: JsonCoin },
): Promise<{ completionTime: bigint; amount: bigint }> {
  const amount = bondAmount(k, msg.amount);
  return k.staking.redelegate(msg.delegatorAddress, msg.validatorSrcAddress, msg.validatorDstAddress, amount);
}

/** MsgUpdateParams: the fields a message leaves out keep their value; the keeper's setParams runs Params.Validate. */
export async function updateParams(k: StakingMsgKeepers, msg: { params: Partial<StakingParams> & { bondDenom?: string } }): Promise<void> {
  const now = await k.staking.params();
  const { bondDenom, ...given } = msg.params;
  if (bondDenom !== undefined && bondDenom !== k.env.denom) throw new ModuleError(`bond denom ${bondDenom} is not this chain's coin ${k.env.denom}`);
  // a store written before max_validators existed has none: the default, as the keeper reads it
  await k.staking.setParams({
    unbondingTime: given.unbondingTime ?? now.unbondingTime,
    maxEntries: given.maxEntries ?? now.maxEntries,
    maxValidators: given.maxValidators ?? now.maxValidators ?? DEFAULT_MAX_VALIDATORS,
  });
}
