/** ICS20's Msg server (src/cosmos/ics20/msg-server.ts) on a module environment without an EVM. */
import { expect } from "chai";
import { escrowAddress } from "../../../src/cosmos/ics20/keeper";
import { transfer } from "../../../src/cosmos/ics20/msg-server";
import { DEC } from "../../../src/cosmos/staking/types";
import { ALICE, DENOM, balanceOf, keepersAt, memoryState } from "../../helpers/module-env";

const CHANNEL = { channelId: "channel-0", counterpartyChannelId: "channel-7", counterpartyChainId: "counterparty-1", open: true };
const msg = (over: Partial<Parameters<typeof transfer>[1]> = {}): Parameters<typeof transfer>[1] => ({
  sourcePort: "transfer",
  sourceChannel: "channel-0",
  denom: DENOM,
  amount: DEC,
  sender: ALICE,
  receiver: "cosmos1receiver",
  timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
  timeoutTimestamp: 10_000n * 1_000_000_000n,
  memo: "",
  ...over,
});

describe("ICS20 Msg server", () => {
  it("MsgTransfer's ValidateBasic in ibc-go's order and words, before anything moves", async () => {
    const state = memoryState();
    const k = keepersAt(state);
    await k.ics20.setChannels([CHANNEL]);
    await k.env.mint(ALICE, 5n * DEC);
    await expect(transfer(k, msg({ sourcePort: "t" }))).to.be.rejectedWith("identifier t has invalid length or characters: invalid identifier: invalid source port ID");
    await expect(transfer(k, msg({ sourceChannel: "chan" }))).to.be.rejectedWith("invalid channel ID (chan) on v2 packet: invalid channel");
    await expect(transfer(k, msg({ amount: 0n }))).to.be.rejectedWith(`0${DENOM}: insufficient funds`);
    await expect(transfer(k, msg({ receiver: " " }))).to.be.rejectedWith("missing recipient address: invalid address");
    await expect(transfer(k, msg({ receiver: "é".repeat(1025) }))).to.be.rejectedWith("recipient address must not exceed 2048 bytes: invalid address");
    await expect(transfer(k, msg({ memo: "x".repeat(32769) }))).to.be.rejectedWith("memo must not exceed 32768 bytes: invalid memo");
    await expect(transfer(k, msg({ timeoutTimestamp: 0n }))).to.be.rejectedWith("timeout height and timeout timestamp cannot both be 0: invalid packet timeout");
    expect(balanceOf(state, ALICE)).to.equal(5n * DEC);
  });

  it("MsgTransfer of the native coin escrows it in the channel's escrow account and records packet 1", async () => {
    const state = memoryState();
    const k = keepersAt(state);
    await k.ics20.setChannels([CHANNEL]);
    await k.env.mint(ALICE, 5n * DEC);
    const { sequence, packet } = await transfer(k, msg({ amount: 2n * DEC }));
    expect(sequence).to.equal(1n);
    expect(packet.state).to.equal("pending");
    expect(balanceOf(state, ALICE)).to.equal(3n * DEC);
    expect(balanceOf(state, escrowAddress("transfer", "channel-0"))).to.equal(2n * DEC);
  });
});
