/**
 * The staking and distribution modules' state as part of the chain (src/cosmos/): the cosmos_* RPC
 * reads and dev methods, the Cosmos REST routes, reads at a height, evm_snapshot/evm_revert,
 * hardhat_mine across a maturity (reserved ranges stop at it), a trace of a delegation, and a
 * LevelDB home across a restart. Values are worked out by hand in the comments.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { artifacts } from "hardhat";
import { Interface, getBytes } from "ethers";
import { bech32 } from "bech32";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import { SLASHING_ABI } from "../../src/cosmos/slashing/precompile";
import { SLASHING_PRECOMPILE as SLASHING } from "../../src/cosmos/slashing/keeper";
import { GOV_PRECOMPILE as GOV } from "../../src/cosmos/gov/keeper";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { BANK_ABI, NATIVE_ERC20 } from "../../src/cosmos/bank/precompile";
import { BANK_PRECOMPILE as BANK, BONDED_POOL, NOT_BONDED_POOL } from "../../src/cosmos/common/accounts";
import { EpochsHelpers } from "../../src/host/helpers/epochs-helpers";
import { LevelKV } from "../../src/storage/level-kv";
import type { RuntimeOptions } from "../../src/app/runtime";
import { homeRuntimeOptions, openHome } from "../../src/host/node/home";
import { type Harness, inProcess, rpcError, testChainConfig } from "../helpers/harness";
import { serveHttp } from "../helpers/http";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const OP0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const NEW_OP = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const valoper = (hex: string, prefix = "cosmosvaloper"): string => bech32.encode(prefix, bech32.toWords(getBytes(hex)));
const account = (hex: string, prefix = "cosmos"): string => bech32.encode(prefix, bech32.toWords(getBytes(hex)));
const q = (n: bigint): string => `0x${n.toString(16)}`;
const COSMOS: Partial<RuntimeOptions> = { epochs: { profile: "cosmos-evm" }, cosmos: { staking: { unbondingTime: 3_600n }, distribution: { epochIdentifier: "minute" } } };

async function send(h: Harness, from: string, fn: string, args: unknown[]): Promise<string> {
  return h.request<string>("eth_sendTransaction", [{ from, to: STAKING, data: STAKING_ABI.encodeFunctionData(fn, args), gas: q(1_000_000n) }]);
}

const balance = async (h: Harness, a: string, tag = "latest") => BigInt(await h.request<string>("eth_getBalance", [a, tag]));
const headTime = async (h: Harness) => BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);

describe("the Cosmos modules as chain state", function () {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it("reads validators, delegations and rewards over cosmos_* at the head and at an older height", async () => {
    h = await inProcess(COSMOS);
    const before = await h.request<string>("eth_blockNumber");
    await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
    const validators = await h.request<Array<Record<string, unknown>>>("cosmos_validators", []);
    expect(validators).to.have.length(1);
    expect(validators[0]).to.deep.include({
      operator_address: valoper(OP0),
      jailed: false,
      status: "BOND_STATUS_BONDED",
      tokens: `${1100n * E18}`,
      delegator_shares: `${1100n * E18}.000000000000000000`,
    });
    expect(validators[0].commission).to.deep.include({ commission_rates: { rate: "0.100000000000000000", max_rate: "1.000000000000000000", max_change_rate: "0.010000000000000000" } });
    expect(await h.request("cosmos_delegations", [ALICE])).to.deep.equal([
      { delegation: { delegator_address: account(ALICE), validator_address: valoper(OP0), shares: `${100n * E18}.000000000000000000` }, balance: { denom: "atest", amount: `${100n * E18}` } },
    ]);
    // at the block before the delegation: none, and the validator had its 1,000 self-bonded coins
    expect(await h.request("cosmos_delegations", [ALICE, before])).to.deep.equal([]);
    expect((await h.request<Array<{ tokens: string }>>("cosmos_validators", ["BOND_STATUS_BONDED", before]))[0].tokens).to.equal(`${1000n * E18}`);
    expect(await h.request("cosmos_validators", ["BOND_STATUS_UNBONDING"])).to.deep.equal([]);
    // allocate 11 coins now: 2 % community tax → 10.78; commission 10 % → 9.702 to 1,100 tokens; Alice's 100: 0.882
    // coins (amounts in atest, decimals as the SDK prints a DecCoin)
    await h.request("cosmos_allocateRewards", [q(11n * E18)]);
    expect(await h.request("cosmos_rewards", [ALICE])).to.deep.equal({
      rewards: [{ validator_address: valoper(OP0), reward: [{ denom: "atest", amount: "882000000000000000.000000000000000000" }] }],
      total: [{ denom: "atest", amount: "882000000000000000.000000000000000000" }],
    });
    const state = await h.request<{ community_pool: string; staking_params: unknown; distribution_params: unknown }>("cosmos_stakingState", []);
    expect(state.community_pool).to.equal("220000000000000000.000000000000000000");
    expect(state.staking_params).to.deep.equal({ unbonding_time: "3600s", max_entries: 7, max_validators: 100, bond_denom: "atest" });
    expect(state.distribution_params).to.deep.equal({ community_tax: "0.020000000000000000", epoch_identifier: "minute", rewards_per_epoch: `${10n * E18}` });
  });

  it("lets a test add, jail and slash validators and change the rewards (dev methods), refusing bad input", async () => {
    h = await inProcess(COSMOS);
    const added = await h.request<{ operator_address: string; tokens: string; description: { moniker: string } }>("cosmos_addValidator", [
      { operator: NEW_OP, tokens: q(200n * E18), commissionRate: "0.05", moniker: "new" },
    ]);
    expect([added.operator_address, added.tokens, added.description.moniker]).to.deep.equal([valoper(NEW_OP), `${200n * E18}`, "new"]);
    // minted, not taken from the operator: its dev balance stays
    expect(await balance(h, NEW_OP)).to.equal(10_000n * E18);
    expect(await balance(h, BONDED_POOL)).to.equal(1200n * E18);
    expect((await rpcError(h.request("cosmos_addValidator", [{ operator: NEW_OP }]))).message).to.equal("validator already exist for this operator address; must use new validator operator address");

    const jailed = await h.request<{ jailed: boolean; status: string }>("cosmos_jailValidator", [NEW_OP]);
    expect([jailed.jailed, jailed.status]).to.deep.equal([true, "BOND_STATUS_UNBONDING"]);
    expect(await balance(h, BONDED_POOL)).to.equal(1000n * E18);
    expect(await balance(h, NOT_BONDED_POOL)).to.equal(200n * E18);
    // a jailed validator earns nothing: all 9.8 of 10 minted coins go to validator 0
    await h.request("cosmos_allocateRewards", [q(10n * E18)]);
    const commission = (await h.request<{ validators: unknown }>("cosmos_stakingState", [])).validators;
    expect(commission).to.have.length(2);
    expect((await rpcError(h.request("cosmos_jailValidator", [NEW_OP]))).message).to.equal("validator already jailed");
    await h.request("cosmos_jailValidator", [NEW_OP, false]);
    expect(await balance(h, BONDED_POOL)).to.equal(1200n * E18);

    // slash 5 % of 200: 10 coins burned; the self-delegation's shares are worth 190
    const slashed = await h.request<{ burned: string; validator: { tokens: string } }>("cosmos_slashValidator", [NEW_OP, "0.05"]);
    expect([slashed.burned, slashed.validator.tokens]).to.deep.equal([`${10n * E18}`, `${190n * E18}`]);
    expect(await balance(h, BONDED_POOL)).to.equal(1190n * E18);
    expect((await h.request<Array<{ balance: { amount: string } }>>("cosmos_delegations", [NEW_OP]))[0].balance.amount).to.equal(`${190n * E18}`);

    const rewards = await h.request("cosmos_setRewards", [{ rewardsPerEpoch: q(5n * E18), epochIdentifier: "hour", communityTax: "0" }]);
    expect(rewards).to.deep.equal({ rewardsPerEpoch: `${5n * E18}`, epochIdentifier: "hour", communityTax: "0" });
    expect((await rpcError(h.request("cosmos_slashValidator", [NEW_OP, "1.5"]))).message).to.match(/^invalid argument 1: expected a decimal from 0 to 1/);
    expect((await rpcError(h.request("cosmos_slashValidator", [ALICE, "0.1"]))).message).to.equal("validator does not exist");
    expect((await rpcError(h.request("cosmos_addValidator", [{ tokens: "0x1" }]))).message).to.match(/operator: missing/);
  });

  it("creates and edits a validator from its operator's account, with the SDK's commission rules", async () => {
    h = await inProcess(COSMOS);
    const pubkey = Buffer.alloc(32, 7).toString("base64");
    const description = ["new", "", "https://v.example", "", ""];
    const rates = [E18 / 10n, E18 / 5n, E18 / 100n]; // 10 %, at most 20 %, by 1 % a day
    const before = await balance(h, NEW_OP);
    const hash = await send(h, NEW_OP, "createValidator", [description, rates, 1n, NEW_OP, pubkey, 50n * E18]);
    const receipt = await h.request<{ gasUsed: string; effectiveGasPrice: string; logs: Array<{ topics: string[] }> }>("eth_getTransactionReceipt", [hash]);
    expect(receipt.logs.map((l) => l.topics[0])).to.include(STAKING_ABI.getEvent("CreateValidator")!.topicHash);
    expect(await balance(h, NEW_OP)).to.equal(before - 50n * E18 - BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
    const v = (await h.request<Array<{ operator_address: string; tokens: string; consensus_pubkey: { key: string }; description: { website: string } }>>("cosmos_validators", [])).find(
      (x) => x.operator_address === valoper(NEW_OP),
    );
    expect([v?.tokens, v?.consensus_pubkey.key, v?.description.website]).to.deep.equal([`${50n * E18}`, pubkey, "https://v.example"]);
    const edit = (rate: bigint) =>
      h.request("eth_call", [{ from: NEW_OP, to: STAKING, data: STAKING_ABI.encodeFunctionData("editValidator", [["[do-not-modify]", "", "", "", ""], NEW_OP, rate, -1n]) }, "latest"]);
    expect((await rpcError(edit(E18 / 10n + E18 / 100n))).message).to.match(/commission cannot be changed more than once in 24h/);
    await h.request("evm_increaseTime", [86_401]);
    await h.request("evm_mine");
    expect((await rpcError(edit(E18 / 10n + E18 / 50n))).message).to.match(/commission cannot be changed more than max change rate/);
    expect((await rpcError(edit(E18 / 4n))).message).to.match(/commission cannot be more than the max rate/);
    await send(h, NEW_OP, "editValidator", [["[do-not-modify]", "", "", "", ""], NEW_OP, E18 / 10n + E18 / 100n, -1n]);
    const edited = (await h.request<Array<{ operator_address: string; description: { moniker: string }; commission: { commission_rates: { rate: string } } }>>("cosmos_validators", [])).find(
      (x) => x.operator_address === valoper(NEW_OP),
    );
    expect([edited?.description.moniker, edited?.commission.commission_rates.rate]).to.deep.equal(["new", "0.110000000000000000"]);
    // another account may not create a validator for this one
    const other = h.request("eth_call", [{ from: ALICE, to: STAKING, data: STAKING_ABI.encodeFunctionData("createValidator", [description, rates, 1n, NEW_OP, pubkey, E18]) }, "latest"]);
    expect((await rpcError(other)).message).to.match(new RegExp(`msg.sender address ${ALICE} does not match the requester address ${NEW_OP}`));
  });

  it("applies nothing of a message that fails after it wrote (rewards withdrawn, then too few coins)", async () => {
    h = await inProcess(COSMOS);
    await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
    await h.request("cosmos_allocateRewards", [q(11n * E18)]);
    const rewards = await h.request("cosmos_rewards", [ALICE]);
    const pool = await balance(h, BONDED_POOL);
    // a second delegation first withdraws the pending rewards, then finds the balance short: all of it reverts
    // (in-process, the failed transaction is mined and throws, as on Hardhat; the balance it names includes the withdrawn rewards)
    const failure = await rpcError(send(h, ALICE, "delegate", [ALICE, valoper(OP0), 20_000n * E18]));
    expect(failure.message).to.match(/reverted with reason string 'spendable balance \d+atest is smaller than 20000000000000000000000atest: insufficient funds'/);
    const block = await h.request<{ transactions: string[] }>("eth_getBlockByNumber", ["latest", false]);
    const receipt = await h.request<{ status: string }>("eth_getTransactionReceipt", [block.transactions[0]]);
    expect(receipt.status).to.equal("0x0");
    expect(await h.request("cosmos_rewards", [ALICE])).to.deep.equal(rewards);
    expect(await balance(h, BONDED_POOL)).to.equal(pool);
  });

  it("reverts module state with evm_revert and keeps it across hardhat_mine, completing an unbonding at its time", async () => {
    h = await inProcess(COSMOS);
    await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
    const snapshot = await h.request<string>("evm_snapshot");
    await send(h, ALICE, "undelegate", [ALICE, valoper(OP0), 100n * E18]);
    expect(await h.request("cosmos_delegations", [ALICE])).to.deep.equal([]);
    await h.request("evm_revert", [snapshot]);
    expect((await h.request<unknown[]>("cosmos_delegations", [ALICE])).length).to.equal(1);
    expect(await balance(h, NOT_BONDED_POOL)).to.equal(0n);

    await send(h, ALICE, "undelegate", [ALICE, valoper(OP0), 40n * E18]);
    const done = (await headTime(h)) + 3_600n;
    const head = BigInt(await h.request<string>("eth_blockNumber"));
    const mid = await balance(h, ALICE);
    // 10,000 blocks one second apart: the unbonding completes in the block whose time reaches `done`
    await h.request("hardhat_mine", [q(10_000n), "0x1"]);
    expect(await balance(h, ALICE)).to.equal(mid + 40n * E18);
    expect(await balance(h, NOT_BONDED_POOL)).to.equal(0n);
    // find that block: the one before it still owes the coins
    let lo = head + 1n;
    let hi = head + 10_000n;
    while (lo < hi) {
      const m = (lo + hi) / 2n;
      if ((await balance(h, ALICE, q(m))) === mid + 40n * E18) hi = m;
      else lo = m + 1n;
    }
    const block = await h.request<{ timestamp: string }>("eth_getBlockByNumber", [q(lo), false]);
    expect(BigInt(block.timestamp)).to.equal(done);
    const events = await h.request<{ end_block_events: Array<{ type: string }> }>("epochs_blockEvents", [q(lo)]);
    expect(events.end_block_events.map((e) => e.type)).to.include("complete_unbonding");
  });

  it("traces a delegation (the precompile's call in the trace) without changing the chain", async () => {
    h = await inProcess(COSMOS);
    const hash = await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
    const trace = await h.request<{ type: string; to: string; output: string; gasUsed: string }>("debug_traceTransaction", [hash, { tracer: "callTracer" }]);
    expect(trace.to.toLowerCase()).to.equal(STAKING);
    expect(STAKING_ABI.decodeFunctionResult("delegate", trace.output)[0]).to.equal(true);
    expect(BigInt(trace.gasUsed)).to.be.greaterThan(21_000n);
    expect((await h.request<unknown[]>("cosmos_delegations", [ALICE])).length).to.equal(1);
    expect(await balance(h, BONDED_POOL)).to.equal(1100n * E18);
  });

  it("carries module state in a state dump (hardhat_dumpState, then hardhat_loadState on a new chain)", async () => {
    h = await inProcess(COSMOS);
    await h.request("cosmos_addValidator", [{ operator: NEW_OP, tokens: q(70n * E18) }]);
    await send(h, ALICE, "delegate", [ALICE, valoper(NEW_OP), 3n * E18]);
    const dump = await h.request<string>("hardhat_dumpState");
    const validators = await h.request("cosmos_validators", []);
    await h.close();
    h = await inProcess(COSMOS);
    await h.request("hardhat_loadState", [dump]);
    expect(await h.request("cosmos_validators", [])).to.deep.equal(validators);
    expect((await h.request<Array<{ balance: { amount: string } }>>("cosmos_delegations", [ALICE]))[0].balance.amount).to.equal(`${3n * E18}`);
    expect(await balance(h, BONDED_POOL)).to.equal(1073n * E18);
  });

  it("keeps module state in a LevelDB home across a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cosmos-home-"));
    try {
      h = await inProcess({ ...COSMOS, kv: await LevelKV.open(dir) });
      await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
      await h.request("cosmos_addValidator", [{ operator: NEW_OP }]);
      await h.request("evm_mine");
      const validators = await h.request("cosmos_validators", []);
      await h.close();
      h = await inProcess({ ...COSMOS, kv: await LevelKV.open(dir) });
      expect(await h.request("cosmos_validators", [])).to.deep.equal(validators);
      expect((await h.request<unknown[]>("cosmos_delegations", [ALICE])).length).to.equal(1);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers the Cosmos REST routes over HTTP, and hre-style helpers drive the same state", async () => {
    h = await serveHttp(COSMOS);
    const helpers = new EpochsHelpers({
      request: ({ method, params }) => h.request(method, params ?? []),
      inProcess: () => undefined,
      fail: (m) => new Error(m),
    });
    expect(await helpers.cosmos.valoper(OP0)).to.equal(valoper(OP0));
    await helpers.cosmos.addValidator({ operator: NEW_OP, tokens: 50n * E18, commissionRate: "0.2" });
    await send(h, ALICE, "delegate", [ALICE, valoper(NEW_OP), 5n * E18]);
    await helpers.cosmos.allocateRewards(100n * E18);
    const get = async (p: string) => {
      const res = await fetch(new URL(p, h.url));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const vals = await get("/cosmos/staking/v1beta1/validators?pagination.limit=1&pagination.count_total=true");
    expect(vals.status).to.equal(200);
    expect((vals.body.validators as Array<{ operator_address: string }>).map((v) => v.operator_address)).to.deep.equal([valoper(NEW_OP)]);
    const pagination = vals.body.pagination as { next_key: string; total: string };
    expect(pagination.total).to.equal("2");
    const next = await get(`/cosmos/staking/v1beta1/validators?pagination.key=${encodeURIComponent(pagination.next_key)}`);
    expect((next.body.validators as Array<{ operator_address: string }>).map((v) => v.operator_address)).to.deep.equal([valoper(OP0)]);
    const dels = await get(`/cosmos/staking/v1beta1/delegations/${account(ALICE)}`);
    expect(dels.body).to.deep.equal({
      delegation_responses: [
        { delegation: { delegator_address: account(ALICE), validator_address: valoper(NEW_OP), shares: `${5n * E18}.000000000000000000` }, balance: { denom: "atest", amount: `${5n * E18}` } },
      ],
      pagination: { next_key: null, total: "1" },
    });
    // 100 minted: 98 after tax; NEW_OP holds 55 of 1,055 bonded tokens → 5.109004739336492890 coins; 20 % commission
    // leaves 4.087203791469194312 to 55 tokens: 0.074312796208530805 a token (truncated); Alice's 5 → 0.371563981042654025
    const rewards = await get(`/cosmos/distribution/v1beta1/delegators/${account(ALICE)}/rewards`);
    expect(rewards.body).to.deep.equal({
      rewards: [{ validator_address: valoper(NEW_OP), reward: [{ denom: "atest", amount: "371563981042654025.000000000000000000" }] }],
      total: [{ denom: "atest", amount: "371563981042654025.000000000000000000" }],
    });
    expect(await helpers.cosmos.rewards(ALICE)).to.deep.equal(rewards.body);
    const bad = await get(`/cosmos/staking/v1beta1/delegations/${account(ALICE, "evmos")}`);
    expect(bad).to.deep.equal({ status: 400, body: { code: 3, message: "invalid address: hrp does not match bech32 prefix: expected 'cosmos' got 'evmos': internal logic error", details: [] } });
  });

  it("answers the bank precompile: balances and the supply the modules keep (minted rewards in, slashes out)", async () => {
    h = await inProcess(COSMOS);
    const call = async (fn: string, args: unknown[]) => BANK_ABI.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to: BANK, data: BANK_ABI.encodeFunctionData(fn, args) }, "latest"]));
    const pairs = (r: unknown) => (r as Array<[string, bigint]>).map(([a, n]) => [a, n]);
    // genesis: the 20 dev accounts' 10,000 coins each, plus the validator's 1,000 minted self-bond
    const genesis = 20n * 10_000n * E18 + 1000n * E18;
    expect(pairs((await call("totalSupply", []))[0])).to.deep.equal([[NATIVE_ERC20, genesis]]);
    expect((await call("supplyOf", [NATIVE_ERC20]))[0]).to.equal(genesis);
    expect((await call("supplyOf", [ALICE]))[0]).to.equal(0n);
    expect(pairs((await call("balances", [BONDED_POOL]))[0])).to.deep.equal([[NATIVE_ERC20, 1000n * E18]]);
    expect(pairs((await call("balances", ["0x000000000000000000000000000000000000dEaD"]))[0])).to.deep.equal([]);
    // a fee-paying transaction moves no supply (the chain's fees are not burned on Cosmos)
    await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
    expect((await call("supplyOf", [NATIVE_ERC20]))[0]).to.equal(genesis);
    await h.request("cosmos_allocateRewards", [q(7n * E18)]);
    await h.request("cosmos_slashValidator", [OP0, "0.5"]);
    // half of the 1,100 bonded tokens burned
    expect((await call("supplyOf", [NATIVE_ERC20]))[0]).to.equal(genesis + 7n * E18 - 550n * E18);
    // flat gas: intrinsic 21,000 + calldata + cosmos/evm's 2,477
    const data = BANK_ABI.encodeFunctionData("totalSupply", []);
    expect(BigInt(await h.request<string>("eth_estimateGas", [{ to: BANK, data }]))).to.equal(21_000n + 4n * 16n + 2_477n);
  });

  it("lists a delegator's delegations and redelegations in x/staking's store order (by validator, bytewise), whatever order they were made in", async () => {
    h = await inProcess(COSMOS);
    // operators in byte order: V4 (0x15d3…) < NEW_OP (0x90f7…) < OP0 (0xf39f…)
    const V4 = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
    await h.request("cosmos_addValidator", [{ operator: NEW_OP }]);
    await h.request("cosmos_addValidator", [{ operator: V4 }]);
    await send(h, ALICE, "delegate", [ALICE, valoper(NEW_OP), 10n * E18]);
    await send(h, ALICE, "delegate", [ALICE, valoper(V4), 10n * E18]);
    const delegations = await h.request<Array<{ delegation: { validator_address: string } }>>("cosmos_delegations", [ALICE]);
    expect(delegations.map((d) => d.delegation.validator_address)).to.deep.equal([valoper(V4), valoper(NEW_OP)]);
    await send(h, ALICE, "redelegate", [ALICE, valoper(NEW_OP), valoper(OP0), E18]);
    await send(h, ALICE, "redelegate", [ALICE, valoper(V4), valoper(OP0), E18]);
    const data = STAKING_ABI.encodeFunctionData("redelegations", [ALICE, "", "", ["0x", 0, 10, true, false]]);
    const [rows] = STAKING_ABI.decodeFunctionResult("redelegations", await h.request<string>("eth_call", [{ to: STAKING, data }, "latest"]));
    expect((rows as Array<[[string, string]]>).map((r) => r[0][1])).to.deep.equal([valoper(V4), valoper(NEW_OP)]);
  });

  it("answers the slashing precompile: a jailed validator's signing info, and its operator unjails it after the jail duration", async () => {
    h = await inProcess(COSMOS);
    const call = async (fn: string, args: unknown[]) =>
      SLASHING_ABI.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to: SLASHING, data: SLASHING_ABI.encodeFunctionData(fn, args) }, "latest"]));
    const [params] = await call("getParams", []);
    // the Cosmos SDK's defaults: 100 blocks, 0.5 signed, 600 s, 0.05 and 0.01
    expect([params[0], params[1][0], params[2], params[3][0], params[4][0]]).to.deep.equal([100n, E18 / 2n, 600n, E18 / 20n, E18 / 100n]);
    const [infos] = await call("getSigningInfos", [["0x", 0, 0, true, false]]);
    expect(infos).to.have.length(1);
    const cons = infos[0][0] as string;
    await h.request("cosmos_addValidator", [{ operator: NEW_OP }]);
    // listed as x/slashing's store holds them: by consensus address, bytewise, not by operator as the
    // validators list (dev account 4's operator address sorts before OP0's, its consensus address after)
    await h.request("cosmos_addValidator", [{ operator: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65" }]);
    const [all] = await call("getSigningInfos", [["0x", 0, 0, true, false]]);
    const consAddresses = (all as Array<[string]>).map((row) => row[0].toLowerCase());
    expect(consAddresses)
      .to.have.length(3)
      .and.to.deep.equal([...consAddresses].sort());
    await h.request("cosmos_jailValidator", [OP0]);
    const at = await headTime(h);
    const [info] = await call("getSigningInfo", [cons]);
    expect(info[3]).to.equal(at + 600n);
    const unjail = (from: string) => h.request<string>("eth_sendTransaction", [{ from, to: SLASHING, data: SLASHING_ABI.encodeFunctionData("unjail", [OP0]), gas: q(500_000n) }]);
    const callUnjail = (from: string) => h.request("eth_call", [{ from, to: SLASHING, data: SLASHING_ABI.encodeFunctionData("unjail", [OP0]) }, "latest"]);
    expect((await rpcError(callUnjail(OP0))).message).to.match(/validator still jailed; cannot be unjailed/);
    expect((await rpcError(callUnjail(ALICE))).message).to.match(new RegExp(`msg.sender address ${ALICE} does not match the requester address ${OP0}`));
    await h.request("evm_mine", [Number(at + 600n)]);
    const receipt = await h.request<{ status: string; logs: Array<{ topics: string[] }> }>("eth_getTransactionReceipt", [await unjail(OP0)]);
    expect(receipt.status).to.equal("0x1");
    expect(receipt.logs[0].topics[0]).to.equal(SLASHING_ABI.getEvent("ValidatorUnjailed")!.topicHash);
    const v = (await h.request<Array<{ operator_address: string; jailed: boolean; status: string }>>("cosmos_validators", [])).find((x) => x.operator_address === valoper(OP0));
    expect([v?.jailed, v?.status]).to.deep.equal([false, "BOND_STATUS_BONDED"]);
    expect((await rpcError(callUnjail(OP0))).message).to.match(/validator not jailed; cannot be unjailed/);
  });

  it("answers the gov precompile's queries over proposals a test sets, to clients and to a contract", async () => {
    h = await inProcess(COSMOS);
    const helpers = new EpochsHelpers({ request: ({ method, params }) => h.request(method, params ?? []), inProcess: () => undefined, fail: (m) => new Error(m) });
    await helpers.cosmos.setProposal({
      id: 1,
      proposer: ALICE,
      title: "Raise the community tax",
      summary: "to 3 %",
      status: "PROPOSAL_STATUS_PASSED",
      messages: ["/cosmos.distribution.v1beta1.MsgUpdateParams"],
      votingStartTime: 1_700_000_000,
      votingEndTime: 1_700_172_800,
      finalTallyResult: { yes: 700n * E18, no: 100n * E18 },
      votes: [
        { voter: OP0, option: "VOTE_OPTION_YES" },
        {
          voter: NEW_OP,
          options: [
            { option: 3, weight: "0.25" },
            { option: "VOTE_OPTION_YES", weight: "0.75" },
          ],
        },
      ],
      deposits: [{ depositor: ALICE, amount: 10_000_000n }],
    });
    await helpers.cosmos.setProposal({ id: 2, proposer: OP0, title: "Spend", status: 2 });
    // its deposits written out of order: listed in x/gov's store order, by depositor (bytewise)
    await helpers.cosmos.setProposal({
      id: 3,
      proposer: OP0,
      title: "Order",
      status: 1,
      deposits: [
        { depositor: NEW_OP, amount: 2n },
        { depositor: ALICE, amount: 1n },
      ],
    });
    const call = async (fn: string, args: unknown[]) => GOV_ABI.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to: GOV, data: GOV_ABI.encodeFunctionData(fn, args) }, "latest"]));
    const [p] = await call("getProposal", [1]);
    expect([p[0], p[1], p[2], [...p[3]], p[8], p[10], p[11], p[12]]).to.deep.equal([
      1n,
      ["/cosmos.distribution.v1beta1.MsgUpdateParams"],
      3n,
      [`${700n * E18}`, "0", `${100n * E18}`, "0"],
      1_700_172_800n,
      "Raise the community tax",
      "to 3 %",
      ALICE,
    ]);
    expect(p[6].map((c: unknown[]) => [...c])).to.deep.equal([["atest", 10_000_000n]]);
    const [vote] = await call("getVote", [1, NEW_OP]);
    expect(vote[2].map((o: unknown[]) => [...o])).to.deep.equal([
      [3n, "0.250000000000000000"],
      [1n, "0.750000000000000000"],
    ]);
    const [deposits] = await call("getDeposits", [3, ["0x", 0, 10, true, false]]);
    expect(deposits.map((d: unknown[]) => d[1])).to.deep.equal([ALICE, NEW_OP]);
    const [byStatus, page] = await call("getProposals", [2, "0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000000", ["0x", 0, 0, true, false]]);
    expect([byStatus.map((x: unknown[]) => x[0]), page[1]]).to.deep.equal([[2n], 1n]);
    const [byVoter] = await call("getProposals", [0, OP0, "0x0000000000000000000000000000000000000000", ["0x", 0, 0, true, false]]);
    expect(byVoter.map((x: unknown[]) => x[0])).to.deep.equal([1n]);
    const [params] = await call("getParams", []);
    expect([params[0], params[3], params[4]]).to.deep.equal([172_800n, "0.334000000000000000", "0.500000000000000000"]);
    expect((await rpcError(call("getProposal", [9]))).message).to.match(/proposal 9 doesn't exist/);
    expect((await rpcError(call("getVote", [2, ALICE]))).message).to.match(new RegExp(`voter: ${account(ALICE)} not found for proposal: 2`));

    // a contract reads the same
    const artifact = await artifacts.readArtifact("GovReader");
    const deploy = await h.request<string>("eth_sendTransaction", [{ from: ALICE, data: artifact.bytecode, gas: q(1_000_000n) }]);
    const reader = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress;
    const readerAbi = new Interface(artifact.abi);
    const read = async (fn: string, args: unknown[]) =>
      readerAbi.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to: reader, data: readerAbi.encodeFunctionData(fn, args) }, "latest"]))[0];
    expect([await read("passed", [1]), await read("passed", [2]), await read("votedYes", [1, OP0]), await read("votedYes", [1, NEW_OP])]).to.deep.equal([true, false, true, false]);

    // its transactions run x/gov: a vote on a proposal past its voting period is refused in the SDK's words
    const voteTx = h.request("eth_call", [{ from: ALICE, to: GOV, data: GOV_ABI.encodeFunctionData("vote", [ALICE, 1, 1, ""]) }, "latest"]);
    expect((await rpcError(voteTx)).message).to.match(/1: inactive proposal/);
  });

  it("exports validators and delegations to a genesis.json that a node's home starts from with the same stakes", async () => {
    h = await inProcess(COSMOS);
    await h.request("cosmos_addValidator", [{ operator: NEW_OP, tokens: q(300n * E18), commissionRate: "0.07", moniker: "second" }]);
    await send(h, ALICE, "delegate", [ALICE, valoper(NEW_OP), 25n * E18]);
    await send(h, ALICE, "delegate", [ALICE, valoper(OP0), 5n * E18]);
    const { staking } = await h.request<{ staking: { params: unknown; validators: unknown[]; delegations: unknown[] } }>("cosmos_exportGenesis", []);
    expect(staking.params).to.deep.equal({ unbonding_time: "3600s", max_entries: 7, max_validators: 100, bond_denom: "atest" });
    expect(staking.delegations).to.have.length(4);
    // the validators as the genesis keeps them (not their commission's update time: the new chain's genesis time)
    const kept = (list: unknown) =>
      (list as Array<Record<string, unknown> & { commission: { commission_rates: unknown } }>).map(({ commission, unbonding_time: _t, ...v }) => ({ ...v, rates: commission.commission_rates }));
    const before = { validators: kept(await h.request("cosmos_validators", [])), alice: await h.request("cosmos_delegations", [ALICE]), op0: await h.request("cosmos_delegations", [OP0]) };
    await h.close();

    const dir = mkdtempSync(path.join(tmpdir(), "cosmos-genesis-"));
    try {
      const home = openHome(dir, { chainId: 9000n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos"], profile: "cosmos-evm" });
      const doc = JSON.parse(readFileSync(home.paths.genesis, "utf8")) as { app_state: Record<string, unknown> };
      doc.app_state.staking = staking;
      writeFileSync(home.paths.genesis, JSON.stringify(doc));
      const reopened = openHome(dir, { chainId: 9000n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos"], profile: "cosmos-evm" });
      const options = await homeRuntimeOptions(reopened, { chain: testChainConfig(), epochs: { profile: "cosmos-evm" }, cosmos: {} });
      h = await inProcess({ ...options, epochs: { ...options.epochs, profile: "cosmos-evm" } });
      expect(kept(await h.request("cosmos_validators", []))).to.deep.equal(before.validators);
      expect(await h.request("cosmos_delegations", [ALICE])).to.deep.equal(before.alice);
      expect(await h.request("cosmos_delegations", [OP0])).to.deep.equal(before.op0);
      // a genesis that names a validator the staking section lacks is refused with the field
      doc.app_state.staking = { ...staking, delegations: [{ delegator_address: account(ALICE), validator_address: valoper(ALICE), shares: "1.0" }] };
      writeFileSync(home.paths.genesis, JSON.stringify(doc));
      const bad = openHome(dir, { chainId: 9000n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos"], profile: "cosmos-evm" });
      let message = "";
      await homeRuntimeOptions(bad, { chain: testChainConfig(), epochs: { profile: "cosmos-evm" }, cosmos: {} }).catch((err: Error) => (message = err.message));
      expect(message).to.match(/app_state\.staking\.delegations\[0\]\.validator_address: no validator cosmosvaloper1/);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps a forked chain's module state: the remote's validators and delegations, not a new genesis", async () => {
    const remote = await serveHttp(COSMOS);
    try {
      await send(remote, ALICE, "delegate", [ALICE, valoper(OP0), 100n * E18]);
      await remote.request("cosmos_addValidator", [{ operator: NEW_OP, tokens: q(42n * E18) }]);
      await remote.request("evm_mine");
      const pinned = BigInt(await remote.request<string>("eth_blockNumber"));
      h = await inProcess({ ...COSMOS, fork: { url: remote.url as string, blockNumber: pinned } });
      expect(await h.request("cosmos_validators", [])).to.deep.equal(await remote.request("cosmos_validators", []));
      expect(await h.request("cosmos_delegations", [ALICE])).to.deep.equal(await remote.request("cosmos_delegations", [ALICE]));
      // and the fork goes on from there
      await send(h, ALICE, "undelegate", [ALICE, valoper(OP0), 10n * E18]);
      expect((await h.request<Array<{ balance: { amount: string } }>>("cosmos_delegations", [ALICE]))[0].balance.amount).to.equal(`${90n * E18}`);
    } finally {
      // the forked chain first (afterEach closes it again, which does nothing), then its remote
      await h?.close();
      await remote.close();
    }
  });

  it("is off under the evmos profile unless asked for, and then uses Evmos's prefixes and denom", async () => {
    h = await inProcess({ epochs: { profile: "evmos" } });
    expect((await rpcError(h.request("cosmos_validators", []))).code).to.equal(-32601);
    expect(await h.request("eth_getCode", [STAKING, "latest"])).to.equal("0x");
    await h.close();
    h = await inProcess({ epochs: { profile: "evmos" }, cosmos: { staking: true } });
    const [v] = await h.request<Array<{ operator_address: string }>>("cosmos_validators", []);
    expect(v.operator_address).to.equal(valoper(OP0, "evmosvaloper"));
    const data = new Interface(STAKING_ABI.fragments).encodeFunctionData("delegation", [OP0, valoper(OP0, "evmosvaloper")]);
    const [, coin] = STAKING_ABI.decodeFunctionResult("delegation", await h.request<string>("eth_call", [{ to: STAKING, data }, "latest"]));
    expect([coin[0], coin[1]]).to.deep.equal(["aevmos", 1000n * E18]);
  });
});
