/**
 * `npx hardhat node --home DIR`: admin_* act on the node's real listeners and home, and db_* values
 * survive a restart of the process.
 */
import { expect } from "chai";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { hardhatCli, ROOT, freePort, stopProcessGroup } from "../helpers/processes";
import { rpcResult } from "../helpers/json-rpc";

interface Started {
  child: ChildProcess;
  output: () => string;
  wsUrl: string;
}

function start(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, hardhatCli("node", ...args), { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const on = (c: Buffer) => {
      out += c.toString();
      const ws = /WebSocket JSON-RPC server at (ws:\/\/\S+)/.exec(out);
      if (out.includes("Started HTTP and WebSocket JSON-RPC server at") && ws !== null) resolve({ child, output: () => out, wsUrl: ws[1] });
    };
    child.stdout?.on("data", on);
    child.stderr?.on("data", on);
    child.once("exit", (code) => reject(new Error(`node exited (${code}):\n${out}`)));
  });
}

describe("npx hardhat node: admin and db", function () {
  this.timeout(120_000);
  let home: string;
  let port: number;
  let node: Started | undefined;
  let url: string;
  const token = () => readFileSync(path.join(home, "jsonrpc.token"), "utf8").trim();
  const rpc = <T>(method: string, params: unknown[] = []): Promise<T> => rpcResult<T>(url, method, params, { authorization: `Bearer ${token()}` });
  const wsCall = async <T>(wsUrl: string, method: string, params: unknown[] = []): Promise<T> => {
    const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token()}` } });
    try {
      await new Promise<void>((res, rej) => {
        ws.once("open", () => res());
        ws.once("error", rej);
      });
      const reply = new Promise<{ result: T; error?: { message: string } }>((res) => ws.once("message", (b: Buffer) => res(JSON.parse(b.toString()))));
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
      const body = await reply;
      if (body.error !== undefined) throw new Error(body.error.message);
      return body.result;
    } finally {
      ws.close();
    }
  };

  before(async () => {
    home = mkdtempSync(path.join(tmpdir(), "epochs-admin-"));
    port = await freePort();
    url = `http://127.0.0.1:${port}/`;
  });
  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(home, { recursive: true, force: true });
  });

  it("answers admin_datadir and admin_nodeInfo for the running node", async () => {
    node = await start(["--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"]);
    expect(await rpc("admin_datadir")).to.equal(path.resolve(home));
    const info = await rpc<{ ports: { listener: number }; enode: string }>("admin_nodeInfo");
    expect(info.ports.listener).to.equal(port);
    expect(info.enode).to.match(new RegExp(`@127\\.0\\.0\\.1:${port}\\?discport=0$`));
  });

  it("stops and restarts the HTTP listener of the node", async () => {
    const ws = (node as Started).wsUrl;
    expect(await rpc("admin_stopHTTP")).to.equal(true);
    const err = await fetch(url, { method: "POST", body: "{}" }).then(
      () => undefined,
      (e: { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(err).to.equal("ECONNREFUSED");
    expect(await wsCall(ws, "admin_startHTTP", ["127.0.0.1", port])).to.equal(true);
    expect(await rpc("eth_chainId")).to.equal("0x2328");
    expect((node as Started).output()).to.include("HTTP JSON-RPC server stopped");
  });

  it("keeps db_* values across a restart", async () => {
    expect(await rpc("db_putString", ["app", "k", "survives"])).to.equal(true);
    await stopProcessGroup(node?.child);
    node = await start(["--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"]);
    expect(await rpc("db_getString", ["app", "k"])).to.equal("survives");
  });
});
