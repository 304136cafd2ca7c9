/**
 * One configuration system, the one the node runs with: a real
 * `npx hardhat node --home DIR` child process, an app.toml setting the keys, and each key's effect
 * observed over HTTP (or in the node's banner). One node serves a group of keys. The command line
 * sets a few of the same keys to show it wins (flags > app.toml > hardhat.config > defaults).
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { ROOT, type Started, freePort, hardhatCli, startNodeProcess, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";
import { post } from "../helpers/json-rpc";

const TOKEN = "app-toml-token";
/** Init code that returns gasleft() as 32 bytes: GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const GASLEFT = "0x5a60005260206000f3";

describe("npx hardhat node runs with what app.toml and the flags say", function () {
  this.timeout(120_000);
  let home: string;
  let node: Started | undefined;
  let appTomlPort: number;
  let flagPort: number;
  let wsPort: number;

  before(async () => {
    home = mkdtempSync(path.join(tmpdir(), "app-toml-"));
    mkdirSync(path.join(home, "config"));
    [appTomlPort, flagPort, wsPort] = [await freePort(), await freePort(), await freePort()];
    writeFileSync(
      path.join(home, "config", "app.toml"),
      `minimum-gas-prices = "50000000000aevmos"

[json-rpc]
address = "127.0.0.1:${appTomlPort}"
ws-address = "127.0.0.1:${wsPort}"
api = "eth,net,web3,evm,miner"
gas-cap = 100000
feehistory-cap = 2
filter-cap = 1
block-range-cap = 2
batch-request-limit = 3
body-limit = 2000
auth-token = "${TOKEN}"
allowed-origins = ["app.test"]
ws-origins = ["http://app.test:3000"]

[epochs]
tick-rule = "evmos"
`,
    );
    // --port over app.toml's address; --json-rpc.gas-cap over app.toml's gas-cap
    node = await startNodeProcess(
      process.execPath,
      hardhatCli("node", "--home", home, "--port", String(flagPort), "--json-rpc.gas-cap", "200000", "--json-rpc.allowed-origins", "tools.test,http://app.test:3000"),
      { cwd: ROOT },
    );
  });

  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(home, { recursive: true, force: true });
  });

  const url = () => node?.url as string;

  it("--port wins over app.toml's address (the host comes from the file)", async () => {
    expect(url()).to.equal(`http://127.0.0.1:${flagPort}/`);
    expect(
      await fetch(`http://127.0.0.1:${appTomlPort}/`).then(
        () => "answered",
        () => "refused",
      ),
    ).to.equal("refused");
  });

  it("ws-address and [epochs] tick-rule from app.toml", async () => {
    await waitForOutput(node as Started, `WebSocket JSON-RPC server at ws://127.0.0.1:${wsPort}/`);
    await waitForOutput(node as Started, 'epochs tick rule "evmos"');
  });

  it("batch-request-limit from app.toml reaches the server", async () => {
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId", params: [] })));
    expect(((await post(url(), batch(3))).json as unknown[]).length).to.equal(3);
    const refused = (await post(url(), batch(4))).json as { error: { message: string } };
    expect(refused.error.message).to.equal("batch too large: 4 requests, the limit is 3");
  });

  it("body-limit from app.toml reaches the server", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [], pad: "x".repeat(2100) });
    const res = await post(url(), big);
    expect(res.status).to.equal(413);
    expect((res.json as { error: { message: string } }).error.message).to.equal("request body too large: over 2000 bytes");
  });

  it("auth-token from app.toml is the bearer token (and the token file holds it)", async () => {
    expect((await rpc(url(), "miner_setExtra", ["0x"])).error?.code).to.equal(4100);
    expect((await rpc(url(), "miner_setExtra", ["0x"], { authorization: `Bearer ${TOKEN}` })).result).to.equal(true);
    expect(readFileSync(path.join(home, "jsonrpc.token"), "utf8").trim()).to.equal(TOKEN);
  });

  it("allowed-origins (the flag over app.toml's) and ws-origins (app.toml) reach the server and the banner", async () => {
    await waitForOutput(node as Started, "pages from localhost, 127.0.0.1, [::1], tools.test, http://app.test:3000");
    const dev = async (origin: string) => (await rpc(url(), "evm_increaseTime", [1], { origin })).error?.code;
    expect(await dev("http://tools.test:8000")).to.equal(undefined);
    expect(await dev("http://app.test:3000")).to.equal(undefined);
    expect(await dev("http://app.test:4000"), "app.toml's bare host, replaced by the flag").to.equal(4100);
    expect(await dev("http://localhost:5173")).to.equal(undefined);
    const upgrade = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url().replace("http", "ws"), { headers: { origin } });
        ws.once("open", () => {
          ws.close();
          resolve(101);
        });
        ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.once("error", reject);
      });
    expect(await upgrade("http://app.test:3000")).to.equal(101);
    expect(await upgrade("http://localhost:5173")).to.equal(403);
  });

  it("gas-cap reaches eth_call, and the flag's value wins over app.toml's", async () => {
    const gasLeft = BigInt((await rpc<string>(url(), "eth_call", [{ data: GASLEFT }, "latest"])).result as string);
    expect(gasLeft > 100_000n && gasLeft < 200_000n, String(gasLeft)).to.equal(true);
  });

  it("api, feehistory-cap, filter-cap and block-range-cap from app.toml", async () => {
    expect((await rpc(url(), "txpool_status")).error?.code).to.equal(-32601);
    expect((await rpc(url(), "eth_feeHistory", ["0x3", "latest", []])).error?.message).to.equal("FeeHistory user block count 3 higher than 2");
    expect((await rpc(url(), "eth_newBlockFilter")).result).to.be.a("string");
    expect((await rpc(url(), "eth_newBlockFilter")).error).to.not.equal(undefined);
    for (let i = 0; i < 4; i++) await rpc(url(), "evm_mine");
    expect((await rpc(url(), "eth_getLogs", [{ fromBlock: "0x0", toBlock: "0x4" }])).error?.message).to.equal("maximum [from, to] blocks distance: 2");
  });

  it("minimum-gas-prices from app.toml sets the node's minimum, refused with the same text as --minimum-gas-prices and miner_setGasPrice", async () => {
    expect(BigInt((await rpc<string>(url(), "eth_gasPrice")).result as string)).to.equal(50_000_000_000n);
    const from = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    const sent = await rpc(url(), "eth_sendTransaction", [{ from, to: from, gas: "0x5208", gasPrice: "0x3b9aca00" }]);
    expect(sent.error).to.deep.include({ code: -32000, message: "insufficient fee; got: 21000000000000aevmos required: 1050000000000000aevmos" });
  });

  it("json-rpc.enable = false in app.toml stops the start with a clear message", () => {
    const other = mkdtempSync(path.join(tmpdir(), "app-toml-off-"));
    try {
      mkdirSync(path.join(other, "config"));
      writeFileSync(path.join(other, "config", "app.toml"), "[json-rpc]\nenable = false\n");
      const r = spawnSync(process.execPath, hardhatCli("node", "--home", other, "--port", "0"), { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
      expect(r.status).to.not.equal(0);
      expect(r.stdout + r.stderr).to.include("json-rpc.enable = false leaves this node nothing to serve");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
