/**
 * The Msg router (src/cosmos/msg-router.ts) as x/gov meets it: the signer field per type URL, the
 * proto JSON decoded into each Msg and run by its module's Msg server, and x/gov's words for a Msg
 * no server takes. On a module environment without an EVM, with the wiring file's keepers.
 */
import { expect } from "chai";
import { getBytes } from "ethers";
import { keepers } from "../../src/cosmos/app";
import { bech32Prefixes, toBech32 } from "../../src/cosmos/common/address-codec";
import { MsgRouter } from "../../src/cosmos/msg-router";
import { DEC } from "../../src/cosmos/staking/types";
import { ALICE, BOB, DENOM, OP0, balanceOf, stakingChain } from "../helpers/module-env";

const prefixes = bech32Prefixes("cosmos");
const acc = (a: string) => toBech32(prefixes.account, getBytes(a));
const val = (a: string) => toBech32(prefixes.validator, getBytes(a));

describe("Msg router", () => {
  const router = new MsgRouter(prefixes, keepers);

  it("names each routed Msg's signer field, and for another Msg the first signer-like field it carries", () => {
    expect(router.signerField("/cosmos.bank.v1beta1.MsgSend", { authority: "x", from_address: "y" })).to.equal("from_address");
    expect(router.signerField("/cosmos.staking.v1beta1.MsgDelegate", {})).to.equal("delegator_address");
    expect(router.signerField("/cosmos.distribution.v1beta1.MsgFundCommunityPool", {})).to.equal("depositor");
    expect(router.signerField("/cosmos.gov.v1.MsgUpdateParams", {})).to.equal("authority");
    expect(router.signerField("/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade", { authority: "cosmos1…" })).to.equal("authority");
    expect(router.signerField("/cosmos.unknown.MsgX", { amount: 1 })).to.equal(undefined);
    expect(MsgRouter.typeUrls).to.have.length(12);
  });

  it("decodes bech32 addresses and coins and runs the module's Msg server: a send, a delegation, a withdraw address", async () => {
    const { state, at } = await stakingChain();
    const env = at().env;
    await router.handle(env, "/cosmos.bank.v1beta1.MsgSend", { from_address: acc(ALICE), to_address: acc(BOB), amount: [{ denom: DENOM, amount: `${3n * DEC}` }] });
    expect(balanceOf(state, BOB)).to.equal(3n * DEC);
    await router.handle(env, "/cosmos.staking.v1beta1.MsgDelegate", { delegator_address: acc(ALICE), validator_address: val(OP0), amount: { denom: DENOM, amount: `${DEC}` } });
    expect(await at().staking.delegatorValidators(ALICE)).to.deep.equal([OP0]);
    await router.handle(env, "/cosmos.distribution.v1beta1.MsgSetWithdrawAddress", { delegator_address: acc(ALICE), withdraw_address: acc(BOB) });
    expect(await at().distribution.withdrawAddress(ALICE)).to.equal(BOB);
  });

  it("refuses a malformed field as the SDK's unmarshalling does, and a Msg no server takes with x/gov's words", async () => {
    const { at } = await stakingChain();
    const env = at().env;
    await expect(router.handle(env, "/cosmos.bank.v1beta1.MsgSend", { from_address: acc(ALICE), to_address: acc(BOB), amount: [{ denom: DENOM, amount: "-1" }] })).to.be.rejectedWith(
      "amount: invalid coins",
    );
    await expect(router.handle(env, "/cosmos.staking.v1beta1.MsgDelegate", { delegator_address: acc(ALICE), validator_address: acc(OP0), amount: { denom: DENOM, amount: "1" } })).to.be.rejectedWith(
      /invalid validator address/,
    );
    await expect(router.handle(env, "/cosmos.staking.v1beta1.MsgUpdateParams", { params: { max_entries: "4294967296" } })).to.be.rejectedWith('params.max_entries: invalid uint32 "4294967296"');
    await expect(router.handle(env, "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade", {})).to.be.rejectedWith("/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade: proposal message not recognized by router");
  });
});
