/**
 * Nothing a caller sends crosses the EVM's boundary except as a failed call, and a block is written
 * only when its state can be read back (src/chain/engine/evm.ts `runPrecompile`,
 * src/chain/engine/isolation.ts, src/chain/block/commit.ts `checkReadable`). Each case here once left
 * the node's state unreadable for good: every state read answered "State trie does not contain state
 * root" while blocks kept being mined, and a LevelDB home no longer opened.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface, Wallet, concat, getBytes, hexlify } from "ethers";
import { type Address, createAddressFromString } from "@ethereumjs/util";
import type { ExecResult } from "@ethereumjs/evm";
import { serveHttp } from "../helpers/http";
import type { Harness } from "../helpers/harness";
import { BECH32_ABI, BECH32_PRECOMPILE } from "../../src/cosmos/bech32/precompile";
import { LevelKV } from "../../src/storage/level-kv";
import { createRuntime } from "../../src/app/runtime";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { checkpointDepth } from "../../src/chain/engine/isolation";
import { compile } from "../helpers/solc";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const OTHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const FAULTY = "0x0000000000000000000000000000000000000f0f";

const CONTRACTS = compile(`
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Forwarder {
  function forward(address to, bytes calldata data) external payable returns (bool ok, bytes memory out) {
    (ok, out) = to.call{value: msg.value}(data);
  }
}
contract Slot {
  uint256 public value;
  function set(uint256 v) external { value = v; }
}
`);
const CALLER = CONTRACTS.Forwarder;

/** bech32ToHex(string) with the string's bytes ff fe: valid ABI layout, not UTF-8. */
function notUtf8Bech32(): string {
  const good = hexlify(getBytes(BECH32_ABI.encodeFunctionData("bech32ToHex", ["ab"])));
  return good.replace(/6162(0{60})$/, "fffe$1");
}

async function signed(h: Harness, tx: { to?: string; data?: string; value?: bigint; gasLimit?: number }, nonce?: number): Promise<string> {
  const w = new Wallet(KEY);
  const chainId = BigInt(await h.request<string>("eth_chainId"));
  const n = nonce ?? Number(await h.request<string>("eth_getTransactionCount", [w.address, "pending"]));
  return w.signTransaction({ gasLimit: 200_000, ...tx, chainId, nonce: n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
}

async function receipt(h: Harness, hash: string): Promise<{ status: string; blockNumber: string }> {
  return h.request("eth_getTransactionReceipt", [hash]);
}

/** The head's state reads, and a plain transfer is still mined. */
async function stillServing(h: Harness): Promise<void> {
  expect(BigInt(await h.request<string>("eth_getBalance", [OTHER, "latest"]))).to.be.greaterThan(0n);
  const before = BigInt(await h.request<string>("eth_blockNumber"));
  const hash = await h.request<string>("eth_sendRawTransaction", [await signed(h, { to: OTHER, value: 1n, gasLimit: 21_000 })]);
  expect((await receipt(h, hash)).status).to.equal("0x1");
  expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(before + 1n);
  expect(BigInt(await h.request<string>("eth_getBalance", [OTHER, "latest"]))).to.be.greaterThan(0n);
}

describe("the EVM's boundary: what a transaction sends cannot corrupt the state", function () {
  it("a precompile argument that does not decode (a string that is not UTF-8) is a revert, over HTTP; the state stays readable", async () => {
    const h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }) });
    try {
      const hash = await h.request<string>("eth_sendRawTransaction", [await signed(h, { to: BECH32_PRECOMPILE, data: notUtf8Bech32() })]);
      expect((await receipt(h, hash)).status).to.equal("0x0");
      // the same input as a call: refused before the method runs, with the decode error's words
      const err = await h.raw({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: BECH32_PRECOMPILE, data: notUtf8Bech32() }, "latest"] });
      expect(JSON.stringify(err)).to.match(/abi: cannot unmarshal the arguments of bech32ToHex/);
      await stillServing(h);
    } finally {
      await h.close();
    }
  });

  it("a LevelDB chain that took such a transaction opens again at its head", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "trust-home-"));
    try {
      const first = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir) });
      const w = new Wallet(KEY);
      const send = async (data: string, nonce: number) => {
        const raw = await w.signTransaction({ to: BECH32_PRECOMPILE, data, gasLimit: 200_000, chainId: first.node.config.chainId, nonce, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
        return first.dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: [raw] }, { transport: "http", authenticated: true });
      };
      await send(notUtf8Bech32(), 0);
      const head = first.node.headNumber;
      const balance = (await first.node.getAccount(createAddressFromString(OTHER)))?.balance;
      await first.close();
      const again = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir) });
      try {
        expect(again.node.headNumber).to.equal(head);
        expect(again.node.recovered).to.equal(undefined);
        expect((await again.node.getAccount(createAddressFromString(OTHER)))?.balance).to.equal(balance);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a precompile that throws (a bug of the node) fails its call as a revert that says so, reported, and nothing else", async () => {
    const faulty = async (): Promise<ExecResult> => {
      throw new Error("a handler's bug");
    };
    const h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }), precompiles: () => [{ address: createAddressFromString(FAULTY), function: faulty }] });
    const faults: string[] = [];
    h.runtime.node.on("precompileFault", (address, err) => faults.push(`${address}: ${err.message}`));
    try {
      // called by a contract: the fault arises one message deep
      const deployed = await h.request<string>("eth_sendRawTransaction", [await signed(h, { data: CALLER.bytecode, gasLimit: 1_000_000 })]);
      const forwarder = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deployed])).contractAddress;
      const iface = new Interface(CALLER.abi as never);
      const hash = await h.request<string>("eth_sendRawTransaction", [await signed(h, { to: forwarder, data: iface.encodeFunctionData("forward", [FAULTY, "0x12345678"]) })]);
      expect((await receipt(h, hash)).status).to.equal("0x1");
      const out = iface.decodeFunctionResult("forward", await h.request<string>("eth_call", [{ to: forwarder, data: iface.encodeFunctionData("forward", [FAULTY, "0x12345678"]) }, "latest"]));
      expect(out[0]).to.equal(false);
      expect(new Interface(["error Error(string)"]).decodeErrorResult("Error", out[1])[0]).to.equal(`internal error in the precompile at ${FAULTY}: a handler's bug`);
      // directly: a failed transaction
      const direct = await h.request<string>("eth_sendRawTransaction", [await signed(h, { to: FAULTY, data: "0x12345678" })]);
      expect((await receipt(h, direct)).status).to.equal("0x0");
      expect(faults).to.include(`${FAULTY}: a handler's bug`);
      await stillServing(h);
    } finally {
      await h.close();
    }
  });

  it("an engine error that leaves the EVM mid-message refuses its transaction and leaves no checkpoint open", async () => {
    const h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }) });
    try {
      const deployed = await h.request<string>("eth_sendRawTransaction", [await signed(h, { data: CALLER.bytecode, gasLimit: 1_000_000 })]);
      const forwarder = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deployed])).contractAddress;
      const slotDeployed = await h.request<string>("eth_sendRawTransaction", [await signed(h, { data: CONTRACTS.Slot.bytecode, gasLimit: 1_000_000 })]);
      const slot = createAddressFromString((await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [slotDeployed])).contractAddress);
      // fault injection: the state refuses one contract's SSTORE, as an engine error would (EthereumJS
      // rethrows what is not an EVM error); it is thrown one message deep, inside the forwarder's call
      const vm = h.runtime.node.vm;
      const sm = vm.stateManager;
      const put = sm.putStorage.bind(sm);
      sm.putStorage = async (address: Address, key: Uint8Array, value: Uint8Array) => {
        if (address.equals(slot)) throw new Error("injected engine error");
        return put(address, key, value);
      };
      try {
        const iface = new Interface(CALLER.abi as never);
        const data = iface.encodeFunctionData("forward", [slot.toString(), new Interface(CONTRACTS.Slot.abi as never).encodeFunctionData("set", [7])]);
        const res = (await h.raw({ jsonrpc: "2.0", id: 9, method: "eth_sendRawTransaction", params: [await signed(h, { to: forwarder, data })] })) as { error?: { message: string } };
        expect(res.error?.message, JSON.stringify(res)).to.match(/injected engine error/);
      } finally {
        sm.putStorage = put;
      }
      expect(checkpointDepth(vm)).to.equal(0);
      await stillServing(h);
    } finally {
      await h.close();
    }
  });

  it("an error that ends the whole execution mid-message (a fork's remote unreadable) leaves calls and blocks at their depth", async () => {
    // what a forked chain's remote read throws inside a precompile: it ends the block, not just the call
    const aborting = async (): Promise<ExecResult> => {
      throw Object.assign(new Error("the remote could not be read"), { abortsBlock: true });
    };
    const h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }), precompiles: () => [{ address: createAddressFromString(FAULTY), function: aborting }] });
    try {
      const deployed = await h.request<string>("eth_sendRawTransaction", [await signed(h, { data: CALLER.bytecode, gasLimit: 1_000_000 })]);
      const forwarder = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deployed])).contractAddress;
      const iface = new Interface(CALLER.abi as never);
      const data = iface.encodeFunctionData("forward", [FAULTY, "0x12345678"]);
      // a call: answered with the error, and the next calls run on a clean state
      for (let i = 0; i < 3; i++) {
        const res = (await h.raw({ jsonrpc: "2.0", id: i, method: "eth_call", params: [{ to: forwarder, data }, "latest"] })) as { error?: { message: string } };
        expect(res.error?.message).to.match(/the remote could not be read/);
        expect(await h.request("eth_call", [{ to: forwarder, data: iface.encodeFunctionData("forward", [OTHER, "0x"]) }, "latest"])).to.be.a("string");
      }
      // a simulation and a trace of it: the same error, not one of a state left open
      const sim = (await h.raw({ jsonrpc: "2.0", id: 7, method: "eth_simulateV1", params: [{ blockStateCalls: [{ calls: [{ to: forwarder, data }] }] }, "latest"] })) as {
        error?: { message: string };
      };
      expect(sim.error?.message).to.match(/the remote could not be read/);
      const traced = (await h.raw({ jsonrpc: "2.0", id: 8, method: "debug_traceCall", params: [{ to: forwarder, data }, "latest", { tracer: "callTracer" }] })) as { error?: { message: string } };
      expect(traced.error?.message).to.match(/the remote could not be read/);
      expect(await h.request("eth_call", [{ to: forwarder, data: iface.encodeFunctionData("forward", [OTHER, "0x"]) }, "latest"])).to.be.a("string");
      // a transaction: the block is not made, the node stays at its head with no checkpoint open
      const head = h.runtime.node.headNumber;
      const res = (await h.raw({ jsonrpc: "2.0", id: 9, method: "eth_sendRawTransaction", params: [await signed(h, { to: forwarder, data })] })) as { error?: { message: string } };
      expect(res.error?.message).to.match(/the remote could not be read/);
      expect(h.runtime.node.headNumber).to.equal(head);
      expect(checkpointDepth(h.runtime.node.vm)).to.equal(0);
      expect(BigInt(await h.request<string>("eth_getBalance", [OTHER, "latest"]))).to.be.greaterThan(0n);
    } finally {
      await h.close();
    }
  });

  it("a block whose state is inside an open checkpoint is refused: the node stays at its head and mines the next one", async () => {
    const h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }) });
    try {
      const node = h.runtime.node;
      const head = node.headNumber;
      // what a dangling checkpoint did: the block's trie nodes stayed in its memory
      await node.vm.stateManager.checkpoint();
      await node.vm.stateManager.putAccount(createAddressFromString("0x00000000000000000000000000000000000000bb"), undefined);
      const err = (await h.raw({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] })) as { error?: { message: string } };
      expect(err.error?.message).to.match(new RegExp(`block ${head + 1n} could not be written, the node stays at block ${head}: its state is inside 1 open checkpoint`));
      expect(node.headNumber).to.equal(head);
      expect(checkpointDepth(node.vm)).to.equal(0);
      await stillServing(h);
    } finally {
      await h.close();
    }
  });

  it("a LevelDB home whose head lost its state opens at the last block whose state is stored, and says so", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "trust-lost-"));
    try {
      const first = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir) });
      await first.node.mineBlock();
      await first.dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "hardhat_setBalance", params: [OTHER, "0x3039"] }, { transport: "http", authenticated: true });
      await first.node.mineBlock();
      const lost = first.node.head;
      await first.close();
      // the head's root node missing, as a dangling checkpoint left it
      const kv = await LevelKV.open(dir);
      await kv.batch([{ type: "del", key: getBytes(concat(["0x6e", lost.header.stateRoot])) }]);
      await kv.close();
      const again = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir) });
      try {
        expect(again.node.recovered).to.deep.equal({ head: lost.header.number, at: lost.header.number - 1n });
        expect(again.node.headNumber).to.equal(lost.header.number - 1n);
        expect((await again.node.getAccount(createAddressFromString(OTHER)))?.balance).to.be.greaterThan(0n);
        await again.node.mineBlock();
        expect(again.node.headNumber).to.equal(lost.header.number);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
