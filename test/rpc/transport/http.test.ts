import { expect } from "chai";
import { connect } from "node:net";
import { request as httpRequest } from "node:http";
import { JSON_HEADERS, type Started, TOKEN, rpc, send, sleep, start } from "./helpers";

describe("transport: HTTP JSON-RPC", function () {
  this.timeout(20_000);
  let s: Started;

  before(async () => {
    s = await start({ token: TOKEN, bodyLimit: 1024, batchLimit: 5 });
    s.server.rest.get("/evmos/epochs/v1/epochs", async (q) => ({ status: 200, body: { epochs: [], limit: q.get("limit") } }));
    s.server.rest.get("/broken", () => {
      throw new Error("store unavailable");
    });
  });
  after(() => s.server.close());

  it("answers a single request with the transport's context", async () => {
    const r = await rpc(s.url, { jsonrpc: "2.0", id: 7, method: "ctx" });
    expect(r.status).to.equal(200);
    expect(r.headers["content-type"]).to.equal("application/json");
    expect(r.json).to.deep.equal({ jsonrpc: "2.0", id: 7, result: { transport: "http", authenticated: false, connection: null } });
  });

  it("answers a batch, each invalid or null member with its own -32600", async () => {
    const r = await rpc(s.url, [{ jsonrpc: "2.0", id: 1, method: "echo", params: [1] }, null, 5, { jsonrpc: "2.0", id: 2 }]);
    expect(r.json).to.deep.equal([
      { jsonrpc: "2.0", id: 1, result: [1] },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } },
    ]);
  });

  it("answers 204 with no body when only notifications were sent", async () => {
    const r = await rpc(s.url, { jsonrpc: "2.0", method: "echo" });
    expect(r.status).to.equal(204);
    expect(r.text).to.equal("");
  });

  it("answers malformed JSON with geth's parse error", async () => {
    for (const body of ["{nope", "", "[1,", "\u0000"]) {
      const r = await rpc(s.url, body);
      expect(r.status).to.equal(200);
      expect(r.text).to.equal('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}');
    }
  });

  it("refuses an empty batch and a batch over the limit", async () => {
    expect((await rpc(s.url, "[]")).json).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "empty batch" } });
    const six = Array.from({ length: 6 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "echo" }));
    expect((await rpc(s.url, six)).json).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch too large: 6 requests, the limit is 5" } });
    expect((await rpc(s.url, six.slice(0, 5))).json).to.have.length(5);
  });

  it("refuses a body over the limit with 413 and a JSON-RPC error, then keeps serving", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: ["x".repeat(2000)] });
    const r = await rpc(s.url, big);
    expect(r.status).to.equal(413);
    expect(r.json).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "request body too large: over 1024 bytes" } });
    // chunked (no Content-Length): the limit is enforced while reading
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(s.url, { method: "POST", headers: JSON_HEADERS, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write(big.slice(0, 800));
      req.end(big.slice(800));
    });
    expect(chunked).to.equal(413);
    expect((await rpc(s.url, { jsonrpc: "2.0", id: 2, method: "echo" })).json).to.deep.include({ result: [] });
  });

  it("from a page (an Origin) accepts geth's JSON media types only: none, text/plain and forms (its no-preflight posts) get 415", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" });
    const origin = "http://dapp.test";
    for (const type of ["application/json", "application/json-rpc", "application/jsonrequest", "Application/JSON; charset=utf-8"]) {
      expect((await send(s.url, { body, headers: { origin, "content-type": type } })).status, type).to.equal(200);
    }
    const untyped = await send(s.url, { body, headers: { origin } });
    expect(untyped.status, "no Content-Type (a Blob without a type)").to.equal(415);
    expect(untyped.text).to.equal("invalid content type, only application/json is supported\n");
    const refused = await send(s.url, { body, headers: { origin, "content-type": "text/plain" } });
    expect(refused.status).to.equal(415);
    expect(refused.text).to.equal("invalid content type, only application/json is supported\n");
    expect((await send(s.url, { body, headers: { origin, "content-type": "application/x-www-form-urlencoded" } })).status).to.equal(415);
  });

  it("reads a request without an Origin (not a page's: curl -d, scripts) whatever its media type, as Hardhat's node", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" });
    // curl -d sends a form's type; a script may send none or text/plain
    for (const headers of [{ "content-type": "application/x-www-form-urlencoded" }, {}, { "content-type": "text/plain" }] as Array<Record<string, string>>) {
      const r = await send(s.url, { body, headers });
      expect(r.status, JSON.stringify(headers)).to.equal(200);
      expect(JSON.parse(r.text)).to.deep.include({ id: 1, result: [] });
    }
  });

  it("answers a CORS preflight and sets Allow-Origin on answers", async () => {
    const pre = await send(s.url, {
      method: "OPTIONS",
      headers: { origin: "http://dapp.test", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(pre.status).to.equal(204);
    expect(pre.headers["access-control-allow-origin"]).to.equal("*");
    expect(pre.headers["access-control-allow-methods"]).to.include("POST");
    expect(pre.headers["access-control-allow-headers"])
      .to.match(/Authorization/)
      .and.match(/Content-Type/);
    const r = await rpc(s.url, { jsonrpc: "2.0", id: 1, method: "echo" }, { origin: "http://dapp.test" });
    expect(r.headers["access-control-allow-origin"]).to.equal("*");
  });

  it("answers 405 for other verbs on / and 404 for POSTs elsewhere", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const r = await send(s.url, { method });
      expect(r.status, method).to.equal(405);
      expect(r.headers.allow).to.include("POST");
    }
    const r = await rpc(`${s.url}rpc`, { jsonrpc: "2.0", id: 1, method: "echo" });
    expect(r.status).to.equal(404);
  });

  it("routes GET paths to the REST router, Cosmos-style 404 for unknown ones", async () => {
    const ok = await send(`${s.url}evmos/epochs/v1/epochs/?limit=2`, { method: "GET" });
    expect(ok.status).to.equal(200);
    expect(ok.json).to.deep.equal({ epochs: [], limit: "2" });
    const missing = await send(`${s.url}evmos/nothing`, { method: "GET" });
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.equal({ code: 5, message: "Not Found", details: [] });
    expect((await send(`${s.url}evmos/epochs/v1/epochs`, { method: "POST", body: "{}" })).status).to.equal(405);
    const broken = await send(`${s.url}broken`, { method: "GET" });
    expect(broken.status).to.equal(500);
    expect(broken.json).to.deep.equal({ code: 13, message: "store unavailable", details: [] });
    const head = await send(`${s.url}evmos/epochs/v1/epochs`, { method: "HEAD" });
    expect([head.status, head.text]).to.deep.equal([200, ""]);
  });

  it("turns a bigint that escaped the dispatcher into -32603, per batch member", async () => {
    const r = await rpc(s.url, { jsonrpc: "2.0", id: 3, method: "bigint" });
    expect(r.json).to.deep.equal({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "internal error: the result could not be encoded as JSON" } });
    const b = (
      await rpc(s.url, [
        { jsonrpc: "2.0", id: 1, method: "bigint" },
        { jsonrpc: "2.0", id: 2, method: "echo" },
      ])
    ).json as Array<{ id: number; error?: { code: number }; result?: unknown }>;
    expect(b[0]).to.deep.include({ id: 1, error: { code: -32603, message: "internal error: the result could not be encoded as JSON" } });
    expect(b[1]).to.deep.equal({ jsonrpc: "2.0", id: 2, result: [] });
  });

  it("guards bigints even when a library installed BigInt.prototype.toJSON", async () => {
    const proto = BigInt.prototype as unknown as { toJSON?: () => string };
    proto.toJSON = function () {
      return String(this);
    };
    try {
      const r = await rpc(s.url, { jsonrpc: "2.0", id: 4, method: "bigint" });
      expect((r.json as { error: { code: number } }).error.code).to.equal(-32603);
      // in a batch too: the bigint member fails alone, the others are answered
      const b = (
        await rpc(s.url, [
          { jsonrpc: "2.0", id: 1, method: "echo" },
          { jsonrpc: "2.0", id: 2, method: "bigint" },
        ])
      ).json as Array<{ id: number; error?: { code: number }; result?: unknown }>;
      expect(b[0]).to.deep.equal({ jsonrpc: "2.0", id: 1, result: [] });
      expect(b[1].error?.code).to.equal(-32603);
    } finally {
      delete proto.toJSON;
    }
  });

  it("answers -32603 when the dispatcher itself fails", async () => {
    const r = await rpc(s.url, { jsonrpc: "2.0", id: 9, method: "throw" });
    expect(r.json).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "internal error" } });
  });

  it("sets authenticated only for the right bearer token; private methods answer 4100 otherwise", async () => {
    const ctx = async (headers: Record<string, string>) => ((await rpc(s.url, { jsonrpc: "2.0", id: 1, method: "ctx" }, headers)).json as { result: { authenticated: boolean } }).result.authenticated;
    expect(await ctx({ authorization: `Bearer ${TOKEN}` })).to.equal(true);
    expect(await ctx({ authorization: `bearer ${TOKEN}` })).to.equal(true);
    expect(await ctx({})).to.equal(false);
    expect(await ctx({ authorization: "Bearer wrong" })).to.equal(false);
    expect(await ctx({ authorization: `Bearer ${TOKEN}x` })).to.equal(false);
    expect(await ctx({ authorization: `Basic ${TOKEN}` })).to.equal(false);
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "private" },
      { jsonrpc: "2.0", id: 2, method: "echo" },
    ];
    const refused = (await rpc(s.url, batch)).json as Array<{ error?: { code: number }; result?: unknown }>;
    expect(refused[0].error?.code).to.equal(4100);
    expect(refused[1].result).to.deep.equal([]);
    expect(((await rpc(s.url, batch, { authorization: `Bearer ${TOKEN}` })).json as Array<{ result?: unknown }>)[0].result).to.equal(true);
  });

  it("survives clients that disconnect mid-body and mid-answer", async () => {
    const onUnhandled = (): void => expect.fail("unhandled rejection");
    process.on("unhandledRejection", onUnhandled);
    try {
      await new Promise<void>((resolve) => {
        const sock = connect(s.port, "127.0.0.1", () => {
          sock.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":');
          sock.destroy();
          resolve();
        });
      });
      await new Promise<void>((resolve) => {
        const req = httpRequest(s.url, { method: "POST", headers: JSON_HEADERS, agent: false });
        req.on("error", () => resolve());
        req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slow", params: [150] }));
        setTimeout(() => req.destroy(), 30);
      });
      await sleep(250); // the slow call finishes with nobody to answer
      expect((await rpc(s.url, { jsonrpc: "2.0", id: 2, method: "echo", params: ["after"] })).json).to.deep.include({ result: ["after"] });
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
