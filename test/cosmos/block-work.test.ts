/**
 * A block's module work is bounded by what is due in it, not by what callers wrote: on a node from
 * local_node.sh's genesis (x/mint every block), over JSON-RPC, the worst a caller can pay for —
 * validators with the longest descriptions x/staking allows, a queue of proposals, many votes,
 * deposits and delegations — leaves an empty block reading no more module records than before it
 * (src/cosmos/common/module-env.ts counts them: `blockWork`). Beside it, x/staking's rules that
 * bound a validator: description lengths (Description.EnsureLength) and the bonded set of
 * max_validators by power, updated in the end block.
 */
import { expect } from "chai";
import { ContractFactory, Interface, getBytes, hexlify, randomBytes } from "ethers";
import { artifacts } from "hardhat";
import { bech32 } from "bech32";
import { blockWork } from "../../src/cosmos/common/module-env";
import { BONDED_POOL, NOT_BONDED_POOL } from "../../src/cosmos/common/accounts";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import { ICS20_ABI } from "../../src/cosmos/ics20/precompile";
import { type Harness, inProcess, rpcError } from "../helpers/harness";
import { type LocalNode, closeLocalNode, localNode } from "../helpers/local-node";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const GOV = "0x0000000000000000000000000000000000000805";
/** local_node.sh's validator `mykey` (1000 TEST bonded) and a Hardhat account of the test config. */
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const q = (n: bigint): string => `0x${n.toString(16)}`;
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));
const account = (hex: string): string => bech32.encode("cosmos", bech32.toWords(getBytes(hex)));
const pubkey = (): string => Buffer.from(randomBytes(32)).toString("base64");
/** The longest description x/staking takes: moniker 70, identity 3000, website 140, security contact 140, details 280 bytes. */
const LONGEST = ["m".repeat(70), "i".repeat(3000), "w".repeat(140), "s".repeat(140), "d".repeat(280)];

type Receipt = { status: string };
async function send(h: Harness, from: string, to: string, abi: Interface, fn: string, args: unknown[], value = 0n): Promise<Receipt> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData(fn, args), gas: q(5_000_000n), value: q(value) }]);
  return h.request("eth_getTransactionReceipt", [hash]);
}

/** The precompile's revert text for a call `from` would send. */
async function refusal(h: Harness, from: string, fn: string, args: unknown[], value = 0n): Promise<string> {
  return (await rpcError(h.request("eth_call", [{ from, to: STAKING, data: STAKING_ABI.encodeFunctionData(fn, args), value: q(value) }, "latest"]))).message;
}

/** A fresh funded account, impersonated. */
async function funded(h: Harness): Promise<string> {
  const a = hexlify(randomBytes(20));
  await h.request("hardhat_setBalance", [a, q(10_000n * E18)]);
  await h.request("hardhat_impersonateAccount", [a]);
  return a;
}

async function createValidator(h: Harness, operator: string, tokens: bigint, description = LONGEST): Promise<Receipt> {
  return send(h, operator, STAKING, STAKING_ABI, "createValidator", [description, [E18 / 10n, E18 / 5n, E18 / 100n], 1n, operator, pubkey(), tokens], tokens);
}

type ValidatorJson = { operator_address: string; status: string; tokens: string };
const validators = (h: Harness) => h.request<ValidatorJson[]>("cosmos_validators", []);
const statusOf = async (h: Harness, operator: string) => (await validators(h)).find((v) => v.operator_address === valoper(operator))?.status;
const balance = async (h: Harness, a: string) => BigInt(await h.request<string>("eth_getBalance", [a, "latest"]));

/** The module records the most expensive of `n` empty blocks read (their begin and end blocks, epoch hooks, quiet checks). */
async function emptyBlockReads(h: Harness, n = 3): Promise<{ reads: number; bytes: number }> {
  let worst = { reads: 0, bytes: 0 };
  for (let i = 0; i < n; i++) {
    const before = { ...blockWork };
    await h.request("evm_mine", []);
    const cost = { reads: blockWork.reads - before.reads, bytes: blockWork.bytes - before.bytes };
    if (cost.reads > worst.reads) worst = cost;
  }
  return worst;
}

/** local_node.sh's genesis with max_validators `max` and 1-hour deposit and voting periods (so nothing ends while the test writes). */
const genesisWith = (max: number) => (g: Record<string, unknown>) => {
  const app = (g as { app_state: { staking: { params: Record<string, unknown> }; gov: { params: Record<string, unknown> } } }).app_state;
  app.staking.params.max_validators = max;
  Object.assign(app.gov.params, { max_deposit_period: "3600s", voting_period: "3600s", expedited_voting_period: "1800s" });
};

describe("block work bounded by what is due (a local_node.sh genesis)", function () {
  this.timeout(300_000);
  let c: LocalNode | undefined;
  afterEach(async () => {
    await closeLocalNode(c);
    c = undefined;
  });

  it("refuses a description past x/staking's limits, and an empty one, in its words; the longest allowed is taken", async () => {
    c = await localNode();
    const { h } = c;
    const op = await funded(h);
    const long = ["x".repeat(100 * 1024), "", "", "", ""];
    expect(await refusal(h, op, "createValidator", [long, [E18 / 10n, E18 / 5n, E18 / 100n], 1n, op, pubkey(), E18], E18)).to.contain("invalid moniker length; got: 102400, max: 70: invalid request");
    const limits: Array<[number, string, number]> = [
      [1, "identity", 3000],
      [2, "website", 140],
      [3, "security contact", 140],
      [4, "details", 280],
    ];
    for (const [i, word, max] of limits) {
      const d = ["v", "", "", "", ""];
      d[i] = "é".repeat(max / 2 + 1); // two bytes a character: the limit is in bytes
      expect(await refusal(h, op, "createValidator", [d, [E18 / 10n, E18 / 5n, E18 / 100n], 1n, op, pubkey(), E18], E18)).to.contain(
        `invalid ${word} length; got: ${max + 2}, max: ${max}: invalid request`,
      );
    }
    expect(await refusal(h, op, "createValidator", [["", "", "", "", ""], [E18 / 10n, E18 / 5n, E18 / 100n], 1n, op, pubkey(), E18], E18)).to.contain("empty description: invalid request");
    expect((await createValidator(h, op, E18)).status).to.equal("0x1");
    // editing past a limit is refused too (UpdateDescription ends in EnsureLength)
    const keep = "[do-not-modify]";
    expect(await refusal(h, op, "editValidator", [[keep, keep, keep, keep, "d".repeat(281)], op, -1n, -1n])).to.contain("invalid details length; got: 281, max: 280: invalid request");
  });

  it("bonds the strongest max_validators: a new validator is Unbonded until the end block, a stronger one pushes the weakest out to unbond", async () => {
    c = await localNode(genesisWith(2));
    const { h } = c;
    const [a, b] = [await funded(h), await funded(h)];
    // a: 10 TEST; the set (2) has room: bonded by the end block of its own block, its tokens moved to the bonded pool
    const bondedBefore = await balance(h, BONDED_POOL);
    expect((await createValidator(h, a, 10n * E18)).status).to.equal("0x1");
    expect(await statusOf(h, a)).to.equal("BOND_STATUS_BONDED");
    expect(await balance(h, BONDED_POOL)).to.equal(bondedBefore + 10n * E18);
    // b: 20 TEST outranks a (10 TEST): the set is full, so a leaves it and starts unbonding
    const notBondedBefore = await balance(h, NOT_BONDED_POOL);
    expect((await createValidator(h, b, 20n * E18)).status).to.equal("0x1");
    expect([await statusOf(h, VALIDATOR), await statusOf(h, b), await statusOf(h, a)]).to.deep.equal(["BOND_STATUS_BONDED", "BOND_STATUS_BONDED", "BOND_STATUS_UNBONDING"]);
    expect(await balance(h, NOT_BONDED_POOL)).to.equal(notBondedBefore + 10n * E18);
    // a third, weaker (1 TEST): Unbonded, and stays so
    const weak = await funded(h);
    expect((await createValidator(h, weak, E18)).status).to.equal("0x1");
    expect(await statusOf(h, weak)).to.equal("BOND_STATUS_UNBONDED");
    // a delegation that lifts a above b (10 + 15 > 20) brings it back and sends b to unbond
    expect((await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(a), 15n * E18])).status).to.equal("0x1");
    expect([await statusOf(h, a), await statusOf(h, b)]).to.deep.equal(["BOND_STATUS_BONDED", "BOND_STATUS_UNBONDING"]);
    // b's unbonding completes after unbonding_time (local_node.sh: 21 days): Unbonded
    const head = BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    await h.request("evm_setNextBlockTimestamp", [q(head + 1_814_400n)]);
    await h.request("evm_mine", []);
    expect(await statusOf(h, b)).to.equal("BOND_STATUS_UNBONDED");
    // the genesis export keeps max_validators
    const genesis = await h.request<{ staking: { params: { max_validators: number } } }>("cosmos_exportGenesis", []);
    expect(genesis.staking.params.max_validators).to.equal(2);
  });

  it("an empty block reads no more module records after callers paid for the worst than before (validators, proposals, votes, deposits, delegations)", async () => {
    c = await localNode(genesisWith(3));
    const { h } = c;
    // the bonded set full (3) before the first measure: what allocation reads is the set, bounded by max_validators
    for (const tokens of [100n * E18, 200n * E18]) expect((await createValidator(h, await funded(h), tokens)).status).to.equal("0x1");
    const fresh = await emptyBlockReads(h);
    expect(fresh.reads).to.be.greaterThan(0);

    // 30 validators with the longest descriptions (weaker: Unbonded), a proposal queue, votes, deposits, delegations
    const ops: string[] = [];
    for (let i = 0; i < 30; i++) {
      const op = await funded(h);
      ops.push(op);
      expect((await createValidator(h, op, E18 + BigInt(i))).status).to.equal("0x1");
    }
    const msgSend = {
      "@type": "/cosmos.bank.v1beta1.MsgSend",
      from_address: account("0x7b5Fe22B5446f7C62Ea27B8BD71CeF94e03f3dF2"),
      to_address: account(ALICE),
      amount: [{ denom: "atest", amount: "1" }],
    };
    const proposal = (extra: Record<string, unknown> = {}) => Buffer.from(JSON.stringify({ messages: [msgSend], metadata: "", title: "spam", summary: "spam", ...extra }));
    for (let i = 0; i < 40; i++) expect((await send(h, ops[i % ops.length], GOV, GOV_ABI, "submitProposal", [ops[i % ops.length], proposal(), []])).status).to.equal("0x1");
    // one proposal in its voting period, with every caller voting and depositing on it
    const voted = await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposal(), [["atest", 10n * E18]]]);
    expect(voted.status).to.equal("0x1");
    const id = 41n;
    expect(await h.request<unknown>("eth_call", [{ to: GOV, data: GOV_ABI.encodeFunctionData("getProposal", [id]) }, "latest"])).to.be.a("string");
    for (const op of ops) {
      expect((await send(h, op, GOV, GOV_ABI, "vote", [op, id, 1, ""])).status).to.equal("0x1");
      expect((await send(h, op, GOV, GOV_ABI, "deposit", [op, id, [["atest", E18]]])).status).to.equal("0x1");
      expect((await send(h, op, STAKING, STAKING_ABI, "delegate", [op, valoper(VALIDATOR), E18])).status).to.equal("0x1");
    }
    const after = await emptyBlockReads(h);
    // what is due in an empty block is the same as before: x/mint, the bonded set's allocation, the queues' heads
    expect(after.reads, `module records an empty block read: ${fresh.reads} before, ${after.reads} after`).to.be.at.most(fresh.reads);
    // the same records, a few hundred bytes longer at most: the queues' heads (what falls due next) and
    // numbers with more digits (supply, minter, rewards); one of the 30 descriptions read would add
    // 3,630 bytes, the proposals' list or records thousands
    expect(after.bytes, `bytes an empty block read: ${fresh.bytes} before, ${after.bytes} after`).to.be.at.most(fresh.bytes * 1.05 + 512);
  });

  it("ICS20: pending packets wait in an index by timeout; an empty block reads the same with 40 pending, and their timeouts still fire", async () => {
    const h = await inProcess({
      epochs: { profile: "cosmos-evm" },
      cosmos: { ics20: { channels: [{ channelId: "channel-0", counterpartyChannelId: "channel-7", counterpartyChainId: "cosmoshub-4", open: true }] } },
    });
    try {
      const ICS20 = "0x0000000000000000000000000000000000000802";
      const fresh = await emptyBlockReads(h);
      const head = BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
      for (let i = 0; i < 40; i++) {
        const timeout = (head + 1_000_000n + BigInt(i)) * 10n ** 9n;
        expect((await send(h, ALICE, ICS20, ICS20_ABI, "transfer", ["transfer", "channel-0", "atest", 1n, ALICE, "cosmos1receiver", [0, 0], timeout, ""])).status).to.equal("0x1");
      }
      const after = await emptyBlockReads(h);
      expect(after.reads, `module records an empty block read: ${fresh.reads} before, ${after.reads} after`).to.be.at.most(fresh.reads);
      // plus the queue's head (what is due next, ~70 bytes); a list of the pending timeouts read whole would add some 55 bytes a packet
      expect(after.bytes, `bytes an empty block read: ${fresh.bytes} before, ${after.bytes} after`).to.be.at.most(fresh.bytes * 1.05 + 128);
      await h.request("evm_setNextBlockTimestamp", [q(head + 2_000_000n)]);
      await h.request("evm_mine", []);
      const events = await h.request<{ end_block_events: Array<{ type: string }> }>("epochs_blockEvents", ["latest"]);
      expect(events.end_block_events.filter((e) => e.type === "timeout_packet")).to.have.length(40);
    } finally {
      await h.close();
    }
  });

  it("a contract hook that calls staking, gov and the WERC20 back during an epoch tick: its work is kept, the block's module work goes on, the pools stay whole", async () => {
    const h = await inProcess({ epochs: { profile: "cosmos-evm" }, cosmos: { distribution: { epochIdentifier: "minute" } } });
    try {
      const OP0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
      const artifact = await artifacts.readArtifact("ReentrantHook");
      const deploy = await h.request<string>("eth_sendTransaction", [
        { from: ALICE, data: (await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction(valoper(OP0), ALICE)).data, value: q(100n * E18), gas: q(5_000_000n) },
      ]);
      const hook = (await h.request<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [deploy])).contractAddress;
      const hookAbi = new Interface(artifact.abi);
      const read = async (fn: string) => hookAbi.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to: hook, data: hookAbi.encodeFunctionData(fn, []) }, "latest"]))[0];
      const aliceBefore = await balance(h, ALICE);
      for (let i = 1; i <= 2; i++) {
        const head = BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
        await h.request("evm_mine", [Number(head + 60n)]);
        const events = await h.request<{ begin_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>("epochs_blockEvents", ["latest"]);
        const types = events.begin_block_events.map((e) => e.type);
        // distribution's epoch work first, then the hook, which succeeded
        expect(types, JSON.stringify(events.begin_block_events.filter((e) => e.type === "epoch_hook_failed")))
          .to.include.members(["mint", "epoch_hook"])
          .and.not.include("epoch_hook_failed");
        expect(await read("ticks")).to.equal(BigInt(i));
      }
      // two delegations of 2, two unbondings of 1: 2 coins staked; two proposals with a coin each; two coins paid out through the WERC20
      const [shares] = STAKING_ABI.decodeFunctionResult(
        "delegation",
        await h.request<string>("eth_call", [{ to: STAKING, data: STAKING_ABI.encodeFunctionData("delegation", [hook, valoper(OP0)]) }, "latest"]),
      );
      expect(shares).to.equal(2n * E18 * E18);
      expect(await read("lastProposal")).to.equal(2n);
      expect(await balance(h, ALICE)).to.equal(aliceBefore + 2n * E18);
      // the pools as the validators' tokens and the unbondings say: bonded = every bonded validator's tokens, not bonded = what is unbonding
      const vals = await validators(h);
      expect(await balance(h, BONDED_POOL)).to.equal(vals.filter((v) => v.status === "BOND_STATUS_BONDED").reduce((sum, v) => sum + BigInt(v.tokens), 0n));
      expect(await balance(h, NOT_BONDED_POOL)).to.equal(2n * E18);
      // and the next blocks go on
      await h.request("evm_mine", []);
    } finally {
      await h.close();
    }
  });
});
