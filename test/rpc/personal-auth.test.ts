/**
 * The personal namespace needs the bearer token on the network transports; a refused call has no
 * effect. Hardhat's `personal_sign(data, address)` with a dev account stays open from this machine.
 */
import { expect } from "chai";
import WebSocket from "ws";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import type { JsonRpcResponse } from "../../src/rpc/types";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";

const TOKEN = "personal-auth-token";
const KEY = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f";

describe("personal namespace: the bearer token", function () {
  this.timeout(60_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  let dev: string[];
  let stored: string;

  const call = async (method: string, params: unknown[], token?: string): Promise<JsonRpcResponse> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    return (await res.json()) as JsonRpcResponse;
  };
  const ok = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const r = await call(method, params, TOKEN);
    if ("error" in r) throw new Error(`${method}: ${r.error.message}`);
    return r.result as T;
  };
  const refused = (method: string) => ({ code: 4100, message: `unauthorized: ${method} needs the bearer token` });

  before(async () => {
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, keystore: { scrypt: "light" } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, ws: { host: "127.0.0.1", port: 0 }, token: TOKEN });
    const { httpAddress } = await server.listen();
    url = `http://127.0.0.1:${httpAddress.port}/`;
    dev = await ok<string[]>("eth_accounts");
    stored = await ok<string>("personal_newAccount", ["pw"]);
    await ok("eth_sendTransaction", [{ from: dev[0], to: stored, value: "0xde0b6b3a7640000" }]);
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("every personal method without the token answers 4100, and the refused call has no effect", async () => {
    const calls: Array<[string, unknown[]]> = [
      ["personal_importRawKey", [KEY, "x"]],
      ["personal_newAccount", ["x"]],
      ["personal_listAccounts", []],
      ["personal_listWallets", []],
      ["personal_unlockAccount", [stored, "pw", 60]],
      ["personal_lockAccount", [stored]],
      ["personal_sendTransaction", [{ from: stored, to: dev[1], value: "0x1" }, "pw"]],
      ["personal_signTransaction", [{ from: stored, to: dev[1], gas: "0x5208", gasPrice: "0x3b9aca00", nonce: "0x0" }, "pw"]],
      ["personal_sign", ["0x01", stored, "pw"]],
      ["personal_ecRecover", ["0x01", "0x" + "00".repeat(65)]],
      ["personal_initializeWallet", ["pcsc://x"]],
      ["personal_unpair", ["pcsc://x", "1"]],
    ];
    const nonce = await ok<string>("eth_getTransactionCount", [stored, "latest"]);
    for (const [method, params] of calls) {
      const res = await call(method, params);
      expect("error" in res && res.error, method).to.deep.equal(refused(method));
      const wrong = await call(method, params, "not-the-token");
      expect("error" in wrong && wrong.error, method).to.deep.equal(refused(method));
    }
    expect(await ok<string[]>("personal_listAccounts")).to.deep.equal([stored.toLowerCase()]);
    expect(await ok("eth_getTransactionCount", [stored, "latest"])).to.equal(nonce);
    expect(await ok("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
    const sign = await call("eth_sign", [stored, "0x01"]);
    expect("error" in sign && sign.error.message).to.equal("authentication needed: password or unlock");
  });

  it("Hardhat's personal_sign(data, address) with a dev account is open; a key-store account needs the token", async () => {
    const open = await call("personal_sign", ["0x6869", dev[0]]);
    expect("result" in open && open.result).to.match(/^0x[0-9a-f]{130}$/);
    await ok("personal_unlockAccount", [stored, "pw", 60]);
    try {
      const res = await call("personal_sign", ["0x6869", stored]);
      expect("error" in res && res.error).to.deep.equal(refused("personal_sign"));
      expect(await ok<string>("personal_sign", ["0x6869", stored])).to.match(/^0x/);
      // an unlocked account is usable by eth_sign without the token, as on geth
      const viaEth = await call("eth_sign", [stored, "0x6869"]);
      expect("result" in viaEth).to.equal(true);
    } finally {
      await ok("personal_lockAccount", [stored]);
    }
  });

  it("to a caller dev methods are not open to (beyond loopback, a page from another origin) even the dev form needs the token", async () => {
    const ctx = { transport: "http" as const, authenticated: false, devOpen: false };
    const res = (await runtime.dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "personal_sign", params: ["0x01", dev[0]] }, ctx)) as JsonRpcResponse;
    expect("error" in res && res.error).to.deep.equal(refused("personal_sign"));
    const authed = (await runtime.dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "personal_sign", params: ["0x01", dev[0]] }, { ...ctx, authenticated: true })) as JsonRpcResponse;
    expect("result" in authed).to.equal(true);
  });

  it("over WebSocket the upgrade's token decides, per call", async () => {
    const wsUrl = url.replace("http", "ws");
    const open = (headers: Record<string, string>) =>
      new Promise<WebSocket>((res, rej) => {
        const ws = new WebSocket(wsUrl, { headers });
        ws.once("open", () => res(ws));
        ws.once("error", rej);
      });
    const send = (ws: WebSocket, method: string, params: unknown[]) =>
      new Promise<JsonRpcResponse>((res) => {
        ws.once("message", (b: Buffer) => res(JSON.parse(b.toString()) as JsonRpcResponse));
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
      });
    const anon = await open({});
    const authed = await open({ authorization: `Bearer ${TOKEN}` });
    try {
      expect(await send(anon, "personal_listAccounts", [])).to.deep.include({ error: refused("personal_listAccounts") });
      expect(await send(authed, "personal_listAccounts", [])).to.deep.include({ result: [stored.toLowerCase()] });
    } finally {
      anon.close();
      authed.close();
    }
  });
});
