/**
 * Replays leave the chain alone: tracing older blocks (debug_traceTransaction,
 * debug_traceBlockByNumber) re-runs their begin/end-block on scratch stores, so the epochs queries
 * (RPC and REST) answer the same before and after, TypeScript hooks are not called again (contract
 * hooks are, inside the replay only), and blocks mined while traces run write to the live store.
 */
import { expect } from "chai";
import { newEpochInfo } from "../../src/epochs";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import type { Harness } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";
import type { Receipt } from "../helpers/trace-corpus";

interface EventsJson {
  begin_block_events: Array<{ type: string }>;
  end_block_events: Array<{ type: string }>;
}

for (const make of harnesses()) {
  describe(`replays leave the chain alone (${make.name})`, function () {
    this.timeout(120_000);
    let h: Harness;
    let rest: JsonRpcServer;
    let restUrl: string;
    let from: string;
    /** TypeScript hook calls, as "end 10s 1" / "start 10s 2". */
    const calls: string[] = [];
    /** One transaction per epoch, oldest first, with the epoch its block ran in. */
    const txs: Array<{ hash: string; block: string; epoch: string }> = [];

    const rpcEpoch = async () => (await h.request<{ current_epoch: string }>("epochs_currentEpoch", ["10s"])).current_epoch;
    const restEpoch = async () => ((await (await fetch(`${restUrl}evmos/epochs/v1/current_epoch?identifier=10s`)).json()) as { current_epoch: string }).current_epoch;
    const restInfos = async () => (await fetch(`${restUrl}evmos/epochs/v1/epochs`)).json();
    /** Epoch starts recorded in the chain's own events, over every block so far. */
    const startsInEvents = async () => {
      const head = BigInt(await h.request<string>("eth_blockNumber"));
      let starts = 0;
      for (let n = 1n; n <= head; n++) {
        const ev = await h.request<EventsJson>("epochs_blockEvents", [`0x${n.toString(16)}`]);
        starts += [...ev.begin_block_events, ...ev.end_block_events].filter((e) => e.type === "epoch_start").length;
      }
      return starts;
    };

    before(async () => {
      h = await make.create({ epochs: { genesis: { epochs: [newEpochInfo("10s", 10n)] } } });
      const hooks = h.runtime.epochs!.tsHooks;
      hooks.onAfterEpochEnd((id, n) => void calls.push(`end ${id} ${n}`));
      hooks.onBeforeEpochStart((id, n) => void calls.push(`start ${id} ${n}`));
      rest = new JsonRpcServer(h.runtime.dispatcher, { host: "127.0.0.1", port: 0 });
      h.runtime.mountRest(rest.rest);
      restUrl = `http://127.0.0.1:${(await rest.listen()).httpAddress.port}/`;
      [from] = await h.request<string[]>("eth_accounts");
      // four epochs, one transaction in each: every block that carries one started an epoch in its begin-block
      for (let i = 0; i < 4; i++) {
        if (i > 0) {
          await h.request("evm_increaseTime", [11]);
          await h.request("evm_mine"); // ends the epoch (end-block)
        }
        const hash = await h.request<string>("eth_sendTransaction", [{ from, to: from, value: "0x1" }]);
        const r = await h.request<Receipt>("eth_getTransactionReceipt", [hash]);
        txs.push({ hash, block: r.blockNumber, epoch: await rpcEpoch() });
      }
    });
    after(async () => {
      await rest.close();
      await h.close();
    });

    it("the chain ran four epochs, a TypeScript hook call for each start and end", async () => {
      expect(txs.map((t) => t.epoch)).to.deep.equal(["1", "2", "3", "4"]);
      expect(calls).to.deep.equal(["start 10s 1", "end 10s 1", "start 10s 2", "end 10s 2", "start 10s 3", "end 10s 3", "start 10s 4"]);
    });

    it("epochs queries (RPC and REST) answer the same after traces of older blocks, and no TypeScript hook runs again", async () => {
      const before = { rpc: await rpcEpoch(), rest: await restEpoch(), infos: await restInfos(), rpcInfos: await h.request("epochs_epochInfos"), calls: [...calls] };
      expect(before.rpc).to.equal("4");
      expect(before.rest).to.equal("4");
      // the oldest block re-runs the start of epoch 1 on its scratch store; the others, later starts
      await h.request("debug_traceTransaction", [txs[0].hash]);
      for (const t of txs) await h.request("debug_traceBlockByNumber", [t.block, { tracer: "callTracer" }]);
      await h.request("debug_traceTransaction", [txs[1].hash, { tracer: "prestateTracer" }]);
      expect(await rpcEpoch()).to.equal(before.rpc);
      expect(await restEpoch()).to.equal(before.rest);
      expect(await restInfos()).to.deep.equal(before.infos);
      expect(await h.request("epochs_epochInfos")).to.deep.equal(before.rpcInfos);
      expect(calls).to.deep.equal(before.calls);
    });

    it("the next epoch after the traces is counted on the live store, its hooks called once", async () => {
      const seen = calls.length;
      await h.request("evm_increaseTime", [11]);
      await h.request("evm_mine");
      await h.request("evm_mine");
      expect(await rpcEpoch()).to.equal("5");
      expect(await restEpoch()).to.equal("5");
      expect(calls.slice(seen)).to.deep.equal(["end 10s 4", "start 10s 5"]);
    });

    it("blocks mined while traces run keep their epoch writes (traces take no lock)", async () => {
      const work: Array<Promise<unknown>> = [];
      // traces of older blocks, started between the steps of mining blocks that cross epochs
      for (let i = 0; i < 6; i++) {
        work.push(h.request("debug_traceBlockByNumber", [txs[i % txs.length].block]));
        work.push(h.request("evm_increaseTime", [11]).then(() => h.request("evm_mine")));
        work.push(h.request("debug_traceTransaction", [txs[(i + 1) % txs.length].hash]));
      }
      await Promise.all(work);
      await h.request("evm_mine");
      // the live store counts every start the blocks recorded, and every hook call was made once
      const starts = await startsInEvents();
      expect(await rpcEpoch()).to.equal(String(starts));
      expect(await restEpoch()).to.equal(String(starts));
      expect(new Set(calls).size).to.equal(calls.length);
      expect(calls.filter((c) => c.startsWith("start")).length).to.equal(starts);
    });
  });
}
