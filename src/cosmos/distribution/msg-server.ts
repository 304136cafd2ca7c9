/**
 * x/distribution's Msg server (x/distribution/keeper/msg_server.go): one function per Msg, the SDK's
 * checks in its order and words, then the keeper. The distribution precompile calls it, and so does
 * the Msg router (src/cosmos/msg-router.ts) for a proposal's messages.
 */
import { type ModuleEnv } from "../common/module-env";
import { ModuleError, invalidCoins } from "../common/errors";
import type { JsonCoin } from "../common/proto-json";
import type { StakingKeeper } from "./expected-keepers";
import type { DistributionKeeper, DistributionParams } from "./keeper";

interface DistributionMsgKeepers {
  env: ModuleEnv;
  distribution: DistributionKeeper;
  staking: Pick<StakingKeeper, "delegationShares"> & { validator(operator: string): Promise<unknown> };
}

/** MsgCommunityPoolSpend: each coin out of the pool (the pool holds the native coin only). */
export async function communityPoolSpend(k: DistributionMsgKeepers, msg: { recipient: string; amount: JsonCoin[] }): Promise<void> {
  for (const c of msg.amount) await k.distribution.spendCommunityPool(msg.recipient, c.amount, c.denom);
}

/** MsgWithdrawDelegatorReward: the delegation's whole coins to its withdraw address (WithdrawDelegationRewards' checks and words first). */
export async function withdrawDelegatorReward(k: DistributionMsgKeepers, msg: { delegatorAddress: string; validatorAddress: string }): Promise<bigint> {
  if ((await k.staking.validator(msg.validatorAddress)) === undefined) throw new ModuleError("no validator distribution info");
  if ((await k.staking.delegationShares(msg.delegatorAddress, msg.validatorAddress)) === undefined) throw new ModuleError("no delegation distribution info");
  return k.distribution.withdrawDelegationRewards(msg.delegatorAddress, msg.validatorAddress);
}

export async function setWithdrawAddress(k: DistributionMsgKeepers, msg: { delegatorAddress: string; withdrawAddress: string }): Promise<void> {
  await k.distribution.setWithdrawAddress(msg.delegatorAddress, msg.withdrawAddress);
}

export async function fundCommunityPool(k: DistributionMsgKeepers, msg: { depositor: string; amount: JsonCoin[] }): Promise<void> {
  for (const c of msg.amount) {
    if (c.denom !== k.env.denom) throw invalidCoins(`${c.amount}${c.denom}`);
    await k.distribution.fundCommunityPool(msg.depositor, c.amount);
  }
}

/** MsgUpdateParams: the community tax (validated by the keeper: x/distribution's validateCommunityTax); this chain's epoch rewards are kept. */
export async function updateParams(k: DistributionMsgKeepers, msg: { params: { communityTax?: bigint } }): Promise<void> {
  const now: DistributionParams = await k.distribution.params();
  await k.distribution.setParams({ ...now, communityTax: msg.params.communityTax ?? now.communityTax });
}
