/**
 * Key-store keys are the developer's own: a call that signs with one (eth_sign, eth_signTypedData*,
 * eth_signTransaction, eth_sendTransaction) is `dev`, so a page from a foreign origin without the
 * token is refused (4100) even while the account is unlocked, over HTTP and WebSocket; the dev
 * accounts (public keys) stay `send`; eth_accounts lists key-store addresses only to callers that may
 * use them. docs/security.md, src/rpc/accounts.ts (`signerAccess`).
 */
import { expect } from "chai";
import WebSocket from "ws";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { rpc } from "../helpers/json-rpc";

const TOKEN = "keystore-access-token";
const EVIL = "https://evil.example";
const TYPED = {
  types: { EIP712Domain: [{ name: "name", type: "string" }], Mail: [{ name: "contents", type: "string" }] },
  primaryType: "Mail",
  domain: { name: "x" },
  message: { contents: "hi" },
};

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

describe("key-store keys need dev access; dev accounts stay open to any page", function () {
  this.timeout(60_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  let wsUrl: string;
  let dev: string[];
  let stored: string;

  const post = (method: string, params: unknown[], headers: Record<string, string> = {}): Promise<Answer> => rpc(url, method, params, headers) as Promise<Answer>;
  const ok = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const r = await post(method, params, { authorization: `Bearer ${TOKEN}` });
    if (r.error !== undefined) throw new Error(`${method}: ${r.error.message}`);
    return r.result as T;
  };
  const signing = (from: string): Array<[string, unknown[]]> => [
    ["eth_sign", [from, "0x01"]],
    ["eth_signTypedData_v4", [from, TYPED]],
    ["eth_signTypedData", [from, JSON.stringify(TYPED)]],
    ["eth_signTransaction", [{ from, to: dev[1], value: "0x1", gas: "0x5208" }]],
    ["eth_sendTransaction", [{ from, to: dev[1], value: "0x6f05b59d3b20000" }]],
  ];

  before(async () => {
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, keystore: { scrypt: "light" } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, ws: { host: "127.0.0.1", port: 0 }, token: TOKEN });
    const { httpAddress, wsAddress } = await server.listen();
    url = `http://127.0.0.1:${httpAddress.port}/`;
    wsUrl = `ws://127.0.0.1:${wsAddress?.port}/`;
    dev = await ok<string[]>("eth_accounts");
    stored = (await ok<string>("personal_newAccount", ["pw"])).toLowerCase();
    await ok("eth_sendTransaction", [{ from: dev[0], to: stored, value: "0xde0b6b3a7640000" }]);
    await ok("personal_unlockAccount", [stored, "pw", 0]);
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("a foreign page over HTTP: every signing call with an unlocked key-store account is refused and has no effect", async () => {
    const balance = await ok<string>("eth_getBalance", [stored, "latest"]);
    for (const [method, params] of signing(stored)) {
      const a = await post(method, params, { origin: EVIL });
      expect(a.error, method).to.deep.equal({ code: 4100, message: `unauthorized: ${method} needs the bearer token` });
    }
    expect(await ok("eth_getBalance", [stored, "latest"])).to.equal(balance);
    expect(await ok("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
    // eth_accounts: the page sees the dev accounts only
    const listed = (await post("eth_accounts", [], { origin: EVIL })).result as string[];
    expect(listed).to.deep.equal(dev.filter((a) => a !== stored));
    expect(listed).to.not.include(stored);
  });

  it("a foreign page over WebSocket: the same calls are refused; eth_accounts hides the key store", async () => {
    const ws = new WebSocket(wsUrl, { headers: { origin: EVIL } });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    try {
      const calls = [...signing(stored), ["eth_accounts", []] as [string, unknown[]]];
      const answers = await new Promise<Array<Answer & { id: number }>>((resolve) => {
        ws.once("message", (m) => resolve(JSON.parse(String(m)) as Array<Answer & { id: number }>));
        ws.send(JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params }))));
      });
      for (const a of answers.slice(0, -1)) expect(a.error?.code, calls[a.id][0]).to.equal(4100);
      expect(answers[answers.length - 1].result).to.not.include(stored);
    } finally {
      ws.close();
    }
  });

  it("the same page may still sign with a dev account (its key is public): send stays open", async () => {
    for (const [method, params] of signing(dev[2])) {
      const a = await post(method, params, { origin: EVIL });
      expect(a.error, method).to.equal(undefined);
    }
  });

  it("this machine without an Origin, an allowed page, or the token may use the unlocked key-store account", async () => {
    expect((await post("eth_sign", [stored, "0x01"])).result).to.match(/^0x[0-9a-f]{130}$/);
    expect((await post("eth_sign", [stored, "0x01"], { origin: "http://localhost:5173" })).result).to.match(/^0x[0-9a-f]{130}$/);
    expect((await post("eth_sign", [stored, "0x01"], { origin: EVIL, authorization: `Bearer ${TOKEN}` })).result).to.match(/^0x[0-9a-f]{130}$/);
    expect((await post("eth_accounts", [])).result).to.include(stored);
    const sent = await post("eth_sendTransaction", [{ from: stored, to: dev[1], value: "0x1" }]);
    expect(sent.result).to.match(/^0x[0-9a-f]{64}$/);
  });
});
