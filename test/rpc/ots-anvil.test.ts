/**
 * Otterscan's API against Anvil's (differential): the trace corpus (test/helpers/trace-corpus.ts) sent
 * to both chains with the same keys, gas and prices, so transactions, receipts and addresses are the
 * same; then every ots_* call Otterscan makes, and its connection probe, compared.
 *
 * Deliberate differences (Otterscan's own definition where Anvil departs from it):
 * - ots_getInternalOperations lists operations below the top call (Otterscan's docs: "internal"
 *   transfers; Erigon's tracer records entered frames only); Anvil adds the top call's value
 *   transfer or create. Compared without Anvil's depth-0 entry.
 * - ots_traceTransaction: Anvil leaves out CREATE, CREATE2 and SELFDESTRUCT frames (a deployment
 *   answers []); we list them, as Erigon's tracer does. Compared without them.
 * - ots_getBlockTransactions' fullblock.transactionCount: the block's count (Erigon); Anvil gives
 *   the page's. Compared without it.
 * - Block hashes, state roots, timestamps differ between the chains (different clocks and genesis):
 *   blocks are compared on their keys and on the fields history fixes.
 * - Transactions and logs: Anvil adds `blockTimestamp` (geth 1.16's field); receipts: Anvil adds
 *   `blobGasPrice`. Removed before comparing.
 * - ots_searchTransactionsAfter: we list newest first inside a block too (Otterscan's order);
 *   Anvil keeps a block's transactions in block order. Compared as sets of hashes per page.
 * - The end flags (lastPage going back, firstPage going forward): we look whether more entries
 *   follow; Anvil says "not the end" whenever the page is full, so an exactly full last page gets a
 *   next-page link that leads nowhere. Compared with that case allowed.
 */
import { expect } from "chai";
import { anvilBinary, corpusOnBoth, txHash, txNames } from "../helpers/anvil";
import { requireTool } from "../helpers/tools";
import type { Harness } from "../helpers/harness";
import type { Deployed } from "../helpers/trace-corpus";

type J = Record<string, unknown>;
const GAS_PRICE = "0x77359400";

function strip(o: unknown, keys: string[]): unknown {
  if (Array.isArray(o)) return o.map((x) => strip(x, keys));
  if (o === null || typeof o !== "object") return o;
  return Object.fromEntries(
    Object.entries(o as J)
      .filter(([k]) => !keys.includes(k))
      .map(([k, v]) => [k, strip(v, keys)]),
  );
}

/** The fields of a block that the same history fixes on both chains. */
function blockFacts(b: J): J {
  return { keys: Object.keys(b).sort(), number: b.number, gasUsed: b.gasUsed, gasLimit: b.gasLimit, transactions: b.transactions, transactionCount: b.transactionCount, miner: b.miner };
}

describe("Otterscan's API against Anvil (differential)", function () {
  this.timeout(180_000);
  const bin = anvilBinary();
  let anvil: Harness;
  let ours: Harness;
  let a: Deployed;
  let o: Deployed;
  let multiBlock: number;

  /** Three transfers from the second account in one block. */
  const threeInABlock = async (h: Harness): Promise<{ hashes: string[]; block: number }> => {
    const [, from, to] = await h.request<string[]>("eth_accounts");
    await h.request("evm_setAutomine", [false]);
    const hashes: string[] = [];
    for (let i = 1; i <= 3; i++) hashes.push(await h.request<string>("eth_sendTransaction", [{ from, to, value: `0x${i}`, gas: "0x5208", gasPrice: GAS_PRICE }]));
    await h.request("evm_mine");
    await h.request("evm_setAutomine", [true]);
    return { hashes, block: Number(await h.request<string>("eth_blockNumber")) };
  };

  before(async function () {
    requireTool(this, "Anvil", bin === undefined ? "npm installed no @foundry-rs/anvil binary for this platform" : undefined, "npm ci installs it from @foundry-rs/anvil's platform package");
    ({ anvil, ours, a, o } = await corpusOnBoth(bin as string, GAS_PRICE));
    const [ma, mo] = [await threeInABlock(anvil), await threeInABlock(ours)];
    expect(mo.hashes).to.deep.equal(ma.hashes);
    expect(mo.block).to.equal(ma.block);
    multiBlock = mo.block;
  });
  after(async () => {
    await anvil?.close();
    await ours?.close();
  });

  const both = async (method: string, params: unknown[]): Promise<[unknown, unknown]> => [await anvil.request(method, params), await ours.request(method, params)];

  it("sends the same transactions on both chains", () => {
    expect(o.corpus).to.equal(a.corpus);
    for (const k of txNames(o)) expect(txHash(o, k), k).to.equal(txHash(a, k));
  });

  it("answers Otterscan's connection probe as Anvil does", async () => {
    const [la, lo] = await both("ots_getApiLevel", []);
    expect(lo).to.equal(la).and.to.equal(8);
    const [ha, ho] = (await both("erigon_getHeaderByNumber", ["latest"])) as [J, J];
    expect(blockFacts(ho)).to.deep.equal(blockFacts(ha));
    expect(await ours.request("ots_getHeaderByNumber", ["latest"])).to.deep.equal(ho);
    const [ca, co] = await both("eth_chainId", []);
    expect(co).to.equal(ca);
    expect(await ours.request("erigon_getHeaderByNumber", [9999])).to.equal(null);
  });

  it("ots_getBlockDetails / ByHash: the block without transactions, its count, issuance and fees", async () => {
    for (let n = 1; n <= multiBlock; n++) {
      const [da, dob] = (await both("ots_getBlockDetails", [n])) as [J, J];
      expect(blockFacts(dob.block as J), `block ${n}`).to.deep.equal(blockFacts(da.block as J));
      expect([dob.issuance, dob.totalFees], `block ${n}`).to.deep.equal([da.issuance, da.totalFees]);
      expect(await ours.request("ots_getBlockDetailsByHash", [(dob.block as J).hash])).to.deep.equal(dob);
    }
  });

  it("ots_getBlockTransactions pages a block's transactions with their receipts", async () => {
    for (const [page, size] of [
      [0, 2],
      [1, 2],
      [0, 5],
      [3, 2],
    ]) {
      const [ta, to] = (await both("ots_getBlockTransactions", [multiBlock, page, size])) as [J, J];
      const fa = ta.fullblock as J;
      const fo = to.fullblock as J;
      expect(strip(fo.transactions, ["blockTimestamp", "blockHash"]), `page ${page}/${size}`).to.deep.equal(strip(fa.transactions, ["blockTimestamp", "blockHash"]));
      expect(fo.transactionCount).to.equal(3);
      const skip = ["blobGasPrice", "blockHash", "timestamp", "blockTimestamp"];
      expect(strip(to.receipts, skip), `page ${page}/${size}`).to.deep.equal(strip(ta.receipts, skip));
      for (const r of to.receipts as J[]) expect(r.timestamp).to.equal(fo.timestamp);
    }
  });

  it("ots_traceTransaction, ots_getInternalOperations and ots_getTransactionError equal Anvil's on every transaction, but the listed differences", async () => {
    for (const k of txNames(o)) {
      const h = txHash(o, k);
      const [ta, to] = (await both("ots_traceTransaction", [h])) as [J[], J[]];
      expect(
        to.filter((f) => !["CREATE", "CREATE2", "SELFDESTRUCT"].includes(f.type as string)),
        `trace ${k}`,
      ).to.deep.equal(ta);
      const [ia, io] = (await both("ots_getInternalOperations", [h])) as [J[], J[]];
      const topOf = ta[0] ?? { from: o.from };
      expect(io, `internal ${k}`).to.deep.equal(ia.filter((op) => !(op.from === topOf.from && (op.type === 2 || op.to === topOf.to))));
      const [ea, eo] = await both("ots_getTransactionError", [h]);
      expect(eo, `error ${k}`).to.equal(ea);
    }
    expect((await ours.request<J[]>("ots_getInternalOperations", [o.txs.selfdestructNew])).map((op) => op.type)).to.include.members([2, 1]);
    expect(await ours.request("ots_getTransactionError", [o.txs.failCustom])).to.match(/^0x[0-9a-f]{8}0+7$/);
  });

  it("ots_getTransactionBySenderAndNonce, ots_getContractCreator and ots_hasCode", async () => {
    for (const nonce of [0, 3, 7, 999]) {
      const [sa, so] = await both("ots_getTransactionBySenderAndNonce", [o.from, nonce]);
      expect(so, `nonce ${nonce}`).to.equal(sa);
    }
    for (const addr of [o.corpus, o.child, o.from, "0x" + "11".repeat(20)]) {
      const [ca, co] = await both("ots_getContractCreator", [addr]);
      expect(co, addr).to.deep.equal(ca);
      const [ha, ho] = await both("ots_hasCode", [addr, "latest"]);
      expect(ho, addr).to.equal(ha);
    }
    expect(await ours.request("ots_getContractCreator", [o.child])).to.deep.equal({ hash: o.deployTx, creator: o.corpus });
  });

  it("ots_searchTransactionsBefore/After: the same pages (whole blocks), flags and receipts", async () => {
    const [, second, third] = await ours.request<string[]>("eth_accounts");
    const pageSet = (p: J) => ({
      txs: (p.txs as J[]).map((t) => t.hash).sort(),
      receipts: (strip(p.receipts, ["blobGasPrice", "blockHash", "timestamp", "blockTimestamp"]) as J[]).sort((x, y) => String(x.transactionHash).localeCompare(String(y.transactionHash))),
      firstPage: p.firstPage,
      lastPage: p.lastPage,
    });
    for (const addr of [o.from, o.corpus, o.child, second, third, "0x" + "22".repeat(20)]) {
      for (const [method, from, size] of [
        ["ots_searchTransactionsBefore", 0, 3],
        ["ots_searchTransactionsBefore", multiBlock, 2],
        ["ots_searchTransactionsAfter", 0, 3],
        ["ots_searchTransactionsAfter", 2, 25],
      ] as const) {
        const [pa, po] = (await both(method, [addr, from, size])) as [J, J];
        const diffs: string[] = [];
        const walk = (x: unknown, y: unknown, path: string) => {
          if (typeof x === "object" && x !== null && typeof y === "object" && y !== null) {
            for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk((x as J)[k], (y as J)[k], `${path}.${k}`);
          } else if (x !== y) diffs.push(`${path}: ${JSON.stringify(x)?.slice(0, 80)} vs ${JSON.stringify(y)?.slice(0, 80)}`);
        };
        // a page that is exactly full: Anvil cannot tell whether more follow and says "not the end"
        const full = (po.txs as J[]).length >= size;
        const flag = method.endsWith("Before") ? "lastPage" : "firstPage";
        if (full && po[flag] === true && pa[flag] === false) pa[flag] = true;
        walk(pageSet(po), pageSet(pa), "");
        expect(diffs, `${method}(${addr}, ${from}, ${size})`).to.deep.equal([]);
        const blocks = (po.txs as J[]).map((t) => Number(t.blockNumber));
        expect(blocks, "newest first").to.deep.equal([...blocks].sort((x, y) => y - x));
      }
    }
    // the child is found through the calls inside the corpus's transactions (an index, not only senders and recipients)
    const childTxs = (await ours.request<J>("ots_searchTransactionsBefore", [o.child, 0, 50])).txs as J[];
    expect(childTxs.map((t) => t.hash)).to.include(o.txs.nested);
  });
});
