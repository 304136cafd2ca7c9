/**
 * Re-execution equals what was mined: a block whose begin-block ran epoch hooks that change state
 * its transactions read; every re-executed receipt (status, gasUsed, logs) equals the stored one,
 * through the node's replay and through debug_traceBlockByNumber / ByHash / debug_traceBlock,
 * debug_intermediateRoots and the trace-to-file method.
 */
import { expect } from "chai";
import { readFile, rm } from "node:fs/promises";
import { Interface } from "ethers";
import { bytesToHex } from "@ethereumjs/util";
import { newEpochInfo } from "../../src/epochs";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";
import { compile } from "../helpers/solc";
import type { Receipt } from "../helpers/trace-corpus";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Hooked {
  uint256 public lastStart;
  uint256 public seen;
  event Seen(uint256 v, uint256 total);
  constructor() { IEpochs(address(0x900)).registerHooks(); }
  function beforeEpochStart(string calldata, int64 n) external { lastStart = uint256(int256(n)) + 1000; }
  function afterEpochEnd(string calldata, int64) external {}
  function touch() external { seen += lastStart; emit Seen(lastStart, seen); }
}`;

interface CallFrame {
  gasUsed: string;
  error?: string;
  logs?: Array<{ address: string; topics: string[]; data: string }>;
  calls?: CallFrame[];
}

for (const make of harnesses()) {
  describe(`debug re-execution with epoch hooks (${make.name})`, function () {
    this.timeout(120_000);
    let h: Harness;
    let blockNumber: string;
    let blockHash: string;
    let txs: string[];
    const c = compile(SOURCE).Hooked;
    const iface = new Interface(c.abi as never);

    before(async () => {
      h = await make.create({ epochs: { genesis: { epochs: [newEpochInfo("10s", 10n)] } } });
      const [from] = await h.request<string[]>("eth_accounts");
      const deploy = await h.request<string>("eth_sendTransaction", [{ from, data: c.bytecode, gas: "0x2dc6c0" }]);
      const addr = (await h.request<Receipt>("eth_getTransactionReceipt", [deploy])).contractAddress as string;
      await h.request("evm_setAutomine", [false]);
      // end the current epoch (end-block), so the next block's begin-block starts one and runs the hook
      await h.request("evm_increaseTime", [11]);
      await h.request("evm_mine");
      txs = [];
      for (let i = 0; i < 3; i++) txs.push(await h.request<string>("eth_sendTransaction", [{ from, to: addr, data: iface.encodeFunctionData("touch"), gas: "0x30d40" }]));
      await h.request("evm_mine");
      await h.request("evm_setAutomine", [true]);
      const r = await h.request<Receipt>("eth_getTransactionReceipt", [txs[0]]);
      blockNumber = r.blockNumber;
      blockHash = (await h.request<{ hash: string }>("eth_getBlockByNumber", [blockNumber, false])).hash;
    });
    after(() => h.close());

    it("the block ran a hook in its begin-block, and its transactions saw what the hook wrote", async () => {
      const ev = await h.request<{ begin_block_events: Array<{ type: string }> }>("epochs_blockEvents", [blockNumber]);
      expect(ev.begin_block_events.map((e) => e.type)).to.include("epoch_hook");
      const r = await h.request<Receipt>("eth_getTransactionReceipt", [txs[0]]);
      const [lastStart] = iface.decodeEventLog("Seen", r.logs[0].data, r.logs[0].topics) as unknown as [bigint];
      expect(lastStart > 1000n).to.equal(true);
    });

    it("the node's replay gives every transaction the mined status, gasUsed and logs", async () => {
      const node = h.runtime.node;
      const n = BigInt(blockNumber);
      const stored = (await node.store.getReceipts(n)) ?? [];
      const { results } = await node.replayBlock(n);
      expect(results).to.have.length(3);
      results.forEach((res, i) => {
        expect(res.totalGasSpent).to.equal(stored[i].gasUsed);
        expect("status" in res.receipt ? res.receipt.status : 1).to.equal(stored[i].status);
        expect(res.receipt.logs.map(([a, t, d]) => [bytesToHex(a), t.map((x) => bytesToHex(x)), bytesToHex(d)])).to.deep.equal(
          stored[i].logs.map((l) => [bytesToHex(l.address), l.topics.map((x) => bytesToHex(x)), bytesToHex(l.data)]),
        );
      });
    });

    it("debug_traceBlockByNumber / ByHash / debug_traceBlock answer [{txHash, result}] matching the receipts", async () => {
      const cfg = { tracer: "callTracer", tracerConfig: { withLog: true } };
      const byNumber = await h.request<Array<{ txHash: string; result: CallFrame }>>("debug_traceBlockByNumber", [blockNumber, cfg]);
      expect(byNumber.map((t) => t.txHash)).to.deep.equal(txs);
      for (let i = 0; i < txs.length; i++) {
        const r = await h.request<Receipt>("eth_getTransactionReceipt", [txs[i]]);
        expect(Object.keys(byNumber[i])).to.deep.equal(["txHash", "result"]);
        expect(byNumber[i].result.gasUsed).to.equal(r.gasUsed);
        expect((byNumber[i].result.logs ?? []).map((l) => l.data)).to.deep.equal(r.logs.map((l) => l.data));
      }
      expect(await h.request("debug_traceBlockByHash", [blockHash, cfg])).to.deep.equal(byNumber);
      const rlp = await h.request<string>("debug_getRawBlock", [blockNumber]);
      expect(await h.request("debug_traceBlock", [rlp, cfg])).to.deep.equal(byNumber);
      // a single transaction of the block, traced after the earlier ones replayed, equals its block entry
      expect(await h.request("debug_traceTransaction", [txs[2], cfg])).to.deep.equal(byNumber[2].result);
      expect((await rpcError(h.request("debug_traceBlockByHash", [`0x${"12".repeat(32)}`]))).message).to.equal(`block 0x${"12".repeat(32)} not found`);
    });

    it("a tracer that throws null is told as QuickJS's out-of-memory null is (it cannot tell them apart)", async () => {
      const tracer = "{fault: function () {}, result: function () { throw null; }}";
      expect(await rpcError(h.request("debug_traceTransaction", [txs[0], { tracer }]))).to.deep.include({
        code: -32000,
        message: "tracer ran out of memory (its limit is 64 MiB) or threw null    in server-side tracer function 'result'",
      });
    });

    it("a block trace reports a failing tracer per transaction as {txHash, error} and goes on", async () => {
      const tracer = "{fault: function () {}, result: function (ctx) { if (ctx.txIndex === 1) throw new Error('not this one'); return ctx.txIndex; }}";
      expect(await h.request("debug_traceBlockByNumber", [blockNumber, { tracer }])).to.deep.equal([
        { txHash: txs[0], result: 0 },
        { txHash: txs[1], error: "Error: not this one    in server-side tracer function 'result'" },
        { txHash: txs[2], result: 2 },
      ]);
      // a tracer stopped by its timeout aborts that transaction's execution; the rest are replayed and traced
      const loopOnFirst =
        "{step: function () { while (this.first === undefined) {} }, enter: function () {}, exit: function () {}, fault: function () {}, result: function (ctx) { return ctx.txIndex; }, setup: function () {}}";
      const out = await h.request<Array<{ txHash: string; error?: string }>>("debug_traceBlockByNumber", [blockNumber, { tracer: loopOnFirst, timeout: "200ms" }]);
      expect(out.map((t) => t.txHash)).to.deep.equal(txs);
      expect(out.every((t) => t.error === "execution timeout")).to.equal(true);
      expect(await h.request("eth_blockNumber")).to.match(/^0x/);
    });

    it("debug_intermediateRoots: the state root after each transaction; the last one is the block's root when no end-block change follows", async () => {
      const roots = await h.request<string[]>("debug_intermediateRoots", [blockHash]);
      expect(roots).to.have.length(3);
      expect(new Set(roots).size).to.equal(3);
      const block = await h.request<{ stateRoot: string }>("eth_getBlockByNumber", [blockNumber, false]);
      expect(roots[2]).to.equal(block.stateRoot);
    });

    it("debug_standardTraceBlockToFile writes one EIP-3155 file per transaction and answers the paths", async () => {
      if (make.name !== "in-process") return;
      const files = await h.request<string[]>("debug_standardTraceBlockToFile", [blockHash]);
      expect(files).to.have.length(3);
      try {
        const lines = (await readFile(files[0], "utf8"))
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(lines[0]).to.include({ pc: 0, op: 0x60, gas: lines[0].gas, gasCost: "0x3", memSize: 0, depth: 1, refund: 0, opName: "PUSH1" });
        const end = lines[lines.length - 1];
        expect(Object.keys(end)).to.deep.equal(["output", "gasUsed"]);
        const one = await h.request<string[]>("debug_standardTraceBlockToFile", [blockHash, { txHash: txs[1] }]);
        expect(one).to.have.length(1);
        await rm(one[0]);
      } finally {
        for (const f of files) await rm(f, { force: true });
      }
    });
  });
}
