/**
 * Otterscan's API on this node alone (test/rpc/ots-anvil.test.ts compares it with Anvil's): the
 * address index follows evm_revert, unknown things answer empty, bad parameters -32602.
 */
import { expect } from "chai";
import type { Harness } from "../helpers/harness";
import { rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

interface Page {
  txs: Array<{ hash: string }>;
  firstPage: boolean;
  lastPage: boolean;
}

for (const make of harnesses()) {
  describe(`ots_* (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let from: string;
    let to: string;

    before(async () => {
      h = await make.create();
      [from, to] = await h.request<string[]>("eth_accounts");
    });
    after(async () => h?.close());

    it("the address index drops what evm_revert takes back, and finds what comes after", async () => {
      const kept = await h.request<string>("eth_sendTransaction", [{ from, to, value: "0x1" }]);
      const id = await h.request<string>("evm_snapshot");
      const dropped = await h.request<string>("eth_sendTransaction", [{ from, to, value: "0x2" }]);
      expect((await h.request<Page>("ots_searchTransactionsBefore", [to, 0, 10])).txs.map((t) => t.hash)).to.deep.equal([dropped, kept]);
      expect(await h.request("evm_revert", [id])).to.equal(true);
      expect((await h.request<Page>("ots_searchTransactionsBefore", [to, 0, 10])).txs.map((t) => t.hash)).to.deep.equal([kept]);
      const again = await h.request<string>("eth_sendTransaction", [{ from, to, value: "0x3" }]);
      const page = await h.request<Page>("ots_searchTransactionsBefore", [to, 0, 10]);
      expect(page.txs.map((t) => t.hash)).to.deep.equal([again, kept]);
      expect([page.firstPage, page.lastPage]).to.deep.equal([true, true]);
      expect(await h.request("ots_getTransactionBySenderAndNonce", [from, 1])).to.equal(again);
    });

    it("unknown transactions, accounts and blocks answer empty, not errors", async () => {
      const none = `0x${"ab".repeat(32)}`;
      expect(await h.request("ots_getInternalOperations", [none])).to.deep.equal([]);
      expect(await h.request("ots_traceTransaction", [none])).to.deep.equal([]);
      expect(await h.request("ots_getTransactionError", [none])).to.equal("0x");
      expect(await h.request("ots_getBlockDetails", [10_000])).to.equal(null);
      expect(await h.request("ots_getBlockTransactions", [10_000, 0, 5])).to.equal(null);
      expect(await h.request("ots_getContractCreator", [to])).to.equal(null);
      expect(await h.request("ots_hasCode", [to, "latest"])).to.equal(false);
      expect(await h.request("ots_searchTransactionsAfter", [`0x${"cd".repeat(20)}`, 0, 5])).to.deep.equal({ txs: [], receipts: [], firstPage: true, lastPage: true });
    });

    it("refuses bad parameters with -32602", async () => {
      for (const [m, params] of [
        ["ots_getBlockTransactions", [1, -1, 5]],
        ["ots_getBlockTransactions", [1, 0, "ten"]],
        ["ots_getBlockDetails", [-3]],
        ["ots_searchTransactionsBefore", ["0x12", 0, 5]],
        ["ots_getTransactionBySenderAndNonce", [from, "x"]],
        ["erigon_getHeaderByNumber", ["soon"]],
      ] as const) {
        expect((await rpcError(h.request(m, [...params]))).code, m).to.equal(-32602);
      }
      expect(await h.request("eth_blockNumber")).to.be.a("string");
    });
  });
}
