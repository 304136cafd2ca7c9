/**
 * Bounded load (loopback only, stops by itself): 32 HTTP clients reading while 16 WebSocket clients
 * subscribed to newHeads watch transactions being mined. No errors, no missed notifications, and
 * memory that does not grow without bound. Prints its figures (for the issue note).
 */
import { expect } from "chai";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import WebSocket from "ws";
import { type Harness } from "../helpers/harness";
import { serveHttp } from "../helpers/http";

/** Bytes of live heap after a full collection (the gc function enabled for this check). */
function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}

const HTTP_CLIENTS = 32;
const WS_CLIENTS = 16;
const TXS = Number(process.env.LOAD_TXS ?? 300);

describe("load: 32 HTTP clients and 16 newHeads subscribers while mining", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await serveHttp();
  });
  after(() => h.close());

  it("serves every request and delivers every head to every subscriber", async () => {
    const accounts = await h.request<string[]>("eth_accounts");
    const startHead = BigInt(await h.request<string>("eth_blockNumber"));
    const sockets = await Promise.all(
      Array.from({ length: WS_CLIENTS }, async () => {
        const ws = new WebSocket(h.url!.replace("http", "ws"));
        await new Promise<void>((res, rej) => {
          ws.once("open", () => res());
          ws.once("error", rej);
        });
        const heads: bigint[] = [];
        let subId = "";
        ws.on("message", (buf: Buffer) => {
          const m = JSON.parse(buf.toString()) as { id?: number; result?: string; params?: { subscription: string; result: { number: string } } };
          if (m.id === 1 && typeof m.result === "string") subId = m.result;
          else if (m.params?.subscription === subId) heads.push(BigInt(m.params.result.number));
        });
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
        for (let i = 0; i < 100 && subId === ""; i++) await new Promise((r) => setTimeout(r, 10));
        return { ws, heads };
      }),
    );
    const rssStart = process.memoryUsage().rss;
    const heapStart = heapAfterGc();
    let done = false;
    let reads = 0;
    let errors = 0;
    const readers = Array.from({ length: HTTP_CLIENTS }, async (_, i) => {
      const methods = [
        ["eth_blockNumber", []],
        ["eth_getBalance", [accounts[i % 20], "latest"]],
        ["eth_getBlockByNumber", ["latest", false]],
      ] as const;
      while (!done) {
        const [m, p] = methods[reads % methods.length];
        try {
          await h.request(m, [...p]);
          reads++;
        } catch {
          errors++;
        }
      }
    });
    const t0 = performance.now();
    for (let i = 0; i < TXS; i++) await h.request("eth_sendTransaction", [{ from: accounts[i % 10], to: accounts[(i + 1) % 10], value: "0x1" }]);
    const mineMs = performance.now() - t0;
    const endHead = BigInt(await h.request<string>("eth_blockNumber"));
    for (let i = 0; i < 200 && sockets.some((s) => s.heads.length < Number(endHead - startHead)); i++) await new Promise((r) => setTimeout(r, 25));
    done = true;
    await Promise.all(readers);
    const rssEnd = process.memoryUsage().rss;
    const heapEnd = heapAfterGc();
    for (const s of sockets) s.ws.close();

    const expected = Array.from({ length: Number(endHead - startHead) }, (_, i) => startHead + 1n + BigInt(i));
    for (const s of sockets) expect(s.heads).to.deep.equal(expected);
    expect(errors).to.equal(0);
    expect(endHead - startHead).to.equal(BigInt(TXS));
    console.log(
      `      load: ${TXS} txs mined in ${mineMs.toFixed(0)} ms (${((TXS / mineMs) * 1000).toFixed(0)} tx/s) with ${HTTP_CLIENTS} HTTP readers ` +
        `(${reads} reads, ${((reads / mineMs) * 1000).toFixed(0)} req/s) and ${WS_CLIENTS} subscribers (${WS_CLIENTS * TXS} notifications, none missed); ` +
        `RSS ${(rssStart / 2 ** 20).toFixed(0)} → ${(rssEnd / 2 ** 20).toFixed(0)} MB, live heap after GC ${(heapStart / 2 ** 20).toFixed(1)} → ${(heapEnd / 2 ** 20).toFixed(1)} MB`,
    );
    // What the run keeps: the in-memory chain grows by a few KB a block (block, receipts, trie
    // nodes); requests, notifications and closed subscriptions must leave nothing behind. 300 blocks
    // in 32 MiB is ~100 KB a block, far above what a block holds and far below a leak per request.
    expect(heapEnd - heapStart).to.be.lessThan(32 * 2 ** 20);
  });
});
