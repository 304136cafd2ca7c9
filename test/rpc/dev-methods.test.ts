import { expect } from "chai";
import type { BlockModule } from "../../src/chain/base/module";
import { type Harness, inProcess, rpcError, testChainConfig } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

/** A module that counts blocks in its store and records the phase order, to prove the seam and snapshots. */
function counterModule(order: string[]): BlockModule {
  const key = new Uint8Array([1]);
  return {
    name: "counter",
    initGenesis: (ctx) => ctx.store.set(key, new Uint8Array([0])),
    beginBlock: (ctx) => {
      order.push(`begin:${ctx.height}`);
      const v = ctx.store.get(key)?.[0] ?? 0;
      ctx.store.set(key, new Uint8Array([v + 1]));
      ctx.emit({ type: "counted", attributes: [{ key: "value", value: String(v + 1) }] });
    },
    endBlock: (ctx) => {
      order.push(`end:${ctx.height}`);
    },
  };
}

for (const make of harnesses()) {
  describe(`evm_* and hardhat_* (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let accounts: string[];
    const order: string[] = [];
    const counter = async () => (await h.runtime.node.moduleStore("counter")).get(new Uint8Array([1]))?.[0];

    before(async () => {
      h = await make.create({ modules: [counterModule(order)] });
      accounts = await h.request<string[]>("eth_accounts");
    });
    after(() => h.close());

    it("sets the next block's prevRandao (hardhat_setPrevRandao), then derives it again", async () => {
      const value = "0x" + "ab".repeat(32);
      expect(await h.request("hardhat_setPrevRandao", [value])).to.equal(true);
      await h.request("evm_mine");
      const b = await h.request<{ mixHash: string; hash: string }>("eth_getBlockByNumber", ["latest", false]);
      expect(b.mixHash).to.equal(value);
      await h.request("evm_mine");
      expect((await h.request<{ mixHash: string }>("eth_getBlockByNumber", ["latest", false])).mixHash).to.not.equal(value);
      expect(await rpcError(h.request("hardhat_setPrevRandao", ["0x01"]))).to.deep.include({ code: -32602 });
    });

    it("runs beginBlock → transactions → endBlock for every block, including hardhat_mine", async () => {
      // relative to wherever the head is, so the test does not depend on running first
      order.length = 0;
      const n = Number(await h.request<string>("eth_blockNumber"));
      const before = (await counter()) ?? 0;
      await h.request("eth_sendTransaction", [{ from: accounts[0], to: accounts[1], value: "0x1" }]);
      await h.request("hardhat_mine", ["0x3", "0x10"]);
      expect(order).to.deep.equal([1, 2, 3, 4].flatMap((i) => [`begin:${n + i}`, `end:${n + i}`]));
      expect(await counter()).to.equal(before + 4);
      const b3 = await h.request<{ timestamp: string }>("eth_getBlockByNumber", [`0x${(n + 3).toString(16)}`, false]);
      const b4 = await h.request<{ timestamp: string }>("eth_getBlockByNumber", [`0x${(n + 4).toString(16)}`, false]);
      expect(BigInt(b4.timestamp) - BigInt(b3.timestamp)).to.equal(16n);
      expect(await h.runtime.node.store.getEvents(BigInt(n + 2))).to.deep.equal({ begin: [{ type: "counted", attributes: [{ key: "value", value: String(before + 2) }] }], end: [] });
    });

    it("reverts everything to a snapshot: blocks, state, module stores, pool, clock", async () => {
      const startBlock = await h.request<string>("eth_blockNumber");
      const balance = await h.request<string>("eth_getBalance", [accounts[1], "latest"]);
      const before = await counter();
      const offset = h.runtime.node.clock.offset;
      const id = await h.request<string>("evm_snapshot");
      await h.request("evm_increaseTime", [3600]);
      await h.request("eth_sendTransaction", [{ from: accounts[0], to: accounts[1], value: "0x100" }]);
      await h.request("hardhat_setBalance", [accounts[2], "0x1"]);
      await h.request("evm_setAutomine", [false]);
      await h.request("eth_sendTransaction", [{ from: accounts[0], to: accounts[1], value: "0x5" }]);
      expect(h.runtime.node.pool.size.pending).to.equal(1);
      expect(await h.request("evm_revert", [id])).to.equal(true);
      expect(await h.request("eth_blockNumber")).to.equal(startBlock);
      expect(await h.request("eth_getBalance", [accounts[1], "latest"])).to.equal(balance);
      expect(await h.request("eth_getBalance", [accounts[2], "latest"])).to.equal("0x21e19e0c9bab2400000");
      expect(await counter()).to.equal(before);
      expect(h.runtime.node.pool.size.pending).to.equal(0);
      expect(await h.request("hardhat_getAutomine")).to.equal(true);
      expect(h.runtime.node.clock.offset).to.equal(offset);
      expect(await h.request("evm_revert", [id])).to.equal(false);
      // a block mined after the revert reuses the height and records its own module version
      await h.request("evm_mine");
      expect(await counter()).to.equal((before ?? 0) + 1);
    });

    it("sets the next block timestamp and refuses one in the past", async () => {
      const latest = await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
      const next = BigInt(latest.timestamp) + 1000n;
      await h.request("evm_setNextBlockTimestamp", ["0x" + next.toString(16)]);
      await h.request("evm_mine");
      const mined = await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
      expect(BigInt(mined.timestamp)).to.equal(next);
      const err = await rpcError(h.request("evm_setNextBlockTimestamp", [Number(next)]));
      expect(err.code).to.equal(-32000);
      await h.request("evm_mine", [Number(next) + 50]);
      expect(BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp)).to.equal(next + 50n);
    });

    it("changes accounts: balance, nonce, code, storage", async () => {
      const a = "0x" + "ab".repeat(20);
      await h.request("hardhat_setBalance", [a, "0x1234"]);
      await h.request("hardhat_setNonce", [a, "0x7"]);
      await h.request("hardhat_setCode", [a, "0x6001600055"]);
      await h.request("hardhat_setStorageAt", [a, "0x2", "0x" + "00".repeat(31) + "09"]);
      expect(await h.request("eth_getBalance", [a, "latest"])).to.equal("0x1234");
      expect(await h.request("eth_getTransactionCount", [a, "latest"])).to.equal("0x7");
      expect(await h.request("eth_getCode", [a, "latest"])).to.equal("0x6001600055");
      expect(await h.request("eth_getStorageAt", [a, "0x2", "latest"])).to.equal("0x" + "00".repeat(31) + "09");
      expect((await rpcError(h.request("hardhat_setNonce", [a, "0x1"]))).code).to.equal(-32000);
    });

    it("impersonates an account", async () => {
      const whale = "0x" + "cd".repeat(20);
      await h.request("hardhat_setBalance", [whale, "0xde0b6b3a7640000"]);
      const refused = await rpcError(h.request("eth_sendTransaction", [{ from: whale, to: accounts[0], value: "0x1" }]));
      expect(refused.code).to.equal(-32000);
      await h.request("hardhat_impersonateAccount", [whale]);
      const hash = await h.request<string>("eth_sendTransaction", [{ from: whale, to: accounts[0], value: "0x1" }]);
      const receipt = await h.request<{ from: string; status: string }>("eth_getTransactionReceipt", [hash]);
      expect(receipt).to.include({ from: whale, status: "0x1" });
      const tx = await h.request<{ from: string }>("eth_getTransactionByHash", [hash]);
      expect(tx.from).to.equal(whale);
      expect(await h.request("hardhat_stopImpersonatingAccount", [whale])).to.equal(true);
      expect(await h.request("hardhat_stopImpersonatingAccount", [whale])).to.equal(false);
    });

    it("sets the next base fee and the coinbase", async () => {
      await h.request("hardhat_setNextBlockBaseFeePerGas", ["0x12345"]);
      await h.request("hardhat_setCoinbase", ["0x" + "ee".repeat(20)]);
      await h.request("evm_mine");
      const b = await h.request<{ baseFeePerGas: string; miner: string }>("eth_getBlockByNumber", ["latest", false]);
      expect(b.baseFeePerGas).to.equal("0x12345");
      expect(b.miner).to.equal("0x" + "ee".repeat(20));
      expect((await h.request<string>("eth_coinbase")).toLowerCase()).to.equal("0x" + "ee".repeat(20));
    });

    it("mines on an interval and stops", async () => {
      const start = BigInt(await h.request<string>("eth_blockNumber"));
      await h.request("evm_setIntervalMining", [50]);
      await new Promise((r) => setTimeout(r, 400));
      await h.request("evm_setIntervalMining", [0]);
      const after = BigInt(await h.request<string>("eth_blockNumber"));
      expect(after > start).to.equal(true);
      await new Promise((r) => setTimeout(r, 150));
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(after);
    });

    it("drops a pooled transaction", async () => {
      await h.request("evm_setAutomine", [false]);
      try {
        const hash = await h.request<string>("eth_sendTransaction", [{ from: accounts[3], to: accounts[0], value: "0x1" }]);
        expect((await h.request<{ blockHash: null }>("eth_getTransactionByHash", [hash])).blockHash).to.equal(null);
        expect(await h.request("hardhat_dropTransaction", [hash])).to.equal(true);
        expect(await h.request("eth_getTransactionByHash", [hash])).to.equal(null);
        expect(await h.request("hardhat_dropTransaction", [hash])).to.equal(false);
      } finally {
        await h.request("evm_setAutomine", [true]);
      }
    });

    it("refuses to drop a mined transaction, in Hardhat's words", async () => {
      const hash = await h.request<string>("eth_sendTransaction", [{ from: accounts[3], to: accounts[0], value: "0x1" }]);
      expect(await rpcError(h.request("hardhat_dropTransaction", [hash]))).to.deep.include({
        code: -32602,
        message: `Transaction ${hash} cannot be dropped because it's already mined`,
      });
      expect((await h.request<{ blockHash: string | null }>("eth_getTransactionByHash", [hash])).blockHash).to.be.a("string");
    });
  });
}

describe("allowBlocksWithSameTimestamp", function () {
  this.timeout(60_000);
  for (const allow of [true, false]) {
    it(`${allow ? "accepts" : "refuses"} a next block at the latest block's timestamp (evm_setNextBlockTimestamp, evm_mine) when it is ${allow}`, async () => {
      const h = await inProcess({ chain: testChainConfig({ allowBlocksWithSameTimestamp: allow }) });
      try {
        const ts = async () => BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
        const last = await ts();
        if (allow) {
          await h.request("evm_setNextBlockTimestamp", [Number(last)]);
          await h.request("evm_mine");
          expect(await ts()).to.equal(last);
          expect(await h.request("evm_mine", [Number(last)])).to.equal("0x0");
          expect(await ts()).to.equal(last);
        } else {
          const err = await rpcError(h.request("evm_setNextBlockTimestamp", [Number(last)]));
          expect(err).to.deep.include({
            code: -32000,
            message: `Timestamp ${last} is equal to the previous block's timestamp. Enable the 'allowBlocksWithSameTimestamp' option to allow this`,
          });
          expect(await rpcError(h.request("evm_mine", [Number(last)]))).to.deep.include({ code: -32000 });
        }
        // Hardhat's (EDR's) text, which hardhat-network-helpers' own tests match
        expect(await rpcError(h.request("evm_setNextBlockTimestamp", [Number(last) - 1]))).to.deep.include({
          code: -32000,
          message: `Timestamp ${last - 1n} is lower than the previous block's timestamp ${last}`,
        });
      } finally {
        await h.close();
      }
    });
  }
});
