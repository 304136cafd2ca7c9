/**
 * x/staking's Msg server (x/staking/keeper/msg_server.go): one function per Msg, the SDK's checks in
 * its order and words, then the keeper. The Msg router (src/cosmos/msg-router.ts) calls it for a
 * proposal's messages.
 */
import { type ModuleEnv, ModuleError } from "../common/ledger";
import type { JsonCoin } from "../common/proto-json";
import type { StakingKeeper } from "./keeper";
import { DEFAULT_MAX_VALIDATORS, type StakingParams } from "./types";

export interface StakingMsgKeepers {
  env: ModuleEnv;
  staking: StakingKeeper;
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

export async function beginRedelegate(k: StakingMsgKeepers, msg: { delegatorAddress: string; validatorSrcAddress: string; validatorDstAddress: string; amount: JsonCoin }): Promise<{ completionTime: bigint; amount: bigint }> {
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
