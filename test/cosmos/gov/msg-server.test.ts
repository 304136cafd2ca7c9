/** x/gov's Msg server (src/cosmos/gov/msg-server.ts) and its params' JSON form, on a module environment without an EVM. */
import { expect } from "chai";
import { bech32Prefixes } from "../../../src/cosmos/common/address-codec";
import { govParamsFromJson } from "../../../src/cosmos/gov/messages";
import { updateParams } from "../../../src/cosmos/gov/msg-server";
import { DEFAULT_GOV_PARAMS } from "../../../src/cosmos/gov/params";
import { DENOM, keepersAt, memoryState } from "../../helpers/module-env";

describe("gov Msg server", () => {
  it("MsgUpdateParams writes the params whole, decoded against the current ones, and refuses what Params.ValidateBasic refuses", async () => {
    const k = keepersAt(memoryState());
    const prefixes = bech32Prefixes("cosmos");
    const now = await k.gov.params();
    expect(now).to.deep.equal(DEFAULT_GOV_PARAMS);
    await updateParams(k, { params: govParamsFromJson({ voting_period: "600s", expedited_voting_period: "300s" }, DENOM, prefixes, "params", now) });
    expect(await k.gov.params()).to.deep.equal({ ...DEFAULT_GOV_PARAMS, votingPeriod: 600n, expeditedVotingPeriod: 300n });
    await expect(updateParams(k, { params: { ...DEFAULT_GOV_PARAMS, votingPeriod: 0n } })).to.be.rejectedWith("voting period must be positive: 0s");
    expect((await k.gov.params()).votingPeriod).to.equal(600n);
  });
});
