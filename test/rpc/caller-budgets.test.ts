/**
 * Every caller bounded (docs/security.md, "Bounded work"): a foreign page cannot hold subscriptions
 * or filters without bound, make the node queue answers for a socket that stopped reading, run a
 * batch past its time or answer budget, ask eth_feeHistory for unbounded percentiles, or build a
 * struct-log trace without bound. Over the real server, HTTP and WebSocket.
 */
import { expect } from "chai";
import WebSocket from "ws";
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from "../../src/rpc/filters/subscription-manager";
import { type Runtime, type RuntimeOptions, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { whilePinging } from "../helpers/pinger";
import { post as postTo } from "../helpers/json-rpc";

/** Longest another client may wait for eth_blockNumber meanwhile (a loaded CI machine included). */
const MAX_WAIT_MS = 1000;

const EVIL = "https://evil.example";
const LOOP = "0x000000000000000000000000000000000000100f";
const OVERRIDE = { [LOOP]: { code: "0x5b600056" } };

interface Answer {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
}

async function serve(opts: Partial<RuntimeOptions> = {}): Promise<{ runtime: Runtime; server: JsonRpcServer; url: string; wsUrl: string; log: string[] }> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const log: string[] = [];
  const server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, token: "budget-token", log: (line) => log.push(line) });
  const { httpAddress } = await server.listen();
  return { runtime, server, url: `http://127.0.0.1:${httpAddress.port}/`, wsUrl: `ws://127.0.0.1:${httpAddress.port}/`, log };
}

const post = async (url: string, body: unknown, origin?: string): Promise<Answer & Answer[]> => (await postTo<Answer & Answer[]>(url, body, origin === undefined ? {} : { origin })).json;

function openWs(url: string, origin = EVIL): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers: { origin } });
  return new Promise((resolve, reject) => ws.once("open", () => resolve(ws)).once("error", reject));
}

function wsBatch(ws: WebSocket, body: unknown[]): Promise<Answer[]> {
  return new Promise((resolve) => {
    ws.once("message", (m) => resolve(JSON.parse(String(m)) as Answer[]));
    ws.send(JSON.stringify(body));
  });
}

describe("every caller bounded", function () {
  this.timeout(120_000);

  it("subscriptions: at most 1,000 per WebSocket; closing it ends them all", async () => {
    const s = await serve();
    try {
      const ws = await openWs(s.wsUrl);
      // two batches (one may hold at most 1,000 requests)
      const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: from + i, method: "eth_subscribe", params: ["newHeads"] }));
      const answers = [...(await wsBatch(ws, batch(0, 600))), ...(await wsBatch(ws, batch(600, MAX_SUBSCRIPTIONS_PER_CONNECTION - 600 + 5)))];
      expect(answers.filter((a) => typeof a.result === "string")).to.have.length(MAX_SUBSCRIPTIONS_PER_CONNECTION);
      expect(answers[answers.length - 1].error).to.deep.equal({ code: -32000, message: "too many subscriptions on this connection: at most 1000 (unsubscribe some first)" });
      // every block now goes to 1,000 subscriptions: blocks are still made, and others answered, at once
      const { longestMs } = await whilePinging(s.url, async () => {
        for (let i = 0; i < 5; i++) expect((await post(s.url, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] })).result).to.equal("0x0");
      });
      expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
      // another connection still subscribes
      const other = await openWs(s.wsUrl, "http://localhost:3000");
      const [mine] = await wsBatch(other, [{ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }]);
      expect(mine.result).to.be.a("string");
      ws.close();
      other.close();
      const deadline = Date.now() + 5000;
      while ((await post(s.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).result === undefined || subscriptionCount(s.runtime) > 0) {
        if (Date.now() > deadline) throw new Error(`subscriptions left: ${subscriptionCount(s.runtime)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("filters: pages (every Origin together) hold at most half of filter-cap; the developer's own tools still get theirs", async () => {
    const s = await serve();
    try {
      const batch = (n: number) => Array.from({ length: n }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_newBlockFilter", params: [] }));
      const { result: first, longestMs } = await whilePinging(s.url, () => post(s.url, batch(150), EVIL));
      expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
      expect(first.filter((a) => typeof a.result === "string")).to.have.length(100);
      const refusal = { code: -32000, message: "error creating block filter: max limit reached for pages (callers with an Origin hold at most 100 together, half of filter-cap)" };
      expect(first[120].error).to.deep.equal(refusal);
      // a second site of the same attacker gets nothing more
      const second = await post(s.url, batch(10), "https://b.evil.example");
      expect(second.every((a) => a.error?.message === refusal.message)).to.equal(true);
      // a script on this machine (no Origin): the other half is its own
      const mine = await post(s.url, batch(100));
      expect(mine.filter((a) => typeof a.result === "string")).to.have.length(100);
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("subscriptions: pages (every Origin together) hold at most half of the node's; a tool without an Origin still subscribes", async () => {
    const s = await serve();
    const sockets: WebSocket[] = [];
    try {
      const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_subscribe", params: ["newHeads"] }));
      let held = 0;
      // six sockets of two sites ask for 1,000 each: 5,000 of the node's 10,000 are all pages get
      for (let i = 0; i < 6; i++) {
        const ws = await openWs(s.wsUrl, i % 2 === 0 ? EVIL : "https://b.evil.example");
        sockets.push(ws);
        const answers = [...(await wsBatch(ws, batch(500))), ...(await wsBatch(ws, batch(500)))];
        held += answers.filter((a) => typeof a.result === "string").length;
        if (i === 5) expect(answers[999].error).to.deep.equal({ code: -32000, message: "too many subscriptions of pages on this node: callers with an Origin hold at most 5000 together" });
      }
      expect(held).to.equal(5_000);
      const tool = new WebSocket(s.wsUrl);
      sockets.push(tool);
      await new Promise((resolve, reject) => tool.once("open", resolve).once("error", reject));
      const [mine] = await wsBatch(tool, batch(1));
      expect(mine.result).to.be.a("string");
      // a page's socket closed gives its share back
      sockets[0].close();
      const deadline = Date.now() + 5000;
      while (subscriptionCount(s.runtime) > 4_001) {
        if (Date.now() > deadline) throw new Error(`subscriptions left: ${subscriptionCount(s.runtime)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const again = await openWs(s.wsUrl);
      sockets.push(again);
      expect((await wsBatch(again, batch(1)))[0].result).to.be.a("string");
    } finally {
      for (const ws of sockets) ws.close();
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("a WebSocket that stopped reading is closed once its unsent answers pass the bound", async () => {
    const s = await serve();
    try {
      const ws = await openWs(s.wsUrl);
      // the client stops reading and asks, one after the other, for struct-log traces of a 1M-gas
      // loop (about 17 MB each): five pass the bound
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const before = process.memoryUsage().rss;
      const { longestMs } = await whilePinging(s.url, async () => {
        for (let id = 0; id < 8 && !s.log.some((l) => l.includes("stopped reading")); id++) {
          ws.send(JSON.stringify({ jsonrpc: "2.0", id, method: "debug_traceCall", params: [{ to: LOOP, gas: "0xf4240" }, "latest", { stateOverrides: OVERRIDE, timeout: "60s" }] }));
          await new Promise((r) => setTimeout(r, 1500));
        }
        const deadline = Date.now() + 60_000;
        while (!s.log.some((l) => /WebSocket peer stopped reading \(\d+ bytes queued\); closing it/.test(l))) {
          if (Date.now() > deadline) throw new Error(`the paused socket was not closed; log: ${s.log.join(" | ")}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      });
      expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
      // what the node held for it: the answers up to the bound and the traces' logs, not all it asked for
      expect(process.memoryUsage().rss - before, "what the node holds for it").to.be.lessThan(1536 * 1024 * 1024);
      // everyone else is answered
      expect((await post(s.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).result).to.equal("0x0");
      ws.terminate();
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("a batch stops at its time budget and its answer budget; the rest answer geth's errors", async () => {
    const s = await serve({ batch: { timeoutMs: 300, maxResponseBytes: 2_000 } });
    try {
      const calls = Array.from({ length: 4 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_call", params: [{ to: LOOP, gas: "0xffffff" }, "latest", OVERRIDE] }));
      const timed = await post(s.url, calls, EVIL);
      expect(timed[0].error?.message).to.equal("out of gas");
      expect(timed.slice(1).map((a) => a.error)).to.deep.equal([1, 2, 3].map(() => ({ code: -32002, message: "request timed out" })));
      const blocks = Array.from({ length: 10 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_getBlockByNumber", params: ["latest", true] }));
      const big = await post(s.url, blocks, EVIL);
      expect(big).to.have.length(10);
      expect(big.map((a) => a.id)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      const cut = big.findIndex((a) => a.error !== undefined);
      expect(cut).to.be.greaterThan(0);
      for (const a of big.slice(cut)) expect(a.error).to.deep.equal({ code: -32003, message: "response too large" });
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("eth_feeHistory takes at most 100 percentiles (geth's query limit)", async () => {
    const s = await serve();
    try {
      const pcts = Array.from({ length: 101 }, (_, i) => i / 2);
      const a = await call(s.url, "eth_feeHistory", ["0x1", "latest", pcts]);
      expect(a.error).to.deep.equal({ code: -32602, message: "invalid reward percentile: over the query limit 100" });
      expect((await call(s.url, "eth_feeHistory", ["0x1", "latest", pcts.slice(0, 100)])).result).to.have.property("reward");
      // the percentiles' own rules are the parameter's: out of range, not ascending
      expect((await call(s.url, "eth_feeHistory", ["0x1", "latest", [10, 101]])).error).to.deep.equal({
        code: -32602,
        message: "invalid argument 2: rewardPercentiles[1]: invalid reward percentile 101",
      });
      expect((await call(s.url, "eth_feeHistory", ["0x1", "latest", [50, 10]])).error).to.deep.equal({
        code: -32602,
        message: "invalid argument 2: reward percentiles must be ascending",
      });
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("a struct-log trace of a long call stops at its size bound instead of growing the node", async () => {
    const s = await serve();
    try {
      const before = process.memoryUsage().rss;
      const { result: a, longestMs } = await whilePinging(s.url, () => call(s.url, "debug_traceCall", [{ to: LOOP, gas: "0xffffff" }, "latest", { stateOverrides: OVERRIDE, timeout: "60s" }]));
      expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
      expect(a.error?.code).to.equal(-32000);
      expect(a.error?.message).to.match(/^trace too large: its struct logs passed 256 MiB/);
      // what is left after it is what any request may leave: well under a gigabyte
      expect(process.memoryUsage().rss - before).to.be.lessThan(1024 * 1024 * 1024);
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("a struct-log trace counts the storage copies it holds: a call reading 7,500 slots stops at the bound, the node serving meanwhile", async () => {
    const s = await serve();
    try {
      // 7,500 cold SLOADs (~16M gas): geth's struct logger copies every slot read so far into each
      // SLOAD's entry, ~28M slot copies in all; counted, the trace stops after ~1,600
      const reader = { [LOOP]: { code: "0x611d4c5b805450600190038060035700" } };
      const { result: a, longestMs } = await whilePinging(s.url, () => call(s.url, "debug_traceCall", [{ to: LOOP, gas: "0xffffff" }, "latest", { stateOverrides: reader, timeout: "60s" }]));
      expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
      expect(a.error?.message).to.match(/^trace too large: its struct logs passed 256 MiB/);
      // without the storage copies the same trace fits
      const b = await call(s.url, "debug_traceCall", [{ to: LOOP, gas: "0xffffff" }, "latest", { stateOverrides: reader, disableStorage: true, disableStack: true }]);
      expect((b.result as { structLogs: unknown[] }).structLogs.length).to.be.greaterThan(7_500 * 9);
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });

  it("debug_traceBlock* gives the request one budget, not one per transaction", async () => {
    const s = await serve();
    try {
      const priv = async (method: string, params: unknown[]) => (await post(s.url, { jsonrpc: "2.0", id: 1, method, params })).result;
      // each transaction reads 1,200 slots: ~144 MiB of storage copies, under the bound alone, over it together
      await priv("hardhat_setCode", [LOOP, "0x6104b05b805450600190038060035700"]);
      await priv("evm_setAutomine", [false]);
      const from = ((await priv("eth_accounts", [])) as string[])[0];
      for (let i = 0; i < 2; i++) await priv("eth_sendTransaction", [{ from, to: LOOP, gas: "0x400000" }]);
      await priv("evm_mine", []);
      const traces = (await call(s.url, "debug_traceBlockByNumber", ["latest", { timeout: "60s" }])).result as Array<{ result?: unknown; error?: string }>;
      expect(traces).to.have.length(2);
      expect(traces[0].result).to.have.property("structLogs");
      expect(traces[1].error).to.match(/^trace too large: its struct logs passed 256 MiB/);
    } finally {
      await s.server.close();
      await s.runtime.close();
    }
  });
});

const call = (url: string, method: string, params: unknown[]) => post(url, { jsonrpc: "2.0", id: 1, method, params }, EVIL);

function subscriptionCount(runtime: Runtime): number {
  return runtime.services.subscriptions.size;
}
