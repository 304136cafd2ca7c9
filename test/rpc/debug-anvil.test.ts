/**
 * Differential test against Anvil (Foundry's dev node, `@foundry-rs/anvil`, whose npm package ships
 * the binary): the same transactions on both chains, traced by callTracer, prestateTracer (and
 * diffMode) and the struct logger, compared field by field.
 *
 * Deliberate differences (we follow geth where Anvil does not):
 * - callTracer top frame `gas`: geth answers the transaction's gas limit (OnTxStart's tx.Gas());
 *   Anvil answers the gas left after the intrinsic cost. Compared after removing it.
 * - callTracer logs: Anvil adds `index` (the log's index in the block); geth's callLog has
 *   address, topics, data, position only. Removed from Anvil's before comparing.
 * - prestateTracer: geth drops from `pre` the contracts the transaction created that did not exist
 *   before (OnTxEnd: "the new created contracts' prestate were empty, so delete them"); Anvil keeps
 *   them (balance 0x0, the slots their constructor wrote as zero). Compared without them.
 * - struct logger `gasCost` of CREATE/CREATE2: geth counts the opcode's own cost (32000, memory,
 *   init code words); Anvil adds the gas handed to the init code. Compared without it.
 * - struct logger `returnValue` and `memory` words: geth prints them without 0x
 *   (`fmt.Sprintf("%x")`); Anvil with 0x.
 * - struct logger: geth (and we) omit `refund` when zero and `storage` except on SLOAD/SSTORE;
 *   entries are compared on pc, op, gas, gasCost, depth, stack, memory and storage.
 * Both chains run Prague with the same accounts, gas limit, base fees and an explicit gas price, so
 * balances (and so prestates) agree too; the coinbase is set on Anvil to ours. (Our first block's
 * base fee is 7/8 of the genesis 1 gwei, by EIP-1559 over an empty genesis; Anvil's first block
 * keeps its configured base fee, so Anvil starts at 0.875 gwei.)
 */
import { expect } from "chai";
import { anvilBinary, corpusOnBoth, txHash, txNames } from "../helpers/anvil";
import { requireTool } from "../helpers/tools";
import type { Harness } from "../helpers/harness";
import type { Deployed } from "../helpers/trace-corpus";

interface Frame {
  type: string;
  to?: string;
  calls?: Frame[];
}
type Prestate = { [address: string]: Json };

/** Addresses the transaction created (CREATE/CREATE2 frames that succeeded). */
function createdBy(f: Frame, out: string[] = []): string[] {
  if ((f.type === "CREATE" || f.type === "CREATE2") && f.to !== undefined) out.push(f.to);
  for (const c of f.calls ?? []) createdBy(c, out);
  return out;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Drops Anvil's extra `index` on callTracer logs, recursively. */
function stripLogIndex(frame: Json): Json {
  if (frame === null || typeof frame !== "object" || Array.isArray(frame)) return frame;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(frame)) {
    if (k === "logs" && Array.isArray(v)) out[k] = v.map((l) => Object.fromEntries(Object.entries(l as { [k: string]: Json }).filter(([lk]) => lk !== "index")));
    else if (k === "calls" && Array.isArray(v)) out[k] = v.map(stripLogIndex);
    else out[k] = v;
  }
  return out;
}

describe("debug tracers against Anvil (differential)", function () {
  this.timeout(180_000);
  const bin = anvilBinary();
  let anvil: Harness;
  let ours: Harness;
  let a: Deployed;
  let o: Deployed;
  const GAS_PRICE = "0x77359400"; // 2 gwei, above both chains' base fee

  before(async function () {
    requireTool(this, "Anvil", bin === undefined ? "npm installed no @foundry-rs/anvil binary for this platform" : undefined, "npm ci installs it from @foundry-rs/anvil's platform package");
    ({ anvil, ours, a, o } = await corpusOnBoth(bin as string, GAS_PRICE));
  });
  after(async () => {
    await anvil?.close();
    await ours?.close();
  });

  it("deploys the corpus at the same addresses with the same receipts", async () => {
    expect(o.corpus).to.equal(a.corpus);
    expect(o.child).to.equal(a.child);
    for (const k of txNames(o)) {
      const [ra, ro] = await Promise.all([
        anvil.request<{ status: string; gasUsed: string }>("eth_getTransactionReceipt", [txHash(a, k)]),
        ours.request<{ status: string; gasUsed: string }>("eth_getTransactionReceipt", [txHash(o, k)]),
      ]);
      expect([ro.status, ro.gasUsed], k).to.deep.equal([ra.status, ra.gasUsed]);
    }
  });

  it("callTracer (withLog) equals Anvil's on every transaction, but the listed differences", async () => {
    for (const k of txNames(o)) {
      const cfg = { tracer: "callTracer", tracerConfig: { withLog: true } };
      const ta = stripLogIndex(await anvil.request<Json>("debug_traceTransaction", [txHash(a, k), cfg])) as { [k: string]: Json };
      const to = (await ours.request<Json>("debug_traceTransaction", [txHash(o, k), cfg])) as { [k: string]: Json };
      expect(to.gas, k).to.equal("0x2dc6c0");
      delete ta.gas;
      delete to.gas;
      expect(to, k).to.deep.equal(ta);
    }
  });

  it("prestateTracer, plain and diffMode, equals Anvil's on every transaction, but the listed differences", async () => {
    for (const k of txNames(o)) {
      const created = createdBy(await ours.request<Frame>("debug_traceTransaction", [txHash(o, k), { tracer: "callTracer" }]));
      for (const tracerConfig of [{}, { diffMode: true }]) {
        const cfg = { tracer: "prestateTracer", tracerConfig };
        const [ta, to] = await Promise.all([anvil.request<Prestate>("debug_traceTransaction", [txHash(a, k), cfg]), ours.request<Prestate>("debug_traceTransaction", [txHash(o, k), cfg])]);
        const preA = (tracerConfig.diffMode === true ? ta.pre : ta) as Prestate;
        const preO = (tracerConfig.diffMode === true ? to.pre : to) as Prestate;
        for (const c of created) {
          expect(preO, `${k}: geth leaves created ${c} out of pre`).to.not.have.property(c);
          delete preA[c];
        }
        expect(to, `${k} ${JSON.stringify(tracerConfig)}`).to.deep.equal(ta);
      }
    }
  });

  it("the struct logger equals Anvil's entry by entry (pc, op, gas, gasCost, depth, stack, memory, storage)", async () => {
    for (const k of txNames(o)) {
      const cfg = { enableMemory: true };
      const [ta, to] = await Promise.all([
        anvil.request<{ gas: number; failed: boolean; returnValue: string; structLogs: Array<{ [k: string]: Json }> }>("debug_traceTransaction", [txHash(a, k), cfg]),
        ours.request<{ gas: number; failed: boolean; returnValue: string; structLogs: Array<{ [k: string]: Json }> }>("debug_traceTransaction", [txHash(o, k), cfg]),
      ]);
      expect([to.gas, to.failed], k).to.deep.equal([ta.gas, ta.failed]);
      expect(`0x${to.returnValue}`, k).to.equal(ta.returnValue === "" ? "0x" : ta.returnValue);
      expect(to.structLogs.length, k).to.equal(ta.structLogs.length);
      const bare = (w: Json) => (typeof w === "string" && w.startsWith("0x") ? w.slice(2) : w);
      const pick = (l: { [k: string]: Json }) => ({
        pc: l.pc,
        op: l.op,
        gas: l.gas,
        gasCost: l.op === "CREATE" || l.op === "CREATE2" ? null : l.gasCost,
        depth: l.depth,
        stack: l.stack,
        memory: ((l.memory ?? []) as Json[]).map(bare),
        storage: l.storage === undefined || l.storage === null ? null : Object.fromEntries(Object.entries(l.storage as { [k: string]: Json }).map(([sk, sv]) => [bare(sk), bare(sv)])),
      });
      const [jo, ja] = [to.structLogs.map((l) => JSON.stringify(pick(l))), ta.structLogs.map((l) => JSON.stringify(pick(l)))];
      const first = jo.findIndex((l, i) => l !== ja[i]);
      if (first >= 0) expect(JSON.parse(jo[first]), `${k} step ${first}`).to.deep.equal(JSON.parse(ja[first]));
    }
  });
});
