/** x/staking's Msg server (src/cosmos/staking/msg-server.ts) on a module environment without an EVM. */
import { expect } from "chai";
import { beginRedelegate, delegate, undelegate, updateParams } from "../../../src/cosmos/staking/msg-server";
import { DEC, STAKING_PRECOMPILE, newValidator } from "../../../src/cosmos/staking/types";
import { ALICE, DENOM, OP0, balanceOf, stakingChain } from "../../helpers/module-env";

const OP1 = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

describe("staking Msg server", () => {
  it("MsgDelegate, MsgUndelegate and MsgBeginRedelegate in the bond denom reach the keeper; another denom is refused first, in x/staking's words", async () => {
    const { state, at } = await stakingChain();
    const k = at();
    await expect(delegate(k, { delegatorAddress: ALICE, validatorAddress: OP0, amount: { denom: "uatom", amount: DEC } })).to.be.rejectedWith(
      `invalid coin denomination: got uatom, expected ${DENOM}`,
    );
    expect(await k.staking.delegationShares(ALICE, OP0)).to.equal(undefined);
    await delegate(k, { delegatorAddress: ALICE, validatorAddress: OP0, amount: { denom: DENOM, amount: 4n * DEC } });
    expect(balanceOf(state, ALICE)).to.equal(96n * DEC);
    expect(await k.staking.delegationShares(ALICE, OP0)).to.be.a("bigint");
    const out = await undelegate(k, { delegatorAddress: ALICE, validatorAddress: OP0, amount: { denom: DENOM, amount: DEC } });
    expect(out).to.deep.equal({ completionTime: 1_100n, amount: DEC });
    await expect(undelegate(k, { delegatorAddress: ALICE, validatorAddress: OP0, amount: { denom: "uatom", amount: DEC } })).to.be.rejectedWith("invalid coin denomination");
    await k.staking.setValidator(newValidator({ operator: OP1, consensusPubkey: "", commissionRate: 0n, time: 0n }));
    await expect(beginRedelegate(k, { delegatorAddress: ALICE, validatorSrcAddress: OP0, validatorDstAddress: OP1, amount: { denom: "uatom", amount: DEC } })).to.be.rejectedWith(
      "invalid coin denomination",
    );
    const moved = await beginRedelegate(k, { delegatorAddress: ALICE, validatorSrcAddress: OP0, validatorDstAddress: OP1, amount: { denom: DENOM, amount: DEC } });
    expect(moved.amount).to.equal(DEC);
    expect(await k.staking.delegatorValidators(ALICE)).to.have.members([OP0, OP1]);
  });

  it("MsgUpdateParams keeps the fields a message leaves out, refuses another bond denom and runs Params.Validate", async () => {
    const { at } = await stakingChain();
    const k = at();
    await updateParams(k, { params: { maxEntries: 3 } });
    expect(await k.staking.params()).to.deep.equal({ unbondingTime: 100n, maxEntries: 3, maxValidators: 100 });
    await expect(updateParams(k, { params: { bondDenom: "uatom", maxEntries: 4 } })).to.be.rejectedWith(`bond denom uatom is not this chain's coin ${DENOM}`);
    await expect(updateParams(k, { params: { unbondingTime: 0n } })).to.be.rejectedWith("unbonding time must be positive");
    expect(await k.staking.params()).to.deep.equal({ unbondingTime: 100n, maxEntries: 3, maxValidators: 100 });
  });

  it("MsgUpdateParams on a store written before max_validators gives it the default", async () => {
    const { at } = await stakingChain();
    const k = at();
    await k.env.records(STAKING_PRECOMPILE).put("params", { unbondingTime: 100n, maxEntries: 7 });
    await updateParams(k, { params: { unbondingTime: 50n } });
    expect(await k.staking.params()).to.deep.equal({ unbondingTime: 50n, maxEntries: 7, maxValidators: 100 });
  });
});
