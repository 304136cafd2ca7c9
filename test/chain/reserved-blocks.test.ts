/**
 * hardhat_mine reserves the empty blocks between epoch ticks (src/chain/store/reserved-blocks.ts): the
 * blocks that tick are made with their hooks and events, the rest are made from a record when read.
 * Proven against the same chain made block by block, through the in-process provider users get.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { epochsOptionsFromConfig } from "../../src/host/settings/epochs-config";
import { createRuntime } from "../../src/app/runtime";
import { LevelKV } from "../../src/storage/level-kv";
import { CLIENT_VERSION, type Harness, inProcess, testChainConfig } from "../helpers/harness";
import { EpochsProvider } from "../../src/hardhat/provider";
import { Interface } from "ethers";
import { compile } from "../helpers/solc";

/** A contract hook that counts epoch ends in its storage and logs each: tick blocks then change state and carry logs. */
const TICK_COUNTER = compile(`// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract TickCounter {
  uint256 public ends;
  event Ended(string identifier, int64 number, uint256 total);
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
  function beforeEpochStart(string calldata, int64) external {}
  function afterEpochEnd(string calldata identifier, int64 number) external { ends++; emit Ended(identifier, number, ends); }
}`).TickCounter;
const tickCounter = new Interface(TICK_COUNTER.abi as never);

type RpcBlock = Record<string, string> & { transactions: unknown[] };

const hex = (n: number | bigint): string => `0x${n.toString(16)}`;
const START = 1_800_000_000;

function epochs(list: Array<{ identifier: string; duration: number }>) {
  return epochsOptionsFromConfig({ hookGasLimit: 3_000_000, genesis: { epochs: list } } as Parameters<typeof epochsOptionsFromConfig>[0]);
}

/** A chain whose TypeScript hooks record every epoch end and start, in order (`typescriptHooks` false: none). */
async function chain(list: Array<{ identifier: string; duration: number }>, everyBlock = false, typescriptHooks = true): Promise<{ h: Harness; calls: string[] }> {
  const h = await inProcess({ epochs: epochs(list) });
  const calls: string[] = [];
  if (typescriptHooks) {
    h.runtime.epochs?.tsHooks.onAfterEpochEnd((id, n) => void calls.push(`end ${id} ${n}`));
    h.runtime.epochs?.tsHooks.onBeforeEpochStart((id, n) => void calls.push(`start ${id} ${n}`));
  }
  // a reader of every block (as a block filter is) makes hardhat_mine make each block
  if (everyBlock) h.runtime.node.wantsEveryBlock(() => true);
  return { h, calls };
}

const block = (h: Harness, n: number | bigint | string): Promise<RpcBlock> => h.request<RpcBlock>("eth_getBlockByNumber", [typeof n === "string" ? n : hex(n), false]);

/** What a block says besides its hash and its links (a reserved block inside a range links to no parent). */
function content(b: RpcBlock): Record<string, unknown> {
  const { hash: _hash, parentHash: _parent, mixHash: _mix, size: _size, ...rest } = b;
  return rest;
}

describe("reserved empty blocks (hardhat_mine)", function () {
  this.timeout(120_000);

  it("makes the ticking blocks with their contract hook calls, state and logs, and every other block reads as the same chain made block by block", async () => {
    const list = [
      { identifier: "minute", duration: 60 },
      { identifier: "hour", duration: 3600 },
    ];
    const reserved = await chain(list);
    const made = await chain(list, true);
    try {
      const counters: string[] = [];
      for (const { h } of [reserved, made]) {
        // block 1 deploys a contract hook (at a set time, so both chains tick alike); then 3,000 blocks
        const [from] = await h.request<string[]>("eth_accounts");
        await h.request("evm_setNextBlockTimestamp", [START]);
        const deploy = await h.request<string>("eth_sendTransaction", [{ from, data: TICK_COUNTER.bytecode }]);
        counters.push((await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress);
        await h.request("evm_setNextBlockTimestamp", [START + 10]);
        await h.request("hardhat_mine", [hex(3000), hex(7)]);
        expect(await h.request("eth_blockNumber")).to.equal(hex(3001));
      }
      expect(counters[0]).to.equal(counters[1]);
      // 3000 blocks 7 s apart: 21,000 s; under the default rule an epoch starts in the block after its end, so a minute spans 70 s
      expect(reserved.calls).to.deep.equal(made.calls);
      expect(reserved.calls.filter((c) => c.startsWith("end hour"))).to.have.length(5);
      expect(reserved.calls.filter((c) => c.startsWith("end minute"))).to.have.length(300);
      const store = reserved.h.runtime.node.store;
      let reservedCount = 0;
      let hookLogs = 0;
      let previousHash: string | undefined;
      for (let n = 2; n <= 3001; n++) {
        const [a, b] = await Promise.all([block(reserved.h, n), block(made.h, n)]);
        expect(content(a), `block ${n}`).to.deep.equal(content(b));
        // the block's hash (and its logs' blockHash) aside: inside a range hashes differ by design
        const events = async (h: Harness): Promise<unknown> => {
          const text = JSON.stringify(await h.request("epochs_blockEvents", [hex(n)]), (k, v: unknown) => (k === "hash" || k === "blockHash" ? undefined : v));
          return JSON.parse(text) as unknown;
        };
        const mine = (await events(reserved.h)) as { begin_block_events: Array<{ logs?: unknown[] }>; end_block_events: Array<{ logs?: unknown[] }> };
        expect(mine, `events of block ${n}`).to.deep.equal(await events(made.h));
        hookLogs += [...mine.begin_block_events, ...mine.end_block_events].reduce((k, e) => k + (e.logs?.length ?? 0), 0);
        // a block names its parent unless it sits inside a range (its parent reserved too)
        const inside = store.reservationOf(BigInt(n)) !== undefined && store.reservationOf(BigInt(n))?.first !== BigInt(n);
        expect(a.parentHash, `parent of block ${n}`).to.equal(inside ? `0x${"00".repeat(32)}` : (previousHash ?? a.parentHash));
        if (store.reservationOf(BigInt(n)) !== undefined) reservedCount++;
        expect(made.h.runtime.node.store.reservationOf(BigInt(n))).to.equal(undefined);
        previousHash = a.hash;
      }
      // most blocks fall between the minutes' end and start blocks
      expect(reservedCount).to.be.greaterThan(2000);
      expect(await reserved.h.request("epochs_epochInfos", [])).to.deep.equal(await made.h.request("epochs_epochInfos", []));
      // the hook's count in storage, at the head and inside a reserved range, as on the chain made block by block
      const ends = async (h: Harness, at: string) => BigInt(await h.request<string>("eth_call", [{ to: counters[0], data: tickCounter.encodeFunctionData("ends") }, at]));
      expect(await ends(reserved.h, "latest")).to.equal(305n);
      const inside = [...Array(3000).keys()].map((i) => BigInt(i + 2)).find((n) => (store.reservationOf(n)?.first ?? n) < n) as bigint;
      expect(await ends(reserved.h, hex(inside))).to.equal(await ends(made.h, hex(inside)));
      // each end's hook call logged once, in its ticking block's events
      expect(hookLogs).to.equal(305);
    } finally {
      await reserved.h.close();
      await made.h.close();
    }
  });

  it("makes the ticks a contract hook alone acts on (no TypeScript hook): its calls and logs as on the chain made block by block", async () => {
    const list = [{ identifier: "minute", duration: 60 }];
    const reserved = await chain(list, false, false);
    const made = await chain(list, true, false);
    try {
      const counters: string[] = [];
      for (const { h } of [reserved, made]) {
        const [from] = await h.request<string[]>("eth_accounts");
        await h.request("evm_setNextBlockTimestamp", [START]);
        const deploy = await h.request<string>("eth_sendTransaction", [{ from, data: TICK_COUNTER.bytecode }]);
        counters.push((await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress);
        await h.request("evm_setNextBlockTimestamp", [START + 10]);
        await h.request("hardhat_mine", [hex(600), hex(7)]);
      }
      const ends = async (h: Harness) => BigInt(await h.request<string>("eth_call", [{ to: counters[0], data: tickCounter.encodeFunctionData("ends") }, "latest"]));
      // 600 blocks 7 s apart: a minute spans 70 s under the default rule, so 60 ends, each a made block with its hook's call
      expect(await ends(reserved.h)).to.equal(60n);
      expect(await ends(made.h)).to.equal(60n);
      const head = await block(reserved.h, "latest");
      expect(content(head)).to.deep.equal(content(await block(made.h, "latest")));
    } finally {
      await reserved.h.close();
      await made.h.close();
    }
  });

  it("mines 1,000,000 blocks with a day and an hour epoch: each end once, the head's time and base fee right, the next transaction on top", async () => {
    const { h, calls } = await chain([
      { identifier: "day", duration: 86_400 },
      { identifier: "hour", duration: 3600 },
    ]);
    try {
      await h.request("evm_setNextBlockTimestamp", [START]);
      await h.request("hardhat_mine", [hex(1_000_000)]);
      expect(await h.request("eth_blockNumber")).to.equal(hex(1_000_000));
      expect(calls.filter((c) => c.startsWith("end hour"))).to.have.length(277);
      expect(calls.filter((c) => c.startsWith("end day"))).to.have.length(11);
      const head = await block(h, "latest");
      expect(BigInt(head.timestamp)).to.equal(BigInt(START + 999_999));
      // an eighth off per empty block, down to 7 wei
      expect(head.baseFeePerGas).to.equal("0x7");
      const [from] = await h.request<string[]>("eth_accounts");
      await h.request("eth_sendTransaction", [{ from, to: "0x0000000000000000000000000000000000000001", value: "0x1" }]);
      const next = await block(h, "latest");
      expect(next.number).to.equal(hex(1_000_001));
      expect(next.parentHash).to.equal(head.hash);
      expect(BigInt(next.timestamp)).to.be.greaterThan(BigInt(head.timestamp));
      // a block in the middle, by number and by hash, twice
      const mid = await block(h, 500_000);
      expect(await block(h, 500_000)).to.deep.equal(mid);
      expect(await h.request("eth_getBlockByHash", [mid.hash, false])).to.deep.equal(mid);
      expect(mid.transactions).to.deep.equal([]);
      expect(await h.request("eth_getBlockReceipts", [hex(500_000)])).to.deep.equal([]);
      expect(await h.request("eth_getBlockTransactionCountByNumber", [hex(500_000)])).to.equal("0x0");
    } finally {
      await h.close();
    }
  });

  it("snapshots, evm_revert and debug_setHead cross reserved ranges: the head moves inside one, and mining goes on from there", async () => {
    const { h } = await chain([{ identifier: "hour", duration: 3600 }]);
    try {
      const [from] = await h.request<string[]>("eth_accounts");
      const id = await h.request<string>("evm_snapshot");
      const start = BigInt(await h.request<string>("eth_blockNumber"));
      await h.request("hardhat_mine", [hex(10_000)]);
      const inRange = await block(h, start + 5000n);
      expect(h.runtime.node.store.reservationOf(start + 5000n)).to.not.equal(undefined);
      expect(await h.request("evm_revert", [id])).to.equal(true);
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(start);
      expect(await h.request("eth_getBlockByNumber", [hex(start + 5000n), false])).to.equal(null);
      expect(await h.request("eth_getBlockByHash", [inRange.hash, false])).to.equal(null);
      // again, then back into the middle of the range
      await h.request("evm_setNextBlockTimestamp", [Number(inRange.timestamp) - 4999]);
      await h.request("hardhat_mine", [hex(10_000)]);
      expect(await block(h, start + 5000n)).to.deep.equal(inRange);
      expect(await h.request("debug_setHead", [hex(start + 5000n)])).to.equal(null);
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(start + 5000n);
      expect(await h.request("eth_getBlockByNumber", [hex(start + 5001n), false])).to.equal(null);
      await h.request("eth_sendTransaction", [{ from, to: "0x0000000000000000000000000000000000000001", value: "0x1" }]);
      const next = await block(h, "latest");
      expect(BigInt(next.number)).to.equal(start + 5001n);
      expect(next.parentHash).to.equal(inRange.hash);
      expect(next.transactions).to.have.length(1);
    } finally {
      await h.close();
    }
  });

  it("keeps reserved ranges in a --home chain: the same blocks and hashes after a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "epochs-reserved-"));
    const open = async () => {
      const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir), epochs: epochs([{ identifier: "hour", duration: 3600 }]) });
      const provider = new EpochsProvider(async () => runtime);
      return { runtime, request: <T>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T> };
    };
    try {
      const first = await open();
      await first.request("hardhat_mine", [hex(20_000)]);
      const before = await Promise.all([1, 3600, 7000, 19_999, 20_000].map((n) => first.request<RpcBlock>("eth_getBlockByNumber", [hex(n), false])));
      // the hour's ticks (no hook on them) were played in the range: its events, block by block
      const events = async (request: typeof first.request) => Promise.all(Array.from({ length: 20 }, (_, i) => request("epochs_blockEvents", [hex(3590 + i)])));
      const ticks = await events(first.request);
      expect(ticks.filter((e) => JSON.stringify(e).includes("epoch_end"))).to.have.length(1);
      await first.runtime.close();
      const second = await open();
      try {
        expect(await second.request("eth_blockNumber")).to.equal(hex(20_000));
        for (const b of before) {
          expect(await second.request("eth_getBlockByNumber", [b.number, false])).to.deep.equal(b);
          expect(await second.request("eth_getBlockByHash", [b.hash, false])).to.deep.equal(b);
        }
        expect(second.runtime.node.store.reservationOf(7000n)?.steady?.starts.map((x) => x.module)).to.include("epochs");
        expect(await events(second.request)).to.deep.equal(ticks);
      } finally {
        await second.runtime.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("makes every block while a block filter or a newHeads reader waits for each", async () => {
    const { h } = await chain([{ identifier: "hour", duration: 3600 }]);
    try {
      const filter = await h.request<string>("eth_newBlockFilter");
      const start = BigInt(await h.request<string>("eth_blockNumber"));
      await h.request("hardhat_mine", [hex(5)]);
      const hashes = await h.request<string[]>("eth_getFilterChanges", [filter]);
      expect(hashes).to.have.length(5);
      expect(h.runtime.node.store.reservationOf(start + 3n)).to.equal(undefined);
      expect(hashes[4]).to.equal((await block(h, start + 5n)).hash);
      await h.request("eth_uninstallFilter", [filter]);
      await h.request("hardhat_mine", [hex(5)]);
      expect(h.runtime.node.store.reservationOf(start + 8n)).to.not.equal(undefined);
    } finally {
      await h.close();
    }
  });
});
