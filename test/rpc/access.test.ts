/**
 * Access classes through the real server (src/rpc/transport/server.ts, what `npx hardhat node`
 * serves): every registered method is walked as a web page from another origin, as a script on
 * this machine, and over WebSocket; JavaScript tracers need the token; a browser's no-preflight
 * posts are refused. The table in docs/security.md is checked against the methods.
 */
import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { accessBanner, accessTable, devOpen, mayCall, originAllowed } from "../../src/rpc/access";
import { RpcDispatcher } from "../../src/rpc/dispatcher";
import { ACCESS_CLASSES, type Access, type MethodSpec } from "../../src/rpc/method";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { END, SECURITY_DOC, START, withTable } from "../../scripts/access-table";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { post } from "../helpers/json-rpc";

const TOKEN = "access-test-token";
const EVIL = "http://evil.test";
const JS_TRACER = "{ n: 0, step: function () { this.n++ }, fault: function () {}, result: function () { return this.n } }";
const CALL = { from: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", value: "0x1" };
const HASH = `0x${"11".repeat(32)}`;
/** What a hostile page would send: a tracer that reaches the host through a constructor chain and writes a file. */
const MARK = path.join(tmpdir(), `access-escape-${process.pid}`);
const ESCAPE = `{ step: function (log) { log.constructor.constructor("return process")().mainModule.require("fs").writeFileSync(${JSON.stringify(MARK)}, "x") }, fault: function () {}, result: function () { return this.constructor.constructor("return process")().pid } }`;

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

function openWs(url: string, headers: Record<string, string>): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

/** One batch over the socket, answered as a whole. */
function wsBatch(ws: WebSocket, body: unknown[]): Promise<Answer[]> {
  return new Promise((resolve) => {
    ws.once("message", (m) => resolve(JSON.parse(String(m)) as Answer[]));
    ws.send(JSON.stringify(body));
  });
}

/** The calls whose parameters make a trace run a JavaScript program: params that parse, tracer last. */
const CODE_CALLS: Array<[string, unknown[]]> = [
  ["debug_traceCall", [CALL, "latest", { tracer: JS_TRACER }]],
  ["debug_traceTransaction", [HASH, { tracer: JS_TRACER }]],
  ["debug_traceBlockByNumber", ["0x0", { tracer: JS_TRACER }]],
  ["debug_traceBlockByHash", [HASH, { tracer: JS_TRACER }]],
  ["debug_traceBlock", ["0x00", { tracer: JS_TRACER }]],
];

describe("access classes: every method declares who may call it", function () {
  this.timeout(120_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  let classes: Map<string, Access>;

  before(async () => {
    // with the staking module, so its cosmos_* methods are registered too
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, cosmos: { staking: true } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, token: TOKEN, allowedOrigins: ["http://app.test:3000", "tools.test"] });
    runtime.serve(server);
    const { httpAddress } = await server.listen();
    url = `http://127.0.0.1:${httpAddress.port}/`;
    classes = runtime.dispatcher.accessClasses().declared;
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("each registered method has one known class; the chain-changing and node-control families have the expected one", () => {
    expect(classes.size).to.be.greaterThan(150);
    // Each class follows what the method does, not its name (docs/security.md):
    const expected = (name: string): Access | undefined => {
      // node control, db writes: they change the node itself, not the chain
      if (/^(admin|miner)_/.test(name) || /^db_put/.test(name)) return "private";
      // node-local data (written with the token) is the developer's: not for every page
      if (/^db_get/.test(name)) return "dev";
      // keys: the key store's secrets (personal_sign with a dev account is Hardhat's form, dev)
      if (name.startsWith("personal_")) return name === "personal_sign" ? "dev" : "private";
      // every evm_* changes what the node holds; evm_snapshot too (each snapshot keeps copies of the module stores and the pool)
      if (/^evm_/.test(name)) return "dev";
      // chain changes without a signature
      if (/^hardhat_(set|mine|reset|impersonate|stopImpersonating|drop|addCompilationResult|loadState)/.test(name)) return "dev";
      // whole-state dumps: everything the node holds, in one answer
      if (/^(hardhat|anvil)_dumpState$/.test(name)) return "private";
      if (/^epochs_(register|unregister)Hooks$/.test(name)) return "dev";
      if (/^cosmos_/.test(name)) return /^cosmos_(add|jail|slash|set|allocate|register|mint|ibcSettle|ibcReceive)/.test(name) ? "dev" : "read";
      // files, profiles and node internals
      if (["debug_dumpBlock", "debug_stacks", "debug_setHead", "debug_traceBlockFromFile", "debug_writeMemProfile", "debug_startCPUProfile"].includes(name)) return "private";
      if (/^(eth|net|web3|txpool)_/.test(name) && !/^eth_(send|sign|resend)/.test(name)) return "read";
      // signed transactions and dev-account signatures (public keys) are open; a key-store sender raises them to dev (below)
      if (/^eth_(send|sign|resend)/.test(name)) return "send";
      // built-in tracers read; a JavaScript tracer raises them to code (below)
      if (/^debug_trace(Transaction|Call|Block|BlockByNumber|BlockByHash)$/.test(name)) return "read";
      return undefined;
    };
    for (const [name, cls] of classes) {
      expect(ACCESS_CLASSES, name).to.include(cls);
      const want = expected(name);
      if (want !== undefined) expect(cls, name).to.equal(want);
    }
    const { raised } = runtime.dispatcher.accessClasses();
    expect(
      [...raised.entries()]
        .filter(([, c]) => c === "code")
        .map(([n]) => n)
        .sort(),
    ).to.deep.equal(CODE_CALLS.map(([n]) => n).sort());
    expect(raised.get("personal_sign")).to.equal("private");
    // a call that signs with a key-store key is at least dev (test/rpc/keystore-access.test.ts)
    for (const name of ["eth_sign", "eth_signTypedData", "eth_signTypedData_v4", "eth_signTransaction", "eth_sendTransaction"]) expect(raised.get(name), name).to.equal("dev");
  });

  it("a method spec without a class (plain JavaScript, a cast) stops the dispatcher from being built", () => {
    const bare = { name: "x_y", params: [], doc: "", handler: () => 1 } as unknown as MethodSpec;
    expect(() => new RpcDispatcher([bare], {})).to.throw("RPC method x_y declares no access class");
    const half = { name: "x_z", access: "read", params: [], doc: "", accessFor: () => "code", handler: () => 1 } as unknown as MethodSpec;
    expect(() => new RpcDispatcher([half], {})).to.throw("accessFor and raisesTo go together");
  });

  it("docs/security.md's table is the one the methods make (npm run docs:access)", () => {
    const { declared, raised } = runtime.dispatcher.accessClasses();
    const doc = readFileSync(SECURITY_DOC, "utf8");
    expect(doc).to.include(START).and.include(END);
    expect(withTable(doc, accessTable(declared, raised)), "run `npm run docs:access`").to.equal(doc);
  });

  it("the banner's lines come from the same classes", () => {
    const { declared, raised } = runtime.dispatcher.accessClasses();
    const lines = accessBanner(declared, raised, ["localhost", "app.test"], true).join("\n");
    expect(lines).to.include("pages from localhost, app.test; from other machines they need the token");
    expect(lines).to.match(/dev methods \(.*\) and signing with a key-store account are open from this machine/);
    expect(lines).to.match(/private methods \(admin_\*, miner_\*, .* more\) and JavaScript tracers always need the token/);
  });

  it("a page from another origin: read and send answer, every dev, private and code call is refused with 4100 and has no effect", async () => {
    const batch = [...classes.keys()].map((method, id) => ({ jsonrpc: "2.0", id, method, params: [] }));
    const { status, json } = await post(url, batch, { origin: EVIL });
    expect(status).to.equal(200);
    expect(json).to.have.length(batch.length);
    for (const a of json) {
      const name = batch[a.id as number].method;
      const cls = classes.get(name) as Access;
      if (cls === "dev" || cls === "private" || cls === "code") expect(a.error, name).to.deep.equal({ code: 4100, message: `unauthorized: ${name} needs the bearer token` });
      else expect(a.error?.code, name).to.not.equal(4100);
    }
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).json.result, "nothing was mined").to.equal("0x0");
  });

  it("a script on this machine (no Origin, no token): dev calls run, private and code need the token, per call in a batch", async () => {
    const { json } = await post(url, [
      { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] },
      { jsonrpc: "2.0", id: 2, method: "miner_setExtra", params: ["0x01"] },
      { jsonrpc: "2.0", id: 3, method: "debug_traceCall", params: [CALL, "latest", { tracer: JS_TRACER }] },
      { jsonrpc: "2.0", id: 4, method: "debug_traceCall", params: [CALL, "latest", { tracer: "callTracer" }] },
      { jsonrpc: "2.0", id: 5, method: "eth_blockNumber", params: [] },
    ]);
    expect(json[0].result).to.equal("0x0");
    expect(json[1].error).to.deep.equal({ code: 4100, message: "unauthorized: miner_setExtra needs the bearer token" });
    expect(json[2].error).to.deep.equal({ code: 4100, message: "unauthorized: debug_traceCall needs the bearer token" });
    expect(json[3].result).to.deep.include({ type: "CALL", value: "0x1" });
    expect(json[4].result).to.equal("0x1");
  });

  it("every JavaScript-tracer form of the trace methods needs the token; with it the program runs", async () => {
    for (const origin of [undefined, EVIL, "http://localhost:5173"]) {
      for (const [method, params] of CODE_CALLS) {
        const { json } = await post(url, { jsonrpc: "2.0", id: 1, method, params }, origin === undefined ? {} : { origin });
        expect(json.error, `${method} from ${origin ?? "no origin"}`).to.deep.equal({ code: 4100, message: `unauthorized: ${method} needs the bearer token` });
      }
    }
    const withToken = await post(url, { jsonrpc: "2.0", id: 1, method: "debug_traceCall", params: CODE_CALLS[0][1] }, { authorization: `Bearer ${TOKEN}`, origin: EVIL });
    expect(withToken.json.result).to.equal(0); // a plain value transfer executes no opcode
    const named = await post(url, { jsonrpc: "2.0", id: 1, method: "debug_traceCall", params: [CALL, "latest", { tracer: "opcountTracer" }] }, { origin: EVIL });
    expect(named.json.result, "a built-in JavaScript tracer is read").to.equal(0);
  });

  it("allowed origins: localhost's on any port by default, and the configured ones (exact origins, bare hosts on any port)", async () => {
    const dev = async (origin: string) => (await post(url, { jsonrpc: "2.0", id: 1, method: "evm_increaseTime", params: [1] }, { origin })).json;
    for (const ok of ["http://localhost:5173", "https://127.0.0.1:8080", "http://[::1]:3000", "http://app.test:3000", "http://tools.test:9999"]) {
      expect((await dev(ok)).result, ok).to.be.a("string");
    }
    for (const no of ["http://app.test:3001", "https://app.test:3000", "http://localhost.evil.test", "null", "http://evil.test"]) {
      expect((await dev(no)).error?.code, no).to.equal(4100);
    }
  });

  it("a browser's no-preflight posts are refused before anything runs: text/plain, a form, a Blob without a type", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "debug_traceCall", params: [CALL, "latest", { tracer: ESCAPE }] });
    for (const headers of [{ "content-type": "text/plain" }, { "content-type": "application/x-www-form-urlencoded" }, { "content-type": "multipart/form-data; boundary=x" }]) {
      const res = await fetch(url, { method: "POST", headers: { origin: EVIL, ...headers }, body });
      expect(res.status, headers["content-type"]).to.equal(415);
      expect(await res.text()).to.equal("invalid content type, only application/json is supported\n");
    }
    const blob = await fetch(url, { method: "POST", headers: { origin: EVIL }, body: new Blob([body]) });
    expect(blob.status).to.equal(415);
    // with the token too: a page's media type is checked first
    expect((await fetch(url, { method: "POST", headers: { origin: EVIL, authorization: `Bearer ${TOKEN}` }, body: new Blob([body]) })).status).to.equal(415);
    // as JSON (the browser asks first; CORS allows it): the escape attempt is a `code` call, refused
    for (const origin of [EVIL, "http://localhost:3000"]) {
      const { json } = await post(url, JSON.parse(body), { origin });
      expect(json.error, origin).to.deep.equal({ code: 4100, message: "unauthorized: debug_traceCall needs the bearer token" });
    }
    expect(existsSync(MARK)).to.equal(false);
  });

  it("WebSocket: the upgrade's Origin and token hold for every message", async () => {
    const { httpAddress } = { httpAddress: new URL(url) };
    const wsUrl = `ws://127.0.0.1:${httpAddress.port}/`;
    const names = [...classes.keys()].filter((n) => n !== "eth_subscribe" && n !== "eth_unsubscribe");
    const evil = await openWs(wsUrl, { origin: EVIL });
    try {
      const answers = await wsBatch(
        evil,
        names.map((method, id) => ({ jsonrpc: "2.0", id, method, params: [] })),
      );
      for (const a of answers) {
        const name = names[a.id as number];
        const cls = classes.get(name) as Access;
        if (cls === "read" || cls === "send") expect(a.error?.code, name).to.not.equal(4100);
        else expect(a.error?.code, name).to.equal(4100);
      }
      const [code] = await wsBatch(evil, [{ jsonrpc: "2.0", id: 1, method: "debug_traceCall", params: CODE_CALLS[0][1] }]);
      expect(code.error?.code).to.equal(4100);
    } finally {
      evil.close();
    }
    const local = await openWs(wsUrl, { origin: "http://localhost:5173" });
    const withToken = await openWs(wsUrl, { origin: EVIL, authorization: `Bearer ${TOKEN}` });
    try {
      const [mined] = await wsBatch(local, [{ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }]);
      expect(mined.result).to.equal("0x0");
      const [traced] = await wsBatch(local, [{ jsonrpc: "2.0", id: 1, method: "debug_traceCall", params: CODE_CALLS[0][1] }]);
      expect(traced.error?.code).to.equal(4100);
      const [ran] = await wsBatch(withToken, [{ jsonrpc: "2.0", id: 1, method: "debug_traceCall", params: CODE_CALLS[0][1] }]);
      expect(ran.result).to.equal(0);
    } finally {
      local.close();
      withToken.close();
    }
  });

  it("ws-origins refuses WebSocket upgrades from other origins (403); scripts without an Origin connect", async () => {
    const s = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, token: TOKEN, wsOrigins: ["http://app.test:3000"] });
    const { httpAddress } = await s.listen();
    const wsUrl = `ws://127.0.0.1:${httpAddress.port}/`;
    try {
      let refused = "";
      await openWs(wsUrl, { origin: EVIL }).then(
        (ws) => ws.close(),
        (err: Error) => (refused = err.message),
      );
      expect(refused).to.equal("upgrade refused: 403");
      (await openWs(wsUrl, { origin: "http://app.test:3000" })).close();
      (await openWs(wsUrl, {})).close();
    } finally {
      await s.close();
    }
  });
});

describe("access policy (src/rpc/access.ts)", () => {
  it("mayCall: read and send for all, dev when open or with the token, private and code with the token only", () => {
    const who = (authenticated: boolean, open?: boolean) => ({ transport: "http" as const, authenticated, ...(open === undefined ? {} : { devOpen: open }) });
    const table = ACCESS_CLASSES.map((c) => [c, mayCall(c, who(false, false)), mayCall(c, who(false, true)), mayCall(c, who(true, false))]);
    expect(table).to.deep.equal([
      ["read", true, true, true],
      ["send", true, true, true],
      ["dev", false, true, true],
      ["private", false, false, true],
      ["code", false, false, true],
    ]);
  });

  it("devOpen: an Origin proves nothing beyond loopback; on loopback it must be allowed", () => {
    const allowed = ["localhost", "127.0.0.1", "[::1]"];
    expect(devOpen(true, undefined, allowed)).to.equal(true);
    expect(devOpen(true, "http://localhost:1234", allowed)).to.equal(true);
    expect(devOpen(true, "http://evil.test", allowed)).to.equal(false);
    expect(devOpen(false, undefined, allowed)).to.equal(false);
    expect(devOpen(false, "http://localhost:1234", allowed)).to.equal(false);
  });

  it("originAllowed: hosts on any port, exact origins, *, never a malformed or opaque origin", () => {
    expect(originAllowed("http://[::1]:8080", ["[::1]"])).to.equal(true);
    expect(originAllowed("http://APP.test:3000", ["http://app.test:3000/"])).to.equal(true);
    expect(originAllowed("http://app.test:3000", ["http://app.test"])).to.equal(false);
    expect(originAllowed("null", ["localhost"])).to.equal(false);
    expect(originAllowed("null", ["*"])).to.equal(true);
    expect(originAllowed("not a url", ["localhost"])).to.equal(false);
  });
});
