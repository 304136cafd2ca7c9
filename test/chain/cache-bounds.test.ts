/**
 * The chain's memory is bounded by its caches, not by the state it has touched: on a LevelDB home
 * with small cache bounds, blocks that touch many distinct accounts and storage slots leave the live
 * state's caches, the trie node cache and the head reader's cache within their bounds, and the state
 * read back after eviction (by later blocks, by reads, after a restart) is the state written.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface, getAddress, keccak256, toBeHex } from "ethers";
import type { CacheBounds, CacheSizes } from "../../src/chain/store/cache-bounds";
import { LevelKV } from "../../src/storage/level-kv";
import { type Harness, inProcess } from "../helpers/harness";
import { compile } from "../helpers/solc";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Spreader {
  mapping(address => uint256) public credit;
  /// sends an equal share of the value to each address and records it: one account and one slot per address
  function spread(address[] calldata to) external payable {
    uint256 share = msg.value / to.length;
    for (uint256 i = 0; i < to.length; i++) {
      credit[to[i]] += share;
      payable(to[i]).transfer(share);
    }
  }
}`;

const c = compile(SOURCE);
const spreader = new Interface(c.Spreader.abi as never);

const BOUNDS: CacheBounds = { liveEntries: 40, trieNodes: 200, blocks: 4096 };
const PER_BLOCK = 30;
const BLOCKS = 8;
const SHARE = 1000n;

/** Distinct addresses spread over the trie, as real ones are. */
const recipient = (i: number): string => getAddress(`0x${keccak256(toBeHex(i + 1, 32)).slice(26)}`);

describe("cache bounds (LevelDB home, small bounds)", function () {
  this.timeout(120_000);
  let dir: string;
  let h: Harness;
  let from: string;
  let contract: string;

  const sizes = (): CacheSizes => h.runtime.node.cacheSizes();
  const live = (s: CacheSizes): number => s.account + s.storage + s.code;

  async function spread(to: string[]): Promise<void> {
    const data = spreader.encodeFunctionData("spread", [to]);
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to: contract, data, value: toBeHex(SHARE * BigInt(to.length)), gas: toBeHex(5_000_000) }]);
    const receipt = await h.request<{ status: string }>("eth_getTransactionReceipt", [hash]);
    expect(receipt.status).to.equal("0x1");
  }

  async function credit(a: string): Promise<bigint> {
    return BigInt(await h.request<string>("eth_call", [{ to: contract, data: spreader.encodeFunctionData("credit", [a]) }, "latest"]));
  }

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cache-bounds-"));
    h = await inProcess({ kv: await LevelKV.open(dir), cacheBounds: BOUNDS });
    from = (await h.request<string[]>("eth_accounts"))[0];
    const deploy = await h.request<string>("eth_sendTransaction", [{ from, data: c.Spreader.bytecode }]);
    contract = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress;
  });

  after(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the live caches and the trie node cache within their bounds while blocks touch many accounts", async () => {
    for (let b = 0; b < BLOCKS; b++) {
      await spread(Array.from({ length: PER_BLOCK }, (_, i) => recipient(b * PER_BLOCK + i)));
      const s = sizes();
      expect(live(s), `live cache entries after block ${b}`).to.be.at.most(BOUNDS.liveEntries);
      expect(s.trieNodes, `trie nodes after block ${b}`).to.be.at.most(BOUNDS.trieNodes);
    }
    // the blocks touched far more than the bounds hold: eviction happened
    expect(BLOCKS * PER_BLOCK * 2).to.be.greaterThan(BOUNDS.liveEntries);
  });

  it("builds on evicted state: a later block adds to accounts and slots no longer cached", async () => {
    await spread(Array.from({ length: PER_BLOCK }, (_, i) => recipient(i)));
    expect(BigInt(await h.request<string>("eth_getBalance", [recipient(0), "latest"]))).to.equal(2n * SHARE);
    expect(await credit(recipient(PER_BLOCK - 1))).to.equal(2n * SHARE);
    expect(await credit(recipient(PER_BLOCK))).to.equal(SHARE);
  });

  it("reads every account and slot back right at the head, the head reader's cache staying bounded", async () => {
    for (let i = 0; i < BLOCKS * PER_BLOCK; i++) {
      const want = i < PER_BLOCK ? 2n * SHARE : SHARE;
      expect(BigInt(await h.request<string>("eth_getBalance", [recipient(i), "latest"])), `balance of recipient ${i}`).to.equal(want);
      expect(sizes().reader, `head reader entries after ${i + 1} reads`).to.be.at.most(BOUNDS.liveEntries + 1); // emptied when over the bound, then one read adds one account
    }
    for (let i = 0; i < BLOCKS * PER_BLOCK; i += 7) expect(await credit(recipient(i)), `credit of recipient ${i}`).to.equal(i < PER_BLOCK ? 2n * SHARE : SHARE);
  });

  it("reads the same state after a restart on the same home", async () => {
    const head = await h.request<string>("eth_blockNumber");
    await h.close();
    h = await inProcess({ kv: await LevelKV.open(dir), cacheBounds: BOUNDS });
    expect(await h.request<string>("eth_blockNumber")).to.equal(head);
    for (let i = 0; i < BLOCKS * PER_BLOCK; i += 5) {
      expect(BigInt(await h.request<string>("eth_getBalance", [recipient(i), "latest"])), `balance of recipient ${i}`).to.equal(i < PER_BLOCK ? 2n * SHARE : SHARE);
    }
    expect(await credit(recipient(BLOCKS * PER_BLOCK - 1))).to.equal(SHARE);
  });
});

describe("an in-memory chain keeps a bounded number of decoded blocks", function () {
  this.timeout(120_000);

  it("evicts decoded blocks past the bound and still answers every block, receipt, transaction and log from the store", async () => {
    const h = await inProcess({ cacheBounds: { blocks: 5 } });
    try {
      const [from, to] = await h.request<string[]>("eth_accounts");
      const hashes: string[] = [];
      for (let i = 0; i < 20; i++) hashes.push(await h.request<string>("eth_sendTransaction", [{ from, to, value: `0x${(i + 1).toString(16)}` }]));
      expect(h.runtime.node.cacheSizes().blocks).to.be.at.most(5);
      for (const [i, hash] of hashes.entries()) {
        const r = await h.request<{ blockNumber: string; blockHash: string; status: string }>("eth_getTransactionReceipt", [hash]);
        expect(r.status).to.equal("0x1");
        const byHash = await h.request<{ number: string; transactions: string[] }>("eth_getBlockByHash", [r.blockHash, false]);
        expect(byHash.number).to.equal(r.blockNumber);
        expect(byHash.transactions).to.deep.equal([hash]);
        const tx = await h.request<{ value: string }>("eth_getTransactionByHash", [hash]);
        expect(tx.value).to.equal(`0x${(i + 1).toString(16)}`);
      }
      expect(h.runtime.node.cacheSizes().blocks).to.be.at.most(5);
    } finally {
      await h.close();
    }
  });
});
