/**
 * Each module's params are checked in one place (its keeper's setParams, the SDK's Params.Validate
 * in its words), whatever path sets them: a genesis.json (refused, naming the field) and a
 * MsgUpdateParams carried by a passed proposal (the proposal ends FAILED, nothing applied, the
 * chain goes on minting). On a node from local_node.sh's genesis, over JSON-RPC.
 */
import { expect } from "chai";
import { Interface, getBytes } from "ethers";
import { bech32 } from "bech32";
import { GOV_MODULE_ACCOUNT } from "../../src/cosmos/gov/keeper";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import type { Harness } from "../helpers/harness";
import { type LocalNode, closeLocalNode, localNode } from "../helpers/local-node";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const GOV = "0x0000000000000000000000000000000000000805";
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const q = (n: bigint): string => `0x${n.toString(16)}`;
const account = (hex: string): string => bech32.encode("cosmos", bech32.toWords(getBytes(hex)));
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));
const AUTHORITY = account(GOV_MODULE_ACCOUNT);
type Events = Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;

async function send(h: Harness, from: string, to: string, abi: Interface, fn: string, args: unknown[]): Promise<{ status: string }> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData(fn, args), gas: q(3_000_000n) }]);
  return h.request("eth_getTransactionReceipt", [hash]);
}

const proposal = (message: Record<string, unknown>): Uint8Array => Buffer.from(JSON.stringify({ messages: [message], metadata: "", title: "params", summary: "params" }));

describe("module params checked on every path (a local_node.sh genesis)", function () {
  this.timeout(120_000);
  let c: LocalNode | undefined;
  afterEach(async () => {
    await closeLocalNode(c);
    c = undefined;
  });

  it("a passed proposal whose params fail their module's check ends FAILED in the SDK's words, nothing applied; later blocks still mint", async () => {
    c = await localNode();
    const { h } = c;
    expect((await send(h, ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18])).status).to.equal("0x1");
    const before = await h.request<Record<string, unknown>>("cosmos_exportGenesis", []);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ "@type": "/cosmos.mint.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { goal_bonded: "0" } }, "goal bonded must be positive: 0.000000000000000000"],
      [{ "@type": "/cosmos.mint.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { inflation_max: "1.5" } }, "max inflation too large: 1.500000000000000000"],
      [{ "@type": "/cosmos.mint.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { inflation_rate_change: "-0.1" } }, "inflation rate change cannot be negative: -0.100000000000000000"],
      [{ "@type": "/cosmos.mint.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { blocks_per_year: "-5" } }, 'params.blocks_per_year: invalid uint64 "-5"'],
      [{ "@type": "/cosmos.mint.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { blocks_per_year: "0" } }, "blocks per year must be positive: 0"],
      [{ "@type": "/cosmos.staking.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { unbonding_time: "0s" } }, "unbonding time must be positive: 0"],
      [{ "@type": "/cosmos.staking.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { max_validators: 0 } }, "max validators must be positive"],
      [{ "@type": "/cosmos.distribution.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { community_tax: "-0.1" } }, "community tax must be positive: -0.100000000000000000"],
      [{ "@type": "/cosmos.distribution.v1beta1.MsgUpdateParams", authority: AUTHORITY, params: { community_tax: "1.5" } }, "community tax too large: 1.500000000000000000"],
      [{ "@type": "/cosmos.gov.v1.MsgUpdateParams", authority: AUTHORITY, params: { voting_period: "0s" } }, "voting period must be positive: 0s"],
    ];
    for (const [i, [message]] of cases.entries()) {
      expect((await send(h, ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposal(message), [["atest", E18]]])).status).to.equal("0x1");
      expect((await send(h, ALICE, GOV, GOV_ABI, "vote", [ALICE, i + 1, 1, ""])).status).to.equal("0x1");
    }
    const head = BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    await h.request("evm_setNextBlockTimestamp", [q(head + 31n)]);
    await h.request("evm_mine", []);
    const events = await h.request<{ end_block_events: Events }>("epochs_blockEvents", ["latest"]);
    const results = events.end_block_events.filter((e) => e.type === "active_proposal").map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
    expect(results.map((r) => [r.proposal_id, r.proposal_result, r.proposal_log])).to.deep.equal(cases.map(([, text], i) => [String(i + 1), "proposal_failed", text]));
    for (let id = 1; id <= cases.length; id++) {
      const [p] = GOV_ABI.decodeFunctionResult("getProposal", await h.request<string>("eth_call", [{ to: GOV, data: GOV_ABI.encodeFunctionData("getProposal", [id]) }, "latest"]));
      expect(p[2], `proposal ${id}'s status`).to.equal(5n); // PROPOSAL_STATUS_FAILED
    }
    // every module's params as they were
    const after = await h.request<Record<string, { params: unknown }>>("cosmos_exportGenesis", []);
    for (const m of ["mint", "staking", "distribution", "gov"]) expect((after[m] as { params: unknown }).params, m).to.deep.equal((before[m] as { params: unknown }).params);
    // and x/mint goes on minting
    await h.request("evm_mine", []);
    const next = await h.request<{ begin_block_events: Events }>("epochs_blockEvents", ["latest"]);
    expect(next.begin_block_events.map((e) => e.type))
      .to.include("mint")
      .and.not.include("mint_failed");
  });

  it("refuses a genesis whose params or amounts fail their checks, naming the field", async () => {
    const refused = async (edit: (g: Record<string, unknown>) => void): Promise<string> => {
      let message = "";
      await localNode(edit).then(closeLocalNode, (err: Error) => (message = err.message));
      return message;
    };
    type App = {
      app_state: {
        mint: { params: Record<string, unknown>; minter: Record<string, unknown> };
        staking: { params: Record<string, unknown> };
        distribution: { params: Record<string, unknown> };
        bank: { balances: Array<{ coins: Array<{ amount: string }> }> };
      };
    };
    const app = (g: Record<string, unknown>) => (g as unknown as App).app_state;
    expect(await refused((g) => (app(g).mint.params.inflation_max = "1.5"))).to.match(/app_state\.mint\.params: max inflation too large: 1\.500000000000000000/);
    expect(await refused((g) => (app(g).mint.params.goal_bonded = "0"))).to.match(/app_state\.mint\.params: goal bonded must be positive: 0\.000000000000000000/);
    expect(await refused((g) => (app(g).mint.minter.inflation = "-0.1"))).to.match(/app_state\.mint\.minter: mint parameter Inflation should be positive, is -0\.100000000000000000/);
    expect(await refused((g) => (app(g).staking.params.unbonding_time = "0s"))).to.match(/app_state\.staking\.params: unbonding time must be positive: 0/);
    expect(await refused((g) => (app(g).staking.params.max_validators = 0))).to.match(/app_state\.staking\.params: max validators must be positive/);
    expect(await refused((g) => (app(g).distribution.params.community_tax = "1.5"))).to.match(/app_state\.distribution\.params\.community_tax: community tax too large: 1\.500000000000000000/);
    // an amount past math.Int's 256 bits (and an EVM balance's), and balances that add up past them
    expect(await refused((g) => (app(g).bank.balances[1].coins[0].amount = (2n ** 256n).toString()))).to.match(
      /app_state\.bank\.balances\[1\]\.coins\[0\]\.amount: integer out of range: 115792089237316195423570985008687907853269984665640564039457584007913129639936/,
    );
    expect(await refused((g) => (app(g).bank.balances[1].coins[0].amount = (2n ** 256n - 1n).toString()))).to.match(
      /app_state\.bank\.balances: the atest balances add up to \d+, past 2\^256 − 1: Int overflow/,
    );
  });
});
