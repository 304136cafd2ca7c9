/** x/slashing's Msg server (src/cosmos/slashing/msg-server.ts) on a module environment without an EVM. */
import { expect } from "chai";
import { unjail } from "../../../src/cosmos/slashing/msg-server";
import { BondStatus } from "../../../src/cosmos/staking/types";
import { ALICE, OP0, stakingChain } from "../../helpers/module-env";

describe("slashing Msg server", () => {
  it("MsgUnjail: not a validator, not jailed and still jailed are refused in x/slashing's order and words; after the jail duration the validator rejoins the set", async () => {
    const { at } = await stakingChain();
    const k = at(1_000n);
    await expect(unjail(k, { validatorAddr: ALICE })).to.be.rejectedWith("address is not associated with any known validator");
    await expect(unjail(k, { validatorAddr: OP0 })).to.be.rejectedWith("validator not jailed; cannot be unjailed");
    const jailed = await k.slashing.setJailed(OP0, true);
    expect(jailed.jailed).to.equal(true);
    expect(jailed.status).to.not.equal(BondStatus.Bonded);
    const until = (await k.slashing.signingInfo(OP0)).jailedUntil;
    expect(until).to.equal(1_000n + (await k.slashing.params()).downtimeJailDuration);
    await expect(unjail(at(until - 1n), { validatorAddr: OP0 })).to.be.rejectedWith("validator still jailed; cannot be unjailed");
    await unjail(at(until), { validatorAddr: OP0 });
    const v = await at(until).staking.validator(OP0);
    expect(v?.jailed).to.equal(false);
    expect(v?.status).to.equal(BondStatus.Bonded);
  });
});
