import { expect } from "chai";
import WebSocket from "ws";
import { Interface } from "ethers";
import { compile } from "../helpers/solc";
import { type Harness } from "../helpers/harness";
import { serveHttp } from "../helpers/http";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Emitter { event Ping(uint256 indexed n); function ping(uint256 n) external { emit Ping(n); } }`;

interface Client {
  ws: WebSocket;
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  notifications: Array<{ subscription: string; result: unknown }>;
  next(sub: string): Promise<unknown>;
}

async function connect(url: string): Promise<Client> {
  const ws = new WebSocket(url);
  await new Promise<void>((res, rej) => {
    ws.once("open", () => res());
    ws.once("error", rej);
  });
  const pending = new Map<number, { res: (v: unknown) => void; rej: (e: unknown) => void }>();
  const notifications: Client["notifications"] = [];
  const waiters: Array<{ sub: string; res: (v: unknown) => void }> = [];
  ws.on("message", (buf: Buffer) => {
    const m = JSON.parse(buf.toString()) as { id?: number; result?: unknown; error?: unknown; method?: string; params?: { subscription: string; result: unknown } };
    if (m.method === "eth_subscription" && m.params !== undefined) {
      notifications.push(m.params);
      const i = waiters.findIndex((w) => w.sub === m.params!.subscription);
      if (i >= 0) waiters.splice(i, 1)[0].res(m.params.result);
      return;
    }
    const p = pending.get(m.id as number);
    if (p === undefined) return;
    pending.delete(m.id as number);
    if (m.error !== undefined) p.rej(m.error);
    else p.res(m.result);
  });
  let id = 1;
  return {
    ws,
    notifications,
    call: <T>(method: string, params: unknown[] = []) =>
      new Promise<T>((res, rej) => {
        const n = id++;
        pending.set(n, { res: res as (v: unknown) => void, rej });
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }));
      }),
    next: (sub) => {
      const idx = notifications.findIndex((n) => n.subscription === sub);
      if (idx >= 0) return Promise.resolve(notifications.splice(idx, 1)[0].result);
      return new Promise((res) => waiters.push({ sub, res }));
    },
  };
}

describe("WebSocket subscriptions (http server)", function () {
  this.timeout(60_000);
  let h: Harness;
  let c: Client;
  let from: string;
  let emitter: string;
  const em = compile(SOURCE).Emitter;
  const iface = new Interface(em.abi as never);

  before(async () => {
    h = await serveHttp();
    c = await connect(h.url!.replace("http", "ws"));
    from = (await h.request<string[]>("eth_accounts"))[0];
    const hash = await h.request<string>("eth_sendTransaction", [{ from, data: em.bytecode }]);
    emitter = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
  });
  after(async () => {
    c.ws.close();
    await h.close();
  });

  it("newHeads delivers the real header: its hash is eth_getBlockByNumber's", async () => {
    const sub = await c.call<string>("eth_subscribe", ["newHeads"]);
    await h.request("evm_mine");
    const head = (await c.next(sub)) as { hash: string; number: string; parentHash: string };
    const block = await h.request<{ hash: string; parentHash: string }>("eth_getBlockByNumber", [head.number, false]);
    expect(head.hash).to.equal(block.hash);
    expect(head.parentHash).to.equal(block.parentHash);
    // the header is the block object without its body fields, in the same key order
    const fields = Object.fromEntries(Object.entries(block).filter(([k]) => !["transactions", "uncles", "size", "totalDifficulty", "withdrawals"].includes(k)));
    expect(JSON.stringify(head)).to.equal(JSON.stringify(fields));
    expect(await c.call("eth_unsubscribe", [sub])).to.equal(true);
    expect(await c.call("eth_unsubscribe", [sub])).to.equal(false);
  });

  it("newHeads with includeTransactions adds full transaction objects", async () => {
    const sub = await c.call<string>("eth_subscribe", ["newHeads", { includeTransactions: true }]);
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to: from, value: "0x1" }]);
    const head = (await c.next(sub)) as { transactions: Array<{ hash: string; from: string }> };
    expect(head.transactions.map((t) => t.hash)).to.deep.equal([hash]);
    await c.call("eth_unsubscribe", [sub]);
  });

  it("logs delivers one matching log per notification", async () => {
    const sub = await c.call<string>("eth_subscribe", ["logs", { address: emitter, topics: [iface.getEvent("Ping")!.topicHash, "0x" + "00".repeat(31) + "05"] }]);
    await h.request("eth_sendTransaction", [{ from, to: emitter, data: iface.encodeFunctionData("ping", [4]) }]);
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to: emitter, data: iface.encodeFunctionData("ping", [5]) }]);
    const log = (await c.next(sub)) as { transactionHash: string; removed: boolean };
    expect(log.transactionHash).to.equal(hash);
    expect(log.removed).to.equal(false);
    expect(c.notifications.filter((n) => n.subscription === sub)).to.have.length(0);
    await c.call("eth_unsubscribe", [sub]);
  });

  it("newPendingTransactions fires when a transaction enters the pool", async () => {
    const sub = await c.call<string>("eth_subscribe", ["newPendingTransactions"]);
    await h.request("evm_setAutomine", [false]);
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to: from, value: "0x1" }]);
    expect(await c.next(sub)).to.equal(hash);
    expect(await h.request("eth_getTransactionReceipt", [hash])).to.equal(null);
    await h.request("evm_setAutomine", [true]);
    await h.request("evm_mine");
    await c.call("eth_unsubscribe", [sub]);
  });

  it("accepts syncing, which never fires on a dev node that is always in sync", async () => {
    const sub = await c.call<string>("eth_subscribe", ["syncing"]);
    expect(sub).to.match(/^0x[0-9a-f]{32}$/);
    await h.request("evm_mine");
    await new Promise((r) => setTimeout(r, 50));
    expect(c.notifications.filter((n) => n.subscription === sub)).to.deep.equal([]);
    expect(await c.call("eth_unsubscribe", [sub])).to.equal(true);
  });

  it("refuses an unknown subscription name", async () => {
    const err = (await c.call("eth_subscribe", ["nope"]).catch((e: unknown) => e)) as { code: number; message: string };
    expect(err.code).to.equal(-32602);
    expect(err.message).to.match(/no "nope" subscription/);
  });

  it("ends a connection's subscriptions when its socket closes", async () => {
    const other = await connect(h.url!.replace("http", "ws"));
    await other.call("eth_subscribe", ["newHeads"]);
    await other.call("eth_subscribe", ["logs", {}]);
    const subs = h.runtime.services.subscriptions;
    const before = subs.size;
    other.ws.close();
    for (let i = 0; i < 50 && subs.size > before - 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(subs.size).to.equal(before - 2);
  });
});
