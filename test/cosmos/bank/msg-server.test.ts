/** x/bank's Msg server (src/cosmos/bank/msg-server.ts) on a module environment without an EVM. */
import { expect } from "chai";
import { send } from "../../../src/cosmos/bank/msg-server";
import { DEC } from "../../../src/cosmos/staking/types";
import { ALICE, BOB, DENOM, balanceOf, keepersAt, memoryState } from "../../helpers/module-env";

describe("bank Msg server", () => {
  it("MsgSend moves the native coin as a balance and another coin as the bank's record, all coins of the message", async () => {
    const state = memoryState();
    const k = keepersAt(state);
    await k.env.mint(ALICE, 5n * DEC);
    await k.bank.mint(ALICE, "uatom", 700n);
    await send(k, {
      fromAddress: ALICE,
      toAddress: BOB,
      amount: [
        { denom: DENOM, amount: 2n * DEC },
        { denom: "uatom", amount: 300n },
      ],
    });
    expect(balanceOf(state, BOB)).to.equal(2n * DEC);
    expect(balanceOf(state, ALICE)).to.equal(3n * DEC);
    expect(await k.bank.balance(BOB, "uatom")).to.equal(300n);
    expect(await k.bank.balance(ALICE, "uatom")).to.equal(400n);
  });

  it("MsgSend of more than the sender holds fails with the bank's words", async () => {
    const state = memoryState();
    const k = keepersAt(state);
    await k.bank.mint(ALICE, "uatom", 10n);
    await expect(send(k, { fromAddress: ALICE, toAddress: BOB, amount: [{ denom: "uatom", amount: 11n }] })).to.be.rejectedWith(/insufficient funds/);
    await expect(send(k, { fromAddress: ALICE, toAddress: BOB, amount: [{ denom: DENOM, amount: 1n }] })).to.be.rejectedWith(/spendable balance 0atest is smaller than 1atest: insufficient funds/);
  });
});
