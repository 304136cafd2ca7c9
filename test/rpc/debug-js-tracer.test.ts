/**
 * JavaScript tracers (geth's {step, fault, result, enter, exit, setup} with log, db, ctx) and the
 * `timeout` option: a tracer that never returns ends with geth's "execution timeout" and the node
 * goes on serving.
 */
import { expect } from "chai";
import { type Harness, rpcError, testChainConfig } from "../helpers/harness";
import { serveHttp } from "../helpers/http";
import { type Deployed, runCorpus } from "../helpers/trace-corpus";

describe("debug JavaScript tracers", function () {
  this.timeout(120_000);
  let h: Harness;
  let d: Deployed;

  before(async () => {
    h = await serveHttp({ chain: { ...testChainConfig(), throwOnTransactionFailures: false } });
    d = await runCorpus(h);
  });
  after(() => h.close());

  it("step counts every opcode (as many as the struct logger logs)", async () => {
    const tracer = "{count: 0, step: function (log, db) { this.count++; }, fault: function (log, db) {}, result: function (ctx, db) { return this.count; }}";
    const n = await h.request<number>("debug_traceTransaction", [d.txs.nested, { tracer }]);
    const s = await h.request<{ structLogs: unknown[] }>("debug_traceTransaction", [d.txs.nested, {}]);
    expect(n).to.equal(s.structLogs.length);
  });

  it("geth's built-in counting tracers by name: opcountTracer, unigram/bigram/trigramTracer, noopTracerLegacy", async () => {
    const s = await h.request<{ structLogs: Array<{ op: string }> }>("debug_traceTransaction", [d.txs.nested, {}]);
    expect(await h.request("debug_traceTransaction", [d.txs.nested, { tracer: "opcountTracer" }])).to.equal(s.structLogs.length);
    const uni = await h.request<Record<string, number>>("debug_traceTransaction", [d.txs.nested, { tracer: "unigramTracer" }]);
    expect(uni.SSTORE).to.equal(s.structLogs.filter((l) => l.op === "SSTORE").length);
    const bi = await h.request<Record<string, number>>("debug_traceTransaction", [d.txs.nested, { tracer: "bigramTracer" }]);
    expect(bi["PUSH1-PUSH1"]).to.be.greaterThan(0);
    expect(Object.keys(await h.request<Record<string, number>>("debug_traceTransaction", [d.txs.nested, { tracer: "trigramTracer" }]))[0].split("-")).to.have.length(3);
    expect(await h.request("debug_traceTransaction", [d.txs.nested, { tracer: "noopTracerLegacy" }])).to.deep.equal({});
    expect((await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: "constructor" }]))).message).to.equal("tracer not found");
  });

  it("log, db, ctx, enter/exit frames and setup config, with geth's helpers", async () => {
    const tracer = `{
      ops: {}, calls: [], sloads: [], cfg: null,
      setup: function (cfg) { this.cfg = cfg; },
      step: function (log, db) {
        var op = log.op.toString();
        this.ops[op] = (this.ops[op] || 0) + 1;
        if (op === "SLOAD") this.sloads.push({ pc: log.getPC(), depth: log.getDepth(), slot: log.stack.peek(0).toString(16), value: toHex(db.getState(log.contract.getAddress(), toWord(log.stack.peek(0)))) });
        if (log.getDepth() === 1 && log.getPC() === 0) this.first = { gas: log.getGas(), cost: log.getCost(), isPush: log.op.isPush(), n: log.op.toNumber(), caller: toHex(log.contract.getCaller()), balance: db.getBalance(log.contract.getCaller()).toString(), exists: db.exists(log.contract.getAddress()) };
      },
      enter: function (f) { this.calls.push({ type: f.getType(), from: toHex(f.getFrom()), to: toHex(f.getTo()), input: toHex(f.getInput()), gas: f.getGas(), value: f.getValue() === undefined ? null : f.getValue().toString() }); },
      exit: function (r) { this.calls.push({ gasUsed: r.getGasUsed(), output: toHex(r.getOutput()), error: r.getError() || null }); },
      fault: function (log, db) {},
      result: function (ctx, db) { return { ops: this.ops.SSTORE, calls: this.calls, sloads: this.sloads.length, first: this.first, cfg: this.cfg, ctx: { type: ctx.type, from: toHex(ctx.from), to: toHex(ctx.to), gasUsed: ctx.gasUsed, output: toHex(ctx.output), block: ctx.block, value: ctx.value.toString() } }; }
    }`;
    const r = await h.request<Record<string, any>>("debug_traceTransaction", [d.txs.nested, { tracer, tracerConfig: { x: 1 } }]); // eslint-disable-line @typescript-eslint/no-explicit-any
    const receipt = await h.request<{ gasUsed: string; blockNumber: string }>("eth_getTransactionReceipt", [d.txs.nested]);
    expect(r.cfg).to.deep.equal({ x: 1 });
    expect(r.ops).to.equal(2);
    expect(r.sloads).to.be.greaterThan(0);
    expect(r.first).to.include({ cost: 3, isPush: true, n: 0x60, caller: d.from, exists: true });
    expect(BigInt(r.first.balance)).to.be.greaterThan(0n);
    expect(r.calls[0]).to.include({ type: "CALL", from: d.corpus, to: d.child, value: "0" });
    expect(r.calls[1]).to.include({ error: null, output: `0x${"2a".padStart(64, "0")}` });
    expect(r.ctx).to.deep.equal({ type: "CALL", from: d.from, to: d.corpus, gasUsed: Number(receipt.gasUsed), output: `0x${"2a".padStart(64, "0")}`, block: Number(receipt.blockNumber), value: "0" });
  });

  it("errors with geth's texts: missing result/fault, a throwing step, bad source", async () => {
    expect((await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{fault: function () {}}" }]))).message).to.equal("trace object must expose a function result()");
    expect((await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{result: function () {}}" }]))).message).to.equal("trace object must expose a function fault()");
    expect((await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{result: function () {}, fault: function () {}, enter: function () {}}" }]))).message).to.equal(
      "trace object must expose either both or none of enter() and exit()",
    );
    const thrown = await rpcError(
      h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{step: function () { undefinedThing.x = 1; }, fault: function () {}, result: function () { return 1; }}" }]),
    );
    expect(thrown.message).to.equal("ReferenceError: undefinedThing is not defined    in server-side tracer function 'step'");
    expect((await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{step: function ( {" }]))).message).to.match(/^SyntaxError: /);
  });

  it("a tracer that never returns is stopped by `timeout` with geth's text, and other requests are served", async () => {
    const loop = "{step: function () { while (true) {} }, fault: function () {}, result: function () { return 1; }}";
    const [trace, blockNumber] = await Promise.all([rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: loop, timeout: "300ms" }])), h.request<string>("eth_blockNumber")]);
    expect(trace.message).to.equal("execution timeout");
    expect(blockNumber).to.match(/^0x/);
    // result() that never returns, the same way
    const inResult = await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{fault: function () {}, result: function () { for (;;) {} }}", timeout: "300ms" }]));
    expect(inResult.message).to.equal("execution timeout");
    // the node goes on: requests, and a later trace on the same block
    expect(await h.request("eth_chainId")).to.equal("0x2328");
    expect(
      await h.request("debug_traceTransaction", [d.txs.nested, { tracer: "{n: 0, step: function () { this.n++; }, fault: function () {}, result: function () { return this.n > 0; }}" }]),
    ).to.equal(true);
    expect((await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { tracer: loop, timeout: "soon" }]))).message).to.equal('invalid argument 1: time: invalid duration "soon"');
  });

  it("a native tracer past its timeout ends the same way", async () => {
    const e = await rpcError(h.request("debug_traceTransaction", [d.txs.nested, { timeout: "0s" }]));
    expect(e.message).to.equal("execution timeout");
  });
});
