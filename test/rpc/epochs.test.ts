import { expect } from "chai";
import { subscribeEpochs } from "../helpers/epochs-subscription";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { newEpochInfo, seconds } from "../../src/epochs";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { rpc as rpcAt } from "../helpers/json-rpc";

describe("epochs over JSON-RPC, REST and WebSocket", function () {
  this.timeout(60_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  const rpc = (method: string, params: unknown[] = []) => rpcAt(url, method, params);

  before(async () => {
    const genesis = { epochs: ["week", "day", "hour", "10s"].map((id, i) => newEpochInfo(id, BigInt([604800, 86400, 3600, 10][i]))) };
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { genesis } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
    runtime.mountRest(server.rest);
    url = `http://127.0.0.1:${(await server.listen()).httpAddress.port}/`;
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("lists EpochInfos in identifier-byte order with Cosmos pagination", async () => {
    const all = (await rpc("epochs_epochInfos")).result as { epochs: Array<{ identifier: string; duration: string; current_epoch: string }>; pagination: { next_key: string | null; total: string } };
    expect(all.epochs.map((e) => e.identifier)).to.deep.equal(["10s", "day", "hour", "week"]);
    expect(all.epochs[1]).to.include({ duration: "86400s", current_epoch: "0" });
    expect(all.pagination).to.deep.equal({ next_key: null, total: "4" });
    const page = (await rpc("epochs_epochInfos", [{ limit: "2", count_total: true }])).result as { epochs: Array<{ identifier: string }>; pagination: { next_key: string; total: string } };
    expect(page.epochs.map((e) => e.identifier)).to.deep.equal(["10s", "day"]);
    expect(Buffer.from(page.pagination.next_key, "base64").toString()).to.equal("hour");
    const byKey = (await rpc("epochs_epochInfos", [{ key: page.pagination.next_key, limit: "5" }])).result as { epochs: Array<{ identifier: string }>; pagination: { total: string } };
    expect(byKey.epochs.map((e) => e.identifier)).to.deep.equal(["hour", "week"]);
    expect(byKey.pagination.total).to.equal("0");
    const both = await rpc("epochs_epochInfos", [{ key: "aG91cg==", offset: 1 }]);
    expect(both.error?.message).to.equal("invalid argument 0: invalid request, either offset or key is expected, got both");
  });

  it("answers the current epoch, and -32000 for an unknown identifier", async () => {
    await rpc("evm_mine");
    expect((await rpc("epochs_currentEpoch", ["day"])).result).to.deep.equal({ current_epoch: "1" });
    expect((await rpc("epochs_currentEpoch", ["Day"])).error).to.deep.equal({ code: -32000, message: "epoch info not found: Day" });
  });

  it("serves Evmos's REST paths with the gateway's error body", async () => {
    const list = (await (await fetch(`${url}evmos/epochs/v1/epochs?pagination.limit=1&pagination.reverse=true`)).json()) as { epochs: Array<{ identifier: string }>; pagination: { next_key: string } };
    expect(list.epochs.map((e) => e.identifier)).to.deep.equal(["week"]);
    expect(Buffer.from(list.pagination.next_key, "base64").toString()).to.equal("hour");
    const cur = await fetch(`${url}evmos/epochs/v1/current_epoch?identifier=week`);
    expect(await cur.json()).to.deep.equal({ current_epoch: "1" });
    const missing = await fetch(`${url}evmos/epochs/v1/current_epoch?identifier=second`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ code: 5, message: "epoch info not found: second", details: [] });
  });

  it("records begin/end-block events per block and pushes them to `epochs` subscribers", async () => {
    const { notes, close } = await subscribeEpochs(url);
    const head = (await rpc("eth_getBlockByNumber", ["latest", false])).result as { timestamp: string };
    await rpc("evm_mine", [Number(BigInt(head.timestamp) + 11n)]); // ends the 10s epoch (end-block)
    await rpc("evm_mine", [Number(BigInt(head.timestamp) + 12n)]); // starts the next (begin-block)
    for (let i = 0; i < 50 && notes.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    close();
    expect(notes.map((n) => `${n.phase}:${n.type}`)).to.deep.equal(["end_block:epoch_end", "begin_block:epoch_start"]);
    expect(notes[0].attributes).to.deep.equal([
      { key: "epoch_number", value: "1" },
      { key: "identifier", value: "10s" },
    ]);
    const events = (await rpc("epochs_blockEvents", ["latest"])).result as { height: string; begin_block_events: Array<{ type: string }>; end_block_events: unknown[] };
    expect(events.begin_block_events.map((e) => e.type)).to.deep.equal(["epoch_start"]);
    expect(events.end_block_events).to.deep.equal([]);
    expect((await rpc("epochs_blockEvents", ["0xffff"])).result).to.equal(null);
  });

  it("refuses an invalid genesis at start with the record and the reason", async () => {
    let message = "";
    try {
      await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { genesis: { epochs: [newEpochInfo("day", 0n, seconds(0n))] } } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.equal("invalid epochs genesis: epochs[0]: epoch duration cannot be 0");
  });
});
