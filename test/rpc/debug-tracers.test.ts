/**
 * geth's tracers on the corpus (calls, creates, reverts, nested calls, logs, selfdestruct,
 * precompiles), through debug_traceTransaction / debug_traceCall, in-process and over HTTP.
 * Expectations are geth's shapes and rules (eth/tracers/native and logger), checked by hand.
 */
import { expect } from "chai";
import { getCreate2Address, getCreateAddress, keccak256, sha256 } from "ethers";
import { type Harness, rpcError, testChainConfig } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";
import { type Deployed, type Receipt, corpus, corpusIface, runCorpus } from "../helpers/trace-corpus";

interface CallFrame {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
  logs?: Array<{ address: string; topics: string[]; data: string; position: string }>;
  value?: string;
  type: string;
}

interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
  returnData?: string;
  refund?: number;
}

interface StructResult {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

const word = (n: number | bigint): string => BigInt(n).toString(16).padStart(64, "0");

for (const make of harnesses()) {
  describe(`debug tracers (${make.name})`, function () {
    this.timeout(120_000);
    let h: Harness;
    let d: Deployed;
    const receipt = (tx: string) => h.request<Receipt>("eth_getTransactionReceipt", [tx]);
    const call = (tx: string, cfg: unknown = { tracer: "callTracer" }) => h.request<CallFrame>("debug_traceTransaction", [tx, cfg]);
    const struct = (tx: string, cfg: unknown = {}) => h.request<StructResult>("debug_traceTransaction", [tx, cfg]);

    before(async () => {
      h = await make.create({ chain: { ...testChainConfig(), throwOnTransactionFailures: false } });
      d = await runCorpus(h);
    });
    after(() => h.close());

    describe("callTracer", () => {
      it("nests calls with gas, gasUsed, input, output and value; the top frame's gas is the tx gas, its gasUsed the receipt's", async () => {
        const t = await call(d.txs.nested);
        const r = await receipt(d.txs.nested);
        expect(t).to.include({ from: d.from, to: d.corpus, type: "CALL", gas: "0x2dc6c0", gasUsed: r.gasUsed, value: "0x0", output: `0x${word(42)}` });
        expect(t.input).to.equal(corpusIface.encodeFunctionData("nested", [21]));
        expect(t.calls).to.have.length(1);
        const c = (t.calls as CallFrame[])[0];
        expect(c).to.include({ from: d.corpus, to: d.child, type: "CALL", value: "0x0", output: `0x${word(42)}` });
        expect(BigInt(c.gas)).to.be.greaterThan(BigInt(c.gasUsed));
        expect(Object.keys(t)).to.deep.equal(["from", "gas", "gasUsed", "to", "input", "output", "calls", "value", "type"]);
        expect(t.logs).to.equal(undefined);
      });

      it("withLog: logs of each frame with their position among the frame's calls", async () => {
        const t = await call(d.txs.nested, { tracer: "callTracer", tracerConfig: { withLog: true } });
        expect(t.logs).to.have.length(1);
        expect((t.logs ?? [])[0]).to.deep.equal({ address: d.corpus, topics: [keccak256(Buffer.from("Made(address)"))], data: `0x${d.child.slice(2).padStart(64, "0")}`, position: "0x0" });
        expect((t.calls ?? [])[0].logs).to.deep.equal([{ address: d.child, topics: [keccak256(Buffer.from("Hello(uint256)"))], data: `0x${word(21)}`, position: "0x0" }]);
        const after = await call(d.txs.tryRevert, { tracer: "callTracer", tracerConfig: { withLog: true } });
        expect((after.logs ?? [])[0].position).to.equal("0x1");
      });

      it("a reverted inner call: error, output, decoded revertReason; the caller goes on", async () => {
        const t = await call(d.txs.tryRevert);
        expect(t.error).to.equal(undefined);
        const c = (t.calls as CallFrame[])[0];
        expect(c).to.include({ error: "execution reverted", revertReason: "child says no", type: "CALL" });
        expect(c.output).to.match(/^0x08c379a0/);
      });

      it("a reverted transaction: top error and reason; withLog drops the logs of every frame under a failed one", async () => {
        const t = await call(d.txs.fail, { tracer: "callTracer", tracerConfig: { withLog: true } });
        expect(t).to.include({ error: "execution reverted", revertReason: "top fails" });
        expect((t.calls as CallFrame[])[0].error).to.equal(undefined);
        expect((t.calls as CallFrame[])[0].logs).to.equal(undefined);
        const custom = await call(d.txs.failCustom);
        expect(custom.error).to.equal("execution reverted");
        expect(custom.revertReason).to.equal(undefined);
        expect(custom.output).to.equal(corpusIface.encodeErrorResult("Custom", [7]));
        const panic = await call(d.txs.panic);
        expect(panic.revertReason).to.equal("division or modulo by zero");
      });

      it("CREATE2 and CREATE frames name the new contract; DELEGATECALL and STATICCALL frames as geth (no value on STATICCALL)", async () => {
        const t = await call(d.txs.make2);
        const c = (t.calls as CallFrame[])[0];
        const salt = `0x${"11".repeat(32)}`;
        expect(c).to.include({ type: "CREATE2", from: d.corpus, value: "0x0", to: getCreate2Address(d.corpus, salt, keccak256(corpus.Child.bytecode)).toLowerCase() });
        expect(c.input).to.equal(corpus.Child.bytecode);
        expect(c.output).to.equal(corpus.Child.deployedBytecode);
        const deploy = await call(d.deployTx);
        expect(deploy).to.include({ type: "CREATE", to: getCreateAddress({ from: d.from, nonce: 0 }).toLowerCase() });
        expect((deploy.calls as CallFrame[])[0]).to.include({ type: "CREATE", to: d.child });
        const del = (await call(d.txs.delegate)).calls as CallFrame[];
        expect(del[0]).to.include({ type: "DELEGATECALL", from: d.corpus, to: d.child, value: "0x0" });
        const st = (await call(d.txs.staticRead)).calls as CallFrame[];
        expect(st[0]).to.include({ type: "STATICCALL", from: d.corpus, to: d.child });
        expect(st[0]).to.not.have.property("value");
      });

      it("a precompile call is a frame of its own, with its output", async () => {
        const c = ((await call(d.txs.hash)).calls as CallFrame[])[0];
        expect(c).to.include({ type: "STATICCALL", to: "0x0000000000000000000000000000000000000002", input: "0x1234", output: sha256("0x1234") });
      });

      it("SELFDESTRUCT is a frame under the calling contract: from the contract, to the beneficiary, with the balance", async () => {
        const t = await call(d.txs.selfdestructNew);
        const [create, kill] = t.calls as CallFrame[];
        expect(create).to.include({ type: "CREATE", value: "0x3e8" });
        expect(kill).to.include({ type: "CALL", to: create.to });
        expect((kill.calls as CallFrame[])[0]).to.deep.equal({ from: create.to, gas: "0x0", gasUsed: "0x0", to: d.from, input: "0x", value: "0x3e8", type: "SELFDESTRUCT" });
      });

      it("onlyTopCall keeps the transaction's frame only; tracerConfig may be a JSON string", async () => {
        const t = await call(d.txs.nested, { tracer: "callTracer", tracerConfig: '{"onlyTopCall":true}' });
        expect(t.calls).to.equal(undefined);
        expect(t.output).to.equal(`0x${word(42)}`);
        const o = await call(d.txs.nested, { tracer: "callTracer", tracerConfig: { onlyTopCall: true } });
        expect(o).to.deep.equal(t);
      });
    });

    describe("struct logger", () => {
      it("answers gas (the receipt's), failed, returnValue without 0x and one entry per opcode", async () => {
        const t = await struct(d.txs.nested);
        const r = await receipt(d.txs.nested);
        expect(t.gas).to.equal(Number(r.gasUsed));
        expect(t.failed).to.equal(false);
        expect(t.returnValue).to.equal(word(42));
        expect(t.structLogs[0]).to.deep.equal({ pc: 0, op: "PUSH1", gas: t.structLogs[0].gas, gasCost: 3, depth: 1, stack: [] });
        expect(t.structLogs[1].stack).to.deep.equal(["0x80"]);
        // gas left decreases by each step's cost within a frame (a CALL's cost includes the gas it forwards)
        for (let i = 0; i + 1 < t.structLogs.length; i++) {
          const [a, b] = [t.structLogs[i], t.structLogs[i + 1]];
          if (a.depth === b.depth && !["CALL", "STATICCALL", "DELEGATECALL", "CALLCODE", "CREATE", "CREATE2"].includes(a.op)) expect(b.gas).to.equal(a.gas - a.gasCost, `${a.op} at ${a.pc}`);
        }
        const callStep = t.structLogs.find((l) => l.op === "CALL") as StructLog;
        const next = t.structLogs[t.structLogs.indexOf(callStep) + 1];
        expect(next.depth).to.equal(2);
        expect(callStep.gasCost).to.be.greaterThan(next.gas);
        expect(t.structLogs.some((l) => l.depth === 2 && l.op === "LOG1")).to.equal(true);
      });

      it("storage of SLOAD/SSTORE (per contract, accumulated), memory on enableMemory, return data on enableReturnData; disableStack, disableStorage, limit", async () => {
        const t = await struct(d.txs.nested, { enableMemory: true, enableReturnData: true });
        const sstore = t.structLogs.find((l) => l.op === "SSTORE" && l.depth === 2) as StructLog;
        expect(sstore.storage).to.deep.equal({ [word(0)]: word(21) });
        const sload = t.structLogs.find((l) => l.op === "SLOAD" && l.depth === 1) as StructLog;
        expect(sload.storage).to.have.property(word(1), d.child.slice(2).padStart(64, "0"));
        expect(t.structLogs[0].memory).to.deep.equal([]);
        expect(t.structLogs[3].memory).to.deep.equal([word(0), word(0), word(0x80)]);
        const afterCall = t.structLogs.findIndex((l) => l.op === "CALL");
        expect(t.structLogs[afterCall + 1].returnData).to.equal(undefined);
        const back = t.structLogs.slice(afterCall + 1).find((l) => l.depth === 1) as StructLog;
        expect(back.returnData).to.equal(`0x${word(42)}`);
        const plain = await struct(d.txs.nested, { disableStack: true, disableStorage: true });
        expect(plain.structLogs.every((l) => l.stack === undefined && l.storage === undefined && l.memory === undefined)).to.equal(true);
        expect((await struct(d.txs.nested, { limit: 5 })).structLogs).to.have.length(5);
      });

      it("a revert: failed, returnValue is the revert data; refund appears once storage is cleared", async () => {
        const t = await struct(d.txs.fail);
        expect(t.failed).to.equal(true);
        expect(t.returnValue).to.equal(corpusIface.encodeErrorResult("Error", ["top fails"]).slice(2));
        expect(t.structLogs[t.structLogs.length - 1].op).to.equal("REVERT");
      });

      it("a negative limit is refused", async () => {
        const e = await rpcError(struct(d.txs.nested, { limit: -1 }));
        expect(e.message).to.equal("output limit cannot be negative, got -1");
      });
    });

    describe("prestateTracer", () => {
      it("every touched account as first seen: sender, recipient, coinbase, callee, with the storage slots read or written", async () => {
        const t = await h.request<Record<string, { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }>>("debug_traceTransaction", [
          d.txs.nested,
          { tracer: "prestateTracer" },
        ]);
        expect(t).to.have.property(d.from);
        expect(t).to.have.property(d.corpus);
        expect(t).to.have.property(d.child);
        expect(t[d.from].nonce).to.be.a("number");
        expect(t[d.child].code).to.equal(corpus.Child.deployedBytecode);
        expect(t[d.corpus].storage).to.have.property(`0x${word(1)}`, `0x${d.child.slice(2).padStart(64, "0")}`);
        expect(t[d.corpus].storage).to.have.property(`0x${word(2)}`);
        expect(Object.keys(t[d.child].storage ?? {})).to.deep.equal([`0x${word(0)}`]);
      });

      it("diffMode: {post, pre} with what changed only; a contract created and destroyed in the transaction is in neither", async () => {
        const t = await h.request<{ post: Record<string, { balance?: string; nonce?: number; storage?: Record<string, string> }>; pre: Record<string, { storage?: Record<string, string> }> }>(
          "debug_traceTransaction",
          [d.txs.nested, { tracer: "prestateTracer", tracerConfig: { diffMode: true } }],
        );
        expect(Object.keys(t)).to.deep.equal(["post", "pre"]);
        expect(t.post[d.from].nonce).to.be.a("number");
        expect(t.post[d.corpus].storage).to.have.property(`0x${word(2)}`);
        expect(t.post[d.corpus].storage).to.not.have.property(`0x${word(1)}`);
        // the counter was zero before: geth leaves empty slots out of pre
        expect(t.pre[d.corpus].storage).to.equal(undefined);
        expect(t.pre[d.corpus]).to.deep.equal({ balance: "0x0", nonce: 2, code: corpus.Corpus.deployedBytecode });
        const sd = await h.request<{ post: Record<string, unknown>; pre: Record<string, unknown> }>("debug_traceTransaction", [
          d.txs.selfdestructNew,
          { tracer: "prestateTracer", tracerConfig: { diffMode: true } },
        ]);
        const created = ((await call(d.txs.selfdestructNew)).calls as CallFrame[])[0].to as string;
        expect(sd.pre).to.not.have.property(created);
        expect(sd.post).to.not.have.property(created);
      });
    });

    describe("4byteTracer, noopTracer, muxTracer", () => {
      it("counts selector-size pairs of calls (not creations, not precompiles)", async () => {
        expect(await h.request("debug_traceTransaction", [d.txs.nested, { tracer: "4byteTracer" }])).to.deep.equal({ "0x10b80908-32": 1, "0x32145f90-32": 1 });
        expect(await h.request("debug_traceTransaction", [d.txs.hash, { tracer: "4byteTracer" }])).to.deep.equal({ "0xaa1e84de-96": 1 });
        expect(await h.request("debug_traceTransaction", [d.txs.nested, { tracer: "noopTracer" }])).to.deep.equal({});
      });

      it("muxTracer runs several on one execution", async () => {
        const t = await h.request<Record<string, unknown>>("debug_traceTransaction", [d.txs.nested, { tracer: "muxTracer", tracerConfig: { callTracer: { onlyTopCall: true }, "4byteTracer": {} } }]);
        expect(Object.keys(t)).to.deep.equal(["callTracer", "4byteTracer"]);
        expect(t["4byteTracer"]).to.deep.equal({ "0x10b80908-32": 1, "0x32145f90-32": 1 });
        expect((t.callTracer as CallFrame).calls).to.equal(undefined);
      });

      it("an unknown tracer name answers geth's text", async () => {
        expect((await rpcError(call(d.txs.nested, { tracer: "fooTracer" }))).message).to.equal("tracer not found");
        expect((await rpcError(call(d.txs.nested, { tracer: "callTracer", tracerConfig: "{nope" }))).code).to.equal(-32602);
      });
    });

    describe("debug_traceCall", () => {
      it("traces a call on a block's state, with state overrides and block overrides", async () => {
        const t = await h.request<CallFrame>("debug_traceCall", [{ from: d.from, to: d.corpus, data: corpusIface.encodeFunctionData("counter") }, "latest", { tracer: "callTracer" }]);
        expect(BigInt(t.output as string)).to.be.greaterThan(0n);
        const o = await h.request<CallFrame>("debug_traceCall", [
          { from: d.from, to: d.corpus, data: corpusIface.encodeFunctionData("counter") },
          "latest",
          { tracer: "callTracer", stateOverrides: { [d.corpus]: { stateDiff: { [`0x${word(2)}`]: `0x${word(7)}` } } } },
        ]);
        expect(o.output).to.equal(`0x${word(7)}`);
        const clock = "0x00000000000000000000000000000000000c10c0";
        const b = await h.request<CallFrame>("debug_traceCall", [
          { from: d.from, to: clock },
          "latest",
          // TIMESTAMP PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
          { tracer: "callTracer", stateOverrides: { [clock]: { code: "0x4260005260206000f3" } }, blockOverrides: { time: "0x1234" } },
        ]);
        expect(b.output).to.equal(`0x${word(0x1234)}`);
        // the struct logger by default, and the overrides left nothing behind
        const s = await h.request<StructResult>("debug_traceCall", [{ from: d.from, to: d.corpus, data: corpusIface.encodeFunctionData("counter") }, "latest"]);
        expect(s.structLogs.length).to.be.greaterThan(10);
        expect(await h.request("eth_getCode", [clock, "latest"])).to.equal("0x");
      });
    });

    describe("errors", () => {
      it("unknown transaction and the genesis block answer geth's texts", async () => {
        expect((await rpcError(call(`0x${"ab".repeat(32)}`))).message).to.equal("transaction not found");
        expect((await rpcError(h.request("debug_traceBlockByNumber", ["0x0"]))).message).to.equal("genesis is not traceable");
        expect((await rpcError(h.request("debug_traceBlockByNumber", ["0xffff"]))).message).to.equal("block #65535 not found");
      });
    });
  });
}
