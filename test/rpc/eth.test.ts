import { expect } from "chai";
import { MerklePatriciaTrie, verifyMPTWithMerkleProof } from "@ethereumjs/mpt";
import { Interface, Transaction, Wallet, getBytes, keccak256, verifyMessage, verifyTypedData } from "ethers";
import { compile } from "../helpers/solc";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Store {
  uint256 public value;
  event Set(address indexed who, uint256 value);
  error Nope(uint256 code);
  function set(uint256 v) external { value = v; emit Set(msg.sender, v); }
  function fail() external pure { revert("no way"); }
  function failCustom() external pure { revert Nope(7); }
  function failEmpty() external pure { revert(); }
  function burn(uint256 n) external { for (uint256 i = 0; i < n; i++) { value += i; } }
  function now_() external view returns (uint256) { return block.timestamp; }
}`;

const KEY0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

for (const make of harnesses()) {
  describe(`eth namespace (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let accounts: string[];
    const store = compile(SOURCE).Store;
    const iface = new Interface(store.abi as never);
    let storeAddress: string;

    before(async () => {
      h = await make.create();
      accounts = await h.request<string[]>("eth_accounts");
      const hash = await h.request<string>("eth_sendTransaction", [{ from: accounts[0], data: store.bytecode, gas: "0x1e8480" }]);
      const receipt = await h.request<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [hash]);
      expect(receipt.status).to.equal("0x1");
      storeAddress = receipt.contractAddress;
    });
    after(() => h.close());

    it("answers chain identity", async () => {
      expect(await h.request("eth_chainId")).to.equal("0x2328");
      expect(await h.request("net_version")).to.equal("9000");
      expect(await h.request("net_peerCount")).to.equal("0x0");
      expect(await h.request("eth_protocolVersion")).to.equal("0x41");
      expect(await h.request<string>("web3_clientVersion")).to.match(/^HardhatNetwork\//);
      expect(await h.request("web3_sha3", ["0x68656c6c6f"])).to.equal(keccak256("0x68656c6c6f"));
      expect(accounts[0]).to.equal("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
      expect(accounts).to.have.length(20);
    });

    it("funds dev accounts at genesis and maps earliest to block 0", async () => {
      expect(await h.request("eth_getBalance", [accounts[5], "earliest"])).to.equal("0x21e19e0c9bab2400000");
      const genesis = await h.request<{ number: string; hash: string }>("eth_getBlockByNumber", ["earliest", false]);
      expect(genesis.number).to.equal("0x0");
      const zero = await h.request<{ hash: string }>("eth_getBlockByNumber", ["0x0", false]);
      expect(zero.hash).to.equal(genesis.hash);
    });

    it("uses 2020020 as the default gas of eth_sendTransaction", async () => {
      const hash = await h.request<string>("eth_sendTransaction", [{ from: accounts[1], to: accounts[2], value: "0x1" }]);
      const tx = await h.request<{ gas: string; type: string }>("eth_getTransactionByHash", [hash]);
      expect(tx.gas).to.equal("0x1ed2b4");
      expect(tx.type).to.equal("0x2");
      const receipt = await h.request<{ gasUsed: string; status: string }>("eth_getTransactionReceipt", [hash]);
      expect(receipt.gasUsed).to.equal("0x5208");
    });

    it("returns blocks whose hash matches getBlockByHash and full transactions on request", async () => {
      const latest = await h.request<Record<string, unknown>>("eth_getBlockByNumber", ["latest", true]);
      for (const k of ["number", "hash", "parentHash", "stateRoot", "transactionsRoot", "receiptsRoot", "logsBloom", "gasUsed", "gasLimit", "timestamp", "baseFeePerGas", "miner", "size"]) {
        expect(latest, k).to.have.property(k);
      }
      const byHash = await h.request<Record<string, unknown>>("eth_getBlockByHash", [latest.hash, true]);
      expect(byHash).to.deep.equal(latest);
      const txs = latest.transactions as Array<{ from: string; blockHash: string }>;
      expect(txs[0].from).to.equal(accounts[1]);
      expect(txs[0].blockHash).to.equal(latest.hash);
      expect(await h.request("eth_getBlockTransactionCountByNumber", ["latest"])).to.equal("0x1");
    });

    it("answers null for unknown hashes and future blocks", async () => {
      const zero = "0x" + "00".repeat(32);
      expect(await h.request("eth_getBlockByHash", [zero, false])).to.equal(null);
      expect(await h.request("eth_getTransactionByHash", [zero])).to.equal(null);
      expect(await h.request("eth_getTransactionReceipt", [zero])).to.equal(null);
      expect(await h.request("eth_getBlockByNumber", ["0xffff", false])).to.equal(null);
      const err = await rpcError(h.request("eth_getBalance", [accounts[0], "0xffff"]));
      expect(err.code).to.equal(-32000);
      expect(err.message).to.equal("header not found");
    });

    it("stores, emits logs, and serves eth_getLogs and eth_call", async () => {
      const hash = await h.request<string>("eth_sendTransaction", [{ from: accounts[0], to: storeAddress, data: iface.encodeFunctionData("set", [42]) }]);
      const receipt = await h.request<{ logs: Array<{ topics: string[]; logIndex: string; transactionHash: string }>; blockNumber: string }>("eth_getTransactionReceipt", [hash]);
      expect(receipt.logs).to.have.length(1);
      expect(receipt.logs[0].transactionHash).to.equal(hash);
      const logs = await h.request<unknown[]>("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest", address: storeAddress, topics: [iface.getEvent("Set")!.topicHash] }]);
      expect(logs).to.deep.equal(receipt.logs);
      const none = await h.request<unknown[]>("eth_getLogs", [{ fromBlock: "0x0", address: storeAddress, topics: [keccak256("0x01")] }]);
      expect(none).to.deep.equal([]);
      const value = await h.request<string>("eth_call", [{ to: storeAddress, data: iface.encodeFunctionData("value") }, "latest"]);
      expect(BigInt(value)).to.equal(42n);
      const before = await h.request<string>("eth_call", [{ to: storeAddress, data: iface.encodeFunctionData("value") }, { blockNumber: "0x1" }]);
      expect(BigInt(before)).to.equal(0n);
      expect(await h.request("eth_getStorageAt", [storeAddress, "0x0", "latest"])).to.equal("0x" + "00".repeat(31) + "2a");
    });

    it("applies a state override set in eth_call", async () => {
      const slot0 = "0x" + "00".repeat(32);
      const overridden = await h.request<string>("eth_call", [
        { to: storeAddress, data: iface.encodeFunctionData("value") },
        "latest",
        { [storeAddress]: { stateDiff: { [slot0]: "0x" + "00".repeat(31) + "07" } } },
      ]);
      expect(BigInt(overridden)).to.equal(7n);
      const elsewhere = "0x" + "12".repeat(20);
      const fresh = await h.request<string>("eth_call", [{ to: elsewhere, data: iface.encodeFunctionData("value") }, "latest", { [elsewhere]: { code: store.deployedBytecode } }]);
      expect(BigInt(fresh)).to.equal(0n);
      expect(await h.request("eth_getCode", [elsewhere, "latest"])).to.equal("0x");
    });

    it("answers reverts with code 3 and the revert data, and -32000 without data (in-process: Hardhat's texts, the same data)", async () => {
      // in-process the provider throws what Hardhat's network throws (test/hardhat/solidity-errors.test.ts compares with EDR)
      const hardhat = h.name === "in-process";
      const withReason = await rpcError(h.request("eth_call", [{ to: storeAddress, data: iface.encodeFunctionData("fail") }]));
      expect(withReason.code).to.equal(hardhat ? undefined : 3);
      expect(withReason.message).to.equal(hardhat ? "VM Exception while processing transaction: reverted with reason string 'no way'" : "execution reverted: no way");
      expect(iface.parseError(withReason.data as string)?.args[0]).to.equal("no way");
      const custom = await rpcError(h.request("eth_call", [{ to: storeAddress, data: iface.encodeFunctionData("failCustom") }]));
      expect(custom.code).to.equal(hardhat ? undefined : 3);
      expect(iface.parseError(custom.data as string)?.name).to.equal("Nope");
      const empty = await rpcError(h.request("eth_call", [{ to: storeAddress, data: iface.encodeFunctionData("failEmpty") }]));
      expect(empty.code).to.equal(hardhat ? undefined : -32000);
      expect(empty.message).to.equal(hardhat ? "Transaction reverted without a reason string" : "execution reverted");
      const est = await rpcError(h.request("eth_estimateGas", [{ from: accounts[0], to: storeAddress, data: iface.encodeFunctionData("fail") }]));
      expect(est.code).to.equal(hardhat ? undefined : 3);
      expect(iface.parseError(est.data as string)?.args[0]).to.equal("no way");
    });

    it("estimates the real minimum gas", async () => {
      expect(await h.request("eth_estimateGas", [{ from: accounts[0], to: accounts[1], value: "0x1" }])).to.equal("0x5208");
      const data = iface.encodeFunctionData("burn", [50]);
      const est = BigInt(await h.request<string>("eth_estimateGas", [{ from: accounts[0], to: storeAddress, data }]));
      const ok = await rpcError(h.request("eth_call", [{ from: accounts[0], to: storeAddress, data, gas: "0x" + (est - 1n).toString(16) }]));
      expect(ok.message).to.match(/out of gas/);
      expect(await h.request("eth_call", [{ from: accounts[0], to: storeAddress, data, gas: "0x" + est.toString(16) }])).to.equal("0x");
    });

    it("serves eth_getProof verifiable against the block's stateRoot", async () => {
      const block = await h.request<{ stateRoot: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
      const proof = await h.request<{ accountProof: string[]; balance: string; storageProof: Array<{ key: string; value: string; proof: string[] }>; storageHash: string }>("eth_getProof", [
        storeAddress,
        ["0x" + "00".repeat(32)],
        block.number,
      ]);
      const trie = new MerklePatriciaTrie({ useKeyHashing: true });
      const account = await verifyMPTWithMerkleProof(
        trie,
        getBytes(block.stateRoot),
        getBytes(storeAddress),
        proof.accountProof.map((p) => getBytes(p)),
      );
      expect(account).to.not.equal(null);
      const tampered = getBytes(block.stateRoot);
      tampered[0] ^= 1;
      let refused = false;
      await verifyMPTWithMerkleProof(
        new MerklePatriciaTrie({ useKeyHashing: true }),
        tampered,
        getBytes(storeAddress),
        proof.accountProof.map((p) => getBytes(p)),
      ).catch(() => {
        refused = true;
      });
      expect(refused).to.equal(true);
      expect(proof.storageProof[0].value).to.equal("0x2a");
    });

    it("accepts a raw EIP-1559 transaction and refuses replays and bad ones", async () => {
      const wallet = new Wallet(KEY0);
      const nonce = BigInt(await h.request<string>("eth_getTransactionCount", [wallet.address.toLowerCase(), "pending"]));
      const tx = Transaction.from({ type: 2, chainId: 9000, nonce: Number(nonce), to: accounts[3], value: 5n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n });
      const signed = await wallet.signTransaction(tx);
      const hash = await h.request<string>("eth_sendRawTransaction", [signed]);
      expect(hash).to.equal(keccak256(signed));
      const again = await rpcError(h.request("eth_sendRawTransaction", [signed]));
      expect(again.code).to.equal(-32000);
      expect(again.message).to.match(/nonce too low/);
      const wrongChain = await wallet.signTransaction(Transaction.from({ ...tx.toJSON(), chainId: 1, nonce: Number(nonce) + 1 }));
      expect((await rpcError(h.request("eth_sendRawTransaction", [wrongChain]))).code).to.equal(-32000);
      const odd = await rpcError(h.request("eth_sendRawTransaction", ["0xf0f0f"]));
      expect(odd).to.deep.include({ code: -32602, message: "invalid argument 0: hex string of odd length" });
    });

    it("signs with the EIP-191 prefix and EIP-712", async () => {
      const sig = await h.request<string>("eth_sign", [accounts[0], "0x68656c6c6f"]);
      expect(verifyMessage("hello", sig).toLowerCase()).to.equal(accounts[0]);
      const typed = {
        domain: { name: "T", version: "1", chainId: 9000 },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
          ],
          Mail: [{ name: "body", type: "string" }],
        },
        primaryType: "Mail",
        message: { body: "hi" },
      };
      const tsig = await h.request<string>("eth_signTypedData_v4", [accounts[0], typed]);
      expect(verifyTypedData(typed.domain, { Mail: typed.types.Mail }, typed.message, tsig).toLowerCase()).to.equal(accounts[0]);
    });

    it("answers -32602 naming the argument for malformed parameters", async () => {
      expect(await rpcError(h.request("eth_getBalance", ["0x1234", "latest"]))).to.deep.include({ code: -32602, message: "invalid argument 0: hex string has length 4, want 40 for an address" });
      expect(await rpcError(h.request("eth_getBlockByNumber", ["0x01", false]))).to.deep.include({ code: -32602 });
      expect(await rpcError(h.request("eth_getBalance", []))).to.deep.include({ code: -32602, message: "missing value for required argument 0" });
      expect(await rpcError(h.request("eth_foo", []))).to.deep.include({ code: -32601, message: "the method eth_foo does not exist/is not available" });
      expect(await rpcError(h.request("eth_getWork", []))).to.deep.include({ code: -32000 });
    });

    it("reports fees", async () => {
      const hist = await h.request<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] }>("eth_feeHistory", ["0x2", "latest", [50]]);
      expect(hist.baseFeePerGas).to.have.length(3);
      expect(hist.gasUsedRatio).to.have.length(2);
      expect(hist.reward).to.have.length(2);
      expect(await h.request("eth_maxPriorityFeePerGas")).to.equal("0x3b9aca00");
    });

    it("reports each block's tips at the asked percentiles of its gas, as geth's oracle does", async () => {
      await h.request("evm_setAutomine", [false]);
      try {
        // three plain transfers (21000 gas each) with tips 1, 2 and 3 gwei, in one block
        for (const [i, tip] of [3n, 1n, 2n].entries()) {
          await h.request("eth_sendTransaction", [{ from: accounts[i + 1], to: accounts[0], value: "0x1", maxPriorityFeePerGas: `0x${(tip * 10n ** 9n).toString(16)}`, maxFeePerGas: "0x174876e800" }]);
        }
        await h.request("evm_mine");
      } finally {
        await h.request("evm_setAutomine", [true]);
      }
      const head = await h.request<{ number: string; baseFeePerGas: string; gasUsed: string }>("eth_getBlockByNumber", ["latest", false]);
      expect(head.gasUsed).to.equal("0xf618"); // 3 × 21000
      const hist = await h.request<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] }>("eth_feeHistory", ["0x1", "latest", [0, 33, 34, 66, 67, 100]]);
      expect(hist.oldestBlock).to.equal(head.number);
      expect(hist.baseFeePerGas[0]).to.equal(head.baseFeePerGas);
      expect(hist.baseFeePerGas[1]).to.equal(await h.request("eth_gasPrice").then((p) => `0x${(BigInt(p as string) - 10n ** 9n).toString(16)}`));
      // sorted by tip, each weighs a third of the gas: up to 33 % the lowest tip, 34–66 % the middle, above the highest
      const gwei = (n: bigint): string => `0x${(n * 10n ** 9n).toString(16)}`;
      expect(hist.reward).to.deep.equal([[gwei(1n), gwei(1n), gwei(2n), gwei(2n), gwei(3n), gwei(3n)]]);
    });

    it("keeps nonce gaps queued and mines them when the gap closes", async () => {
      await h.request("evm_setAutomine", [false]);
      try {
        const from = accounts[7];
        const n = BigInt(await h.request<string>("eth_getTransactionCount", [from, "latest"]));
        const later = await h.request<string>("eth_sendTransaction", [{ from, to: accounts[1], value: "0x1", nonce: "0x" + (n + 1n).toString(16) }]);
        expect(h.runtime.node.pool.size).to.deep.equal({ pending: 0, queued: 1 });
        await h.request("eth_sendTransaction", [{ from, to: accounts[1], value: "0x1", nonce: "0x" + n.toString(16) }]);
        expect(h.runtime.node.pool.size).to.deep.equal({ pending: 2, queued: 0 });
        expect(await h.request("eth_getTransactionCount", [from, "pending"])).to.equal("0x" + (n + 2n).toString(16));
        await h.request("evm_mine");
        expect(await h.request("eth_getTransactionReceipt", [later])).to.not.equal(null);
      } finally {
        await h.request("evm_setAutomine", [true]);
      }
    });

    it("eth_getLogs gives each log of a block its own transaction, indexes, and the block's number and hash", async () => {
      await h.request("evm_setAutomine", [false]);
      const hashes: string[] = [];
      try {
        for (const [i, v] of [7, 8, 9].entries()) hashes.push(await h.request<string>("eth_sendTransaction", [{ from: accounts[i], to: storeAddress, data: iface.encodeFunctionData("set", [v]) }]));
        await h.request("evm_mine");
      } finally {
        await h.request("evm_setAutomine", [true]);
      }
      const block = await h.request<{ number: string; hash: string; transactions: string[] }>("eth_getBlockByNumber", ["latest", false]);
      expect(block.transactions).to.have.members(hashes);
      const logs = await h.request<Array<Record<string, unknown>>>("eth_getLogs", [{ blockHash: block.hash }]);
      const topic = iface.getEvent("Set")!.topicHash;
      expect(logs).to.deep.equal(
        block.transactions.map((txHash, i) => {
          const sender = accounts[hashes.indexOf(txHash)];
          return {
            address: storeAddress.toLowerCase(),
            topics: [topic, `0x${sender.slice(2).toLowerCase().padStart(64, "0")}`],
            data: `0x${(7 + hashes.indexOf(txHash)).toString(16).padStart(64, "0")}`,
            blockNumber: block.number,
            transactionHash: txHash,
            transactionIndex: `0x${i.toString(16)}`,
            blockHash: block.hash,
            logIndex: `0x${i.toString(16)}`,
            removed: false,
          };
        }),
      );
      for (const txHash of hashes) {
        const receipt = await h.request<{ logs: unknown[] }>("eth_getTransactionReceipt", [txHash]);
        expect(receipt.logs).to.deep.equal(logs.filter((l) => l.transactionHash === txHash));
      }
    });
  });
}
