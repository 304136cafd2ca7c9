/** db_* (the node's key-value databases) and clique_* (one block producer), in-process and over HTTP. */
import { expect } from "chai";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";
import { NodeDb } from "../../src/storage/node-db";

for (const make of harnesses()) {
  describe(`db and clique (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    before(async () => {
      h = await make.create();
    });
    after(() => h.close());

    it("stores and reads strings and bytes per (database, key)", async () => {
      expect(await h.request("db_putString", ["app", "greeting", "héllo"])).to.equal(true);
      expect(await h.request("db_getString", ["app", "greeting"])).to.equal("héllo");
      expect(await h.request("db_getHex", ["app", "greeting"])).to.equal("0x68c3a96c6c6f");
      expect(await h.request("db_putHex", ["app", "blob", "0x00ff10"])).to.equal(true);
      expect(await h.request("db_getHex", ["app", "blob"])).to.equal("0x00ff10");
      expect(await h.request("db_putHex", ["app", "empty", "0x"])).to.equal(true);
      expect(await h.request("db_getHex", ["app", "empty"])).to.equal("0x");
      // overwrite, and databases are separate namespaces (no "ab"+"c" = "a"+"bc" collision)
      await h.request("db_putString", ["app", "greeting", "bye"]);
      expect(await h.request("db_getString", ["app", "greeting"])).to.equal("bye");
      await h.request("db_putString", ["ab", "c", "one"]);
      await h.request("db_putString", ["a", "bc", "two"]);
      expect(await h.request("db_getString", ["ab", "c"])).to.equal("one");
      expect(await h.request("db_getString", ["a", "bc"])).to.equal("two");
    });

    it("answers not found, blank names and bad values with errors", async () => {
      expect(await rpcError(h.request("db_getString", ["app", "nope"]))).to.deep.include({ code: -32000, message: "not found" });
      expect(await rpcError(h.request("db_getHex", ["other", "greeting"]))).to.deep.include({ code: -32000, message: "not found" });
      expect(await rpcError(h.request("db_putString", ["", "k", "v"]))).to.deep.include({ code: -32602, message: "invalid argument 0: database cannot be blank" });
      expect(await rpcError(h.request("db_getString", ["app", ""]))).to.deep.include({ code: -32602, message: "invalid argument 1: key cannot be blank" });
      expect((await rpcError(h.request("db_putHex", ["app", "k", "0xabc"]))).code).to.equal(-32602);
      expect((await rpcError(h.request("db_putString", ["app", "k"]))).message).to.equal("missing value for required argument 2");
      await h.request("db_putHex", ["app", "binary", "0xff00"]);
      expect(await rpcError(h.request("db_getString", ["app", "binary"]))).to.deep.include({ code: -32000, message: "the stored value is not UTF-8 text: read it with db_getHex" });
    });

    it("keeps node-local data across hardhat_reset: a store of the node's own, not the chain's", async () => {
      await h.request("db_putString", ["app", "before-reset", "old"]);
      const oldKv = h.runtime.node.store.kv;
      expect(await h.request("hardhat_reset")).to.equal(true);
      expect(h.runtime.node.store.kv).to.not.equal(oldKv);
      expect(await h.request("db_getString", ["app", "before-reset"])).to.equal("old");
      expect(await h.request("db_putString", ["app", "after-reset", "new"])).to.equal(true);
      expect(await h.request("db_getString", ["app", "after-reset"])).to.equal("new");
      const key = (s: string) => new TextEncoder().encode(s);
      expect(new TextDecoder().decode(await new NodeDb(h.runtime.node.nodeKv).get(key("app"), key("after-reset")))).to.equal("new");
      // not in any chain's store: the chain's data and the node's do not mix
      expect(await new NodeDb(h.runtime.node.store.kv).get(key("app"), key("after-reset"))).to.equal(undefined);
      expect(await new NodeDb(oldKv).get(key("app"), key("before-reset"))).to.equal(undefined);
    });

    it("answers clique with the one block producer, in geth's shapes", async () => {
      const coinbase = "0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e";
      expect(await h.request("clique_getSigners")).to.deep.equal([coinbase]);
      expect(await h.request("clique_getSigners", ["0x0"])).to.deep.equal([coinbase]);
      const genesis = await h.request<{ hash: string }>("eth_getBlockByNumber", ["0x0", false]);
      expect(await h.request("clique_getSnapshot", ["0x0"])).to.deep.equal({ number: 0, hash: genesis.hash, signers: { [coinbase]: {} }, recents: {}, votes: [], tally: {} });
      await h.request("evm_mine");
      await h.request("evm_mine");
      const head = await h.request<{ hash: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
      const n = Number(head.number);
      const snap = { number: n, hash: head.hash, signers: { [coinbase]: {} }, recents: { [String(n)]: coinbase }, votes: [], tally: {} };
      expect(await h.request("clique_getSnapshot")).to.deep.equal(snap);
      expect(await h.request("clique_getSnapshotAtHash", [head.hash])).to.deep.equal(snap);
      expect(await h.request("clique_getSignersAtHash", [head.hash])).to.deep.equal([coinbase]);
      expect(await h.request("clique_proposals")).to.deep.equal({});
      const status = await h.request<{ inturnPercent: number; sealerActivity: Record<string, number>; numBlocks: number }>("clique_status");
      expect(status).to.deep.equal({ inturnPercent: 100, sealerActivity: { [coinbase]: n - 1 }, numBlocks: n - 1 });
    });

    it("follows miner_setEtherbase and refuses votes and unknown blocks with reasons", async () => {
      const other = "0x00000000000000000000000000000000000000aa";
      await h.request("miner_setEtherbase", [other]);
      await h.request("evm_mine");
      expect(await h.request("clique_getSigners")).to.deep.equal([other]);
      expect(await h.request("clique_getSigners", ["0x1"])).to.deep.equal(["0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e"]);
      expect(await rpcError(h.request("clique_getSnapshot", ["0xffff"]))).to.deep.include({ code: -32000, message: "unknown block" });
      expect(await rpcError(h.request("clique_getSnapshotAtHash", ["0x" + "11".repeat(32)]))).to.deep.include({ code: -32000, message: "unknown block" });
      for (const [m, params] of [
        ["clique_propose", [other, true]],
        ["clique_discard", [other]],
      ] as const) {
        const err = await rpcError(h.request(m, [...params]));
        expect(err.code).to.equal(-32000);
        expect(err.message).to.match(new RegExp(`^${m} is not available: a single-node dev chain has one block producer`));
      }
    });
  });
}
