/**
 * Module records written before the block work read indexes (a `--home` or a dump of an earlier
 * version) are carried into the indexes by the first end block that runs on them, nothing lost:
 * staking's maturity list ("queue") and its validators without a power index, x/gov's one queue
 * ("queue") and proposals holding their votes and deposits inline, ICS20's list of pending
 * timeouts ("timeouts"). On a module environment over an in-memory state, as those records were laid.
 */
import { expect } from "chai";
import { getAddress } from "ethers";
import { BONDED_POOL, NOT_BONDED_POOL } from "../../src/cosmos/common/accounts";
import { type EnvState, moduleEnv } from "../../src/cosmos/common/module-env";
import { memoryState } from "../helpers/module-env";
import { keepers } from "../../src/cosmos/app";
import { GOV_MODULE_ACCOUNT, GOV_PRECOMPILE, ProposalStatus } from "../../src/cosmos/gov/keeper";
import { ICS20_PRECOMPILE, escrowAddress } from "../../src/cosmos/ics20/keeper";
import { BondStatus, DEC, STAKING_PRECOMPILE, newValidator } from "../../src/cosmos/staking/types";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const OP0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const OP1 = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

const at = (state: EnvState, time: bigint) => moduleEnv(state, { number: 10n, timestamp: time }, "atest");
const balanceOf = (state: ReturnType<typeof memoryState>, a: string) => state.balances.get(`${a.toLowerCase()}/`) ?? 0n;

describe("module records of an earlier version, carried into the indexes", () => {
  it("staking: the maturity list and validators without a power index; an unbonding due is paid, the bonded set is read from the index after", async () => {
    const state = memoryState();
    const env = at(state, 50n);
    const r = env.records(STAKING_PRECOMPILE);
    // as an earlier version wrote them: params without max_validators, two bonded validators in the list, no index
    await r.put("params", { unbondingTime: 100n, maxEntries: 7 });
    const v0 = { ...newValidator({ operator: OP0, consensusPubkey: "", commissionRate: 0n, time: 0n, bonded: true }), tokens: 10n * DEC, delegatorShares: 10n * DEC * DEC };
    const v1 = { ...newValidator({ operator: OP1, consensusPubkey: "", commissionRate: 0n, time: 0n, bonded: true }), tokens: 5n * DEC, delegatorShares: 5n * DEC * DEC };
    await r.put("validators", [OP0, OP1]);
    await r.put(`validator/${OP0.toLowerCase()}`, v0);
    await r.put(`validator/${OP1.toLowerCase()}`, v1);
    await env.mint(BONDED_POOL, 15n * DEC);
    // ALICE's unbonding of 3 coins from OP0, due at 100, in the old one-list queue
    await r.put(`unbonding/${ALICE.toLowerCase()}/${OP0.toLowerCase()}`, [{ creationHeight: 1n, completionTime: 100n, initialBalance: 3n * DEC, balance: 3n * DEC, unbondingId: 1n }]);
    await r.put("queue", [{ time: 100n, delegator: ALICE, validator: OP0 }]);
    await env.mint(NOT_BONDED_POOL, 3n * DEC);

    const read = keepers(env).staking;
    expect(await read.indexed()).to.equal(false);
    expect(await read.nextMaturity()).to.equal(100n);
    expect((await read.bondedValidators()).map((v) => v.operator)).to.deep.equal([OP0, OP1].sort());

    // the end block at 100: indexed, then the unbonding paid
    const staking = keepers(at(state, 100n)).staking;
    await staking.applyValidatorSetUpdates();
    expect(await staking.completeMatured()).to.deep.equal([{ delegator: ALICE, validator: OP0, amount: 3n * DEC }]);
    expect(balanceOf(state, ALICE)).to.equal(3n * DEC);
    expect(await staking.indexed()).to.equal(true);
    expect(await env.records(STAKING_PRECOMPILE).get("queue")).to.equal(undefined);
    expect((await staking.bondedValidators()).map((v) => [v.operator, v.status])).to.deep.equal(
      [
        [OP0, BondStatus.Bonded],
        [OP1, BondStatus.Bonded],
      ].sort(),
    );
    expect(await staking.nextMaturity()).to.equal(undefined);
  });

  it("gov: the one queue and proposals with their votes and deposits inline; the deposit period's end drops and refunds, the votes still count", async () => {
    const state = memoryState();
    const env = at(state, 50n);
    const r = env.records(GOV_PRECOMPILE);
    const base = {
      messages: [],
      bodies: [],
      finalTallyResult: { yes: 0n, abstain: 0n, no: 0n, noWithVeto: 0n },
      submitTime: 0n,
      votingStartTime: 0n,
      metadata: "",
      title: "t",
      summary: "s",
      proposer: ALICE,
    };
    await r.put("proposal/1", {
      ...base,
      id: 1n,
      status: ProposalStatus.DepositPeriod,
      depositEndTime: 100n,
      votingEndTime: 0n,
      totalDeposit: 4n,
      votes: [],
      deposits: [{ depositor: BOB, amount: 4n }],
    });
    await r.put("proposal/2", {
      ...base,
      id: 2n,
      status: ProposalStatus.VotingPeriod,
      depositEndTime: 10n,
      votingEndTime: 500n,
      totalDeposit: 9n,
      votes: [{ voter: BOB, options: [{ option: 1, weight: DEC }], metadata: "" }],
      deposits: [{ depositor: ALICE, amount: 9n }],
    });
    await r.put("proposals", [1n, 2n]);
    await r.put("nextId", 3n);
    await r.put("queue", [1n, 2n]);
    await env.mint(GOV_MODULE_ACCOUNT, 13n);

    const gov = keepers(env).gov;
    // the old queue is due at once: the next end block carries it in
    expect(await gov.nextDeadline()).to.equal(0n);
    // a vote on the inline proposal keeps BOB's inline vote
    await gov.vote(2n, ALICE, [{ option: 3, weight: DEC }], "");
    expect((await gov.proposal(2n))?.votes.map((v) => [getAddress(v.voter), v.options[0].option])).to.deep.equal(
      [
        [ALICE, 3],
        [BOB, 1],
      ].sort(),
    );

    const later = keepers(at(state, 100n)).gov;
    const ended = await later.endBlock(keepers(at(state, 100n)).staking);
    expect(ended.dropped).to.deep.equal([1n]);
    expect(balanceOf(state, BOB)).to.equal(4n);
    expect(await later.proposal(1n)).to.equal(undefined);
    // proposal 2 is queued by its voting end now, its inline deposit kept
    expect(await later.nextDeadline()).to.equal(500n);
    expect((await later.proposal(2n))?.deposits).to.deep.equal([{ depositor: ALICE, amount: 9n }]);
    expect(await env.records(GOV_PRECOMPILE).get("queue")).to.equal(undefined);
  });

  it("ICS20: the list of pending timeouts; a packet whose timeout is reached is refunded", async () => {
    const state = memoryState();
    const env = at(state, 50n);
    const r = env.records(ICS20_PRECOMPILE);
    await r.put("channels", [{ channelId: "channel-0", counterpartyChannelId: "channel-7", counterpartyChainId: "cosmoshub-4", open: true }]);
    const packet = {
      sequence: 1n,
      sourceChannel: "channel-0",
      denom: "atest",
      localDenom: "atest",
      amount: 5n,
      sender: ALICE,
      receiver: "cosmos1x",
      memo: "",
      timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: 100n * 10n ** 9n,
      burned: false,
      state: "pending",
      height: 1n,
    };
    await r.put("packet/channel-0/1", packet);
    await r.put("sequence/channel-0", 2n);
    await r.put("timeouts", [["channel-0", 1n, 100n * 10n ** 9n]]);
    await env.mint(escrowAddress("transfer", "channel-0"), 5n);

    expect(await keepers(env).ics20.nextTimeout()).to.equal(0n);
    const refunded = await keepers(at(state, 100n)).ics20.timeOutExpired();
    expect(refunded.map((p) => [p.sequence, p.state, p.fate])).to.deep.equal([[1n, "refunded", "timeout"]]);
    expect(balanceOf(state, ALICE)).to.equal(5n);
    expect(await keepers(env).ics20.nextTimeout()).to.equal(undefined);
  });
});
