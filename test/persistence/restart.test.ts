/**
 * Persistence with a LevelDB home: a restart resumes identically, debug_setHead is durable, and the
 * store refuses another chain id and a second node.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface } from "ethers";
import { createRuntime, type Runtime } from "../../src/rpc/runtime";
import { LevelKV } from "../../src/storage/level-kv";
import { compile } from "../helpers/solc";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";


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
}`;

describe("persistence: a LevelDB home", function () {
  this.timeout(120_000);
  let dir: string;
  const c = compile(HOOK).Counter;
  const iface = new Interface(c.abi as never);
  const open = async (chainId = 9000n): Promise<Runtime> =>
    createRuntime({ chain: testChainConfig({ chainId }), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir), epochs: { genesis: { epochs: [{ identifier: "tick", duration: { seconds: 3n, nanos: 0 }, startTime: { seconds: 0n, nanos: 0 }, currentEpoch: 0n, currentEpochStartTime: { seconds: -62135596800n, nanos: 0 }, epochCountingStarted: false, currentEpochStartHeight: 0n }] } } });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = <T>(rt: Runtime, method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx) as Promise<T>;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "epochs-data-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("resumes after a restart with identical blocks, receipts, logs, state, proofs, epochs and hooks", async () => {
    let rt = await open();
    const from = (await call<string[]>(rt, "eth_accounts"))[0];
    const deploy = await call<string>(rt, "eth_sendTransaction", [{ from, data: c.bytecode }]);
    const addr = (await call<{ contractAddress: string }>(rt, "eth_getTransactionReceipt", [deploy])).contractAddress;
    const hashes: string[] = [];
    for (let i = 0; i < 5; i++) {
      hashes.push(await call<string>(rt, "eth_sendTransaction", [{ from, to: addr, data: iface.encodeFunctionData("bump") }]));
      await call(rt, "evm_increaseTime", [2]);
    }
    await call(rt, "eth_sendTransaction", [{ from, to: from, value: "0x5" }]);
    const snapshot = async (r: Runtime) => ({
      head: await call(r, "eth_blockNumber"),
      blocks: await Promise.all([1, 3, 7].map((n) => call(r, "eth_getBlockByNumber", [`0x${n.toString(16)}`, true]))),
      receipts: await Promise.all(hashes.map((h) => call(r, "eth_getTransactionReceipt", [h]))),
      logs: await call(r, "eth_getLogs", [{ fromBlock: "0x0", address: addr }]),
      balance: await call(r, "eth_getBalance", [from, "latest"]),
      storage: await call(r, "eth_getStorageAt", [addr, "0x0", "latest"]),
      proof: await call(r, "eth_getProof", [addr, ["0x" + "00".repeat(32)], "latest"]),
      epochs: await call(r, "epochs_epochInfos"),
      hooks: await call(r, "epochs_hooks"),
      events: await call(r, "epochs_blockEvents", ["0x3"]),
    });
    const before = await snapshot(rt);
    expect((before.hooks as string[]).map((h) => h.toLowerCase())).to.deep.equal([addr.toLowerCase()]);
    await rt.close();
    rt = await open();
    expect(await snapshot(rt)).to.deep.equal(before);
    await call(rt, "evm_mine");
    expect(BigInt(await call<string>(rt, "eth_blockNumber"))).to.equal(BigInt(before.head as string) + 1n);
    await rt.close();
  });

  it("keeps a debug_setHead rewind across a restart", async () => {
    let rt = await open();
    const target = 3n;
    const blockAt = await call<{ hash: string; stateRoot: string }>(rt, "eth_getBlockByNumber", ["0x3", false]);
    const epochsAtHead = await call<{ epochs: Array<{ current_epoch_start_height: string }> }>(rt, "epochs_epochInfos");
    expect(BigInt(epochsAtHead.epochs[0].current_epoch_start_height) > target).to.equal(true);
    expect(await call(rt, "debug_setHead", ["0x3"])).to.equal(null);
    expect(await call(rt, "eth_blockNumber")).to.equal("0x3");
    const epochsAt = await call<{ epochs: Array<{ current_epoch_start_height: string }> }>(rt, "epochs_epochInfos");
    expect(BigInt(epochsAt.epochs[0].current_epoch_start_height) <= target).to.equal(true);
    await rt.close();
    rt = await open();
    expect(BigInt(await call<string>(rt, "eth_blockNumber"))).to.equal(target);
    const head = await call<{ hash: string; stateRoot: string }>(rt, "eth_getBlockByNumber", ["latest", false]);
    expect(head.hash).to.equal(blockAt.hash);
    expect(head.stateRoot).to.equal(blockAt.stateRoot);
    // the epochs store is the one of block 3 (records and counters of later blocks are gone)
    expect(await call(rt, "epochs_epochInfos")).to.deep.equal(epochsAt);
    expect(await call(rt, "eth_getBlockByNumber", ["0x4", false])).to.equal(null);
    const err = await rt.dispatcher.call("debug_setHead", ["0x9"], ctx).catch((e: Error) => e);
    expect((err as Error).message).to.equal("block 9 is above the head 3");
    await rt.close();
  });

  it("refuses another chain id and a second node on the same directory", async () => {
    const err = await open(1234n).catch((e: Error) => e);
    expect((err as Error).message).to.equal("the data directory holds chain id 9000, but the genesis says chain id 1234");
    const rt = await open();
    const second = await LevelKV.open(dir).catch((e: Error) => e);
    expect((second as Error).message).to.match(/is in use by another running node/);
    await rt.close();
  });
});
