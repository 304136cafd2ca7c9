/**
 * The VMs of execution contexts (eth_call, eth_estimateGas) are pooled and moved from state to
 * state (VmPool in src/chain/engine/context.ts). Calls after a move see the new state, never a cached old
 * one. What a call read is read again, outside its reverted checkpoint, only when another call
 * comes at the same state (most calls in a suite are the last at theirs), and those re-reads are
 * not written back to the trie: EthereumJS's caches log reads as changes, and the end of the next
 * call (or the move to another state) would write them (`ChainStateManager.forgetReads`).
 */
import { expect } from "chai";
import { type Harness, inProcess } from "../helpers/harness";
import { countTrieCalls } from "../helpers/trie-calls";

// returns slot 0 (PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 20 PUSH1 0 RETURN)
const RUNTIME = "60005460005260206000f3";
const DEPLOY = `0x600b80600b6000396000f3${RUNTIME}`;
const word = (n: number): string => `0x${n.toString(16).padStart(64, "0")}`;

describe("context VMs moved between states", function () {
  let h: Harness;
  let contract: string;
  before(async function () {
    h = await inProcess();
    const [from] = await h.request<string[]>("eth_accounts");
    const hash = await h.request<string>("eth_sendTransaction", [{ from, data: DEPLOY, gas: "0x100000" }]);
    contract = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
  });
  after(() => h.close());

  const readSlot = (tag: string): Promise<string> => h.request<string>("eth_call", [{ to: contract, data: "0x" }, tag]);

  it("answer with the state they moved to, at the head and at older blocks", async function () {
    const heights: Array<{ tag: string; value: number }> = [];
    for (let v = 1; v <= 5; v++) {
      await h.request("hardhat_setStorageAt", [contract, "0x0", word(v)]);
      await h.request("evm_mine");
      // a call at the head, twice (the second on warm caches)
      expect(await readSlot("latest")).to.equal(word(v));
      expect(await readSlot("latest")).to.equal(word(v));
      heights.push({ tag: await h.request<string>("eth_blockNumber"), value: v });
    }
    // back and forth between older states and the head: each move reads its own state
    for (const { tag, value } of [...heights].reverse()) expect(await readSlot(tag)).to.equal(word(value));
    expect(await readSlot("latest")).to.equal(word(5));
    for (const { tag, value } of heights) expect(await readSlot(tag)).to.equal(word(value));
  });

  it("write nothing to the trie, at one state or moving to another", async function () {
    await h.request("hardhat_setStorageAt", [contract, "0x0", word(9)]);
    await h.request("evm_mine");
    // trie writes made while a call runs (the blocks between write theirs)
    let puts = 0;
    const call = async (tag: string, value: number): Promise<void> => {
      puts += await countTrieCalls("put", async () => expect(await readSlot(tag)).to.equal(word(value)));
    };
    // three calls at the head: the second reads the first's reads again, outside its checkpoint
    for (let i = 0; i < 3; i++) await call("latest", 9);
    // then the pooled VM moves to an older state, and to a new head
    await call("0x1", 0);
    await h.request("hardhat_setStorageAt", [contract, "0x0", word(10)]);
    await h.request("evm_mine");
    await call("latest", 10);
    expect(puts).to.equal(0);
  });

  it("moved to a new head, read again only what the block changed; later calls there read nothing", async function () {
    await h.request("hardhat_setStorageAt", [contract, "0x0", word(11)]);
    await h.request("evm_mine");
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) counts.push(await countTrieCalls("get", async () => expect(await readSlot("latest")).to.equal(word(11))));
    // the pooled VM kept its caches from the last head: the contract's account and its slot 0 are
    // read again at the new one (src/chain/engine/flush-journal.ts), everything else stays
    expect(counts).to.deep.equal([2, 0, 0]);
    // an empty block changes nothing cached
    await h.request("evm_mine");
    expect(await countTrieCalls("get", async () => expect(await readSlot("latest")).to.equal(word(11)))).to.equal(0);
  });

  it("read an older state from the tries when moved back to it", async function () {
    const counts: number[] = [];
    for (let i = 0; i < 2; i++) counts.push(await countTrieCalls("get", async () => expect(await readSlot("0x1")).to.equal(word(0))));
    expect(counts[0]).to.be.greaterThan(0);
    expect(counts[1]).to.equal(0);
  });
});
