/** x/distribution's Msg server (src/cosmos/distribution/msg-server.ts) on a module environment without an EVM. */
import { expect } from "chai";
import { communityPoolSpend, fundCommunityPool, setWithdrawAddress, updateParams, withdrawDelegatorReward } from "../../../src/cosmos/distribution/msg-server";
import { DEC } from "../../../src/cosmos/staking/types";
import { ALICE, BOB, DENOM, OP0, balanceOf, stakingChain } from "../../helpers/module-env";

describe("distribution Msg server", () => {
  it("MsgFundCommunityPool and MsgCommunityPoolSpend move whole native coins in and out; other denoms are refused in the SDK's words", async () => {
    const { state, at } = await stakingChain();
    const k = at();
    await expect(fundCommunityPool(k, { depositor: ALICE, amount: [{ denom: "uatom", amount: 5n }] })).to.be.rejectedWith("5uatom: invalid coins");
    await fundCommunityPool(k, { depositor: ALICE, amount: [{ denom: DENOM, amount: 5n * DEC }] });
    expect(await k.distribution.communityPool()).to.equal(5n * DEC * DEC);
    expect(balanceOf(state, ALICE)).to.equal(95n * DEC);
    await expect(communityPoolSpend(k, { recipient: BOB, amount: [{ denom: "uatom", amount: 1n }] })).to.be.rejectedWith("community pool does not have sufficient coins to distribute");
    await expect(communityPoolSpend(k, { recipient: BOB, amount: [{ denom: DENOM, amount: 6n * DEC }] })).to.be.rejectedWith("community pool does not have sufficient coins to distribute");
    await communityPoolSpend(k, { recipient: BOB, amount: [{ denom: DENOM, amount: 2n * DEC }] });
    expect(balanceOf(state, BOB)).to.equal(2n * DEC);
    expect(await k.distribution.communityPool()).to.equal(3n * DEC * DEC);
  });

  it("MsgWithdrawDelegatorReward pays the delegation's whole coins to the withdraw address MsgSetWithdrawAddress set; no validator or no delegation is refused first", async () => {
    const { state, at } = await stakingChain();
    const k = at();
    await setWithdrawAddress(k, { delegatorAddress: OP0, withdrawAddress: BOB });
    await k.distribution.allocate(10n * DEC);
    // 2 % to the community, 10 % commission of the rest, the rest to OP0's only delegation
    const paid = await withdrawDelegatorReward(k, { delegatorAddress: OP0, validatorAddress: OP0 });
    expect(paid).to.equal((10n * DEC * 98n * 90n) / 10_000n);
    expect(balanceOf(state, BOB)).to.equal(paid);
    // WithdrawDelegationRewards' own checks, in its order and words
    await expect(withdrawDelegatorReward(k, { delegatorAddress: ALICE, validatorAddress: BOB })).to.be.rejectedWith("no validator distribution info");
    await expect(withdrawDelegatorReward(k, { delegatorAddress: ALICE, validatorAddress: OP0 })).to.be.rejectedWith("no delegation distribution info");
  });

  it("MsgUpdateParams changes the community tax, keeps this chain's epoch rewards, and refuses a tax over 1", async () => {
    const { at } = await stakingChain();
    const k = at();
    await updateParams(k, { params: { communityTax: DEC / 10n } });
    expect(await k.distribution.params()).to.deep.equal({ communityTax: DEC / 10n, epochIdentifier: "day", rewardsPerEpoch: 0n });
    await expect(updateParams(k, { params: { communityTax: 2n * DEC } })).to.be.rejectedWith("community tax too large: 2.000000000000000000");
    await updateParams(k, { params: {} });
    expect((await k.distribution.params()).communityTax).to.equal(DEC / 10n);
  });
});
