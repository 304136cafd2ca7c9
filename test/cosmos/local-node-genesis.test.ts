/**
 * A node started from a genesis.json shaped as cosmos/evm's local_node.sh leaves it
 * (scripts/local-node-genesis.ts, the file scripts/cosmos-evm-suites.sh starts the node from): its
 * addresses funded from `bank.balances`, the gentx validator bonded from its operator's coins with
 * the commission it asked for, the native coin's WERC20 at ERC-7528's address, x/mint every block,
 * and x/gov's proposals from submission to execution. Values are worked out in the comments.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Interface, getBytes } from "ethers";
import { bech32 } from "bech32";
import { GOV_PRECOMPILE as GOV, GOV_MODULE_ACCOUNT } from "../../src/cosmos/gov/keeper";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import { DISTRIBUTION_ABI } from "../../src/cosmos/distribution/precompile";
import { type Harness, rpcError } from "../helpers/harness";
import { serveHttp } from "../helpers/http";
import { type LocalNode, closeLocalNode, localNode } from "../helpers/local-node";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const DISTRIBUTION = "0x0000000000000000000000000000000000000801";
const ERC7528 = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";
/** local_node.sh's keys: the validator `mykey` and dev0. */
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const DEV0 = "0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101";
/** A Hardhat account of the test config (not in the genesis file): it votes with a delegation. */
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const q = (n: bigint): string => `0x${n.toString(16)}`;
type Events = Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
const blockEvents = (h: Harness) => h.request<{ begin_block_events: Events; end_block_events: Events }>("epochs_blockEvents", ["latest"]);
const account = (hex: string): string => bech32.encode("cosmos", bech32.toWords(getBytes(hex)));
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));
const GOV_ACCOUNT = account(GOV_MODULE_ACCOUNT);

type Chain = LocalNode;
const close = closeLocalNode;

const balance = async (h: Harness, a: string) => BigInt(await h.request<string>("eth_getBalance", [a, "latest"]));

async function send(
  h: Harness,
  from: string,
  to: string,
  abi: Interface,
  fn: string,
  args: unknown[],
  value = 0n,
): Promise<{ status: string; gasUsed: string; effectiveGasPrice: string; logs: Array<{ topics: string[]; data: string }> }> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData(fn, args), gas: q(2_000_000n), value: q(value) }]);
  return h.request("eth_getTransactionReceipt", [hash]);
}

async function call(h: Harness, to: string, abi: Interface, fn: string, args: unknown[], from?: string) {
  return abi.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to, data: abi.encodeFunctionData(fn, args), ...(from !== undefined ? { from } : {}) }, "latest"]));
}

/** A proposal as cosmos/evm's gov suite builds it: one MsgSend from the gov account. */
const proposalJson = (messages: unknown[], extra: Record<string, unknown> = {}): Uint8Array =>
  Buffer.from(JSON.stringify({ messages, metadata: "ipfs://CID", title: "test prop", summary: "test prop", expedited: false, ...extra }));
const msgSend = (to: string, amount: bigint) => ({
  "@type": "/cosmos.bank.v1beta1.MsgSend",
  from_address: GOV_ACCOUNT,
  to_address: account(to),
  amount: [{ denom: "atest", amount: amount.toString() }],
});

/** Mines a block `seconds` after the head's. */
async function moveTime(h: Harness, seconds: number): Promise<void> {
  const head = BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
  await h.request("evm_setNextBlockTimestamp", [q(head + BigInt(seconds))]);
  await h.request("evm_mine", []);
}

describe("a node from local_node.sh's genesis", function () {
  let c: Chain | undefined;
  afterEach(async () => {
    await close(c);
    c = undefined;
  });

  it("funds the genesis addresses, bonds the gentx validator from its operator's coins, and keeps what genesis says", async () => {
    c = await localNode();
    const { h } = c;
    // bank.balances in atest are EVM balances: dev0 has 1000 TEST; the validator's 10^8 TEST less its 1000 TEST bond
    expect(await balance(h, DEV0)).to.equal(1000n * E18);
    expect(await balance(h, VALIDATOR)).to.equal(100_000_000n * E18 - 1000n * E18);
    const [v] = await h.request<Array<Record<string, unknown> & { commission: { commission_rates: Record<string, string> }; description: { moniker: string } }>>("cosmos_validators", []);
    expect([v.operator_address, v.tokens, v.status, v.description.moniker, v.min_self_delegation]).to.deep.equal([
      valoper(VALIDATOR),
      (1000n * E18).toString(),
      "BOND_STATUS_BONDED",
      "localtestnet",
      "1",
    ]);
    expect(v.commission.commission_rates).to.deep.equal({ rate: "0.100000000000000000", max_rate: "0.200000000000000000", max_change_rate: "0.010000000000000000" });
    // the validator's consensus key is the one evmd init --recover derives from its mnemonic
    expect((v.consensus_pubkey as { key: string }).key).to.equal("DsS4h53SOQ7NIx2VGT8lvnHOoVOFqIPc+VE+uBPYBXw=");
    // the native coin's WERC20 is at ERC-7528's address, as the genesis's erc20 section says
    const werc20 = new Interface(["function deposit() payable", "function balanceOf(address) view returns (uint256)", "function symbol() view returns (string)"]);
    expect((await call(h, ERC7528, werc20, "symbol", []))[0]).to.equal("TEST");
    const r = await send(h, ALICE, ERC7528, werc20, "deposit", [], E18);
    expect(r.status).to.equal("0x1");
    // WERC20's balance is the native balance (deposit() keeps the coin where it is)
    expect((await call(h, ERC7528, werc20, "balanceOf", [ALICE]))[0]).to.equal(await balance(h, ALICE));
    expect(await h.request<string>("eth_getCode", ["0xD4949664cD82660AaE99bEdc034a0deA8A0bd517", "latest"])).to.equal("0x");
    // the Cosmos chain id stays the genesis's "9001" (the banner prints it); the EVM's is set apart
    expect([h.runtime.node.config.cosmosChainId, await h.request("eth_chainId", [])]).to.deep.equal(["9001", "0x40000"]);
    // gov's params are the genesis's (30 s periods), not the SDK's defaults
    const [params] = await call(h, GOV, GOV_ABI, "getParams", []);
    expect([params[0], params[2], params[9]]).to.deep.equal([30n, 30n, 15n]);
  });

  it("refuses a genesis it cannot honour, naming the field", async () => {
    const refused = async (edit: (g: Record<string, unknown>) => void): Promise<string> => {
      let message = "";
      await localNode(edit).then(close, (err: Error) => (message = err.message));
      return message;
    };
    type App = {
      app_state: {
        genutil: { gen_txs: Array<{ body: { messages: Array<Record<string, unknown>> } }> };
        bank: { balances: Array<{ coins: Array<{ amount: string }> }> };
        erc20: Record<string, unknown>;
        mint: { params: Record<string, unknown> };
        gov: Record<string, unknown>;
      };
    };
    const gentx = (g: Record<string, unknown>) => (g as unknown as App).app_state.genutil.gen_txs[0].body.messages[0];
    expect(await refused((g) => Object.assign(gentx(g), { value: { denom: "atest", amount: (10n ** 27n).toString() } }))).to.match(/app_state\.genutil\.gen_txs\[0\]: .* insufficient funds/);
    expect(await refused((g) => Object.assign(gentx(g), { "@type": "/cosmos.bank.v1beta1.MsgSend" }))).to.match(
      /app_state\.genutil\.gen_txs\[0\]\.body\.messages\[0\]: "\/cosmos\.bank\.v1beta1\.MsgSend" is not a message this chain runs at genesis/,
    );
    expect(await refused((g) => Object.assign(gentx(g), { commission: { rate: "0.3", max_rate: "0.2", max_change_rate: "0.01" } }))).to.match(/commission cannot be more than the max rate/);
    expect(await refused((g) => ((g as unknown as App).app_state.erc20.token_pairs = [{ erc20_address: ERC7528, denom: "atest", contract_owner: 2, enabled: true }]))).to.match(
      /app_state\.erc20\.token_pairs\[0\]\.contract_owner: pairs of ERC-20 contracts \(OWNER_EXTERNAL\) are not kept/,
    );
    expect(await refused((g) => ((g as unknown as App).app_state.erc20.native_precompiles = [ERC7528, BOB]))).to.match(/app_state\.erc20\.native_precompiles: 2 addresses/);
    expect(await refused((g) => ((g as unknown as App).app_state.mint.params.mint_denom = "stake"))).to.match(/app_state\.mint\.params\.mint_denom: "stake" is not this chain's coin atest/);
    expect(await refused((g) => ((g as unknown as App).app_state.gov.proposals = [{ id: "1" }]))).to.match(/app_state\.gov\.proposals: this chain starts with no proposals/);
  });

  it("mints every block as x/mint does and allocates it: rewards grow block by block without an epoch", async () => {
    c = await localNode();
    const { h } = c;
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 1000n * E18]);
    const rewards = async () => {
      const [coins] = await call(h, DISTRIBUTION, DISTRIBUTION_ABI, "delegationRewards", [ALICE, valoper(VALIDATOR)]);
      return coins.length === 0 ? 0n : (coins[0][1] as bigint);
    };
    await h.request("evm_mine", []);
    const one = await rewards();
    await h.request("evm_mine", []);
    const two = await rewards();
    expect(one > 0n && two > one).to.equal(true);
    // the block's mint event, in the SDK's attributes: supply 10^8 TEST + 4000 TEST (genesis) + the test
    // accounts' 20 × 10^4 TEST and what was minted before; 13% a year, 6,311,520 blocks a year
    const mint = (await blockEvents(h)).begin_block_events.find((e) => e.type === "mint");
    expect(mint?.attributes.map((a) => a.key)).to.deep.equal(["bonded_ratio", "inflation", "annual_provisions", "amount"]);
    const amount = BigInt((mint?.attributes[3].value ?? "").replace(/atest$/, ""));
    // about 13% × 1.0020004 × 10^26 / 6,311,520 ≈ 2.06 TEST a block
    expect(amount > 2n * E18 && amount < 21n * (E18 / 10n)).to.equal(true);
  });

  it("runs a proposal from submission to its message's execution, and drops one whose deposit period ends short", async () => {
    c = await localNode();
    const { h } = c;
    // ALICE bonds 5000 TEST: with the validator's 1000, she holds 5/6 of the voting power
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    // the gov account's own coins, which a MsgSend of a passed proposal spends (deposits go back first)
    await h.request("eth_sendTransaction", [{ from: ALICE, to: GOV_MODULE_ACCOUNT, value: q(10n) }]);
    const before = await balance(h, BOB);
    const submit = await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 7n)]), [["atest", E18]]]);
    expect(submit.status).to.equal("0x1");
    const id = GOV_ABI.parseLog(submit.logs[0])?.args.proposalId as bigint;
    expect(id).to.equal(1n);
    let [p] = await call(h, GOV, GOV_ABI, "getProposal", [id]);
    // a deposit of 1 TEST ≥ min_deposit 10^7: straight into the voting period of 30 s
    expect([p[2], p[8] - p[7], p[6].map((x: unknown[]) => [...x])]).to.deep.equal([2n, 30n, [["atest", E18]]]);
    // the validator votes (its own stake, less nothing delegated from it), then ALICE
    await h.request("hardhat_impersonateAccount", [VALIDATOR]);
    await send(h, VALIDATOR, GOV, GOV_ABI, "voteWeighted", [
      VALIDATOR,
      id,
      [
        [1, "0.6"],
        [3, "0.4"],
      ],
      "",
    ]);
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, id, 1, "yes"]);
    // listed as x/gov's store holds them, by voter address (bytewise), not in the order they came
    const [listed] = await call(h, GOV, GOV_ABI, "getVotes", [id, ["0x", 0, 10, true, false]]);
    expect((listed as Array<{ voter: string }>).map((v) => v.voter)).to.deep.equal([ALICE, VALIDATOR]);
    const [tally] = await call(h, GOV, GOV_ABI, "getTallyResult", [id]);
    // ALICE 5000 yes; the validator's 1000: 600 yes, 400 no (whole coins, truncated)
    expect([...tally]).to.deep.equal([`${5600n * E18}`, "0", `${400n * E18}`, "0"]);
    expect(await balance(h, GOV_MODULE_ACCOUNT)).to.equal(E18 + 10n);
    await moveTime(h, 31);
    [p] = await call(h, GOV, GOV_ABI, "getProposal", [id]);
    expect([p[2], [...p[3]]]).to.deep.equal([3n, [`${5600n * E18}`, "0", `${400n * E18}`, "0"]]);
    // the deposit refunded, then the MsgSend run: BOB got 7 atest out of the gov account's own 10
    expect(await balance(h, BOB)).to.equal(before + 7n);
    expect(await balance(h, GOV_MODULE_ACCOUNT)).to.equal(3n);
    expect((await blockEvents(h)).end_block_events.find((e) => e.type === "active_proposal")?.attributes).to.deep.equal([
      { key: "proposal_id", value: "1" },
      { key: "proposal_result", value: "proposal_passed" },
    ]);
    // votes are gone after the tally
    const [votes] = await call(h, GOV, GOV_ABI, "getVotes", [id, ["0x", 0, 10, true, false]]);
    expect(votes).to.have.length(0);

    // no deposit: the deposit period (30 s) ends and the proposal is dropped
    const second = await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 1n)]), []]);
    expect(GOV_ABI.parseLog(second.logs[0])?.args.proposalId).to.equal(2n);
    expect((await call(h, GOV, GOV_ABI, "getProposal", [2]))[0][2]).to.equal(1n);
    await moveTime(h, 31);
    expect((await rpcError(call(h, GOV, GOV_ABI, "getProposal", [2]))).message).to.match(/proposal 2 doesn't exist/);
  });

  it("fails a passed proposal whose message fails, keeping none of its messages' effects", async () => {
    c = await localNode();
    const { h } = c;
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    await h.request("eth_sendTransaction", [{ from: ALICE, to: GOV_MODULE_ACCOUNT, value: q(10n) }]);
    const before = await balance(h, BOB);
    // the first send would work (the gov account holds 10 atest once the deposit is refunded); the second asks for more
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 5n), msgSend(BOB, 10n * E18)]), [["atest", E18]]]);
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, 1, 1, ""]);
    await moveTime(h, 31);
    const result = (await blockEvents(h)).end_block_events.find((e) => e.type === "active_proposal")?.attributes;
    expect(result?.[1]).to.deep.equal({ key: "proposal_result", value: "proposal_failed" });
    expect(result?.[2].value).to.match(/insufficient funds/);
    expect((await call(h, GOV, GOV_ABI, "getProposal", [1]))[0][2]).to.equal(5n);
    // neither send kept; the deposit refunded to ALICE
    expect(await balance(h, BOB)).to.equal(before);
    expect(await balance(h, GOV_MODULE_ACCOUNT)).to.equal(10n);
    // a message this chain has no handler for fails the proposal in x/gov's words
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [
      ALICE,
      proposalJson([{ "@type": "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade", authority: GOV_ACCOUNT, plan: { name: "v2", height: "100" } }]),
      [["atest", E18]],
    ]);
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, 2, 1, ""]);
    await moveTime(h, 31);
    const upgrade = (await blockEvents(h)).end_block_events.find((e) => e.type === "active_proposal");
    expect(upgrade?.attributes[2].value).to.equal("/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade: proposal message not recognized by router");
  });

  it("cancels a proposal (half of each deposit burned, as proposal_cancel_ratio says) and refuses bad transactions in the SDK's words", async () => {
    c = await localNode();
    const { h } = c;
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 1n)]), [["atest", E18]]]);
    await send(h, BOB, GOV, GOV_ABI, "deposit", [BOB, 1, [["atest", E18 / 2n]]]);
    const aliceBefore = await balance(h, ALICE);
    const bobBefore = await balance(h, BOB);
    const r = await send(h, ALICE, GOV, GOV_ABI, "cancelProposal", [ALICE, 1]);
    const fee = BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
    expect(await balance(h, ALICE)).to.equal(aliceBefore - fee + E18 / 2n);
    expect(await balance(h, BOB)).to.equal(bobBefore + E18 / 4n);
    expect(await balance(h, GOV_MODULE_ACCOUNT)).to.equal(0n);
    expect((await rpcError(call(h, GOV, GOV_ABI, "getProposal", [1]))).message).to.match(/proposal 1 doesn't exist/);

    const refused = async (fn: string, args: unknown[], from = ALICE) => (await rpcError(call(h, GOV, GOV_ABI, fn, args, from))).message;
    expect(await refused("submitProposal", [BOB, proposalJson([]), []])).to.match(/does not match the requester address/);
    expect(await refused("submitProposal", [ALICE, proposalJson([{ ...msgSend(BOB, 1n), from_address: account(ALICE) }]), []])).to.match(/expected gov account as only signer for proposal message/);
    expect(await refused("submitProposal", [ALICE, proposalJson([], { title: "" }), []])).to.match(/proposal title cannot be empty/);
    expect(await refused("submitProposal", [ALICE, proposalJson([]), [["uatom", 5n]]])).to.match(/deposited 5uatom, but gov accepts only the following denom\(s\): \[atest\]: invalid deposit denom/);
    expect(await refused("submitProposal", [ALICE, Buffer.from("{not json"), []])).to.match(/invalid proposal JSON/);
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([]), [["atest", E18]]]);
    expect(await refused("vote", [ALICE, 2, 7, ""])).to.match(/invalid vote option/);
    expect(
      await refused("voteWeighted", [
        ALICE,
        2,
        [
          [1, "0.5"],
          [2, "0.4"],
        ],
        "",
      ]),
    ).to.match(/Total weight lower than 1\.00: invalid vote option/);
    expect(
      await refused("voteWeighted", [
        ALICE,
        2,
        [
          [1, "0.5"],
          [1, "0.5"],
        ],
        "",
      ]),
    ).to.match(/Duplicated vote option/);
    expect(await refused("vote", [ALICE, 9, 1, ""])).to.match(/9: unknown proposal/);
    expect(await refused("cancelProposal", [BOB, 2], BOB)).to.match(/invalid proposer/);
    expect(await refused("deposit", [ALICE, 2, [["atest", 1n]]])).to.match(/minimum deposit is too small/);
  });

  it("tallies as x/gov does: an expedited proposal that fails votes on, a veto burns the deposits, no quorum refunds them; hardhat_mine crosses the periods", async () => {
    c = await localNode();
    const { h } = c;
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    const submit = async (extra: Record<string, unknown>, messages: unknown[] = []) => {
      const r = await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson(messages, extra), [["atest", E18]]]);
      return GOV_ABI.parseLog(r.logs[0])?.args.proposalId as bigint;
    };
    const status = async (id: bigint) => (await call(h, GOV, GOV_ABI, "getProposal", [id]))[0][2] as bigint;
    // 1: expedited (15 s), ALICE votes no; 2: ALICE vetoes; 3: nobody votes
    const expedited = await submit({ expedited: true });
    const vetoed = await submit({});
    const silent = await submit({});
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, expedited, 3, ""]);
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, vetoed, 4, ""]);
    const aliceBefore = await balance(h, ALICE);
    // 16 blocks a second apart: past the expedited period only
    await h.request("hardhat_mine", ["0x10", "0x1"]);
    let [p] = await call(h, GOV, GOV_ABI, "getProposal", [expedited]);
    // still voting, now until its start + the regular 30 s
    expect([p[2], p[8] - p[7]]).to.deep.equal([2n, 30n]);
    expect([await status(vetoed), await status(silent)]).to.deep.equal([2n, 2n]);
    await h.request("hardhat_mine", ["0x10", "0x1"]);
    [p] = await call(h, GOV, GOV_ABI, "getProposal", [expedited]);
    expect([await status(expedited), await status(vetoed), await status(silent)]).to.deep.equal([4n, 4n, 4n]);
    // refunds: the expedited one (no) and the silent one (no quorum, burn_vote_quorum false); the vetoed one burned (burn_vote_veto)
    expect(await balance(h, ALICE)).to.equal(aliceBefore + 2n * E18);
    expect(await balance(h, GOV_MODULE_ACCOUNT)).to.equal(0n);
  });

  it("runs a passed proposal's staking and distribution messages as the gov account", async () => {
    c = await localNode();
    const { h } = c;
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    await h.request("eth_sendTransaction", [{ from: ALICE, to: GOV_MODULE_ACCOUNT, value: q(100n * E18) }]);
    const delegate = {
      "@type": "/cosmos.staking.v1beta1.MsgDelegate",
      delegator_address: GOV_ACCOUNT,
      validator_address: valoper(VALIDATOR),
      amount: { denom: "atest", amount: (40n * E18).toString() },
    };
    const fund = { "@type": "/cosmos.distribution.v1beta1.MsgFundCommunityPool", depositor: GOV_ACCOUNT, amount: [{ denom: "atest", amount: (10n * E18).toString() }] };
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([delegate, fund]), [["atest", E18]]]);
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, 1, 1, ""]);
    const poolBefore = (await call(h, DISTRIBUTION, DISTRIBUTION_ABI, "communityPool", []))[0][0][1] as bigint;
    await moveTime(h, 31);
    expect((await call(h, GOV, GOV_ABI, "getProposal", [1]))[0][2]).to.equal(3n);
    const delegations = await h.request<Array<{ balance: { amount: string } }>>("cosmos_delegations", [GOV_MODULE_ACCOUNT]);
    expect(delegations.map((d) => d.balance.amount)).to.deep.equal([(40n * E18).toString()]);
    // 100 TEST in, 40 delegated, 10 to the community pool; the deposit refunded to ALICE
    expect(await balance(h, GOV_MODULE_ACCOUNT)).to.equal(50n * E18);
    const poolAfter = (await call(h, DISTRIBUTION, DISTRIBUTION_ABI, "communityPool", []))[0][0][1] as bigint;
    // the pool grew by the 10 TEST and this block's 2% of the mint
    expect(poolAfter - poolBefore >= 10n * E18 && poolAfter - poolBefore <= 11n * E18).to.equal(true);
  });

  it("exports its params sections (distribution, mint, gov) so the exported chain starts again with them", async () => {
    c = await localNode();
    const exported = await c.h.request<Record<string, Record<string, unknown>>>("cosmos_exportGenesis", []);
    expect((exported.distribution.params as Record<string, unknown>).community_tax).to.equal("0.020000000000000000");
    expect((exported.mint.params as Record<string, unknown>).blocks_per_year).to.equal("6311520");
    expect((exported.gov.params as Record<string, unknown>).voting_period).to.equal("30s");
    expect(exported.gov.starting_proposal_id).to.equal("1");
    await close(c);
    // a chain made from that export: the same gov periods, still minting every block
    c = await localNode((g) => {
      const app = (g as { app_state: Record<string, unknown> }).app_state;
      for (const key of ["distribution", "mint", "gov"]) app[key] = exported[key];
    });
    const [params] = await call(c.h, GOV, GOV_ABI, "getParams", []);
    expect([params[0], params[9]]).to.deep.equal([30n, 15n]);
    await c.h.request("evm_mine", []);
    expect((await blockEvents(c.h)).begin_block_events.map((e) => e.type)).to.include("mint");
  });

  it("keeps gov's state as chain state: evm_revert undoes a tally, a state dump carries an open proposal to a new chain that tallies it", async () => {
    c = await localNode();
    const { h } = c;
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([]), [["atest", E18]]]);
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, 1, 1, ""]);
    const status = async (hh: Harness) => (await call(hh, GOV, GOV_ABI, "getProposal", [1]))[0][2] as bigint;
    const snap = await h.request<string>("evm_snapshot", []);
    await moveTime(h, 31);
    expect(await status(h)).to.equal(3n);
    expect(await h.request("evm_revert", [snap])).to.equal(true);
    expect(await status(h)).to.equal(2n);
    const dump = await h.request<string>("hardhat_dumpState", []);
    await close(c);
    c = await localNode();
    await c.h.request("hardhat_loadState", [dump]);
    expect(await status(c.h)).to.equal(2n);
    // the new chain's head is younger than the dumped one's: past the voting end with room to spare
    await moveTime(c.h, 60);
    expect(await status(c.h)).to.equal(3n);
  });

  it("writes miner_setGasPrice into app.toml in the chain's coin", async () => {
    c = await localNode();
    await c.h.request("miner_setGasPrice", ["0x5"]);
    expect(readFileSync(path.join(c.dir, "config", "app.toml"), "utf8")).to.contain('minimum-gas-prices = "5atest"');
  });

  it("answers x/gov's REST routes over HTTP as its gateway does: a proposal by id, the list by status, an unknown id NotFound", async () => {
    c = await localNode(undefined, serveHttp);
    const { h } = c;
    const get = async (p: string) => {
      const res = await fetch(new URL(p, h.url));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await get("/cosmos/gov/v1/proposals/1")).to.deep.equal({ status: 404, body: { code: 5, message: "proposal 1 doesn't exist", details: [] } });
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 7n)]), [["atest", E18]]]);
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 1n)]), []]);
    const one = await get("/cosmos/gov/v1/proposals/1");
    expect(one.status).to.equal(200);
    const p = one.body.proposal as Record<string, unknown>;
    expect([p.id, p.status, p.total_deposit, p.proposer, p.title, p.expedited, p.failed_reason]).to.deep.equal([
      "1",
      "PROPOSAL_STATUS_VOTING_PERIOD",
      [{ denom: "atest", amount: E18.toString() }],
      account(ALICE),
      "test prop",
      false,
      "",
    ]);
    expect(p.messages).to.deep.equal([msgSend(BOB, 7n)]);
    expect(p.final_tally_result).to.deep.equal({ yes_count: "0", abstain_count: "0", no_count: "0", no_with_veto_count: "0" });
    expect(typeof p.voting_end_time).to.equal("string");
    // the second has no deposit: still in its deposit period, no voting times
    const two = (await get("/cosmos/gov/v1/proposals/2")).body.proposal as Record<string, unknown>;
    expect([two.status, two.voting_start_time, two.voting_end_time, two.total_deposit]).to.deep.equal(["PROPOSAL_STATUS_DEPOSIT_PERIOD", null, null, []]);
    const voting = await get("/cosmos/gov/v1/proposals?proposal_status=PROPOSAL_STATUS_VOTING_PERIOD");
    expect((voting.body.proposals as Array<{ id: string }>).map((x) => x.id)).to.deep.equal(["1"]);
    const all = await get("/cosmos/gov/v1/proposals?pagination.count_total=true");
    expect([(all.body.proposals as Array<{ id: string }>).map((x) => x.id), (all.body.pagination as { total: string }).total]).to.deep.equal([["1", "2"], "2"]);
    expect((await get("/cosmos/gov/v1/proposals/0")).status).to.equal(400);
    expect((await get("/cosmos/gov/v1/proposals?proposal_status=PROPOSAL_STATUS_SOMETIMES")).status).to.equal(400);
  });

  it("answers the REST routes the epochs page reads: a tally as it stands, a delegator's unbondings, the coin's metadata", async () => {
    c = await localNode(undefined, serveHttp);
    const { h } = c;
    const get = async (p: string) => {
      const res = await fetch(new URL(p, h.url));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposalJson([msgSend(BOB, 7n)]), [["atest", E18]]]);
    expect(await get("/cosmos/gov/v1/proposals/1/tally")).to.deep.equal({ status: 200, body: { tally: { yes_count: "0", abstain_count: "0", no_count: "0", no_with_veto_count: "0" } } });
    await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, 1n, 1, "yes"]);
    // in the voting period: tallied as it stands (the final result is still all zero)
    expect((await get("/cosmos/gov/v1/proposals/1/tally")).body).to.deep.equal({ tally: { yes_count: `${5000n * E18}`, abstain_count: "0", no_count: "0", no_with_veto_count: "0" } });
    expect(((await get("/cosmos/gov/v1/proposals/1")).body.proposal as { final_tally_result: unknown }).final_tally_result).to.deep.equal({
      yes_count: "0",
      abstain_count: "0",
      no_count: "0",
      no_with_veto_count: "0",
    });
    expect(await get("/cosmos/gov/v1/proposals/9/tally")).to.deep.equal({ status: 404, body: { code: 5, message: "proposal 9 doesn't exist", details: [] } });
    // the same over JSON-RPC (what the epochs page reads)
    expect(await h.request("cosmos_tally", ["0x1"])).to.deep.equal((await get("/cosmos/gov/v1/proposals/1/tally")).body.tally);
    expect(await h.request("cosmos_proposals")).to.deep.equal((await get("/cosmos/gov/v1/proposals")).body.proposals);
    expect((await rpcError(h.request("cosmos_tally", ["0x9"]))).message).to.equal("proposal 9 doesn't exist");

    expect((await get(`/cosmos/staking/v1beta1/delegators/${account(ALICE)}/unbonding_delegations`)).body).to.deep.equal({ unbonding_responses: [], pagination: { next_key: null, total: "0" } });
    await send(h, ALICE, STAKING, STAKING_ABI, "undelegate", [ALICE, valoper(VALIDATOR), 2n * E18]);
    const head = await h.request<{ number: string; timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    const unbondingTime = BigInt((await h.request<{ staking_params: { unbonding_time: string } }>("cosmos_stakingState")).staking_params.unbonding_time.replace("s", ""));
    const ubd = (await get(`/cosmos/staking/v1beta1/delegators/${account(ALICE)}/unbonding_delegations`)).body;
    expect(ubd).to.deep.equal({
      unbonding_responses: [
        {
          delegator_address: account(ALICE),
          validator_address: valoper(VALIDATOR),
          entries: [
            {
              creation_height: BigInt(head.number).toString(),
              completion_time: new Date(Number(BigInt(head.timestamp) + unbondingTime) * 1000).toISOString().replace(".000Z", "Z"),
              initial_balance: `${2n * E18}`,
              balance: `${2n * E18}`,
              unbonding_id: (ubd.unbonding_responses as Array<{ entries: Array<{ unbonding_id: string }> }>)[0].entries[0].unbonding_id,
              unbonding_on_hold_ref_count: "0",
            },
          ],
        },
      ],
      pagination: { next_key: null, total: "1" },
    });
    // the same over JSON-RPC, by hex address (what the epochs page reads)
    expect(await h.request("cosmos_unbondings", [ALICE])).to.deep.equal(ubd.unbonding_responses);
    expect((await get("/cosmos/staking/v1beta1/delegators/nonsense/unbonding_delegations")).status).to.equal(400);

    const meta = await get("/cosmos/bank/v1beta1/denoms_metadata/atest");
    expect(meta.status).to.equal(200);
    expect(meta.body.metadata).to.deep.include({ base: "atest", display: "test", symbol: "TEST" });
    expect(await h.request("cosmos_denomMetadata", ["atest"])).to.deep.equal(meta.body.metadata);
    expect(await h.request("cosmos_denomMetadata", ["unknown"])).to.equal(null);
    expect(await get("/cosmos/bank/v1beta1/denoms_metadata/unknown")).to.deep.equal({ status: 404, body: { code: 5, message: "client metadata for denom unknown", details: [] } });
  });
});
