/**
 * The node keeps its own boundary (src/chain/node.ts): every public method that changes the chain
 * takes the node's lock itself, so nothing a caller does can run in the middle of a block's
 * production; and reads, which take no lock, answer from the last committed state while a block is
 * being produced (ChainState.changingLive). The EVM's step events give the test a moment inside a
 * block's production to call from.
 */
import { EventEmitter } from "node:events";
import { expect } from "chai";
import { Address } from "@ethereumjs/util";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { Node } from "../../src/chain/node";
import { DevControls } from "../../src/chain/dev/dev-controls";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";

/** Init code that stores 1 in slot 1 and returns no code: a few EVM steps inside a block. */
const INIT = "0x600160015500";

/** Public methods of Node that read, close, or register a reader, and take no part in a change. */
const NOT_CHANGES = new Set(["constructor", "exportState", "wantsEveryBlock", "armIntervalMining", "close", "pool", "clock"]);

describe("the node's lock (src/chain/node.ts)", function () {
  this.timeout(60_000);
  let rt: Runtime;
  let steps: EventEmitter;
  let from: string;

  beforeEach(async () => {
    steps = new EventEmitter();
    rt = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, stepEvents: steps });
    from = ((await rt.dispatcher.call("eth_accounts", [], { transport: "in-process", authenticated: true })) as string[])[0];
  });
  afterEach(() => rt.close());

  const call = (method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, { transport: "in-process", authenticated: true });

  /** Sends INIT under automine and runs `during` once, at the first EVM step of its block's production. */
  async function duringBlock(during: () => void): Promise<void> {
    let ran = false;
    steps.on("step", () => {
      if (ran) return;
      ran = true;
      during();
    });
    await call("eth_sendTransaction", [{ from, data: INIT, gas: "0x30000" }]);
    expect(ran, "the block ran EVM steps").to.equal(true);
  }

  it("every changing method waits for the block in production", async () => {
    const node = rt.node;
    const dump = await node.exportState();
    const transfer = await node.calls.sign({ from: new Address(Buffer.from(from.slice(2), "hex")).bytes, to: new Uint8Array(20), value: 1n, nonce: 1n }, 21_000n);
    let seq = 0;
    let blockAt = -1;
    node.once("block", () => (blockAt = seq++));
    const order = new Map<string, number>();
    const changes: Record<string, () => Promise<unknown>> = {
      modifyState: () => node.modifyState(async () => undefined),
      send: () => node.send(() => ({ tx: transfer })),
      mineBlock: () => node.mineBlock(),
      mineBlocks: () => node.mineBlocks(2n, 1n),
      "dev.configure": () => node.dev.configure({ extraData: new Uint8Array([1]) }),
      "dev.setIntervalMining": () => node.dev.setIntervalMining(0),
      "dev.setMinGasPrice": () => node.dev.setMinGasPrice(0n),
      "dev.stopMining": () => node.dev.stopMining(),
      "dev.startMining": () => node.dev.startMining(),
      "dev.setNextTimestamp": () => node.dev.setNextTimestamp(node.head.header.timestamp + 1000n),
      "dev.increaseTime": () => node.dev.increaseTime(1n),
      "dev.impersonate": () => node.dev.impersonate("0x" + "11".repeat(20)),
      "dev.stopImpersonating": () => node.dev.stopImpersonating("0x" + "11".repeat(20)),
      "dev.dropPooled": () => node.dev.dropPooled("0x" + "00".repeat(32)),
      dumpState: () => node.dumpState(),
      snapshot: () => node.snapshot(),
      revert: () => node.revert(999),
      loadState: () => node.loadState(dump),
      setHead: () => node.setHead(node.headNumber),
      reset: () => node.reset(undefined),
    };
    // a public method of Node (beyond its read half) or of its dev controls is either listed here and held by the lock, or declared not a change
    const own = [
      ...Object.getOwnPropertyNames(Node.prototype).filter((n) => !n.startsWith("_") && !NOT_CHANGES.has(n)),
      ...Object.getOwnPropertyNames(DevControls.prototype)
        .filter((n) => n !== "constructor")
        .map((n) => `dev.${n}`),
    ];
    expect(own.sort()).to.deep.equal(Object.keys(changes).sort());
    const settled: Array<Promise<unknown>> = [];
    await duringBlock(() => {
      for (const [name, change] of Object.entries(changes)) {
        settled.push(
          change().then(
            () => order.set(name, seq++),
            (err: unknown) => order.set(name, seq++) && Promise.reject(err instanceof Error ? new Error(`${name}: ${err.message}`) : err),
          ),
        );
      }
    });
    await Promise.all(settled);
    expect(blockAt).to.be.at.least(0);
    for (const name of Object.keys(changes)) expect(order.get(name), `${name} settled before the block was committed`).to.be.greaterThan(blockAt);
  });

  it("a read that comes in while a block is produced answers the last committed state", async () => {
    const before = (await call("eth_getTransactionCount", [from, "latest"])) as string;
    const pending: Array<Promise<unknown>> = [];
    await duringBlock(() => {
      // the sender's nonce is already raised in the live caches, not yet committed
      pending.push(call("eth_getTransactionCount", [from, "latest"]), rt.node.getNonce(new Address(Buffer.from(from.slice(2), "hex"))));
    });
    const [rpc, direct] = await Promise.all(pending);
    expect(rpc).to.equal(before);
    expect(direct).to.equal(BigInt(before));
    // and once the block is in, the new nonce
    expect(await call("eth_getTransactionCount", [from, "latest"])).to.equal("0x" + (BigInt(before) + 1n).toString(16));
  });
});
