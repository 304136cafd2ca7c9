/**
 * A `--home` written before module stores were EVM state (test/fixtures/legacy-home-e38f8ac: the
 * epochs timers as a change log beside the chain) opens, answers as the node that wrote it did,
 * carries its store into the state once, and goes on ticking and calling hooks.
 */
import { expect } from "chai";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface, keccak256, toUtf8Bytes } from "ethers";
import { createRuntime, type Runtime } from "../../../src/app/runtime";
import { LevelKV } from "../../../src/storage/level-kv";
import { CLIENT_VERSION, testChainConfig } from "../../helpers/harness";

const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "legacy-home-e38f8ac");
const EPOCHS_PRECOMPILE = "0x0000000000000000000000000000000000000900";

/** The genesis the fixture's node ran with (its README). */
const EPOCHS = {
  genesis: {
    epochs: [
      {
        identifier: "tick",
        duration: { seconds: 10n, nanos: 0 },
        startTime: { seconds: 0n, nanos: 0 },
        currentEpoch: 0n,
        currentEpochStartTime: { seconds: -62135596800n, nanos: 0 },
        epochCountingStarted: false,
        currentEpochStartHeight: 0n,
      },
      {
        identifier: "week",
        duration: { seconds: 604800n, nanos: 0 },
        startTime: { seconds: 0n, nanos: 0 },
        currentEpoch: 0n,
        currentEpochStartTime: { seconds: -62135596800n, nanos: 0 },
        epochCountingStarted: false,
        currentEpochStartHeight: 0n,
      },
    ],
  },
};

interface Expected {
  head: string;
  counter: string;
  n: string;
  epochInfos: { epochs: Array<{ identifier: string; current_epoch: string }> };
  epochInfosCallAt: Record<string, string>;
  blockHashes: string[];
}

const ctx = { transport: "in-process" as const, authenticated: true };
const call = <T>(rt: Runtime, method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx) as Promise<T>;
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;
const precompile = new Interface(["function epochInfos() view returns ((string,int64,int64,int64,int64,bool,int64)[])"]);
const hook = new Interface(["function n() view returns (uint256)"]);
/** The header slot of the epochs store's record in the precompile account (src/chain/base/records.ts). */
const STORE_HEADER = keccak256(toUtf8Bytes("module-store"));

describe("persistence: a home written before module stores were EVM state", function () {
  this.timeout(120_000);
  const expected = JSON.parse(readFileSync(path.join(FIXTURE, "expected.json"), "utf8")) as Expected;
  let dir: string;
  let rt: Runtime | undefined;
  const open = async (): Promise<Runtime> => {
    rt = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(path.join(dir, "chain")), epochs: EPOCHS });
    return rt;
  };
  const close = async (): Promise<void> => {
    await rt?.close();
    rt = undefined;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "legacy-home-"));
    cpSync(path.join(FIXTURE, "chain"), path.join(dir, "chain"), { recursive: true });
  });
  afterEach(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers as the node that wrote it: the same blocks, the epochs at the head and at every older block", async () => {
    const r = await open();
    expect(await call(r, "eth_blockNumber")).to.equal(hexq(BigInt(expected.head)));
    for (let h = 0; h < expected.blockHashes.length; h++) {
      expect((await call<{ hash: string }>(r, "eth_getBlockByNumber", [hexq(h), false])).hash, `block ${h}`).to.equal(expected.blockHashes[h]);
    }
    expect(await call(r, "epochs_epochInfos")).to.deep.equal(expected.epochInfos);
    for (const [h, answer] of Object.entries(expected.epochInfosCallAt)) {
      expect(await call(r, "eth_call", [{ to: EPOCHS_PRECOMPILE, data: precompile.encodeFunctionData("epochInfos") }, hexq(BigInt(h))]), `epochInfos() at block ${h}`).to.equal(answer);
    }
    // the store is in the live state now; the states of the old blocks are as they were (no record)
    expect(BigInt(await call<string>(r, "eth_getStorageAt", [EPOCHS_PRECOMPILE, STORE_HEADER, "latest"]))).to.be.greaterThan(1n);
    expect(BigInt(await call<string>(r, "eth_getStorageAt", [EPOCHS_PRECOMPILE, STORE_HEADER, hexq(BigInt(expected.head) - 1n)]))).to.equal(0n);
  });

  it("goes on ticking and calling the registered hooks; the next block carries the store, and a restart reads it from the state", async () => {
    let r = await open();
    const epochs = async (rt: Runtime) => (await call<{ epochs: Array<{ identifier: string; current_epoch: string }> }>(rt, "epochs_epochInfos")).epochs.map((e) => BigInt(e.current_epoch));
    const before = await epochs(r);
    const n = async (rt: Runtime) => BigInt(await call<string>(rt, "eth_call", [{ to: expected.counter, data: hook.encodeFunctionData("n") }, "latest"]));
    expect(await n(r)).to.equal(BigInt(expected.n));
    await call(r, "evm_increaseTime", [11]);
    await call(r, "evm_mine");
    await call(r, "evm_mine");
    // the node's clock goes on from the wall clock, so the week may have ended too
    const after = await epochs(r);
    expect(after[0], "tick").to.equal(before[0] + 1n);
    const ticks = after.reduce((sum, e, i) => sum + e - before[i], 0n);
    // each tick's AfterEpochEnd (+1) and BeforeEpochStart (+1000) reached the contract
    expect(await n(r)).to.equal(BigInt(expected.n) + 1001n * ticks);
    const head = BigInt(await call<string>(r, "eth_blockNumber"));
    expect(BigInt(await call<string>(r, "eth_getStorageAt", [EPOCHS_PRECOMPILE, STORE_HEADER, hexq(BigInt(expected.head) + 1n)])), "the first new block's state holds the store").to.be.greaterThan(1n);
    const infos = await call(r, "epochs_epochInfos");
    await close();
    r = await open();
    expect(await call(r, "eth_blockNumber")).to.equal(hexq(head));
    expect(await call(r, "epochs_epochInfos")).to.deep.equal(infos);
    // an old block (before the store was state) still replays: block 1's begin-block started both
    // timers from the log's store, then its transaction deployed the hook contract
    const traces = await call<Array<{ result: { type: string; to: string } }>>(r, "debug_traceBlockByNumber", ["0x1", { tracer: "callTracer" }]);
    expect(traces.map((t) => [t.result.type, t.result.to])).to.deep.equal([["CREATE", expected.counter]]);
    expect(await call(r, "eth_call", [{ to: EPOCHS_PRECOMPILE, data: precompile.encodeFunctionData("epochInfos") }, "0x3"])).to.equal(expected.epochInfosCallAt["3"]);
  });

  it("rewinds below the migration (debug_setHead): the next blocks read the store of the block rewound to, not the dropped blocks' log", async () => {
    const r = await open();
    const tick = async () => (await call<{ epochs: Array<{ identifier: string; current_epoch: string }> }>(r, "epochs_epochInfos")).epochs.find((e) => e.identifier === "tick")?.current_epoch;
    await call(r, "debug_setHead", ["0x2"]);
    // block 2: the tick's first epoch runs (it ended in block 4's end-block, then dropped)
    expect(await tick()).to.equal("1");
    const { timestamp } = await call<{ timestamp: string }>(r, "eth_getBlockByNumber", ["0x2", false]);
    for (let i = 1; i <= 3; i++) {
      // a second apart: the first epoch's end (10 s after block 1) is not reached
      await call(r, "evm_setNextBlockTimestamp", [hexq(BigInt(timestamp) + BigInt(i))]);
      await call(r, "evm_mine");
      const events = await call<{ begin_block_events: unknown[]; end_block_events: unknown[] }>(r, "epochs_blockEvents", ["latest"]);
      expect([...events.begin_block_events, ...events.end_block_events], `block ${2 + i}`).to.deep.equal([]);
    }
    expect(await tick()).to.equal("1");
  });
});
