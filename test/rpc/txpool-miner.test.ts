import { expect } from "chai";
import { getAddress } from "ethers";
import { CORE_NAMESPACES } from "../../src/app/runtime";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

for (const make of harnesses()) {
  describe(`txpool, miner and the unsupported namespaces (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let accounts: string[];
    before(async () => {
      h = await make.create();
      accounts = await h.request<string[]>("eth_accounts");
    });
    after(() => h.close());

    it("reports real pool content in geth's formats, nonce gaps as queued", async () => {
      await h.request("miner_stop");
      try {
        const from = accounts[4];
        await h.request("eth_sendTransaction", [{ from, to: accounts[1], value: "0x7", nonce: "0x0", gas: "0x5208", gasPrice: "0x77359400" }]);
        await h.request("eth_sendTransaction", [{ from, to: accounts[1], value: "0x7", nonce: "0x2", gas: "0x5208", gasPrice: "0x77359400" }]);
        expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x1", queued: "0x1" });
        const content = await h.request<{ pending: Record<string, Record<string, { nonce: string; blockHash: null }>>; queued: Record<string, Record<string, unknown>> }>("txpool_content");
        const key = getAddress(from);
        expect(Object.keys(content.pending)).to.deep.equal([key]);
        expect(content.pending[key]["0"].nonce).to.equal("0x0");
        expect(content.pending[key]["0"].blockHash).to.equal(null);
        expect(Object.keys(content.queued[key])).to.deep.equal(["2"]);
        const inspect = await h.request<{ pending: Record<string, Record<string, string>> }>("txpool_inspect");
        expect(inspect.pending[key]["0"]).to.equal(`${getAddress(accounts[1])}: 7 wei + 21000 gas × 2000000000 wei`);
        expect(await h.request("eth_mining")).to.equal(false);
      } finally {
        await h.request("miner_start");
      }
      expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x1" });
      expect(await h.request("eth_mining")).to.equal(true);
    });

    it("under automine, answers a send behind a nonce gap once the gap is filled and its block mined; unfilled, with its hash alone", async () => {
      const from = accounts[7];
      const tx = (nonce: number) => ({ from, to: accounts[1], value: "0x1", nonce: `0x${nonce.toString(16)}`, gas: "0x5208", gasPrice: "0x77359400" });
      const base = Number(await h.request<string>("eth_getTransactionCount", [from, "latest"]));
      // earlier tests leave future transactions of other accounts queued
      const queued = async (): Promise<number> => Number((await h.request<{ queued: string }>("txpool_status")).queued);
      const q0 = await queued();
      // nonce base+1 arrives first: its send waits (outside the node's lock) for base, then for its block
      let answered = false;
      const later = h.request<string>("eth_sendTransaction", [tx(base + 1)]).then((hash) => {
        answered = true;
        return hash;
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(answered).to.equal(false);
      expect(await queued()).to.equal(q0 + 1);
      const first = await h.request<string>("eth_sendTransaction", [tx(base)]);
      const second = await later;
      const [r0, r1] = await Promise.all([first, second].map((x) => h.request<{ blockNumber: string; status: string } | null>("eth_getTransactionReceipt", [x])));
      expect(r0?.status).to.equal("0x1");
      expect(r1?.status).to.equal("0x1");
      expect(await h.request("eth_getTransactionCount", [from, "latest"])).to.equal(`0x${(base + 2).toString(16)}`);
      // a gap nobody fills: the send answers its hash after its wait (2 s), and the transaction stays queued
      const t0 = Date.now();
      const stuck = await h.request<string>("eth_sendTransaction", [tx(base + 5)]);
      expect(Date.now() - t0).to.be.greaterThanOrEqual(1900);
      expect(await h.request("eth_getTransactionReceipt", [stuck])).to.equal(null);
      expect(await queued()).to.equal(q0 + 1);
    });

    it("with mining stopped, admits a send behind a nonce gap into the queue (same admission rules, nothing mined)", async () => {
      const from = accounts[8];
      const base = Number(await h.request<string>("eth_getTransactionCount", [from, "latest"]));
      const q0 = Number((await h.request<{ queued: string }>("txpool_status")).queued);
      await h.request("miner_stop");
      try {
        await h.request("eth_sendTransaction", [{ from, to: accounts[1], value: "0x1", nonce: `0x${(base + 3).toString(16)}`, gas: "0x5208", gasPrice: "0x77359400" }]);
        expect(Number((await h.request<{ queued: string }>("txpool_status")).queued)).to.equal(q0 + 1);
      } finally {
        await h.request("miner_start");
      }
    });

    it("sets extra data, gas limit and etherbase of later blocks", async () => {
      await h.request("miner_setExtra", ["0x6869"]);
      await h.request("miner_setGasLimit", ["0x1c9c380"]);
      await h.request("miner_setEtherbase", [accounts[9]]);
      await h.request("evm_mine");
      const b = await h.request<{ extraData: string; gasLimit: string; miner: string }>("eth_getBlockByNumber", ["latest", false]);
      expect(b).to.include({ extraData: "0x6869", gasLimit: "0x1c9c380", miner: accounts[9] });
      expect(await h.request("eth_coinbase")).to.equal(getAddress(accounts[9]));
      const tooLong = await rpcError(h.request("miner_setExtra", ["0x" + "00".repeat(33)]));
      expect(tooLong.code).to.equal(-32602);
      expect(await h.request("miner_getHashrate")).to.equal(0);
    });

    it("keeps pooled transactions below a raised minimum gas price unmined, and mines them once it is lowered", async () => {
      const from = accounts[6];
      await h.request("miner_stop");
      let hash = "";
      try {
        hash = await h.request<string>("eth_sendTransaction", [{ from, to: accounts[1], value: "0x1", gas: "0x5208", gasPrice: "0x77359400" }]);
        await h.request("miner_setGasPrice", ["0x174876e800"]);
      } finally {
        await h.request("miner_start");
      }
      const head = await h.request<string>("eth_blockNumber");
      await h.request("evm_mine");
      expect(await h.request("eth_getTransactionReceipt", [hash])).to.equal(null);
      expect(await h.request("txpool_status")).to.deep.include({ pending: "0x1" });
      await h.request("miner_setGasPrice", ["0x3b9aca00"]);
      const r = await h.request<{ status: string; blockNumber: string }>("eth_getTransactionReceipt", [hash]);
      expect(r.status).to.equal("0x1");
      expect(BigInt(r.blockNumber)).to.equal(BigInt(head) + 2n);
      expect(await h.request("txpool_status")).to.deep.include({ pending: "0x0" });
      await h.request("miner_setGasPrice", ["0x0"]);
    });

    it("refuses a transaction below a raised minimum gas price", async () => {
      await h.request("miner_setGasPrice", ["0x174876e800"]);
      try {
        const err = await rpcError(h.request("eth_sendTransaction", [{ from: accounts[5], to: accounts[1], gasPrice: "0x3b9aca00", gas: "0x5208" }]));
        expect(err.code).to.equal(-32000);
        expect(err.message).to.equal("insufficient fee; got: 21000000000000aevmos required: 2100000000000000aevmos");
      } finally {
        await h.request("miner_setGasPrice", ["0x0"]);
      }
    });

    it("answers spec-named methods without meaning here with a reason, not -32601", async () => {
      for (const m of ["shh_version", "les_serverInfo", "eth_submitWork", "eth_compileSolidity"]) {
        const err = await rpcError(h.request(m, []));
        expect(err.code, m).to.equal(-32000);
        expect(err.message, m).to.match(/is not available: /);
      }
      // the spec's misspelled names answer as the correctly spelled methods do
      expect(await h.request("eth_getTransactionbyBlockNumberAndIndex", ["0x0", "0x0"])).to.equal(null);
      expect(await h.request("eth_getUncleCountByBlockHashEthN", ["0x" + "00".repeat(32)])).to.equal(null);
    });

    it("lists every namespace the dispatcher serves", () => {
      // cosmos_* come with the staking module (on under cosmos-evm; this chain is evmos's default)
      expect([...CORE_NAMESPACES].filter((n) => n !== "cosmos").sort()).to.deep.equal(h.runtime.dispatcher.namespaces());
    });
  });
}
