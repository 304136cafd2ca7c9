/**
 * `npx hardhat node --profile cosmos-evm` end to end (docs/profiles.md): the Cosmos SDK's x/epochs
 * (default genesis, REST paths and shapes, typed events over JSON-RPC and WebSocket, the SDK's tick
 * rule), cosmos/evm's JSON-RPC (the methods it removed answer -32601), the tasks reading the SDK's
 * REST form, and a home that records its profile.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { subscribeEpochs } from "../helpers/epochs-subscription";
import { hardhatCli, ROOT, type Started, freePort, startHardhatNode, stopProcessGroup } from "../helpers/processes";
import { rpc as rpcAt } from "../helpers/json-rpc";

type Attr = { key: string; value: string };
type Event = { type: string; attributes: Attr[]; timer?: string };

describe("npx hardhat node --profile cosmos-evm", function () {
  this.timeout(120_000);
  let node: Started | undefined;
  let url: string;
  let home: string;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const r = await rpcAt<T>(url, method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${r.error.message}`);
    return r.result as T;
  };
  const rest = async (p: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}${p}`);
    return { status: res.status, body: await res.json() };
  };

  before(async () => {
    home = mkdtempSync(path.join(tmpdir(), "epochs-profile-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    node = await startHardhatNode(["--profile", "cosmos-evm", "--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"]);
  });
  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(home, { recursive: true, force: true });
  });

  it("starts from the SDK's default genesis and records the profile in the new home's app.toml", async () => {
    const appToml = readFileSync(path.join(home, "config", "app.toml"), "utf8");
    expect(appToml).to.match(/^profile = "cosmos-evm"$/m);
    expect(appToml).to.match(/^tick-rule = "sdk"$/m);
    const genesis = JSON.parse(readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as { app_state: { epochs: { epochs: Array<{ identifier: string; duration: string }> } } };
    expect(genesis.app_state.epochs.epochs.map((e) => [e.identifier, e.duration])).to.deep.equal([
      ["day", "86400s"],
      ["hour", "3600s"],
      ["minute", "60s"],
      ["week", "604800s"],
    ]);
  });

  it("serves the SDK's REST paths and shapes, and not Evmos's", async () => {
    await rpc("evm_mine");
    const list = await rest("cosmos/epochs/v1beta1/epochs");
    expect(list.status).to.equal(200);
    const body = list.body as { epochs: Array<Record<string, unknown>> };
    expect(Object.keys(body)).to.deep.equal(["epochs"]); // no pagination
    expect(body.epochs.map((e) => e.identifier)).to.deep.equal(["day", "hour", "minute", "week"]);
    expect(Object.keys(body.epochs[0])).to.deep.equal(["identifier", "start_time", "duration", "current_epoch", "current_epoch_start_time", "epoch_counting_started", "current_epoch_start_height"]);
    expect(body.epochs[2]).to.deep.include({ identifier: "minute", duration: "60s", current_epoch: "1", epoch_counting_started: true, current_epoch_start_height: "1" });
    expect(await rest("cosmos/epochs/v1beta1/current_epoch?identifier=minute")).to.deep.equal({ status: 200, body: { current_epoch: "1" } });
    expect(await rest("cosmos/epochs/v1beta1/current_epoch?identifier=")).to.deep.equal({ status: 400, body: { code: 3, message: "identifier is empty", details: [] } });
    expect(await rest("cosmos/epochs/v1beta1/current_epoch?identifier=second")).to.deep.equal({ status: 500, body: { code: 2, message: "not available identifier", details: [] } });
    expect((await rest("evmos/epochs/v1/epochs")).status).to.equal(404);
  });

  it("writes the SDK's typed events, in epochs_blockEvents and to `epochs` subscribers", async () => {
    const { notes, close } = await subscribeEpochs(url);
    const minute = (await rest("cosmos/epochs/v1beta1/epochs")).body as { epochs: Array<{ identifier: string; current_epoch_start_time: string }> };
    const start = Math.floor(Date.parse(minute.epochs[2].current_epoch_start_time) / 1000);
    // strictly after the minute's end: the SDK's rule ticks "minute" once, in begin-block
    await rpc("evm_mine", [start + 61]);
    for (let i = 0; i < 100 && notes.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    close();
    const expected = [
      { phase: "begin_block", type: "cosmos.epochs.v1beta1.EventEpochEnd", attributes: [{ key: "epoch_number", value: '"1"' }] },
      {
        phase: "begin_block",
        type: "cosmos.epochs.v1beta1.EventEpochStart",
        attributes: [
          { key: "epoch_number", value: '"2"' },
          { key: "epoch_start_time", value: `"${start + 60}"` },
        ],
      },
    ];
    expect(notes.map((n) => ({ phase: n.phase, type: n.type, attributes: n.attributes }))).to.deep.equal(expected);
    const events = await rpc<{ begin_block_events: Event[]; end_block_events: Event[] }>("epochs_blockEvents", ["latest"]);
    expect(events.begin_block_events.map((e) => ({ type: e.type, attributes: e.attributes }))).to.deep.equal(expected.map(({ type, attributes }) => ({ type, attributes })));
    expect(events.end_block_events).to.deep.equal([]);
    // the typed events carry no identifier (as the SDK's): the node names their timer beside the attributes
    expect(notes.map((n) => n.timer)).to.deep.equal(["minute", "minute"]);
    expect(events.begin_block_events.map((e) => e.timer)).to.deep.equal(["minute", "minute"]);
    expect(await rest("cosmos/epochs/v1beta1/current_epoch?identifier=minute")).to.deep.equal({ status: 200, body: { current_epoch: "2" } });
  });

  it("answers the methods cosmos/evm removed with -32601 and geth's text, and serves what it added", async () => {
    for (const method of ["eth_coinbase", "eth_mining", "eth_hashrate", "eth_getPendingTransactions", "debug_seedHash"]) {
      expect((await rpcAt(url, method, method === "debug_seedHash" ? ["0x1"] : [])).error, method).to.deep.equal({ code: -32601, message: `the method ${method} does not exist/is not available` });
    }
    const header = await rpc<{ number: string }>("eth_getHeaderByNumber", ["latest"]);
    expect(header.number).to.equal(await rpc("eth_blockNumber"));
    expect(await rpc("eth_getBlockReceipts", ["latest"])).to.deep.equal([]);
    // Hardhat's network helpers accept the node
    expect(await rpc<string>("web3_clientVersion")).to.match(/^HardhatNetwork\//);
  });

  it("answers epochs:list and epochs:current --rest from the SDK's REST form", () => {
    const list = spawnSync(process.execPath, hardhatCli("epochs:list", "--rest", url), { cwd: ROOT, encoding: "utf8" });
    expect(list.status, list.stderr).to.equal(0);
    expect(list.stdout).to.match(/^minute\s+60s\s+2\s/m);
    const current = spawnSync(process.execPath, hardhatCli("epochs:current", "--identifier", "minute", "--rest", url), { cwd: ROOT, encoding: "utf8" });
    expect(current.stdout.trim()).to.equal("minute: current epoch 2");
  });

  it("keeps the profile its home records: another --profile is refused, none reuses it", async () => {
    await stopProcessGroup(node?.child);
    node = undefined;
    const port = new URL(url).port;
    const r = spawnSync(process.execPath, hardhatCli("node", "--profile", "evmos", "--home", home, "--port", port), { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(r.status).to.not.equal(0);
    expect(r.stderr + r.stdout).to.include(`--profile evmos: this home's chain is a "cosmos-evm" chain (${path.join(home, "config", "app.toml")}, [epochs] profile)`);
    node = await startHardhatNode(["--home", home, "--port", port, "--json-rpc.ws-address", "127.0.0.1:0"]);
    expect(await rest("cosmos/epochs/v1beta1/current_epoch?identifier=minute")).to.deep.equal({ status: 200, body: { current_epoch: "2" } });
  });
});
