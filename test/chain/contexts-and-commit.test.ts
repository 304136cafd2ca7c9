/**
 * Regression tests for faults once found in the core: executions run
 * in contexts of their own and end at their deadline from inside; a block's batch is written before
 * memory moves; the mining queue never loses a valid transaction; historical reads see their
 * height's module state; the precompile honours static calls; impersonated senders are recorded;
 * dev methods need the token from beyond loopback; no global patch of EthereumJS.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Common, Mainnet, createCustomCommon } from "@ethereumjs/common";
import { paramsTx } from "@ethereumjs/tx";
import { Interface, Wallet } from "ethers";
import WebSocket from "ws";
import { ChainCommon, createChainCommon } from "../../src/chain/engine/common";
import { EPOCHS_ABI, EPOCHS_MODULE, EPOCHS_PRECOMPILE, type EpochsOptions } from "../../src/epochs";
import { type Runtime, type RuntimeOptions, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import type { JsonRpcResponse, RequestContext } from "../../src/rpc/types";
import { type BatchOp, type KVStore, type RangeOptions } from "../../src/storage/kv";
import { MemoryKV } from "../../src/storage/memory-kv";
import { LevelKV } from "../../src/storage/level-kv";
import { CLIENT_VERSION, rpcError, testChainConfig, unwrap } from "../helpers/harness";
import { compile } from "../helpers/solc";
import { rpc } from "../helpers/json-rpc";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs {
  function registerHooks() external returns (bool);
  function currentEpoch(string calldata id) external view returns (int64);
}
contract Looper {
  uint256 public value;
  function set(uint256 v) external { value = v; }
  function spin(uint256 n) external view returns (uint256 acc) { for (uint256 i = 0; i < n; i++) acc += i * value + 1; }
  function work(uint256 n) external { uint256 acc = value; for (uint256 i = 0; i < n; i++) acc += i; value = acc; }
}
contract EpochReader {
  function current(string calldata id) external view returns (int64) { return IEpochs(0x0000000000000000000000000000000000000900).currentEpoch(id); }
}
contract StaticRegistrar {
  bool public lastOk;
  function tryStatic() external returns (bool ok) {
    (ok, ) = address(0x0000000000000000000000000000000000000900).staticcall(abi.encodeWithSignature("registerHooks()"));
    lastOk = ok;
  }
  function beforeEpochStart(string calldata, int64) external {}
  function afterEpochEnd(string calldata, int64) external {}
}`;

const c = compile(SOURCE);
const looper = new Interface(c.Looper.abi as never);
const reader = new Interface(c.EpochReader.abi as never);
const registrar = new Interface(c.StaticRegistrar.abi as never);

/** An epochs genesis of one timer (`duration` seconds), counting from the genesis block. */
const oneTimer = (identifier: string, duration: number): EpochsOptions => ({
  genesis: {
    epochs: [
      {
        identifier,
        duration: { seconds: BigInt(duration), nanos: 0 },
        startTime: { seconds: 0n, nanos: 0 },
        currentEpoch: 0n,
        currentEpochStartTime: { seconds: -62135596800n, nanos: 0 },
        epochCountingStarted: false,
        currentEpochStartHeight: 0n,
      },
    ],
  },
});

const TRUSTED: RequestContext = { transport: "in-process", authenticated: true };
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;

/** A KVStore whose next batch write fails on demand (fault injection), over a real backend. */
class FaultyKV implements KVStore {
  failWrites = false;
  constructor(private readonly _inner: KVStore) {}
  get inMemory(): boolean {
    return this._inner.inMemory;
  }
  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this._inner.get(key);
  }
  async batch(ops: BatchOp[]): Promise<void> {
    if (this.failWrites) throw new Error("injected write failure");
    return this._inner.batch(ops);
  }
  range(opts: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]> {
    return this._inner.range(opts);
  }
  close(): Promise<void> {
    return this._inner.close();
  }
}

interface Chain {
  rt: Runtime;
  call<T = unknown>(method: string, params?: unknown[], ctx?: RequestContext): Promise<T>;
  accounts: string[];
  deploy(bytecode: string, from?: string): Promise<string>;
  send(from: string, to: string, data: string, extra?: Record<string, string>): Promise<string>;
  receipt(hash: string): Promise<{ status: string; blockNumber: string; from: string } | null>;
}

async function chain(opts: Partial<RuntimeOptions> = {}): Promise<Chain> {
  const rt = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const call = async <T>(method: string, params: unknown[] = [], ctx = TRUSTED): Promise<T> =>
    unwrap<T>((await rt.dispatcher.handle({ jsonrpc: "2.0", id: 1, method, params }, ctx)) as JsonRpcResponse);
  const accounts = await call<string[]>("eth_accounts");
  const send = (from: string, to: string, data: string, extra: Record<string, string> = {}) => call<string>("eth_sendTransaction", [{ from, to, data, ...extra }]);
  const receipt = (hash: string) => call<{ status: string; blockNumber: string; from: string; contractAddress: string } | null>("eth_getTransactionReceipt", [hash]);
  const deploy = async (bytecode: string, from = accounts[0]) => {
    const h = await call<string>("eth_sendTransaction", [{ from, data: bytecode }]);
    const r = (await receipt(h)) as { contractAddress: string };
    return r.contractAddress;
  };
  return { rt, call, accounts, deploy, send, receipt };
}

describe("execution contexts and a transactional commit", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const open: Runtime[] = [];
  const tmp = (): string => {
    const d = mkdtempSync(path.join(tmpdir(), "hh-epochs-core-"));
    dirs.push(d);
    return d;
  };
  const track = (ch: Chain): Chain => {
    open.push(ch.rt);
    return ch;
  };
  afterEach(async () => {
    for (const rt of open.splice(0)) await rt.close().catch(() => undefined);
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("a timed-out eth_call is stopped from inside and leaves committed state intact across a restart (LevelDB)", async () => {
    const dir = tmp();
    const opts = { rpc: { evmTimeoutMs: 300 } };
    let ch = await chain({ ...opts, kv: await LevelKV.open(dir) });
    const target = await ch.deploy(c.Looper.bytecode);
    await ch.send(ch.accounts[0], target, looper.encodeFunctionData("set", [1n]));
    // a loop far longer than 300 ms at 16M gas, and a write mined while it runs
    const spin = ch.call("eth_call", [{ to: target, data: looper.encodeFunctionData("spin", [10n ** 9n]), gas: hexq(16_000_000) }, "latest"]);
    const write = ch.send(ch.accounts[1], target, looper.encodeFunctionData("set", [42n]));
    const err = await rpcError(spin);
    expect(err.code).to.equal(-32000);
    expect(err.message).to.equal("execution aborted (timeout = 300ms)");
    const receipt = await ch.receipt(await write);
    expect(receipt?.status).to.equal("0x1");
    const head = await ch.call<{ stateRoot: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
    await ch.rt.close();
    open.length = 0;

    ch = track(await chain({ ...opts, kv: await LevelKV.open(dir) }));
    const after = await ch.call<{ stateRoot: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(after).to.deep.include({ number: head.number, stateRoot: head.stateRoot });
    // the live state is the head's state, and the write mined during the call is there
    expect(Buffer.from(await ch.rt.node.vm.stateManager.getStateRoot()).toString("hex")).to.equal(head.stateRoot.slice(2));
    expect(BigInt(await ch.call<string>("eth_call", [{ to: target, data: looper.encodeFunctionData("value") }]))).to.equal(42n);
  });

  it("a transaction that does not fit waits with its sender's later ones; none is dropped", async () => {
    const ch = track(await chain({ chain: testChainConfig({ blockGasLimit: 50_000n, mining: { auto: false, interval: 0, order: "fifo" } }) }));
    const [a, b] = ch.accounts;
    const gases = [21_000, 40_000, 21_000];
    const hashes: string[] = [];
    for (let i = 0; i < gases.length; i++) hashes.push(await ch.send(a, b, "0x", { gas: hexq(gases[i]), nonce: hexq(i) }));
    const blocks: string[] = [];
    for (let i = 0; i < 2; i++) {
      await ch.call("evm_mine");
      for (const h of hashes) {
        const r = await ch.receipt(h);
        if (r !== null && !blocks.includes(`${h}@${r.blockNumber}`)) blocks.push(`${h}@${r.blockNumber}`);
      }
    }
    // nonce 0 in block 1; nonce 1 (a 40k limit) did not fit beside it and nonce 2 waited behind it
    // (it used to run, fail the nonce check and leave the pool); block 2 has room for both
    expect(blocks).to.deep.equal([`${hashes[0]}@0x1`, `${hashes[1]}@0x2`, `${hashes[2]}@0x2`]);
    expect(await ch.call("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
  });

  it("under automine a send the block producer refuses answers its error, not a hash that never mines", async () => {
    const ch = track(await chain());
    // a dev account given code signs its own transaction: EIP-3607 makes block production refuse it
    const who = ch.accounts[5];
    await ch.call("hardhat_setCode", [who, "0x60006000f3"]);
    const before = await ch.call<string>("eth_blockNumber");
    const err = await rpcError(ch.send(who, ch.accounts[0], "0x"));
    expect(err.code).to.equal(-32000);
    expect(err.message).to.equal("invalid sender address, address is not EOA (EIP-3607)");
    expect(await ch.call("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
    // the empty block mined while trying is the only trace
    expect(BigInt(await ch.call<string>("eth_blockNumber"))).to.equal(BigInt(before) + 1n);
  });

  it("an impersonated account that holds code sends transactions, and calls run from contracts (EIP-3607 is for signed ones)", async () => {
    const ch = track(await chain());
    const contract = await ch.deploy(c.Looper.bytecode);
    await ch.call("hardhat_impersonateAccount", [contract]);
    await ch.call("hardhat_setBalance", [contract, hexq(10n ** 18n)]);
    const h = await ch.send(contract, contract, looper.encodeFunctionData("set", [9n]));
    const r = await ch.receipt(h);
    expect(r).to.deep.include({ status: "0x1", from: contract });
    // its code is intact: the transaction ran it, and reads see it
    expect(BigInt(await ch.call<string>("eth_call", [{ to: contract, data: looper.encodeFunctionData("value") }]))).to.equal(9n);
    expect(await ch.call("eth_getCode", [contract, "latest"])).to.equal(c.Looper.deployedBytecode);
    expect(BigInt(await ch.call<string>("eth_getTransactionCount", [contract, "latest"]))).to.equal(2n);
    // a call and an estimate with a contract as `from`
    expect(BigInt(await ch.call<string>("eth_call", [{ from: contract, to: contract, data: looper.encodeFunctionData("value") }]))).to.equal(9n);
    expect(BigInt(await ch.call<string>("eth_estimateGas", [{ from: contract, to: contract, data: looper.encodeFunctionData("set", [1n]) }]))).to.be.greaterThan(21_000n);
    // and it replays as mined
    const replay = await ch.rt.node.replayBlock(BigInt(r?.blockNumber ?? 0));
    expect(replay.results[0].execResult.exceptionError).to.equal(undefined);
  });

  it("a transaction over EIP-7825's gas cap is refused with geth's text (not an internal error)", async () => {
    const ch = track(await chain());
    const err = await rpcError(ch.send(ch.accounts[0], ch.accounts[1], "0x", { gas: hexq(20_000_000) }));
    expect(err).to.deep.include({ code: -32000, message: "transaction gas limit too high (cap: 16777216, tx: 20000000)" });
    expect(await ch.call("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
  });

  for (const backend of ["memory", "LevelDB"] as const) {
    it(`a failed batch write leaves the node on its last committed block (${backend})`, async () => {
      const dir = tmp();
      const kv = new FaultyKV(backend === "memory" ? new MemoryKV() : await LevelKV.open(dir));
      const epochs = oneTimer("tick", 1);
      let ch = track(await chain({ kv, epochs }));
      const [a, b] = ch.accounts;
      await ch.send(a, b, "0x", { value: "0x1" });
      const head = await ch.call<{ number: string; hash: string; stateRoot: string }>("eth_getBlockByNumber", ["latest", false]);
      const balances = async () => Promise.all([a, b].map((x) => ch.call<string>("eth_getBalance", [x, "latest"])));
      const before = await balances();
      const records = await ch.call("epochs_epochInfos");

      kv.failWrites = true;
      await ch.call("evm_increaseTime", [5]);
      const err = await rpcError(ch.send(a, b, "0x", { value: "0x2" }));
      expect(err.code).to.equal(-32000);
      expect(err.message).to.equal(`block ${BigInt(head.number) + 1n} could not be written, the node stays at block ${BigInt(head.number)}: injected write failure`);
      expect(await ch.call("eth_getBlockByNumber", ["latest", false])).to.deep.include(head);
      expect(await balances()).to.deep.equal(before);
      expect(await ch.call("epochs_epochInfos")).to.deep.equal(records);
      expect(Buffer.from(await ch.rt.node.vm.stateManager.getStateRoot()).toString("hex")).to.equal(head.stateRoot.slice(2));
      // the transaction is still pooled; the next block, written, builds on the persisted state
      expect(await ch.call("txpool_status")).to.deep.equal({ pending: "0x1", queued: "0x0" });
      kv.failWrites = false;
      await ch.call("evm_mine");
      const next = await ch.call<{ number: string; parentHash: string; transactions: string[] }>("eth_getBlockByNumber", ["latest", false]);
      expect(next.number).to.equal(hexq(BigInt(head.number) + 1n));
      expect(next.parentHash).to.equal(head.hash);
      expect(next.transactions).to.have.length(1);
      const after = await balances();
      expect(BigInt(after[1]) - BigInt(before[1])).to.equal(2n);
      if (backend === "LevelDB") {
        await ch.rt.close();
        open.length = 0;
        ch = track(await chain({ kv: await LevelKV.open(dir), epochs }));
        expect(await balances()).to.deep.equal(after);
        const reopened = await ch.call<{ stateRoot: string }>("eth_getBlockByNumber", ["latest", false]);
        expect(Buffer.from(await ch.rt.node.vm.stateManager.getStateRoot()).toString("hex")).to.equal(reopened.stateRoot.slice(2));
      }
    });
  }

  it("interval mining reports a failed write and goes on once writes succeed", async () => {
    const kv = new FaultyKV(new MemoryKV());
    const ch = track(await chain({ kv }));
    const failures: string[] = [];
    ch.rt.node.on("miningError", (e) => failures.push(e.message));
    kv.failWrites = true;
    const start = ch.rt.node.headNumber;
    await ch.call("evm_setIntervalMining", [20]);
    while (failures.length < 2) await new Promise((r) => setTimeout(r, 10));
    expect(ch.rt.node.headNumber).to.equal(start);
    expect(failures[0]).to.match(/^block \d+ could not be written, the node stays at block \d+: injected write failure$/);
    kv.failWrites = false;
    while (ch.rt.node.headNumber < start + 2n) await new Promise((r) => setTimeout(r, 10));
    await ch.call("evm_setIntervalMining", [0]);
  });

  it("a call at an older block reads that block's epochs state", async () => {
    const epochs = oneTimer("tick", 10);
    const ch = track(await chain({ epochs }));
    const target = await ch.deploy(c.EpochReader.bytecode);
    const seen = new Map<bigint, bigint>();
    for (let i = 0; i < 6; i++) {
      await ch.call("evm_increaseTime", [11]);
      await ch.call("evm_mine");
      seen.set(ch.rt.node.headNumber, ch.rt.epochs?.currentEpoch(await ch.rt.node.moduleStore(EPOCHS_MODULE), "tick") ?? -1n);
    }
    expect(new Set(seen.values()).size).to.be.greaterThan(2);
    for (const [height, epoch] of seen) {
      const viaContract = await ch.call<string>("eth_call", [{ to: target, data: reader.encodeFunctionData("current", ["tick"]) }, hexq(height)]);
      const viaPrecompile = await ch.call<string>("eth_call", [{ to: EPOCHS_PRECOMPILE, data: EPOCHS_ABI.encodeFunctionData("currentEpoch", ["tick"]) }, hexq(height)]);
      expect(BigInt(viaContract), `contract at block ${height}`).to.equal(epoch);
      expect(BigInt(viaPrecompile), `precompile at block ${height}`).to.equal(epoch);
    }
  });

  it("a staticcall to registerHooks reverts and registers nothing", async () => {
    const ch = track(await chain());
    const target = await ch.deploy(c.StaticRegistrar.bytecode);
    const h = await ch.send(ch.accounts[0], target, registrar.encodeFunctionData("tryStatic"));
    expect((await ch.receipt(h))?.status).to.equal("0x1");
    expect(BigInt(await ch.call<string>("eth_call", [{ to: target, data: registrar.encodeFunctionData("lastOk") }]))).to.equal(0n);
    expect(await ch.call("epochs_hooks")).to.deep.equal([]);
  });

  it("an impersonated transaction keeps its sender after a restart, and replays as mined (after the hardhat_set* change before it)", async () => {
    const dir = tmp();
    let ch = track(await chain({ kv: await LevelKV.open(dir) }));
    const who = Wallet.createRandom().address.toLowerCase();
    await ch.call("hardhat_impersonateAccount", [who]);
    await ch.call("hardhat_setBalance", [who, hexq(10n ** 18n)]);
    const h = await ch.send(who, ch.accounts[0], "0x", { value: "0x5" });
    const r = await ch.receipt(h);
    await ch.rt.close();
    open.length = 0;

    ch = track(await chain({ kv: await LevelKV.open(dir) }));
    const tx = await ch.call<{ from: string }>("eth_getTransactionByHash", [h]);
    expect(tx.from).to.equal(who);
    expect((await ch.receipt(h))?.from).to.equal(who);
    const block = await ch.call<{ transactions: Array<{ from: string }> }>("eth_getBlockByNumber", [r?.blockNumber, true]);
    expect(block.transactions.map((t) => t.from)).to.deep.equal([who]);
    const replay = await ch.rt.node.replayBlock(BigInt(r?.blockNumber ?? 0));
    expect(replay.results.map((x) => x.execResult.exceptionError)).to.deep.equal([undefined]);
    expect(replay.results[0].totalGasSpent).to.equal(21_000n);
  });

  it("an endless estimateGas is ended by its deadline while another client is served", async () => {
    const ch = track(await chain({ rpc: { evmTimeoutMs: 500 } }));
    const server = new JsonRpcServer(ch.rt.dispatcher, { host: "127.0.0.1", port: 0 });
    const { httpAddress } = await server.listen();
    try {
      const target = await ch.deploy(c.Looper.bytecode);
      const url = `http://127.0.0.1:${httpAddress.port}/`;
      const post = async (method: string, params: unknown[]) => (await rpc(url, method, params)) as JsonRpcResponse;
      const order: string[] = [];
      const estimate = post("eth_estimateGas", [{ from: ch.accounts[0], to: target, data: looper.encodeFunctionData("work", [100_000n]) }]).then((res) => {
        order.push("estimate");
        return res;
      });
      const other = post("eth_chainId", []).then((res) => {
        order.push("chainId");
        return res;
      });
      const [est, id] = await Promise.all([estimate, other]);
      expect(est).to.deep.include({ error: { code: -32000, message: "execution aborted (timeout = 500ms)" } });
      expect(id).to.deep.include({ result: "0x2328" });
      expect(order).to.have.members(["estimate", "chainId"]);
    } finally {
      await server.close();
    }
  });

  it("the pool refuses past its limits with geth's text", async () => {
    const ch = track(await chain({ chain: testChainConfig({ mining: { auto: false, interval: 0, order: "priority" } }) }));
    const [a, b] = ch.accounts;
    // nonces 1..64 wait behind the missing nonce 0: the 65th future transaction finds no room
    for (let n = 1; n <= 64; n++) await ch.send(a, b, "0x", { nonce: hexq(n) });
    const err = await rpcError(ch.send(a, b, "0x", { nonce: hexq(65) }));
    expect(err.code).to.equal(-32000);
    expect(err.message).to.equal(`txpool is full: account ${a} already has 64 transactions waiting behind a nonce gap (the limit is 64)`);
    expect(await ch.call("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x40" });
    // filling the gap makes them all executable
    await ch.send(a, b, "0x", { nonce: "0x0" });
    expect(await ch.call("txpool_status")).to.deep.equal({ pending: "0x41", queued: "0x0" });
  });

  it("100 subscriptions add no node listeners beyond the first", async () => {
    const ch = track(await chain());
    const server = new JsonRpcServer(ch.rt.dispatcher, { host: "127.0.0.1", port: 0 });
    const { httpAddress } = await server.listen();
    const ws = new WebSocket(`ws://127.0.0.1:${httpAddress.port}/`);
    try {
      await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
      const replies = new Map<number, unknown>();
      ws.on("message", (m) => {
        const msg = JSON.parse(String(m)) as { id?: number; result?: unknown };
        if (msg.id !== undefined) replies.set(msg.id, msg.result);
      });
      const before = ch.rt.node.listenerCount("block");
      for (let i = 1; i <= 100; i++) ws.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "eth_subscribe", params: [i % 2 === 0 ? "newHeads" : "logs", ...(i % 2 === 0 ? [] : [{}])] }));
      while (replies.size < 100) await new Promise((r) => setTimeout(r, 10));
      expect([...replies.values()].every((v) => typeof v === "string")).to.equal(true);
      expect(ch.rt.node.listenerCount("block")).to.equal(before);
      expect(ch.rt.services.subscriptions.size).to.equal(100);
    } finally {
      ws.close();
      await server.close();
    }
  });

  it("a caller the dev methods are not open to (beyond loopback, a page from another origin) needs the token for them; others need none", async () => {
    const ch = track(await chain());
    const remote: RequestContext = { transport: "http", authenticated: false, devOpen: false };
    const local: RequestContext = { transport: "http", authenticated: false, devOpen: true };
    const withToken: RequestContext = { transport: "http", authenticated: true, devOpen: false };
    const who = ch.accounts[3];
    for (const [method, params] of [
      ["hardhat_setBalance", [who, "0x1"]],
      ["hardhat_setCode", [who, "0x00"]],
      ["hardhat_impersonateAccount", [who]],
      ["hardhat_mine", []],
      ["evm_mine", []],
      ["evm_increaseTime", [1]],
      ["evm_revert", ["0x1"]],
    ] as const) {
      const err = await rpcError(ch.call(method, [...params], remote));
      expect(err, method).to.deep.include({ code: 4100, message: `unauthorized: ${method} needs the bearer token` });
    }
    expect(await ch.call<string>("eth_getBalance", [who, "latest"], remote)).to.equal(hexq(10_000n * 10n ** 18n));
    // a snapshot holds copies of the module stores and the pool: dev, not read
    expect(await rpcError(ch.call("evm_snapshot", [], remote))).to.deep.include({ code: 4100 });
    expect(await ch.call("evm_snapshot", [], local)).to.equal("0x1");
    expect(await ch.call("hardhat_setBalance", [who, "0x1"], local)).to.equal(true);
    expect(await ch.call("hardhat_setBalance", [who, "0x2"], withToken)).to.equal(true);
    expect(await ch.call<string>("eth_getBalance", [who, "latest"])).to.equal("0x2");
  });

  it("EthereumJS's Common is not patched; the chain's own subclass skips repeated merges", () => {
    createChainCommon(9000n, "osaka");
    const count = (common: Common): (() => number) => {
      let builds = 0;
      const self = common as unknown as { _buildParamsCache(): void };
      const build = self._buildParamsCache.bind(common);
      self._buildParamsCache = () => {
        builds++;
        build();
      };
      return () => builds;
    };
    const plain = createCustomCommon({ chainId: 1234 }, Mainnet);
    expect(plain).to.not.be.instanceOf(ChainCommon);
    const plainBuilds = count(plain);
    plain.updateParams(paramsTx);
    plain.updateParams(paramsTx);
    expect(plainBuilds()).to.equal(2);

    const ours = createChainCommon(9000n, "osaka");
    expect(ours).to.be.instanceOf(ChainCommon);
    const copy = ours.copy();
    expect(copy).to.be.instanceOf(ChainCommon);
    const ourBuilds = count(copy);
    copy.updateParams(paramsTx);
    expect(ourBuilds()).to.equal(0);
  });
});
