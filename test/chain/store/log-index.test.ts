/**
 * The log index ("L"‖number → bloom of blocks with logs): written with the block, removed on rewind,
 * and eth_getLogs answers exactly what a scan of every receipt would, while reading only the blocks
 * whose bloom may match. Both backends: LevelDB (range scan) and memory (sorted array).
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface } from "ethers";
import { createRuntime, type Runtime } from "../../../src/app/runtime";
import { blockLogs } from "../../../src/rpc/log-matcher";
import { logFilter } from "../../../src/rpc/objects";
import type { Json } from "../../../src/rpc/format";
import { prefixEnd } from "../../../src/storage/kv";
import { MemoryKV } from "../../../src/storage/memory-kv";
import { LevelKV } from "../../../src/storage/level-kv";
import { compile } from "../../helpers/solc";
import { CLIENT_VERSION, testChainConfig } from "../../helpers/harness";

const SRC = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Emitter {
  event A(uint256 indexed n);
  event B(uint256 indexed n, address indexed who);
  function a(uint256 n) external { emit A(n); }
  function b(uint256 n) external { emit B(n, msg.sender); }
  function both(uint256 n) external { emit A(n); emit B(n, msg.sender); }
}`;

const ctx = { transport: "in-process" as const, authenticated: true };
const call = <T>(rt: Runtime, method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx) as Promise<T>;
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;
const topic32 = (n: number): string => `0x${n.toString(16).padStart(64, "0")}`;
const L = new Uint8Array([0x4c]);

for (const backend of ["leveldb", "memory"] as const) {
  describe(`log index (${backend})`, function () {
    this.timeout(60_000);
    let dir: string | undefined;
    let rt: Runtime;
    const c = compile(SRC).Emitter;
    const iface = new Interface(c.abi as never);
    const addrs: string[] = [];
    let accounts: string[] = [];
    const withLogs = new Set<bigint>();

    before(async () => {
      dir = backend === "leveldb" ? mkdtempSync(path.join(tmpdir(), "epochs-logidx-")) : undefined;
      const kv = dir !== undefined ? await LevelKV.open(dir) : new MemoryKV();
      rt = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv, epochs: false });
      accounts = await call<string[]>(rt, "eth_accounts");
      for (let i = 0; i < 2; i++) {
        const h = await call<string>(rt, "eth_sendTransaction", [{ from: accounts[0], data: c.bytecode }]);
        addrs.push((await call<{ contractAddress: string }>(rt, "eth_getTransactionReceipt", [h])).contractAddress);
      }
      // 30 blocks with logs of varied shapes, empty blocks and plain transfers between them
      for (let i = 0; i < 30; i++) {
        const fn = ["a", "b", "both"][i % 3];
        const h = await call<string>(rt, "eth_sendTransaction", [{ from: accounts[1 + (i % 4)], to: addrs[i % 2], data: iface.encodeFunctionData(fn, [i % 7]) }]);
        withLogs.add(BigInt((await call<{ blockNumber: string }>(rt, "eth_getTransactionReceipt", [h])).blockNumber));
        if (i % 5 === 0) await call(rt, "hardhat_mine", ["0x4"]);
        if (i % 4 === 0) await call(rt, "eth_sendTransaction", [{ from: accounts[6], to: accounts[7], value: "0x1" }]);
      }
    });
    after(async () => {
      await rt.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    const indexed = async (): Promise<bigint[]> => {
      const out: bigint[] = [];
      for await (const [n] of rt.node.store.logBlooms(0n, rt.node.headNumber)) out.push(n);
      return out;
    };

    /** eth_getLogs by brute force: every block's receipts, no index, no bloom. */
    const bruteForce = async (raw: Record<string, unknown>, from: bigint, to: bigint): Promise<Json[]> => {
      const f = logFilter.parse(raw);
      const out: Json[] = [];
      for (let n = from; n <= to; n++) {
        const block = await rt.node.getBlock(n);
        if (block !== undefined) out.push(...blockLogs(block, (await rt.node.store.getReceipts(n)) ?? [], f));
      }
      return out;
    };

    it("indexes exactly the blocks with logs (empty blocks and transfers cost nothing)", async () => {
      expect(await indexed()).to.deep.equal([...withLogs].sort((a, b) => (a < b ? -1 : 1)));
      if (backend === "leveldb") {
        let keys = 0;
        for await (const [k, v] of rt.node.store.kv.range({ gte: L, lt: prefixEnd(L) })) {
          expect(k.length).to.equal(9);
          expect(v.length).to.equal(256);
          keys++;
        }
        expect(keys).to.equal(withLogs.size);
      }
    });

    it("answers what a scan of every receipt answers, for every filter shape", async () => {
      const head = rt.node.headNumber;
      const A = iface.getEvent("A")!.topicHash;
      const B = iface.getEvent("B")!.topicHash;
      const who = `0x${accounts[2].slice(2).toLowerCase().padStart(64, "0")}`;
      const filters: Array<Record<string, unknown>> = [
        {},
        { address: addrs[0] },
        { address: addrs },
        { topics: [A] },
        { topics: [[A, B]] },
        { topics: [null, topic32(3)] },
        { topics: [B, null, who] },
        { address: addrs[1], topics: [A, [topic32(1), topic32(5)]] },
        { topics: [topic32(99)] },
        { address: accounts[0] },
      ];
      for (const f of filters) {
        for (const [from, to] of [
          [0n, head],
          [5n, 20n],
          [head - 3n, head],
        ]) {
          const got = await call<Json[]>(rt, "eth_getLogs", [{ ...f, fromBlock: hexq(from), toBlock: hexq(to) }]);
          expect(got, JSON.stringify({ f, from: String(from), to: String(to) })).to.deep.equal(await bruteForce(f, from, to));
        }
      }
    });

    it("reads only the blocks whose bloom may match", async () => {
      const store = rt.node.store;
      const original = store.getReceipts.bind(store);
      const read: bigint[] = [];
      store.getReceipts = async (n: bigint) => {
        read.push(n);
        return original(n);
      };
      try {
        // B(4, …) comes from the few transactions with i % 7 === 4 whose function emits B
        const B = iface.getEvent("B")!.topicHash;
        const logs = await call<Array<{ blockNumber: string }>>(rt, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest", topics: [B, topic32(4)] }]);
        expect(logs.length).to.be.greaterThan(0);
        const matched = new Set(logs.map((l) => BigInt(l.blockNumber)));
        // a bloom false positive may add a read, but never anywhere near the blocks with logs
        expect(read.length).to.be.lessThan(matched.size + 3);
        for (const n of matched) expect(read).to.include(n);
      } finally {
        store.getReceipts = original;
      }
    });

    it("drops index entries above a rewind, and indexes new blocks after it", async () => {
      const before = await indexed();
      const cut = before[Math.floor(before.length / 2)];
      expect(await call(rt, "debug_setHead", [hexq(cut)])).to.equal(null);
      expect(await indexed()).to.deep.equal(before.filter((n) => n <= cut));
      if (backend === "leveldb") {
        for await (const [k] of rt.node.store.kv.range({ gte: L, lt: prefixEnd(L) })) {
          expect(new DataView(k.buffer, k.byteOffset + 1, 8).getBigUint64(0) <= cut).to.equal(true);
        }
      }
      const h = await call<string>(rt, "eth_sendTransaction", [{ from: accounts[1], to: addrs[0], data: iface.encodeFunctionData("a", [42]) }]);
      const n = BigInt((await call<{ blockNumber: string }>(rt, "eth_getTransactionReceipt", [h])).blockNumber);
      expect(n).to.equal(cut + 1n);
      const logs = await call<Array<{ transactionHash: string }>>(rt, "eth_getLogs", [{ fromBlock: "0x0", topics: [iface.getEvent("A")!.topicHash, topic32(42)] }]);
      expect(logs.map((l) => l.transactionHash)).to.deep.equal([h]);
    });
  });
}
