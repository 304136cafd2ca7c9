import { expect } from "chai";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { readOrCreateTokenFile } from "../../src/rpc/transport/auth";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { post } from "../helpers/json-rpc";

const TOKEN = "s3cret-token";

function wsOpen(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers });
  return new Promise((res, rej) => {
    ws.once("open", () => res(ws));
    ws.once("error", rej);
  });
}

function wsCall(ws: WebSocket, payload: string): Promise<unknown> {
  return new Promise((res) => {
    ws.once("message", (b: Buffer) => res(JSON.parse(b.toString())));
    ws.send(payload);
  });
}

describe("JSON-RPC transports: HTTP and WebSocket", function () {
  this.timeout(60_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  let wsUrl: string;
  const logs: string[] = [];

  before(async () => {
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, maxBatch: 10 });
    server = new JsonRpcServer(runtime.dispatcher, {
      host: "127.0.0.1",
      port: 0,
      ws: { host: "127.0.0.1", port: 0 },
      token: TOKEN,
      bodyLimit: 64 * 1024,
      maxConnections: 20,
      log: (l) => logs.push(l),
    });
    server.rest.get("/hello", () => ({ status: 200, body: { ok: true } }));
    const { httpAddress, wsAddress } = await server.listen();
    url = `http://127.0.0.1:${httpAddress.port}/`;
    wsUrl = `ws://127.0.0.1:${wsAddress!.port}/`;
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("answers single requests and batches, with an error per invalid member", async () => {
    const single = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_chainId" }));
    expect(single.json).to.deep.equal({ jsonrpc: "2.0", id: 7, result: "0x2328" });
    const batch = await post(url, JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "eth_chainId" }, null, 5, { jsonrpc: "2.0", id: 2 }, { jsonrpc: "2.0", id: 3, method: "eth_nope" }]));
    const out = batch.json as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
    expect(out).to.have.length(5);
    expect(out[0].result).to.equal("0x2328");
    expect(out[1].error?.code).to.equal(-32600);
    expect(out[2].error?.code).to.equal(-32600);
    expect(out[3].error?.code).to.equal(-32600);
    expect(out[4].error?.code).to.equal(-32601);
  });

  it("answers malformed JSON, empty and oversized batches", async () => {
    expect((await post(url, "{nope")).json).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    expect((await post(url, "[]")).json).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "empty batch" } });
    const big = JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId" })));
    expect((await post(url, big)).json).to.deep.include({ error: { code: -32600, message: "batch too large: 11 requests, the limit is 10" } });
  });

  it("refuses a body over the limit with 413 and keeps serving", async () => {
    const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "web3_sha3", params: ["0x" + "00".repeat(70_000)] });
    const res = await post(url, huge);
    expect(res.status).to.equal(413);
    expect((res.json as { error: { code: number } }).error.code).to.equal(-32600);
    expect((await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }))).status).to.equal(200);
  });

  it("answers wrong types, huge numbers and odd-length hex with -32602", async () => {
    const call = async (method: string, params: unknown[]) => ((await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }))).json as { error: { code: number; message: string } }).error;
    expect(await call("eth_getBalance", [42, "latest"])).to.deep.equal({ code: -32602, message: "invalid argument 0: cannot unmarshal number into an address" });
    expect((await call("eth_getBlockByNumber", ["0x" + "f".repeat(40), false])).code).to.equal(-32602);
    expect(await call("eth_sendRawTransaction", ["0xabc"])).to.deep.equal({ code: -32602, message: "invalid argument 0: hex string of odd length" });
  });

  it("checks a page's content type, method and path like geth, and serves CORS", async () => {
    expect((await post(url, "{}", { "content-type": "text/plain", origin: "http://x" })).status).to.equal(415);
    // what `curl -d '{…}' URL` sends: a form's type and no Origin (not a page's), read as Hardhat's node does
    const curl = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_chainId", params: [] }), { "content-type": "application/x-www-form-urlencoded" });
    expect(curl.status).to.equal(200);
    expect(curl.json).to.deep.equal({ jsonrpc: "2.0", id: 7, result: "0x2328" });
    expect((await fetch(url, { method: "PUT", body: "{}" })).status).to.equal(405);
    expect((await fetch(`${url}other`, { method: "POST", body: "{}" })).status).to.equal(404);
    const pre = await fetch(url, { method: "OPTIONS", headers: { origin: "http://x", "access-control-request-method": "POST" } });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get("access-control-allow-origin")).to.equal("*");
    expect(pre.headers.get("access-control-allow-headers")).to.match(/Authorization/);
  });

  it("routes GET paths to REST handlers and answers Cosmos-style 404s", async () => {
    expect(await (await fetch(`${url}hello`)).json()).to.deep.equal({ ok: true });
    const missing = await fetch(`${url}nowhere`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ code: 5, message: "Not Found", details: [] });
  });

  it("refuses private methods without the bearer token, per call, and accepts them with it", async () => {
    const batch = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "miner_setExtra", params: ["0x01"] },
      { jsonrpc: "2.0", id: 2, method: "eth_chainId" },
    ]);
    const refused = (await post(url, batch)).json as Array<{ error?: { code: number; message: string }; result?: unknown }>;
    expect(refused[0].error).to.deep.equal({ code: 4100, message: "unauthorized: miner_setExtra needs the bearer token" });
    expect(refused[1].result).to.equal("0x2328");
    expect(runtime.node.settings.extraData).to.have.length(0);
    const wrong = (await post(url, batch, { authorization: "Bearer nope" })).json as Array<{ error?: { code: number } }>;
    expect(wrong[0].error?.code).to.equal(4100);
    const ok = (await post(url, batch, { authorization: `Bearer ${TOKEN}` })).json as Array<{ result?: unknown }>;
    expect(ok[0].result).to.equal(true);
    await runtime.node.dev.configure({ extraData: new Uint8Array() });
  });

  it("serves WebSocket on the HTTP port and on the ws address, with the token on the upgrade", async () => {
    for (const u of [url.replace("http", "ws"), wsUrl]) {
      const ws = await wsOpen(u);
      expect(await wsCall(ws, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }))).to.deep.equal({ jsonrpc: "2.0", id: 1, result: "0x2328" });
      expect(await wsCall(ws, "{bad")).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
      expect(((await wsCall(ws, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "miner_stop" }))) as { error: { code: number } }).error.code).to.equal(4100);
      ws.close();
    }
    const authed = await wsOpen(wsUrl, { authorization: `Bearer ${TOKEN}` });
    expect(await wsCall(authed, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "miner_getHashrate" }))).to.deep.equal({ jsonrpc: "2.0", id: 3, result: 0 });
    authed.close();
  });

  it("survives a client that disconnects mid-request", async () => {
    const { port } = new URL(url);
    await new Promise<void>((resolve) => {
      const sock = connect(Number(port), "127.0.0.1", () => {
        sock.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":');
        sock.destroy();
        resolve();
      });
    });
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        res.resume();
        resolve();
      });
      req.on("error", () => resolve());
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hardhat_mine", params: ["0x20"] }));
      setTimeout(() => req.destroy(), 1);
    });
    expect((await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }))).json).to.deep.include({ result: "0x2328" });
  });

  it("limits open connections and keeps serving the ones it has", async () => {
    const socks = await Promise.all(
      Array.from(
        { length: 25 },
        () =>
          new Promise<ReturnType<typeof connect>>((r) => {
            const s = connect(Number(new URL(url).port), "127.0.0.1", () => r(s));
            s.on("error", () => undefined);
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    const closed = socks.filter((s) => s.destroyed || s.readableEnded).length;
    for (const s of socks) s.destroy();
    expect(closed).to.be.greaterThan(0);
    await new Promise((r) => setTimeout(r, 50));
    expect((await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }))).status).to.equal(200);
  });

  it("writes the token file owner-only", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "token-"));
    try {
      const file = path.join(dir, "jsonrpc.token");
      const t = readOrCreateTokenFile(file);
      expect(t).to.match(/^[0-9a-f]{64}$/);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(readOrCreateTokenFile(file)).to.equal(t);
      expect(readOrCreateTokenFile(file, "configured")).to.equal("configured");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
