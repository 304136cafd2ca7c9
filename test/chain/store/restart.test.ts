/**
 * Persistence with a LevelDB home: a restart resumes identically (blocks, receipts, logs, state,
 * proofs, epochs records, hook registrations, other module stores), debug_setHead is durable, and
 * the store refuses another chain id and a second node.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface } from "ethers";
import type { BlockModule } from "../../../src/chain/base/module";
import { createRuntime, type Runtime } from "../../../src/app/runtime";
import { LevelKV } from "../../../src/storage/level-kv";
import { compile } from "../../helpers/solc";
import { CLIENT_VERSION, rpcError, testChainConfig, unwrap } from "../../helpers/harness";
import type { JsonRpcResponse } from "../../../src/rpc/types";

const HOOK = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Counter {
  uint256 public n; mapping(uint256 => uint256) public at;
  event Bumped(uint256 indexed n);
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
  function bump() external { n++; at[n] = block.number; emit Bumped(n); }
  function beforeEpochStart(string calldata, int64) external { n += 1000; }
  function afterEpochEnd(string calldata, int64) external {}
}
contract Plain { event Made(address indexed by); uint256 public x = 7; constructor() { emit Made(msg.sender); } }`;

/** A module beside epochs: counts its beginBlock calls in its own store, so its store must resume too. */
const COUNTER_KEY = new Uint8Array([1]);
const counterModule = (): BlockModule => ({
  name: "blockcounter",
  initGenesis: ({ store }) => store.set(COUNTER_KEY, u64(0n)),
  beginBlock: ({ store }) => store.set(COUNTER_KEY, u64(readU64(store.get(COUNTER_KEY)) + 1n)),
});

function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}
function readU64(b: Uint8Array | undefined): bigint {
  if (b === undefined) throw new Error("counter missing");
  return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);
}

const EPOCHS = {
  genesis: {
    epochs: [
      {
        identifier: "tick",
        duration: { seconds: 3n, nanos: 0 },
        startTime: { seconds: 0n, nanos: 0 },
        currentEpoch: 0n,
        currentEpochStartTime: { seconds: -62135596800n, nanos: 0 },
        epochCountingStarted: false,
        currentEpochStartHeight: 0n,
      },
    ],
  },
};

const ctx = { transport: "in-process" as const, authenticated: true };
const call = <T>(rt: Runtime, method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx) as Promise<T>;
/** Through the JSON-RPC envelope, so a failure carries its wire code. */
const request = async <T>(rt: Runtime, method: string, params: unknown[] = []): Promise<T> =>
  unwrap<T>((await rt.dispatcher.handle({ jsonrpc: "2.0", id: 1, method, params }, ctx)) as JsonRpcResponse);
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;

describe("persistence: a LevelDB home", function () {
  this.timeout(120_000);
  let dir: string;
  const c = compile(HOOK);
  const counter = new Interface(c.Counter.abi as never);
  /** Runtimes a failed test left open; closed after each test so the next one can open the directory. */
  const live = new Set<Runtime>();
  const open = async (chainId = 9000n): Promise<Runtime> => {
    const rt = await createRuntime({ chain: testChainConfig({ chainId }), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir), epochs: EPOCHS, modules: [counterModule()] });
    live.add(rt);
    const close = rt.close;
    rt.close = async () => {
      live.delete(rt);
      await close();
    };
    return rt;
  };
  afterEach(async () => {
    for (const rt of [...live]) await rt.close();
  });
  const counterAt = async (rt: Runtime): Promise<bigint> => readU64((await rt.node.moduleStore("blockcounter")).get(COUNTER_KEY));

  let accounts: string[] = [];
  let contract = "";
  let plain = "";
  const txs: string[] = [];

  /** Everything a client can read of the chain, for before/after comparisons. */
  const view = async (rt: Runtime) => {
    const head = BigInt(await call<string>(rt, "eth_blockNumber"));
    const blocks = [];
    for (let n = 0n; n <= head; n++) blocks.push(await call(rt, "eth_getBlockByNumber", [hexq(n), true]));
    const slots = ["0x0", "0x1", "0x2", "0x3"];
    return {
      head,
      blocks,
      receipts: await Promise.all(txs.map((h) => call(rt, "eth_getTransactionReceipt", [h]))),
      byHash: await Promise.all(txs.map((h) => call(rt, "eth_getTransactionByHash", [h]))),
      logsAll: await call(rt, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }]),
      logsBumped: await call(rt, "eth_getLogs", [{ fromBlock: "0x0", address: contract, topics: [counter.getEvent("Bumped")!.topicHash] }]),
      logsBlockHash: await call(rt, "eth_getLogs", [{ blockHash: (blocks[2] as { hash: string }).hash }]),
      balances: await Promise.all([...accounts.slice(0, 4), contract, plain].map((a) => call(rt, "eth_getBalance", [a, "latest"]))),
      nonces: await Promise.all(accounts.slice(0, 4).map((a) => call(rt, "eth_getTransactionCount", [a, "latest"]))),
      balanceAt2: await call(rt, "eth_getBalance", [accounts[0], "0x2"]),
      code: await call(rt, "eth_getCode", [contract, "latest"]),
      storage: await Promise.all(slots.map((s) => call(rt, "eth_getStorageAt", [contract, s, "latest"]))),
      storageOld: await call(rt, "eth_getStorageAt", [contract, "0x0", "0x3"]),
      proof: await call(rt, "eth_getProof", [contract, slots.map((s) => `0x${s.slice(2).padStart(64, "0")}`), "latest"]),
      proofOld: await call(rt, "eth_getProof", [accounts[0], [], "0x2"]),
      epochs: await call(rt, "epochs_epochInfos"),
      hooks: await call(rt, "epochs_hooks"),
      events: await call(rt, "epochs_blockEvents", ["0x3"]),
      counter: await counterAt(rt),
    };
  };

  before(() => {
    // real path: errors name the directory LevelDB opened
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), "epochs-data-")));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("resumes after a restart with identical blocks, receipts, logs, state, proofs, epochs, hooks and module stores", async () => {
    let rt = await open();
    accounts = await call<string[]>(rt, "eth_accounts");
    const from = accounts[0];
    const deploy = await call<string>(rt, "eth_sendTransaction", [{ from, data: c.Counter.bytecode }]);
    txs.push(deploy);
    contract = (await call<{ contractAddress: string }>(rt, "eth_getTransactionReceipt", [deploy])).contractAddress;
    for (let i = 0; i < 5; i++) {
      txs.push(await call<string>(rt, "eth_sendTransaction", [{ from, to: contract, data: counter.encodeFunctionData("bump") }]));
      txs.push(await call<string>(rt, "eth_sendTransaction", [{ from: accounts[1 + (i % 3)], to: accounts[4], value: hexq(1000n + BigInt(i)) }]));
      await call(rt, "evm_increaseTime", [2]);
    }
    const plainTx = await call<string>(rt, "eth_sendTransaction", [{ from: accounts[2], data: c.Plain.bytecode }]);
    txs.push(plainTx);
    plain = (await call<{ contractAddress: string }>(rt, "eth_getTransactionReceipt", [plainTx])).contractAddress;
    await call(rt, "hardhat_mine", ["0x3"]);
    txs.push(await call<string>(rt, "eth_sendTransaction", [{ from, to: accounts[5], value: "0x5" }]));

    const before = await view(rt);
    expect(before.head > 14n, `head ${before.head}`).to.equal(true);
    expect(before.counter).to.equal(before.head); // one beginBlock per block after genesis
    expect((before.hooks as string[]).map((h) => h.toLowerCase())).to.deep.equal([contract.toLowerCase()]);
    expect(before.logsBumped as unknown[]).to.have.length(5);
    await rt.close();

    rt = await open();
    expect(await view(rt)).to.deep.equal(before);
    // the chain goes on from where it was: next block, next counter value, next Bumped(n)
    const h = await call<string>(rt, "eth_sendTransaction", [{ from, to: contract, data: counter.encodeFunctionData("bump") }]);
    const r = await call<{ blockNumber: string; logs: Array<{ topics: string[] }> }>(rt, "eth_getTransactionReceipt", [h]);
    expect(BigInt(r.blockNumber)).to.equal(before.head + 1n);
    expect(await counterAt(rt)).to.equal(before.head + 1n);
    expect(await call(rt, "eth_getStorageAt", [contract, "0x0", "latest"])).to.not.equal(before.storage[0]);
    txs.push(h);
    await rt.close();
  });

  it("keeps a debug_setHead rewind across a restart (head, state, logs, module stores)", async () => {
    let rt = await open();
    const head = BigInt(await call<string>(rt, "eth_blockNumber"));
    const target = 3n;
    const blockAt = await call<{ hash: string; stateRoot: string }>(rt, "eth_getBlockByNumber", [hexq(target), false]);
    const balanceAt = await call<string>(rt, "eth_getBalance", [accounts[4], hexq(target)]);
    const storageAt = await call<string>(rt, "eth_getStorageAt", [contract, "0x0", hexq(target)]);
    const logsUpTo = await call<unknown[]>(rt, "eth_getLogs", [{ fromBlock: "0x0", toBlock: hexq(target) }]);
    const epochsAtHead = await call<{ epochs: Array<{ current_epoch_start_height: string }> }>(rt, "epochs_epochInfos");
    expect(BigInt(epochsAtHead.epochs[0].current_epoch_start_height) > target).to.equal(true);

    expect(await request(rt, "debug_setHead", [hexq(target)])).to.equal(null);
    const check = async (r: Runtime) => {
      expect(BigInt(await call<string>(r, "eth_blockNumber"))).to.equal(target);
      const latest = await call<{ hash: string; stateRoot: string }>(r, "eth_getBlockByNumber", ["latest", false]);
      expect(latest.hash).to.equal(blockAt.hash);
      expect(latest.stateRoot).to.equal(blockAt.stateRoot);
      expect(await call(r, "eth_getBalance", [accounts[4], "latest"])).to.equal(balanceAt);
      expect(await call(r, "eth_getStorageAt", [contract, "0x0", "latest"])).to.equal(storageAt);
      expect(await call(r, "eth_getBlockByNumber", [hexq(target + 1n), false])).to.equal(null);
      expect(await call(r, "eth_getTransactionReceipt", [txs[txs.length - 1]])).to.equal(null);
      // the log index lost the blocks above the head too
      expect(await call(r, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }])).to.deep.equal(logsUpTo);
      expect(await counterAt(r)).to.equal(target);
      const epochs = await call<{ epochs: Array<{ current_epoch_start_height: string }> }>(r, "epochs_epochInfos");
      expect(BigInt(epochs.epochs[0].current_epoch_start_height) <= target).to.equal(true);
      return epochs;
    };
    const epochsAt = await check(rt);
    await rt.close();

    rt = await open();
    expect(await check(rt)).to.deep.equal(epochsAt);
    const above = await rpcError(request(rt, "debug_setHead", [hexq(head)]));
    expect(above).to.include({ code: -32000, message: `block ${head} is above the head ${target}` });
    // mining resumes at target + 1 and the new block's logs are indexed
    const h = await call<string>(rt, "eth_sendTransaction", [{ from: accounts[5], data: c.Plain.bytecode }]);
    const r = await call<{ blockNumber: string }>(rt, "eth_getTransactionReceipt", [h]);
    expect(BigInt(r.blockNumber)).to.equal(target + 1n);
    const made = await call<unknown[]>(rt, "eth_getLogs", [{ fromBlock: hexq(target + 1n), topics: [new Interface(c.Plain.abi as never).getEvent("Made")!.topicHash] }]);
    expect(made).to.have.length(1);
    expect(await counterAt(rt)).to.equal(target + 1n);
    await rt.close();
  });

  it("refuses a genesis file of another chain id, and releases the directory", async () => {
    const err = await open(1234n).catch((e: Error) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.equal(`data directory ${dir} holds chain 9000, but the genesis file says chain id 1234`);
    const rt = await open(); // the failed start left the directory unlocked
    expect(await call(rt, "eth_chainId")).to.equal("0x2328");
    await rt.close();
  });

  it("refuses a second node on the same directory, in this process and in another", async () => {
    const rt = await open();
    try {
      const second = await open().catch((e: Error) => e);
      expect((second as Error).message).to.equal(`data directory ${dir} is in use by another running node`);
      expect(await secondNodeInChild(dir)).to.equal(`error: data directory ${dir} is in use by another running node`);
      // the first node is unharmed
      await call(rt, "evm_mine");
    } finally {
      await rt.close();
    }
  });
});

/** Starts a node on `dir` in a child process; resolves with what it printed. */
function secondNodeInChild(dir: string): Promise<string> {
  const root = path.resolve(__dirname, "../../..");
  const code = `
    const { createRuntime } = require("./src/app/runtime");
    const { LevelKV } = require("./src/storage/level-kv");
    const { testChainConfig } = require("./test/helpers/harness");
    LevelKV.open(${JSON.stringify(dir)})
      .then((kv) => createRuntime({ chain: testChainConfig(), clientVersion: "second", kv }))
      .then((rt) => { console.log("started"); return rt.close(); }, (e) => console.log("error: " + e.message));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", code], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", () => resolve(out.trim()));
  });
}
