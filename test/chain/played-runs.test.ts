/**
 * hardhat_mine on the real chain's genesis (cosmos/evm's local_node.sh: x/mint every block, the SDK's
 * minute, hour and day timers): quiet runs are reserved with the modules' work played
 * (src/chain/store/steady-runs.ts), and the chain they leave is the one making every block leaves.
 * Two nodes from the same genesis take the same steps at the same times; one has a block filter
 * installed, so it makes every block (src/chain/block/miner.ts). The run holds a transaction, an
 * unbonding completing, a proposal ending, minute ticks with idle hooks (played) and hour ticks whose
 * distribution hook mints (made), and every block — header, state root, events — is compared.
 */
import { expect } from "chai";
import { Interface, getBytes } from "ethers";
import { bech32 } from "bech32";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import { createBlockHeaderFromRPC } from "@ethereumjs/block";
import { bytesToHex } from "@ethereumjs/util";
import { BANK_PRECOMPILE as BANK, DISTRIBUTION_ACCOUNT } from "../../src/cosmos/common/accounts";
import { BANK_ABI } from "../../src/cosmos/bank/precompile";
import type { Harness } from "../helpers/harness";
import { type LocalNode, closeLocalNode, localNode } from "../helpers/local-node";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const GOV = "0x0000000000000000000000000000000000000805";
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const ZERO_HASH = `0x${"0".repeat(64)}`;
const q = (n: bigint | number): string => `0x${BigInt(n).toString(16)}`;
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));

type Header = Record<string, string>;
type Events = { begin_block_events: unknown[]; end_block_events: unknown[] };
const FIELDS = ["number", "timestamp", "stateRoot", "transactionsRoot", "receiptsRoot", "logsBloom", "gasUsed", "gasLimit", "baseFeePerGas", "miner", "extraData"];

/** The genesis: unbondings take 3,000 s and votes 2,000 s, so both end inside the run. */
function edit(genesis: Record<string, unknown>): void {
  const app = genesis.app_state as { staking: { params: Record<string, unknown> }; gov: { params: Record<string, unknown> } };
  app.staking.params.unbonding_time = "3000s";
  app.gov.params.voting_period = "2000s";
}

/** Runs `steps` on `h` with each block's time set, so both nodes see the same blocks. */
async function script(h: Harness): Promise<void> {
  const head = async () => BigInt((await h.request<Header>("eth_getBlockByNumber", ["latest", false])).timestamp);
  let t = (await head()) + 10n;
  const at = async () => {
    await h.request("evm_setNextBlockTimestamp", [q(t)]);
    t += 10n;
  };
  const send = async (from: string, to: string, abi: Interface, fn: string, args: unknown[], value = 0n) => {
    await at();
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData(fn, args), gas: q(2_000_000n), value: q(value) }]);
    expect((await h.request<{ status: string }>("eth_getTransactionReceipt", [hash])).status).to.equal("0x1");
  };
  const mine = async (n: number) => {
    await at();
    await h.request("hardhat_mine", [q(n), q(10)]);
    t = (await head()) + 10n;
  };
  // the hour's ends mint 3 TEST: distribution's hook acts there (those blocks are made); minute ticks have idle hooks
  await h.request("cosmos_setRewards", [{ rewardsPerEpoch: q(3n * E18), epochIdentifier: "hour" }]);
  await send(ALICE, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
  await send(ALICE, STAKING, STAKING_ABI, "undelegate", [ALICE, valoper(VALIDATOR), 10n * E18]);
  await mine(500);
  // a transaction in the middle, and a proposal whose voting ends 2,000 s later, inside the run
  await at();
  await h.request("eth_sendTransaction", [{ from: ALICE, to: BOB, value: q(1n) }]);
  const proposal = Buffer.from(JSON.stringify({ messages: [], metadata: "ipfs://CID", title: "t", summary: "s", expedited: false }));
  await send(ALICE, GOV, GOV_ABI, "submitProposal", [ALICE, proposal, [["atest", E18]]]);
  await send(ALICE, GOV, GOV_ABI, "vote", [ALICE, 1n, 1, ""]);
  await mine(499);
}

describe("played runs: hardhat_mine on local_node.sh's genesis", function () {
  this.timeout(300_000);
  let played: LocalNode | undefined;
  let made: LocalNode | undefined;

  after(async () => {
    await closeLocalNode(played);
    await closeLocalNode(made);
  });

  it("leaves the same chain as making every block: headers, state roots, events, supply, rewards", async () => {
    played = await localNode(edit);
    made = await localNode(edit);
    // a block filter: the node makes every block for it
    await made.h.request("eth_newBlockFilter", []);
    await script(played.h);
    await script(made.h);
    const a = played.h;
    const b = made.h;
    const head = BigInt((await b.request<Header>("eth_getBlockByNumber", ["latest", false])).number);
    expect(BigInt((await a.request<Header>("eth_getBlockByNumber", ["latest", false])).number)).to.equal(head);
    let reserved = 0;
    let built = 0;
    const kinds = new Set<string>();
    for (let n = 1n; n <= head; n++) {
      const [x, y] = await Promise.all([a.request<Header>("eth_getBlockByNumber", [q(n), false]), b.request<Header>("eth_getBlockByNumber", [q(n), false])]);
      for (const f of FIELDS) expect(x[f], `block ${n}'s ${f}`).to.equal(y[f]);
      if (x.parentHash === ZERO_HASH) reserved++;
      if (a.runtime.node.store.reservationOf(n) === undefined) {
        // a block the played node built: its hash is the made chain's once it names the same parent
        // (a reserved range's blocks link to no parent, so the block after one names another hash)
        built++;
        const relinked = createBlockHeaderFromRPC({ ...x, parentHash: y.parentHash, mixHash: y.mixHash } as never, { common: a.runtime.node.common, setHardfork: true });
        expect(bytesToHex(relinked.hash()), `block ${n}'s hash`).to.equal(y.hash);
      }
      expect(y.parentHash).to.not.equal(ZERO_HASH);
      const [ex, ey] = await Promise.all([a.request<Events>("epochs_blockEvents", [q(n)]), b.request<Events>("epochs_blockEvents", [q(n)])]);
      expect([ex.begin_block_events, ex.end_block_events], `block ${n}'s events`).to.deep.equal([ey.begin_block_events, ey.end_block_events]);
      for (const e of [...ey.begin_block_events, ...ey.end_block_events] as Array<{ type: string; timer?: string }>) kinds.add(e.timer === undefined ? e.type : `${e.type}:${e.timer}`);
    }
    // the run held what it was meant to: an unbonding completed, the proposal ended, ticks of both timers
    expect([...kinds]).to.include.members(["mint", "complete_unbonding", "active_proposal", "cosmos.epochs.v1beta1.EventEpochEnd:minute", "cosmos.epochs.v1beta1.EventEpochEnd:hour"]);
    // and most of it was reserved: the played node made only the blocks where something not playable happened
    expect(reserved).to.be.greaterThan(900);
    expect(built).to.be.within(5, 100);
    for (const method of ["cosmos_stakingState", "cosmos_proposals"]) expect(await a.request(method, []), method).to.deep.equal(await b.request(method, []));
    for (const who of [ALICE, VALIDATOR, BOB]) expect(await a.request("cosmos_rewards", [who]), `rewards of ${who}`).to.deep.equal(await b.request("cosmos_rewards", [who]));
    expect(await a.request("cosmos_balances", [DISTRIBUTION_ACCOUNT])).to.deep.equal(await b.request("cosmos_balances", [DISTRIBUTION_ACCOUNT]));
    // the supply, as the bank precompile reports it (x/bank's TotalSupply), at the head and inside a range
    const supply = (h: Harness, at: string) => h.request<string>("eth_call", [{ to: BANK, data: BANK_ABI.encodeFunctionData("totalSupply", []) }, at]);
    expect(await supply(a, "latest")).to.equal(await supply(b, "latest"));
    expect(await supply(a, q(head - 100n))).to.equal(await supply(b, q(head - 100n)));
    // state read at a block inside a reserved range: the block's own, not the range's end
    const inside = q(head - 100n);
    expect(await a.request("eth_getBalance", [DISTRIBUTION_ACCOUNT, inside])).to.equal(await b.request("eth_getBalance", [DISTRIBUTION_ACCOUNT, inside]));
    expect(await a.request("cosmos_stakingState", [inside])).to.deep.equal(await b.request("cosmos_stakingState", [inside]));

    // back into the middle of a played range (debug_setHead), then on: the same chain again
    for (const h of [a, b]) {
      await h.request("debug_setHead", [inside]);
      await h.request("evm_setNextBlockTimestamp", [q(BigInt((await h.request<Header>("eth_getBlockByNumber", ["latest", false])).timestamp) + 10n)]);
      await h.request("hardhat_mine", [q(50), q(10)]);
    }
    for (let n = head - 100n; n <= head - 50n; n++) {
      const [x, y] = await Promise.all([a.request<Header>("eth_getBlockByNumber", [q(n), false]), b.request<Header>("eth_getBlockByNumber", [q(n), false])]);
      for (const f of FIELDS) expect(x[f], `block ${n}'s ${f} after the rewind`).to.equal(y[f]);
    }
    expect(await a.request("cosmos_stakingState", [])).to.deep.equal(await b.request("cosmos_stakingState", []));
  });
});
