import { expect } from "chai";
import type WebSocket from "ws";
import { type Started, TOKEN, rpc, sleep, start, wsCall, wsClosed, wsNext, wsOpen } from "./helpers";

describe("transport: WebSocket JSON-RPC", function () {
  this.timeout(20_000);
  let s: Started;
  const open: WebSocket[] = [];
  const connect = async (url: string, headers: Record<string, string> = {}) => {
    const ws = await wsOpen(url, { headers });
    open.push(ws);
    return ws;
  };

  before(async () => {
    s = await start({ token: TOKEN, bodyLimit: 1024, batchLimit: 5, ws: { host: "127.0.0.1", port: 0 } });
  });
  afterEach(() => {
    for (const ws of open.splice(0)) ws.terminate();
  });
  after(() => s.server.close());

  it("serves WebSocket on the HTTP port and on the separate ws listener", async () => {
    for (const url of [s.url.replace("http", "ws"), s.wsUrl as string]) {
      const ws = await connect(url);
      const out = (await wsCall(ws, { jsonrpc: "2.0", id: 1, method: "ctx" })) as { result: { transport: string; connection: number } };
      expect(out.result.transport).to.equal("ws");
      expect(out.result.connection).to.be.a("number");
      expect(await wsCall(ws, [{ jsonrpc: "2.0", id: 1, method: "echo", params: [1] }, null])).to.deep.equal([
        { jsonrpc: "2.0", id: 1, result: [1] },
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } },
      ]);
    }
    expect(s.logs.join("\n")).not.to.include("WARNING"); // loopback: no warning
  });

  it("answers plain HTTP on the ws-only listener with 400", async () => {
    const res = await fetch((s.wsUrl as string).replace("ws", "http"), { method: "POST", body: "{}" });
    expect(res.status).to.equal(400);
  });

  it("answers malformed JSON and binary frames with -32700, oversize and bad batches with -32600, and stays open", async () => {
    const ws = await connect(s.wsUrl as string);
    expect(await wsCall(ws, "{bad")).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    const bin = (await wsCall(ws, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" }), true)) as { error: { code: number } };
    expect(bin.error.code).to.equal(-32700);
    expect(await wsCall(ws, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: ["x".repeat(1500)] }))).to.deep.equal({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "request too large: over 1024 bytes" },
    });
    expect(await wsCall(ws, "[]")).to.deep.include({ error: { code: -32600, message: "empty batch" } });
    const six = Array.from({ length: 6 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "echo" }));
    expect(await wsCall(ws, six)).to.deep.include({ error: { code: -32600, message: "batch too large: 6 requests, the limit is 5" } });
    expect(await wsCall(ws, { jsonrpc: "2.0", id: 2, method: "bigint" })).to.deep.include({ error: { code: -32603, message: "internal error: the result could not be encoded as JSON" } });
    expect(await wsCall(ws, { jsonrpc: "2.0", id: 3, method: "throw" })).to.deep.include({ error: { code: -32603, message: "internal error" } });
    expect(await wsCall(ws, { jsonrpc: "2.0", id: 4, method: "echo" })).to.deep.equal({ jsonrpc: "2.0", id: 4, result: [] });
  });

  it("closes a socket whose message is far over the limit (1009), other sockets unaffected", async () => {
    const ws = await connect(s.wsUrl as string);
    const other = await connect(s.wsUrl as string);
    const closed = wsClosed(ws);
    ws.send("x".repeat(3000));
    expect(await closed).to.equal(1009);
    expect(await wsCall(other, { jsonrpc: "2.0", id: 1, method: "echo" })).to.deep.include({ result: [] });
  });

  it("delivers each subscription's notifications to its own connection and fires onClose", async () => {
    const a = await connect(s.wsUrl as string);
    const b = await connect(s.url.replace("http", "ws"));
    const subA = ((await wsCall(a, { jsonrpc: "2.0", id: 1, method: "subscribe" })) as { result: string }).result;
    const subB = ((await wsCall(b, { jsonrpc: "2.0", id: 1, method: "subscribe" })) as { result: string }).result;
    const [na, nb] = [wsNext(a), wsNext(b)];
    expect((await rpc(s.url, { jsonrpc: "2.0", id: 1, method: "emit", params: ["hello"] })).json).to.deep.include({ result: 2 });
    expect(await na).to.deep.equal({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: subA, result: "hello" } });
    expect(await nb).to.deep.equal({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: subB, result: "hello" } });
    const idA = s.dispatcher.subscriptions.get(subA)?.id as number;
    a.close();
    await wsClosed(a);
    await sleep(50);
    expect(s.dispatcher.closed).to.include(idA);
    expect([...s.dispatcher.subscriptions.keys()]).to.deep.equal([subB]);
    // a notification for a closed connection is dropped quietly
    expect((await rpc(s.url, { jsonrpc: "2.0", id: 2, method: "emit", params: ["again"] })).json).to.deep.include({ result: 1 });
  });

  it("refuses subscriptions over HTTP (the dispatcher sees no connection)", async () => {
    expect((await rpc(s.url, { jsonrpc: "2.0", id: 1, method: "subscribe" })).json).to.deep.include({ error: { code: -32000, message: "notifications not supported" } });
  });

  it("authenticates a connection by the bearer token on its upgrade request", async () => {
    for (const url of [s.wsUrl as string, s.url.replace("http", "ws")]) {
      const authed = await connect(url, { authorization: `Bearer ${TOKEN}` });
      expect(await wsCall(authed, { jsonrpc: "2.0", id: 1, method: "private" })).to.deep.equal({ jsonrpc: "2.0", id: 1, result: true });
      const wrong = await connect(url, { authorization: "Bearer nope" });
      expect(await wsCall(wrong, { jsonrpc: "2.0", id: 1, method: "private" })).to.deep.include({ error: { code: 4100, message: "unauthorized: private needs the bearer token" } });
      const none = await connect(url);
      expect(((await wsCall(none, { jsonrpc: "2.0", id: 1, method: "ctx" })) as { result: { authenticated: boolean } }).result.authenticated).to.equal(false);
    }
  });
});

describe("transport: WebSocket keep-alive", function () {
  this.timeout(20_000);
  let s: Started;
  before(async () => {
    s = await start({ wsPingIntervalMs: 60 });
  });
  after(() => s.server.close());

  it("pings: a peer that answers stays, a peer that does not is dropped", async () => {
    const live = await wsOpen(s.url.replace("http", "ws"));
    const mute = await wsOpen(s.url.replace("http", "ws"), { autoPong: false });
    const muteClosed = wsClosed(mute);
    let pings = 0;
    live.on("ping", () => pings++);
    await muteClosed;
    await sleep(150);
    expect(pings).to.be.greaterThan(1);
    expect(live.readyState).to.equal(live.OPEN);
    expect(await wsCall(live, { jsonrpc: "2.0", id: 1, method: "echo" })).to.deep.include({ result: [] });
    live.terminate();
  });
});
