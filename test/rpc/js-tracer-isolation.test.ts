/**
 * JavaScript tracers run in an engine of their own (QuickJS, src/chain/tracing/js-engine.ts): with
 * the token (a `code` call), over HTTP, WebSocket and in-process, no host object is reachable through
 * anything a tracer is handed; runaway tracers (a loop, a promise flood, a memory bomb) end with a
 * clear error while the node answers other requests within a second; random programs never crash or
 * hang the node.
 */
import { expect } from "chai";
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Harness, testChainConfig } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";
import { type Deployed, runCorpus } from "../helpers/trace-corpus";

const MARK = path.join(tmpdir(), `tracer-escape-${process.pid}`);
const GRAB = `.constructor.constructor("var p = process; p.mainModule.require('fs').writeFileSync('${MARK}', 'x'); return p.pid")()`;

/** Escape attempts through each thing a tracer can touch; each one returns (or throws) whatever it reached. */
const ESCAPES: Record<string, string> = {
  "this (the tracer object)": `{ fault: function () {}, result: function () { return this${GRAB}; } }`,
  log: `{ r: null, step: function (log) { if (this.r === null) this.r = log${GRAB}; }, fault: function () {}, result: function () { return this.r; } }`,
  "log.stack": `{ r: null, step: function (log) { if (this.r === null) this.r = log.stack${GRAB}; }, fault: function () {}, result: function () { return this.r; } }`,
  "log.memory (a Uint8Array)": `{ r: null, step: function (log) { if (this.r === null) this.r = log.memory.slice(0, 4)${GRAB}; }, fault: function () {}, result: function () { return this.r; } }`,
  "log.contract": `{ r: null, step: function (log) { if (this.r === null) this.r = log.contract.getAddress${GRAB}; }, fault: function () {}, result: function () { return this.r; } }`,
  "log.op": `{ r: null, step: function (log) { if (this.r === null) this.r = log.op.toString${GRAB}; }, fault: function () {}, result: function () { return this.r; } }`,
  db: `{ fault: function () {}, result: function (ctx, db) { return db.getBalance${GRAB}; } }`,
  ctx: `{ fault: function () {}, result: function (ctx) { return ctx.from${GRAB}; } }`,
  "a call frame": `{ r: null, enter: function (f) { if (this.r === null) this.r = f.getFrom${GRAB}; }, exit: function (r) { this.r = this.r || r${GRAB}; }, fault: function () {}, result: function () { return this.r; } }`,
  "a helper function": `{ fault: function () {}, result: function () { return toHex${GRAB}; } }`,
  globalThis: `{ fault: function () {}, result: function () { return [typeof globalThis.process, typeof require, typeof module, typeof Buffer, typeof setTimeout].join(","); } }`,
  "require()": `{ fault: function () {}, result: function () { return require("fs").readdirSync("/"); } }`,
  "import()": `{ r: "none", fault: function () {}, result: function () { var self = this; import("fs").then(function (m) { self.r = typeof m; }, function (e) { self.r = String(e); }); return this.r; } }`,
};

const RUNAWAY: Record<string, { tracer: string; error: RegExp }> = {
  "an infinite loop in step": { tracer: "{ step: function () { for (;;) {} }, fault: function () {}, result: function () { return 1; } }", error: /^execution timeout$/ },
  "an infinite loop in result": { tracer: "{ fault: function () {}, result: function () { while (true) {} } }", error: /^execution timeout$/ },
  "an infinite loop at the top level": { tracer: "(function () { for (;;) {} })()", error: /^execution timeout$/ },
  "a promise flood": {
    tracer: "{ step: function () { var f = function () { Promise.resolve().then(f); }; f(); }, fault: function () {}, result: function () { return 1; } }",
    error: /^execution timeout$/,
  },
  "a memory bomb": {
    tracer: "{ a: [], step: function () { for (;;) this.a.push(new Uint8Array(8 << 20)); }, fault: function () {}, result: function () { return this.a.length; } }",
    error: /^tracer ran out of memory \(its limit is 64 MiB\) {4}in server-side tracer function 'step'$/,
  },
  "a memory bomb of small objects": {
    tracer: "{ a: [], step: function () { for (;;) this.a.push({ x: this.a.length }); }, fault: function () {}, result: function () { return this.a.length; } }",
    error: /^tracer ran out of memory|^execution timeout$/,
  },
  "a memory bomb in strings": { tracer: "{ fault: function () {}, result: function () { var s = 'x'; for (;;) s = s + s; } }", error: /out of memory|string too long/ },
  // the host copies what memory.slice asks for: past the EVM memory's end only 1 MiB of zeros (geth's limit)
  "a memory bomb through memory.slice": {
    tracer: "{ a: [], step: function (log) { for (;;) this.a.push(log.memory.slice(0, 60 << 20)); }, fault: function () {}, result: function () { return this.a.length; } }",
    error: /^Error: reached limit for padding memory slice: \d+ {4}in server-side tracer function 'step'$/,
  },
  "unbounded recursion": { tracer: "{ fault: function () {}, result: function () { var f = function () { return f() + 1; }; return f(); } }", error: /stack overflow/i },
};

for (const make of harnesses()) {
  describe(`JavaScript tracers in their own engine (${make.name})`, function () {
    this.timeout(180_000);
    let h: Harness;
    let d: Deployed;

    before(async () => {
      rmSync(MARK, { force: true });
      h = await make.create({ chain: { ...testChainConfig(), throwOnTransactionFailures: false } });
      d = await runCorpus(h);
    });
    after(async () => {
      rmSync(MARK, { force: true });
      await h?.close();
    });

    const trace = async (tracer: string, timeout = "5s"): Promise<{ result?: unknown; error?: { code: number; message: string } }> => {
      try {
        return { result: await h.request("debug_traceTransaction", [d.txs.nested, { tracer, timeout }]) };
      } catch (err) {
        return { error: err as { code: number; message: string } };
      }
    };

    it("reaches nothing of the node through anything it is handed (with the token)", async () => {
      for (const [via, tracer] of Object.entries(ESCAPES)) {
        const r = await trace(tracer);
        expect(existsSync(MARK), `${via}: a file was written`).to.equal(false);
        expect(r.result, via).to.not.equal(process.pid);
        if (r.error !== undefined) {
          expect(r.error.code, via).to.equal(-32000);
          expect(r.error.message, via).to.match(/is not defined|not a function|cannot read|could not load|not supported|undefined/i);
        }
      }
      expect((await trace(ESCAPES.globalThis)).result).to.equal("undefined,undefined,undefined,undefined,undefined");
      expect((await trace(ESCAPES["import()"])).result).to.not.equal("object");
    });

    it("runaway tracers end with a clear error while the node answers within a second", async () => {
      for (const [what, { tracer, error }] of Object.entries(RUNAWAY)) {
        const started = Date.now();
        // a long trace timeout: what ends them is the engine (its per-call slice, its memory), not the trace deadline
        const running = trace(tracer, "60s");
        await new Promise((r) => setTimeout(r, 50));
        const t0 = Date.now();
        const head = await h.request<string>("eth_blockNumber");
        const answeredIn = Date.now() - t0;
        const r = await running;
        expect(head, what).to.match(/^0x/);
        expect(answeredIn, `${what}: eth_blockNumber took ${answeredIn} ms`).to.be.below(1000);
        expect(r.error?.code, what).to.equal(-32000);
        expect(r.error?.message, what).to.match(error);
        expect(Date.now() - started, `${what} ended`).to.be.below(10_000);
      }
      // and the engine is still good for the next tracer
      expect((await trace("{ n: 0, step: function () { this.n++; }, fault: function () {}, result: function () { return this.n > 0; } }")).result).to.equal(true);
    });

    // once, over HTTP: the programs run in the engine whatever carried them (~9 s a run)
    if (make.name === "http")
      it("random tracer programs never crash or hang the node (bounded, seeded)", async () => {
        const seed = Number(process.env.TRACER_FUZZ_SEED ?? 0x5eed);
        let state = seed >>> 0;
        const rand = (n: number): number => {
          state = (state * 1664525 + 1013904223) >>> 0;
          return state % n;
        };
        const pieces = [
          "this.n = (this.n || 0) + 1;",
          "log.stack.peek(" + "RAND" + ");",
          "log.memory.slice(RAND, RAND * 3);",
          "log.memory.getUint(RAND);",
          "db.getBalance(log.contract.getAddress());",
          "db.getState(log.contract.getAddress(), toWord(RAND));",
          "toHex(toAddress('0x' + 'ab'.repeat(RAND % 40)));",
          "bigInt('ff', 16) * 2n;",
          "JSON.stringify(this);",
          "throw new Error('boom' + RAND);",
          "throw RAND;",
          "for (var i = 0; i < RAND * 1000; i++) {}",
          "var o = {}; o.o = o; JSON.stringify(o);",
          "Promise.reject(new Error('x'));",
          "new Array(RAND * 1000).join('y');",
          "isPrecompiled(toAddress(RAND));",
          "toContractAddress(log.contract.getCaller(), RAND);",
          "undefinedName.x;",
          "}{ syntax",
          "log.getPC() + log.getGas() + log.getCost() + log.getDepth() + log.getRefund();",
        ];
        const fill = (s: string): string => s.replace(/RAND/g, () => String(rand(70) - 3));
        const body = (): string => Array.from({ length: 1 + rand(4) }, () => fill(pieces[rand(pieces.length)])).join(" ");
        for (let i = 0; i < 40; i++) {
          const tracer = `{ step: function (log, db) { ${body()} }, fault: function (log, db) { ${body()} }, result: function (ctx, db) { ${body()} return this.n || 0; } }`;
          const r = await trace(tracer, "2s");
          if (r.error !== undefined) expect(r.error.code, `seed ${seed} #${i}: ${tracer}`).to.be.oneOf([-32000, -32602]);
          else expect(r.result, `seed ${seed} #${i}`).to.not.equal(undefined);
        }
        expect(await h.request("eth_blockNumber")).to.match(/^0x/);
        expect(existsSync(MARK)).to.equal(false);
      });
  });
}
