/**
 * Parity's trace_* against Anvil's (differential) over the trace corpus (test/helpers/trace-corpus.ts),
 * and what Anvil does not serve (stateDiff, trace_replayTransaction, trace_call) on this node alone.
 *
 * Deliberate differences: block hashes differ between the chains (clocks, genesis), so `blockHash` is
 * left out; Anvil's trace_replayBlockTransactions leaves out calls to precompiles (its trace_block
 * lists them, as Parity and we do) and answers stateDiff with null where we give it.
 */
import { expect } from "chai";
import { anvilBinary, corpusOnBoth, txHash, txNames } from "../helpers/anvil";
import { requireTool } from "../helpers/tools";
import { type Harness, rpcError } from "../helpers/harness";
import { type Deployed, corpusIface } from "../helpers/trace-corpus";

type J = Record<string, unknown>;
const GAS_PRICE = "0x77359400";
const noHash = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === "blockHash" ? undefined : x)));

describe("trace_* against Anvil (differential)", function () {
  this.timeout(180_000);
  const bin = anvilBinary();
  let anvil: Harness;
  let ours: Harness;
  let a: Deployed;
  let o: Deployed;

  before(async function () {
    requireTool(this, "Anvil", bin === undefined ? "npm installed no @foundry-rs/anvil binary for this platform" : undefined, "npm ci installs it from @foundry-rs/anvil's platform package");
    ({ anvil, ours, a, o } = await corpusOnBoth(bin as string, GAS_PRICE));
  });
  after(async () => {
    await anvil?.close();
    await ours?.close();
  });

  const both = async (method: string, params: unknown[]): Promise<[unknown, unknown]> => [await anvil.request(method, params), await ours.request(method, params)];

  it("trace_transaction equals Anvil's on every transaction of the corpus", async () => {
    expect(txNames(o).map((k) => txHash(o, k))).to.deep.equal(txNames(o).map((k) => txHash(a, k)));
    for (const k of txNames(o)) {
      const [ta, to] = await both("trace_transaction", [txHash(o, k)]);
      expect(noHash(to), k).to.deep.equal(noHash(ta));
    }
  });

  it("trace_block, trace_filter and trace_replayBlockTransactions (trace) equal Anvil's", async () => {
    const head = Number(await ours.request<string>("eth_blockNumber"));
    for (let n = 1; n <= head; n++) {
      const [ba, bo] = await both("trace_block", [`0x${n.toString(16)}`]);
      expect(noHash(bo), `block ${n}`).to.deep.equal(noHash(ba));
      // Anvil's replay leaves out calls to precompiles that its trace_block lists: ours is compared
      // with Anvil's trace_block (without the location fields) and on everything else with its replay
      const [ra, ro] = (await both("trace_replayBlockTransactions", [`0x${n.toString(16)}`, ["trace"]])) as [J[], J[]];
      const located = ["blockHash", "blockNumber", "transactionHash", "transactionPosition"];
      const unlocated = (ba as J[]).map((t) => Object.fromEntries(Object.entries(t).filter(([k]) => !located.includes(k))));
      expect(
        ro.flatMap((r) => r.trace as J[]),
        `replay ${n}`,
      ).to.deep.equal(unlocated);
      expect(
        ro.map(({ trace: _t, ...rest }) => rest),
        `replay ${n}`,
      ).to.deep.equal(ra.map(({ trace: _t, ...rest }) => rest));
    }
    for (const f of [
      { fromBlock: "0x1", toBlock: "0x4" },
      { fromBlock: "0x1", toAddress: [o.child] },
      { fromAddress: [o.corpus], after: 1, count: 2 },
    ]) {
      const [fa, fo] = await both("trace_filter", [f]);
      expect(noHash(fo), JSON.stringify(f)).to.deep.equal(noHash(fa));
    }
  });

  it("stateDiff (trace_replayTransaction): balances, nonces, code and storage as Parity writes them", async () => {
    const r = await ours.request<{ output: string; trace: J[]; stateDiff: Record<string, J>; vmTrace: null }>("trace_replayTransaction", [o.txs.nested, ["trace", "stateDiff"]]);
    expect(r.output).to.equal(corpusIface.encodeFunctionResult("nested", [42]));
    expect(r.trace.map((t) => (t.action as J).callType)).to.deep.equal(["call", "call"]);
    const sender = r.stateDiff[o.from];
    expect(sender.nonce).to.deep.equal({ "*": { from: "0x1", to: "0x2" } });
    expect(sender.code).to.equal("=");
    // Child.x (slot 0) 0 → 21, Corpus.counter (slot 2) 0 → 1
    expect(r.stateDiff[o.child].storage).to.deep.equal({ [`0x${"0".repeat(64)}`]: { "*": { from: `0x${"0".repeat(64)}`, to: `0x${"0".repeat(62)}15` } } });
    expect((r.stateDiff[o.corpus].storage as J)[`0x${"0".repeat(63)}2`]).to.deep.equal({ "*": { from: `0x${"0".repeat(64)}`, to: `0x${"0".repeat(63)}1` } });
    const created = await ours.request<{ stateDiff: Record<string, J> }>("trace_replayTransaction", [o.deployTx, ["stateDiff"]]);
    expect(created.stateDiff[o.corpus].code)
      .to.have.property("+")
      .that.matches(/^0x6080/);
    expect(created.stateDiff[o.child].balance).to.deep.equal({ "+": "0x0" });
  });

  it("trace_call runs a call with the trace types; bad types are refused with -32602", async () => {
    const data = corpusIface.encodeFunctionData("nested", [5]);
    const r = await ours.request<{ output: string; trace: J[]; stateDiff: J }>("trace_call", [{ from: o.from, to: o.corpus, data }, ["trace", "stateDiff"], "latest"]);
    expect(r.output).to.equal(corpusIface.encodeFunctionResult("nested", [10]));
    expect(r.trace).to.have.length(2);
    expect((r.trace[1].action as J).to).to.equal(o.child);
    expect(Object.keys(r.stateDiff)).to.include(o.child);
    for (const types of [["nope"], "trace"]) {
      const e = await rpcError(ours.request("trace_replayTransaction", [o.txs.nested, types]));
      expect(e.code, JSON.stringify(types)).to.equal(-32602);
    }
    expect(await ours.request("trace_transaction", [`0x${"ab".repeat(32)}`])).to.equal(null);
  });

  it("vmTrace: each frame's code and operations with what they pushed, wrote to memory and stored, calls nested", async () => {
    interface Op {
      pc: number;
      cost: number;
      ex: { used: number; push: string[]; mem: { off: number; data: string } | null; store: { key: string; val: string } | null } | null;
      sub: { code: string; ops: Op[] } | null;
    }
    const r = await ours.request<{ vmTrace: { code: string; ops: Op[] } }>("trace_replayTransaction", [o.txs.nested, ["vmTrace"]]);
    const logs = (await ours.request<{ structLogs: Array<{ pc: number; op: string; depth: number; gas: number; gasCost: number }> }>("debug_traceTransaction", [o.txs.nested, { enableMemory: true }]))
      .structLogs;
    const top = r.vmTrace;
    expect(top.code).to.equal(await ours.request("eth_getCode", [o.corpus, "latest"]));
    const depth1 = logs.filter((l) => l.depth === 1);
    expect(top.ops.map((x) => x.pc)).to.deep.equal(depth1.map((l) => l.pc));
    expect(top.ops[0]).to.deep.include({ pc: 0, cost: 3 });
    expect(top.ops[0].ex).to.deep.equal({ used: depth1[1].gas, push: ["0x80"], mem: null, store: null });
    const mstore = top.ops.find((x, i) => depth1[i].op === "MSTORE") as Op;
    expect(mstore.ex?.mem?.data).to.match(/^0x[0-9a-f]{64}$/);
    const call = top.ops.find((x) => x.sub !== null) as Op;
    expect(call.sub?.code).to.equal(await ours.request("eth_getCode", [o.child, "latest"]));
    expect(call.sub?.ops).to.have.length(logs.filter((l) => l.depth === 2).length);
    expect(call.ex?.push).to.deep.equal(["0x1"]);
    const stored = call.sub?.ops.find((x) => x.ex?.store !== null);
    expect(stored?.ex?.store).to.deep.equal({ key: "0x0", val: "0x15" });
  });
});
