/**
 * Evmos's eth extensions and the newer geth methods (getTransactionLogs, fillTransaction,
 * pendingTransactions, blobBaseFee, getHeaderBy*, getAccount), in-process and over HTTP.
 */
import { expect } from "chai";
import { Interface, Transaction, keccak256 } from "ethers";
import { compile } from "../helpers/solc";
import { type Harness, rpcError, testChainConfig } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Logger {
  uint256 public n;
  event A(uint256 indexed x);
  event B(address who);
  function two(uint256 x) external { n = x; emit A(x); emit B(msg.sender); }
  function fail() external { emit A(1); revert("no"); }
}`;

const EMPTY_CODE = "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";
const EMPTY_ROOT = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";

for (const make of harnesses()) {
  describe(`eth extensions (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let accounts: string[];
    const logger = compile(SOURCE).Logger;
    const iface = new Interface(logger.abi as never);
    let at: string;

    before(async () => {
      h = await make.create({ chain: testChainConfig({ throwOnTransactionFailures: false }) });
      accounts = await h.request<string[]>("eth_accounts");
      const hash = await h.request<string>("eth_sendTransaction", [{ from: accounts[0], data: logger.bytecode }]);
      at = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
    });
    after(() => h.close());

    it("eth_getTransactionLogs: the logs of a mined transaction, null for unknown and failed ones", async () => {
      await h.request("eth_sendTransaction", [{ from: accounts[1], to: accounts[2], value: "0x1" }]); // logs of earlier txs shift logIndex
      await h.request("evm_setAutomine", [false]);
      const plain = await h.request<string>("eth_sendTransaction", [{ from: accounts[1], to: at, data: iface.encodeFunctionData("two", [5]) }]);
      const tx = await h.request<string>("eth_sendTransaction", [{ from: accounts[0], to: at, data: iface.encodeFunctionData("two", [7]) }]);
      expect(await h.request("eth_getTransactionLogs", [tx])).to.equal(null); // pending
      await h.request("evm_mine");
      await h.request("evm_setAutomine", [true]);
      const logs = await h.request<Array<{ logIndex: string; transactionHash: string; topics: string[] }>>("eth_getTransactionLogs", [tx]);
      const receipt = await h.request<{ logs: unknown[] }>("eth_getTransactionReceipt", [tx]);
      expect(logs).to.deep.equal(receipt.logs);
      expect(logs.map((l) => l.logIndex)).to.deep.equal(["0x2", "0x3"]);
      expect((await h.request<unknown[]>("eth_getTransactionLogs", [plain])).length).to.equal(2);
      const failed = await h.request<string>("eth_sendTransaction", [{ from: accounts[0], to: at, data: iface.encodeFunctionData("fail"), gas: "0x30000" }]);
      expect((await h.request<{ status: string }>("eth_getTransactionReceipt", [failed])).status).to.equal("0x0");
      expect(await h.request("eth_getTransactionLogs", [failed])).to.equal(null);
      expect(await h.request("eth_getTransactionLogs", ["0x" + "12".repeat(32)])).to.equal(null);
      expect((await rpcError(h.request("eth_getTransactionLogs", ["0x12"]))).code).to.equal(-32602);
    });

    it("eth_fillTransaction: eth_sendTransaction's defaults, unsigned, as {raw, tx}", async () => {
      const nonce = await h.request<string>("eth_getTransactionCount", [accounts[3], "pending"]);
      const block = await h.request<{ baseFeePerGas: string }>("eth_getBlockByNumber", ["latest", false]);
      const { raw, tx } = await h.request<{ raw: string; tx: Record<string, unknown> }>("eth_fillTransaction", [{ from: accounts[3], to: accounts[4], value: "0x10" }]);
      const parsed = Transaction.from(raw);
      expect(parsed.signature === null || BigInt(parsed.signature.r) + BigInt(parsed.signature.s) === 0n).to.equal(true);
      expect(raw.endsWith("c0808080")).to.equal(true); // empty access list, then v, r, s all zero
      expect(parsed.type).to.equal(2);
      expect(parsed.nonce).to.equal(Number(nonce));
      expect(parsed.gasLimit).to.equal(2020020n);
      expect(parsed.chainId).to.equal(9000n);
      expect(parsed.value).to.equal(16n);
      expect(parsed.to?.toLowerCase()).to.equal(accounts[4]);
      expect(tx).to.deep.include({
        type: "0x2",
        chainId: "0x2328",
        nonce,
        to: accounts[4],
        gas: "0x1ed2b4",
        gasPrice: null,
        maxPriorityFeePerGas: "0x3b9aca00",
        value: "0x10",
        input: "0x",
        accessList: [],
        v: "0x0",
        r: "0x0",
        s: "0x0",
        yParity: "0x0",
      });
      expect(BigInt(tx.maxFeePerGas as string) >= 1_000_000_000n + BigInt(block.baseFeePerGas)).to.equal(true);
      expect(tx.hash).to.equal(keccak256(raw));
      // legacy with gasPrice, an account the node holds no key for, explicit gas and nonce
      const stranger = "0x00000000000000000000000000000000000000cc";
      const legacy = await h.request<{ raw: string; tx: Record<string, unknown> }>("eth_fillTransaction", [
        { from: stranger, to: at, gasPrice: "0x77359400", gas: "0x5208", nonce: "0x9", data: "0x01" },
      ]);
      expect(legacy.tx).to.deep.include({ type: "0x0", gasPrice: "0x77359400", gas: "0x5208", nonce: "0x9", input: "0x01" });
      expect(Transaction.from(legacy.raw).type).to.equal(0);
      // the pool is untouched
      expect(await h.request("eth_getTransactionCount", [accounts[3], "pending"])).to.equal(nonce);
    });

    it("eth_fillTransaction: errors", async () => {
      expect(await rpcError(h.request("eth_fillTransaction", [{ from: accounts[3] }]))).to.deep.include({ code: -32000, message: "contract creation without any data provided" });
      expect(await rpcError(h.request("eth_fillTransaction", [{ to: accounts[3] }]))).to.deep.include({
        code: -32000,
        message: "missing from: a transaction without nonce needs its sender to find the next nonce",
      });
      expect(await rpcError(h.request("eth_fillTransaction", [{ from: accounts[3], to: accounts[3], chainId: "0x1" }]))).to.deep.include({
        code: -32000,
        message: "chainId does not match node's (have=1, want=9000)",
      });
      expect((await rpcError(h.request("eth_fillTransaction", [{ from: accounts[3], gasPrice: "0x1", maxFeePerGas: "0x2" }]))).code).to.equal(-32602);
      expect(await rpcError(h.request("eth_fillTransaction", [{ from: accounts[3], to: accounts[3], maxFeePerGas: "0x1", maxPriorityFeePerGas: "0x2" }]))).to.deep.include({
        code: -32000,
        message: "maxFeePerGas (1) < maxPriorityFeePerGas (2)",
      });
    });

    it("eth_pendingTransactions: pooled transactions of the node's accounts", async () => {
      await h.request("miner_stop");
      try {
        const mine = await h.request<string>("eth_sendTransaction", [{ from: accounts[6], to: accounts[1], value: "0x1" }]);
        const gap = await h.request<string>("eth_sendTransaction", [{ from: accounts[6], to: accounts[1], value: "0x1", nonce: "0x5" }]);
        const list = await h.request<Array<{ hash: string; from: string; blockHash: null }>>("eth_pendingTransactions");
        expect(list.map((t) => t.hash)).to.deep.equal([mine, gap]);
        expect(list[0]).to.deep.include({ from: accounts[6], blockHash: null });
        expect((await h.request<Array<{ hash: string }>>("eth_getPendingTransactions")).map((t) => t.hash)).to.deep.equal([mine]);
      } finally {
        await h.request("miner_start");
      }
      expect((await h.request<unknown[]>("eth_pendingTransactions")).length).to.equal(1); // the gapped one waits
    });

    it("eth_mining is true unless miner_stop; eth_hashrate is 0x0", async () => {
      expect(await h.request("eth_hashrate")).to.equal("0x0");
      await h.request("evm_setAutomine", [false]);
      expect(await h.request("eth_mining")).to.equal(true); // manual mining still mines
      await h.request("evm_setAutomine", [true]);
      await h.request("miner_stop");
      expect(await h.request("eth_mining")).to.equal(false);
      await h.request("miner_start");
      expect(await h.request("eth_mining")).to.equal(true);
    });

    it("eth_blobBaseFee, eth_getHeaderByNumber/Hash and eth_getAccount", async () => {
      expect(await h.request("eth_blobBaseFee")).to.equal("0x1");
      const block = await h.request<Record<string, unknown>>("eth_getBlockByNumber", ["latest", false]);
      const header = await h.request<Record<string, unknown>>("eth_getHeaderByNumber", ["latest"]);
      const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, withdrawals: _w, ...rest } = block;
      expect(header).to.deep.equal(rest);
      expect(await h.request("eth_getHeaderByHash", [block.hash])).to.deep.equal(header);
      expect(await h.request("eth_getHeaderByNumber", ["0xffff"])).to.equal(null);
      expect(await h.request("eth_getHeaderByHash", ["0x" + "00".repeat(32)])).to.equal(null);
      expect((await h.request<{ number: string }>("eth_getHeaderByNumber", ["earliest"])).number).to.equal("0x0");

      const eoa = await h.request<Record<string, string>>("eth_getAccount", [accounts[19], "latest"]);
      expect(eoa).to.deep.equal({ codeHash: EMPTY_CODE, storageRoot: EMPTY_ROOT, balance: "0x21e19e0c9bab2400000", nonce: "0x0" });
      const contract = await h.request<Record<string, string>>("eth_getAccount", [at]);
      expect(contract.codeHash).to.equal(keccak256(await h.request<string>("eth_getCode", [at])));
      expect(contract.storageRoot).to.not.equal(EMPTY_ROOT);
      expect(contract.nonce).to.equal("0x1");
      expect(await h.request("eth_getAccount", ["0x00000000000000000000000000000000000000dd"])).to.deep.equal({ codeHash: EMPTY_CODE, storageRoot: EMPTY_ROOT, balance: "0x0", nonce: "0x0" });
      const before = await h.request<Record<string, string>>("eth_getAccount", [at, "0x1"]);
      expect(before.storageRoot).to.equal(EMPTY_ROOT);
      expect(await rpcError(h.request("eth_getAccount", [at, "0xffff"]))).to.deep.include({ code: -32000, message: "header not found" });
    });
  });
}

const AL_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Vault { uint256 public a; uint256 public b; function touch() external { a = b + 1; } }
contract Caller {
  Vault public v;
  constructor(Vault v_) { v = v_; }
  function go() external { v.touch(); }
  function balanceOf(address x) external view returns (uint256) { return x.balance; }
  function boom() external pure { revert("boom"); }
}`;

for (const make of harnesses()) {
  describe(`eth_createAccessList (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let from: string;
    const c = compile(AL_SOURCE);
    const caller = new Interface(c.Caller.abi as never);
    let vault: string;
    let callerAt: string;
    const pad = (n: number) => "0x" + n.toString(16).padStart(64, "0");

    before(async () => {
      h = await make.create();
      from = (await h.request<string[]>("eth_accounts"))[0];
      const v = await h.request<string>("eth_sendTransaction", [{ from, data: c.Vault.bytecode }]);
      vault = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [v])).contractAddress;
      const ctor = new Interface(c.Caller.abi as never).encodeDeploy([vault]).slice(2);
      const k = await h.request<string>("eth_sendTransaction", [{ from, data: c.Caller.bytecode + ctor }]);
      callerAt = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [k])).contractAddress;
    });
    after(() => h.close());

    it("lists the contracts and slots a call touches, and the gas it uses with them", async () => {
      const tx = { from, to: callerAt, data: caller.encodeFunctionData("go") };
      const res = await h.request<{ accessList: Array<{ address: string; storageKeys: string[] }>; gasUsed: string; error?: string }>("eth_createAccessList", [tx]);
      expect(res.error).to.equal(undefined);
      const byAddress = new Map(res.accessList.map((e) => [e.address, [...e.storageKeys].sort()]));
      expect(byAddress.get(vault)).to.deep.equal([pad(0), pad(1)]);
      expect(byAddress.get(callerAt)).to.deep.equal([pad(0)]); // the recipient is listed for its storage
      expect(byAddress.has(from)).to.equal(false);
      // sending with the list costs what it says
      const hash = await h.request<string>("eth_sendTransaction", [{ ...tx, accessList: res.accessList, gas: "0x100000" }]);
      const receipt = await h.request<{ gasUsed: string }>("eth_getTransactionReceipt", [hash]);
      expect(receipt.gasUsed).to.equal(res.gasUsed);
      // the chain did not change: a second call answers the same list
      const again = await h.request<{ accessList: unknown[] }>("eth_createAccessList", [tx, "latest"]);
      expect(again.accessList.length).to.equal(res.accessList.length);
    });

    it("leaves out the sender, the recipient without storage and precompiles; keeps touched EOAs", async () => {
      const other = "0x00000000000000000000000000000000000000ab";
      const res = await h.request<{ accessList: Array<{ address: string; storageKeys: string[] }> }>("eth_createAccessList", [
        { from, to: callerAt, data: caller.encodeFunctionData("balanceOf", [other]) },
      ]);
      expect(res.accessList).to.deep.equal([{ address: other, storageKeys: [] }]);
      const pre = await h.request<{ accessList: unknown[] }>("eth_createAccessList", [
        { from, to: callerAt, data: caller.encodeFunctionData("balanceOf", ["0x0000000000000000000000000000000000000004"]) },
      ]);
      expect(pre.accessList).to.deep.equal([]);
      const transfer = await h.request<{ accessList: unknown[]; gasUsed: string }>("eth_createAccessList", [{ from, to: other, value: "0x1" }]);
      expect(transfer).to.deep.equal({ accessList: [], gasUsed: "0x5208" });
    });

    it("answers a failing execution with its error, and bad blocks with errors", async () => {
      const res = await h.request<{ error: string; gasUsed: string }>("eth_createAccessList", [{ from, to: callerAt, data: caller.encodeFunctionData("boom") }]);
      expect(res.error).to.equal("execution reverted: boom");
      expect(BigInt(res.gasUsed) > 21000n).to.equal(true);
      expect(await rpcError(h.request("eth_createAccessList", [{ from, to: callerAt }, "0xffff"]))).to.deep.include({ code: -32000, message: "header not found" });
      expect((await rpcError(h.request("eth_createAccessList", [{ from, to: "0x12" }]))).code).to.equal(-32602);
      // at an earlier block the contract did not exist: nothing is touched
      const early = await h.request<{ accessList: unknown[] }>("eth_createAccessList", [{ from, to: callerAt, data: caller.encodeFunctionData("go") }, "0x0"]);
      expect(early.accessList).to.deep.equal([]);
    });
  });
}

for (const make of harnesses()) {
  describe(`eth_resend (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let accounts: string[];
    before(async () => {
      h = await make.create();
      accounts = await h.request<string[]>("eth_accounts");
    });
    after(() => h.close());

    it("replaces a pooled transaction with a re-signed one at the new price and gas", async () => {
      const [from, to] = [accounts[2], accounts[3]];
      await h.request("miner_stop");
      try {
        const legacy = await h.request<string>("eth_sendTransaction", [{ from, to, value: "0x5", gasPrice: "0x77359400", gas: "0x5208" }]);
        const dyn = await h.request<string>("eth_sendTransaction", [{ from, to, value: "0x6", maxFeePerGas: "0x77359400", maxPriorityFeePerGas: "0x3b9aca00", gas: "0x5208" }]);
        const re = await h.request<string>("eth_resend", [{ from, to, nonce: "0x0", value: "0x5" }, "0xb2d05e00", "0x6000"]);
        expect(re).to.not.equal(legacy);
        expect(await h.request("eth_getTransactionByHash", [legacy])).to.equal(null);
        const tx = await h.request<Record<string, string>>("eth_getTransactionByHash", [re]);
        expect(tx).to.deep.include({ from, to, nonce: "0x0", value: "0x5", gasPrice: "0xb2d05e00", gas: "0x6000", type: "0x0", blockHash: null as unknown as string });
        // a type-2 transaction raises its max fee and its tip together
        const re2 = await h.request<string>("eth_resend", [{ from, nonce: "0x1" }, "0xb2d05e00"]);
        const tx2 = await h.request<Record<string, string>>("eth_getTransactionByHash", [re2]);
        expect(tx2).to.deep.include({ type: "0x2", maxFeePerGas: "0xb2d05e00", maxPriorityFeePerGas: "0x77359400", value: "0x6", gas: "0x5208" });
        expect(await h.request("eth_getTransactionByHash", [dyn])).to.equal(null);
        expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x2", queued: "0x0" });
        // lower or equal pays nothing more: the pool's replacement rule refuses it
        const under = await rpcError(h.request("eth_resend", [{ from, nonce: "0x0" }, "0x3b9aca00"]));
        expect(under.code).to.equal(-32000);
        expect(under.message).to.match(/^replacement transaction underpriced/);
      } finally {
        await h.request("miner_start");
      }
      expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
      expect(await h.request("eth_getTransactionCount", [from, "latest"])).to.equal("0x2");
    });

    it("answers Evmos's and geth's errors", async () => {
      const [from, to] = [accounts[4], accounts[5]];
      expect(await rpcError(h.request("eth_resend", [{ from, to }, "0x1"]))).to.deep.include({ code: -32000, message: "missing transaction nonce in transaction spec" });
      const notFound = await rpcError(h.request("eth_resend", [{ from, to, nonce: "0x7" }, "0x77359400"]));
      expect(notFound.code).to.equal(-32000);
      expect(notFound.message).to.match(/^transaction 0x[0-9a-f]{64} not found$/);
      await h.request("miner_stop");
      try {
        await h.request("eth_sendTransaction", [{ from, to, gasPrice: "0x77359400", gas: "0x5208" }]);
        expect(await rpcError(h.request("eth_resend", [{ from, to, nonce: "0x0" }, "0xde0b6b3a7640000"]))).to.deep.include({
          code: -32000,
          message: "tx fee (21000.00 ether) exceeds the configured cap (1.00 ether)",
        });
        // a field that differs from the pooled transaction's: not the same transaction
        expect((await rpcError(h.request("eth_resend", [{ from, to, nonce: "0x0", value: "0x9" }, "0xb2d05e00"]))).message).to.match(/not found$/);
      } finally {
        await h.request("miner_start");
      }
    });
  });
}

const SIM_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Box {
  uint256 public value;
  event Stored(uint256 v, uint256 at);
  function store(uint256 v) external { value = v; emit Stored(v, block.number); }
  function fail() external pure { revert("no"); }
  function stamp() external view returns (uint256, uint256, address, uint256) { return (block.number, block.timestamp, block.coinbase, block.basefee); }
}
contract Splitter {
  event Sent(address to, uint256 v);
  function split(address payable a, address payable b) external payable {
    a.transfer(msg.value / 2);
    emit Sent(a, msg.value / 2);
    try this.failing{value: 1}(b) {} catch {}
    b.transfer(msg.value / 4);
  }
  function failing(address payable b) external payable { b.transfer(1); revert("x"); }
}`;

for (const make of harnesses()) {
  describe(`eth_simulateV1 (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let from: string;
    const box = compile(SIM_SOURCE).Box;
    const iface = new Interface(box.abi as never);
    let at: string;
    type SimCall = {
      returnData: string;
      logs: Array<{ blockHash: string; transactionHash: string; logIndex: string; blockNumber: string }>;
      gasUsed: string;
      status: string;
      error?: { code: number; message: string; data?: string };
    };
    type SimBlock = {
      number: string;
      hash: string;
      parentHash: string;
      timestamp: string;
      miner: string;
      baseFeePerGas: string;
      transactions: Array<string | { from: string; hash: string }>;
      calls: SimCall[];
    };

    before(async () => {
      h = await make.create();
      from = (await h.request<string[]>("eth_accounts"))[0];
      const hash = await h.request<string>("eth_sendTransaction", [{ from, data: box.bytecode }]);
      at = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
    });
    after(() => h.close());

    it("runs blocks of calls that see each other's effects, with overrides, in geth's shape", async () => {
      const head = await h.request<{ number: string; hash: string; timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
      const rich = "0x00000000000000000000000000000000000000f1";
      const coinbase = "0x00000000000000000000000000000000000000c0";
      const res = await h.request<SimBlock[]>("eth_simulateV1", [
        {
          blockStateCalls: [
            {
              stateOverrides: { [rich]: { balance: "0xde0b6b3a7640000" } },
              calls: [
                { from: rich, to: "0x00000000000000000000000000000000000000f2", value: "0x1000" },
                { from, to: at, data: iface.encodeFunctionData("store", [42]) },
                { from, to: at, data: iface.encodeFunctionData("fail") },
              ],
            },
            {
              blockOverrides: { time: q(BigInt(head.timestamp) + 1000n), feeRecipient: coinbase, baseFeePerGas: "0x7" },
              calls: [
                { from, to: at, data: iface.encodeFunctionData("value") },
                { from, to: at, data: iface.encodeFunctionData("stamp"), maxFeePerGas: "0x10", maxPriorityFeePerGas: "0x0" },
                { from, to: at, data: iface.encodeFunctionData("stamp") },
              ],
            },
          ],
        },
        "latest",
      ]);
      expect(res).to.have.length(2);
      const [b1, b2] = res;
      expect(b1.number).to.equal(q(BigInt(head.number) + 1n));
      expect(b1.parentHash).to.equal(head.hash);
      expect(b1.timestamp).to.equal(q(BigInt(head.timestamp) + 12n));
      expect(b1.baseFeePerGas).to.equal("0x0");
      expect(b2.parentHash).to.equal(b1.hash);
      expect(b2.number).to.equal(q(BigInt(head.number) + 2n));
      expect(b2.miner).to.equal(coinbase);
      expect(b1.transactions).to.have.length(3);
      const [transfer, store, fail] = b1.calls;
      expect(transfer).to.deep.equal({ returnData: "0x", logs: [], gasUsed: "0x5208", status: "0x1" });
      expect(store.status).to.equal("0x1");
      expect(store.logs).to.have.length(1);
      expect(store.logs[0]).to.deep.include({ blockHash: b1.hash, transactionHash: b1.transactions[1] as string, logIndex: "0x0", blockNumber: b1.number });
      expect(fail.status).to.equal("0x0");
      expect(fail.error).to.deep.include({ code: 3, message: "execution reverted: no" });
      expect(fail.error?.data).to.match(/^0x08c379a0/);
      const [value, stamp, unpriced] = b2.calls;
      // a call that names no fee sees BASEFEE 0 (geth's NoBaseFee), a priced one the block's
      expect(iface.decodeFunctionResult("stamp", unpriced.returnData)[3]).to.equal(0n);
      expect(BigInt(value.returnData)).to.equal(42n);
      const [number, time, cb, basefee] = iface.decodeFunctionResult("stamp", stamp.returnData);
      expect(number).to.equal(BigInt(b2.number));
      expect(time).to.equal(BigInt(head.timestamp) + 1000n);
      expect(cb.toLowerCase()).to.equal(coinbase);
      expect(basefee).to.equal(7n);
      // nothing happened on the chain
      expect(await h.request("eth_blockNumber")).to.equal(head.number);
      // from the simulated sender: the VM the simulation used serves this call, and must be back at the head's state
      // (the next test's nonce check then sees the real nonce)
      expect(BigInt(await h.request<string>("eth_call", [{ from, to: at, data: iface.encodeFunctionData("value") }]))).to.equal(0n);
      expect(await h.request("eth_getBalance", [rich])).to.equal("0x0");
    });

    it("fills gaps, returns full transactions, and validates when asked", async () => {
      const head = BigInt(await h.request<string>("eth_blockNumber"));
      const res = await h.request<SimBlock[]>("eth_simulateV1", [
        { blockStateCalls: [{ blockOverrides: { number: q(head + 3n) }, calls: [{ from, to: at, data: iface.encodeFunctionData("store", [1]) }] }], returnFullTransactions: true },
      ]);
      expect(res.map((b) => b.number)).to.deep.equal([q(head + 1n), q(head + 2n), q(head + 3n)]);
      expect(res[0].calls).to.deep.equal([]);
      const tx = res[2].transactions[0] as { from: string; hash: string };
      expect(tx.from).to.equal(from);
      expect(tx.hash).to.equal(res[2].calls[0].logs[0].transactionHash);
      const nonce = BigInt(await h.request<string>("eth_getTransactionCount", [from, "latest"]));
      const tooHigh = await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ calls: [{ from, to: at, nonce: q(nonce + 5n), maxFeePerGas: "0x174876e800" }] }], validation: true }]));
      expect(tooHigh.code).to.equal(-38011);
      expect(tooHigh.message).to.equal(`nonce too high: address ${from}, tx: ${nonce + 5n} state: ${nonce}`);
      // without validation the nonce is not checked
      const free = await h.request<SimBlock[]>("eth_simulateV1", [{ blockStateCalls: [{ calls: [{ from, to: at, nonce: q(nonce + 5n), data: iface.encodeFunctionData("store", [3]) }] }] }]);
      expect(free[0].calls[0].status).to.equal("0x1");
    });

    it("traceTransfers: ether transfers as Transfer logs among the call's own, reverted frames left out", async () => {
      const splitter = compile(SIM_SOURCE).Splitter;
      const split = new Interface(splitter.abi as never);
      const sp = "0x00000000000000000000000000000000000005e1";
      const [a, b] = ["0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b1"];
      const res = await h.request<SimBlock[]>("eth_simulateV1", [
        {
          blockStateCalls: [{ stateOverrides: { [sp]: { code: splitter.deployedBytecode } }, calls: [{ from, to: sp, value: "0x64", data: split.encodeFunctionData("split", [a, b]) }] }],
          traceTransfers: true,
        },
      ]);
      const call = res[0].calls[0];
      expect(call.status).to.equal("0x1");
      const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
      const pad = (x: string) => "0x" + x.slice(2).padStart(64, "0");
      const logs = call.logs as unknown as Array<{ address: string; topics: string[]; data: string; logIndex: string }>;
      const summary = logs.map((l) => (l.address === "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" ? `transfer ${l.topics[1]}->${l.topics[2]} ${BigInt(l.data)}` : `log ${l.address}`));
      expect(summary).to.deep.equal([`transfer ${pad(from)}->${pad(sp)} 100`, `transfer ${pad(sp)}->${pad(a)} 50`, `log ${sp}`, `transfer ${pad(sp)}->${pad(b)} 25`]);
      expect(logs.every((l) => l.address !== "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" || l.topics[0] === TRANSFER)).to.equal(true);
      expect(logs.map((l) => l.logIndex)).to.deep.equal(["0x0", "0x1", "0x2", "0x3"]);
      // without the flag only the contract's own log
      const plain = await h.request<SimBlock[]>("eth_simulateV1", [
        { blockStateCalls: [{ stateOverrides: { [sp]: { code: splitter.deployedBytecode } }, calls: [{ from, to: sp, value: "0x64", data: split.encodeFunctionData("split", [a, b]) }] }] },
      ]);
      expect(plain[0].calls[0].logs).to.have.length(1);
    });

    it("answers geth's errors", async () => {
      const head = BigInt(await h.request<string>("eth_blockNumber"));
      expect(await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [] }]))).to.deep.include({ code: -32602, message: "empty input" });
      expect(await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ blockOverrides: { number: q(head) } }] }]))).to.deep.include({
        code: -38020,
        message: `block numbers must be in order: ${head} <= ${head}`,
      });
      expect((await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ blockOverrides: { time: "0x1" } }] }]))).code).to.equal(-38021);
      expect(await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ blockOverrides: { number: q(head + 300n) } }] }]))).to.deep.include({ code: -38026, message: "too many blocks" });
      expect((await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ calls: [{ from, to: at, gas: "0x10000000000" }] }] }]))).code).to.equal(-38015);
      expect((await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ calls: [{ from, to: "0x12" }] }] }]))).message).to.match(/^invalid argument 0: blockStateCalls\[0\]\.calls\[0\]: /);
      expect((await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ calls: [] }], traceTransfers: "yes" }]))).code).to.equal(-32602);
      expect(await rpcError(h.request("eth_simulateV1", [{ blockStateCalls: [{ calls: [] }] }, "0xffff"]))).to.deep.include({ code: -32000, message: "header not found" });
    });
  });
}

function q(n: bigint): string {
  return `0x${n.toString(16)}`;
}
