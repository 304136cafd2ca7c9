import { expect } from "chai";
import { Interface } from "ethers";
import { FILTER_TIMEOUT_MS } from "../../src/rpc/filters/filter-manager";
import { compile } from "../helpers/solc";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Emitter {
  event Ping(uint256 indexed n, string note);
  function ping(uint256 n) external { emit Ping(n, "hi"); }
  function many(uint256 k) external { for (uint256 i = 0; i < k; i++) emit Ping(i, "x"); }
}`;

for (const make of harnesses()) {
  describe(`filters and eth_getLogs caps (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let now = 1_000_000;
    let from: string;
    let emitter: string;
    const c = compile(SOURCE).Emitter;
    const iface = new Interface(c.abi as never);
    const ping = (n: number) => h.request<string>("eth_sendTransaction", [{ from, to: emitter, data: iface.encodeFunctionData("ping", [n]) }]);

    before(async () => {
      h = await make.create({ now: () => now, rpc: { filterCap: 5, logsCap: 10, blockRangeCap: 50 } });
      from = (await h.request<string[]>("eth_accounts"))[0];
      const hash = await h.request<string>("eth_sendTransaction", [{ from, data: c.bytecode }]);
      emitter = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
    });
    after(() => h.close());

    it("block filter answers only the hashes mined since the last poll", async () => {
      const id = await h.request<string>("eth_newBlockFilter");
      expect(await h.request("eth_getFilterChanges", [id])).to.deep.equal([]);
      await h.request("evm_mine");
      await h.request("evm_mine");
      const changes = await h.request<string[]>("eth_getFilterChanges", [id]);
      expect(changes).to.have.length(2);
      const latest = await h.request<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
      expect(changes[1]).to.equal(latest.hash);
      expect(await h.request("eth_getFilterChanges", [id])).to.deep.equal([]);
      expect(await h.request("eth_uninstallFilter", [id])).to.equal(true);
      expect(await h.request("eth_uninstallFilter", [id])).to.equal(false);
    });

    it("log filter answers matching logs; getFilterLogs re-runs the criteria", async () => {
      const topic = iface.getEvent("Ping")!.topicHash;
      const id = await h.request<string>("eth_newFilter", [{ address: emitter, topics: [topic, "0x" + "00".repeat(31) + "02"] }]);
      await ping(1);
      await ping(2);
      const changes = await h.request<Array<{ topics: string[] }>>("eth_getFilterChanges", [id]);
      expect(changes).to.have.length(1);
      expect(changes[0].topics[1]).to.equal("0x" + "00".repeat(31) + "02");
      const all = await h.request<unknown[]>("eth_getFilterLogs", [id]);
      expect(all).to.deep.equal(changes);
      await h.request("eth_uninstallFilter", [id]);
    });

    it("pending transaction filter sees transactions entering the pool", async () => {
      const id = await h.request<string>("eth_newPendingTransactionFilter");
      const hash = await ping(9);
      expect(await h.request("eth_getFilterChanges", [id])).to.deep.equal([hash]);
      const err = await rpcError(h.request("eth_getFilterLogs", [id]));
      expect(err).to.deep.include({ code: -32000, message: `filter ${id} doesn't have a LogsSubscription type: got 4` });
      await h.request("eth_uninstallFilter", [id]);
    });

    it("expires a filter 5 minutes after its last poll", async () => {
      const id = await h.request<string>("eth_newBlockFilter");
      now += FILTER_TIMEOUT_MS - 1000;
      await h.request("eth_getFilterChanges", [id]);
      now += FILTER_TIMEOUT_MS - 1000;
      expect(await h.request("eth_getFilterChanges", [id])).to.deep.equal([]);
      now += FILTER_TIMEOUT_MS + 1;
      const err = await rpcError(h.request("eth_getFilterChanges", [id]));
      expect(err).to.deep.include({ code: -32000, message: `filter ${id} not found` });
    });

    it("caps the number of live filters", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await h.request<string>("eth_newBlockFilter"));
      expect(await rpcError(h.request("eth_newBlockFilter"))).to.deep.include({ code: -32000, message: "error creating block filter: max limit reached" });
      expect(await rpcError(h.request("eth_newFilter", [{}]))).to.deep.include({ code: -32000, message: "error creating filter: max limit reached" });
      for (const id of ids) await h.request("eth_uninstallFilter", [id]);
    });

    it("caps eth_getLogs by block range and result count, with Evmos's texts", async () => {
      await h.request("hardhat_mine", ["0x40"]);
      const range = await rpcError(h.request("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }]));
      expect(range).to.deep.include({ code: -32000, message: "maximum [from, to] blocks distance: 50" });
      await h.request("eth_sendTransaction", [{ from, to: emitter, data: iface.encodeFunctionData("many", [11]) }]);
      const many = await rpcError(h.request("eth_getLogs", [{ fromBlock: "latest" }]));
      expect(many).to.deep.include({ code: -32000, message: "query returned more than 10 results" });
      const inverted = await rpcError(h.request("eth_getLogs", [{ fromBlock: "0x5", toBlock: "0x4" }]));
      expect(inverted.code).to.equal(-32000);
      const byHash = await h.request<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
      const conflict = await rpcError(h.request("eth_getLogs", [{ blockHash: byHash.hash, fromBlock: "0x1" }]));
      expect(conflict.code).to.equal(-32602);
    });

    it("subscribes where notifications can be delivered (provider events, WebSocket) and refuses over plain HTTP", async () => {
      if (h.name === "http") {
        expect(await rpcError(h.request("eth_subscribe", ["newHeads"]))).to.deep.include({ code: -32000, message: "notifications not supported" });
      } else {
        const id = await h.request<string>("eth_subscribe", ["newHeads"]);
        expect(id).to.match(/^0x[0-9a-f]{32}$/);
        expect(await h.request("eth_unsubscribe", [id])).to.equal(true);
      }
    });
  });
}
