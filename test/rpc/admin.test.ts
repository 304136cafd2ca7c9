/**
 * admin_*: node info in geth's shape, datadir, peers, and the listeners really stopping and starting
 * (HTTP and WebSocket) on a real server bound to 127.0.0.1, port 0.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RLP } from "@ethereumjs/rlp";
import { createServer } from "node:net";
import secp256k1 from "secp256k1";
import WebSocket from "ws";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { keccak256 } from "../../src/utils/keccak";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, type RpcFailure, inProcess, rpcError, testChainConfig } from "../helpers/harness";
import { TEST_TOKEN } from "../helpers/http";

interface Rpc {
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
}

function http(url: string, token: string | null = TEST_TOKEN): Rpc {
  let id = 1;
  return {
    async call<T>(method: string, params: unknown[] = []): Promise<T> {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }) });
      const body = (await res.json()) as { result?: T; error?: RpcFailure };
      if (body.error !== undefined) throw body.error;
      return body.result as T;
    },
  };
}

async function wsClient(url: string): Promise<Rpc & { ws: WebSocket; closed: Promise<void> }> {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
  await new Promise<void>((res, rej) => {
    ws.once("open", () => res());
    ws.once("error", rej);
  });
  const closed = new Promise<void>((r) => ws.once("close", () => r()));
  const pending = new Map<number, { res: (v: unknown) => void; rej: (e: unknown) => void }>();
  ws.on("message", (buf: Buffer) => {
    const m = JSON.parse(buf.toString()) as { id: number; result?: unknown; error?: unknown };
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.rej(m.error);
    else p?.res(m.result);
  });
  let id = 1;
  return {
    ws,
    closed,
    call: <T>(method: string, params: unknown[] = []) =>
      new Promise<T>((res, rej) => {
        const n = id++;
        pending.set(n, { res: res as (v: unknown) => void, rej });
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }));
      }),
  };
}

/** Resolves with the connection error code of a request that cannot reach a listener. */
async function refused(url: string): Promise<string | undefined> {
  try {
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code ?? "failed";
  }
  return undefined;
}

function wsRefused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once("open", () => {
      ws.close();
      resolve(false);
    });
    ws.once("error", () => resolve(true));
  });
}

describe("admin", function () {
  this.timeout(60_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let httpUrl: string;
  let wsUrl: string;
  let httpPort: number;
  let wsPort: number;
  const logs: string[] = [];

  before(async () => {
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, log: (l) => logs.push(l) });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, ws: { host: "127.0.0.1", port: 0 }, token: TEST_TOKEN });
    runtime.serve(server);
    const bound = await server.listen();
    httpPort = bound.httpAddress.port;
    wsPort = (bound.wsAddress as { port: number }).port;
    httpUrl = `http://127.0.0.1:${httpPort}/`;
    wsUrl = `ws://127.0.0.1:${wsPort}/`;
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("answers admin_nodeInfo in geth's shape, with a verifiable ENR of the listen address", async () => {
    const info = await http(httpUrl).call<{
      id: string;
      name: string;
      enode: string;
      enr: string;
      ip: string;
      ports: { discovery: number; listener: number };
      listenAddr: string;
      protocols: { eth: { network: number; genesis: string; config: Record<string, unknown>; head: string } };
    }>("admin_nodeInfo");
    const genesis = await http(httpUrl).call<{ hash: string }>("eth_getBlockByNumber", ["0x0", false]);
    const head = await http(httpUrl).call<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(info.name).to.equal(CLIENT_VERSION);
    expect(info.ip).to.equal("127.0.0.1");
    expect(info.ports).to.deep.equal({ discovery: 0, listener: httpPort });
    expect(info.listenAddr).to.equal(`127.0.0.1:${httpPort}`);
    const m = /^enode:\/\/([0-9a-f]{128})@127\.0\.0\.1:(\d+)\?discport=0$/.exec(info.enode);
    expect(m, info.enode).to.not.equal(null);
    const pub = Buffer.from((m as RegExpExecArray)[1], "hex");
    expect(Number((m as RegExpExecArray)[2])).to.equal(httpPort);
    expect(info.id).to.equal(Buffer.from(keccak256(pub)).toString("hex"));
    expect(info.protocols.eth).to.deep.include({ network: 9000, genesis: genesis.hash, head: head.hash });
    expect(info.protocols.eth.config).to.deep.include({ chainId: 9000, londonBlock: 0, terminalTotalDifficulty: 0, shanghaiTime: 0, cancunTime: 0, pragueTime: 0, osakaTime: 0 });
    // EIP-778: [signature, seq, k, v, ...] signed by the node key over keccak256(rlp([seq, k, v, ...]))
    expect(info.enr.startsWith("enr:")).to.equal(true);
    const record = RLP.decode(Buffer.from(info.enr.slice(4), "base64url")) as Uint8Array[];
    const [sig, ...content] = record;
    const pairs = new Map<string, Uint8Array>();
    for (let i = 1; i < content.length; i += 2) pairs.set(Buffer.from(content[i]).toString(), content[i + 1]);
    expect([...pairs.keys()]).to.deep.equal(["id", "ip", "secp256k1", "tcp"]);
    expect(Buffer.from(pairs.get("ip") as Uint8Array)).to.deep.equal(Buffer.from([127, 0, 0, 1]));
    expect(Buffer.from(pairs.get("tcp") as Uint8Array).readUIntBE(0, (pairs.get("tcp") as Uint8Array).length)).to.equal(httpPort);
    const compressed = pairs.get("secp256k1") as Uint8Array;
    expect(Buffer.from(secp256k1.publicKeyConvert(compressed, false)).subarray(1)).to.deep.equal(pub);
    expect(secp256k1.ecdsaVerify(sig, keccak256(RLP.encode(content)), compressed)).to.equal(true);
    // the node key is kept: the same identity next time
    expect((await http(httpUrl).call<{ id: string }>("admin_nodeInfo")).id).to.equal(info.id);
  });

  it("answers datadir, peers and addPeer", async () => {
    const c = http(httpUrl);
    expect(await rpcError(c.call("admin_datadir"))).to.deep.include({ code: -32000, message: "this node has no data directory: it keeps everything in memory (start it with --home DIR)" });
    expect(await c.call("admin_peers")).to.deep.equal([]);
    const enode = `enode://${"ab".repeat(64)}@10.0.0.2:30303`;
    expect(await c.call("admin_addPeer", [enode])).to.equal(false);
    expect(logs.some((l) => l.includes(`not dialing ${enode}`))).to.equal(true);
    const bad = await rpcError(c.call("admin_addPeer", ["enode://nope"]));
    expect(bad.code).to.equal(-32000);
    expect(bad.message).to.match(/^invalid enode: /);
  });

  it("is private: without the token every admin method is refused with 4100", async () => {
    for (const m of ["admin_nodeInfo", "admin_datadir", "admin_peers", "admin_stopHTTP", "admin_startWS"]) {
      const err = await rpcError(http(httpUrl, null).call(m));
      expect(err).to.deep.include({ code: 4100, message: `unauthorized: ${m} needs the bearer token` });
    }
  });

  it("admin_stopHTTP really stops serving HTTP, and admin_startHTTP (over WebSocket) serves it again", async () => {
    const ws = await wsClient(wsUrl);
    try {
      expect(await rpcError(http(httpUrl).call("admin_startHTTP"))).to.deep.include({ code: -32000, message: `HTTP RPC already running on 127.0.0.1:${httpPort}` });
      expect(await http(httpUrl).call("admin_stopHTTP")).to.equal(true);
      expect(await refused(httpUrl)).to.equal("ECONNREFUSED");
      expect(await rpcError(ws.call("admin_stopHTTP"))).to.deep.include({ code: -32000, message: "HTTP RPC not running" });
      expect(await rpcError(ws.call("admin_stopRPC"))).to.deep.include({ code: -32000, message: "HTTP RPC not running" });
      expect((await rpcError(ws.call("admin_startHTTP", ["127.0.0.1", 70000]))).code).to.equal(-32602);
      expect(await ws.call("admin_startHTTP", ["127.0.0.1", httpPort])).to.equal(true);
      expect(await http(httpUrl).call("eth_chainId")).to.equal("0x2328");
      // admin_stopRPC / admin_startRPC are the same methods under their old names
      expect(await ws.call("admin_stopRPC")).to.equal(true);
      expect(await refused(httpUrl)).to.equal("ECONNREFUSED");
      expect(await ws.call("admin_startRPC", ["127.0.0.1", httpPort])).to.equal(true);
      expect(await http(httpUrl).call("net_version")).to.equal("9000");
    } finally {
      ws.ws.close();
    }
  });

  it("admin_startHTTP with apis serves only those namespaces there, and refuses unknown ones", async () => {
    const ws = await wsClient(wsUrl);
    try {
      expect(await ws.call("admin_stopHTTP")).to.equal(true);
      const unknown = await rpcError(ws.call("admin_startHTTP", ["127.0.0.1", httpPort, "*", "eth,foo"]));
      expect(unknown.code).to.equal(-32000);
      expect(unknown.message).to.match(/^invalid API "foo" in whitelist \(available: admin, anvil, clique, db, debug, epochs, erigon, eth, /);
      expect(await refused(httpUrl)).to.equal("ECONNREFUSED");
      expect(await ws.call("admin_startHTTP", ["127.0.0.1", httpPort, "https://app.example", "eth,admin"])).to.equal(true);
      expect(await http(httpUrl).call("eth_chainId")).to.equal("0x2328");
      expect(await rpcError(http(httpUrl).call("net_version"))).to.deep.include({ code: -32601, message: "the method net_version does not exist/is not available" });
      // WebSocket still serves every namespace
      expect(await ws.call("net_version")).to.equal("9000");
      const res = await fetch(httpUrl, { method: "OPTIONS", headers: { origin: "https://app.example" } });
      expect(res.headers.get("access-control-allow-origin")).to.equal("https://app.example");
      expect(await http(httpUrl).call("admin_stopHTTP")).to.equal(true);
      expect(await ws.call("admin_startHTTP", ["127.0.0.1", httpPort, "*"])).to.equal(true);
      expect(await http(httpUrl).call("net_version")).to.equal("9000");
    } finally {
      ws.ws.close();
    }
  });

  it("admin_stopWS closes WebSockets and refuses new ones until admin_startWS", async () => {
    const ws = await wsClient(wsUrl);
    const c = http(httpUrl);
    expect(await rpcError(c.call("admin_startWS"))).to.deep.include({ code: -32000, message: `WebSocket RPC already running on 127.0.0.1:${wsPort}` });
    expect(await c.call("admin_stopWS")).to.equal(true);
    await ws.closed;
    expect(await wsRefused(wsUrl)).to.equal(true);
    expect(await wsRefused(`ws://127.0.0.1:${httpPort}/`)).to.equal(true);
    expect(await rpcError(c.call("admin_stopWS"))).to.deep.include({ code: -32000, message: "WebSocket RPC not running" });
    expect(await c.call("admin_startWS", ["127.0.0.1", wsPort])).to.equal(true);
    const again = await wsClient(wsUrl);
    expect(await again.call("eth_chainId")).to.equal("0x2328");
    const onHttpPort = await wsClient(`ws://127.0.0.1:${httpPort}/`);
    expect(await onHttpPort.call("eth_chainId")).to.equal("0x2328");
    again.ws.close();
    onHttpPort.ws.close();
  });

  it("answers a port already in use with geth's bind error", async () => {
    const c = http(httpUrl);
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", () => r()));
    const port = (taken.address() as { port: number }).port;
    try {
      await c.call("admin_stopWS");
      expect(await rpcError(c.call("admin_startWS", ["127.0.0.1", port]))).to.deep.include({ code: -32000, message: `listen tcp 127.0.0.1:${port}: bind: address already in use` });
      expect(await c.call("admin_startWS", ["127.0.0.1", wsPort])).to.equal(true);
    } finally {
      taken.close();
    }
  });
});

describe("admin in-process and with a home", function () {
  this.timeout(60_000);

  it("has no listeners to control in-process", async () => {
    const h = await inProcess();
    try {
      for (const m of ["admin_startHTTP", "admin_stopHTTP", "admin_startWS", "admin_stopWS", "admin_startRPC", "admin_stopRPC"]) {
        const err = await rpcError(h.request(m));
        expect(err.code, m).to.equal(-32000);
        expect(err.message).to.equal(`${m} is not available: the in-process provider has no listeners (they belong to npx hardhat node)`);
      }
      const info = await h.request<{ ports: unknown; listenAddr: string }>("admin_nodeInfo");
      expect(info.ports).to.deep.equal({ discovery: 0, listener: 0 });
    } finally {
      await h.close();
    }
  });

  it("answers admin_datadir with the home", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "admin-home-"));
    const h = await inProcess({ home: dir });
    try {
      expect(await h.request("admin_datadir")).to.equal(dir);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
