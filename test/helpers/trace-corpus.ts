/** Contracts and transactions the tracing tests run: calls, creates, reverts, nested calls, logs, selfdestruct, precompiles. */
import { Interface } from "ethers";
import type { Harness } from "./harness";
import { compile } from "./solc";

export const CORPUS_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Child {
  uint256 public x;
  event Hello(uint256 v);
  constructor() payable {}
  function poke(uint256 v) external returns (uint256) { x = v; emit Hello(v); return v * 2; }
  function boom() external pure { revert("child says no"); }
  function kill(address payable to) external { selfdestruct(to); }
}
contract Corpus {
  uint256 public scratch; // slot 0, as Child's x: delegate() writes it
  Child public child;
  uint256 public counter;
  event Made(address c);
  error Custom(uint256 code);
  constructor() { child = new Child(); }
  function nested(uint256 v) external returns (uint256) { emit Made(address(child)); counter += 1; return child.poke(v); }
  function tryRevert() external returns (bool ok) { (ok, ) = address(child).call(abi.encodeWithSignature("boom()")); emit Made(address(0)); }
  function fail() external { child.poke(1); revert("top fails"); }
  function failCustom() external pure { revert Custom(7); }
  function panic(uint256 a) external pure returns (uint256) { return 1 / a; }
  function make2(bytes32 salt) external returns (address) { return address(new Child{salt: salt}()); }
  function delegate(uint256 v) external returns (bytes memory) { (, bytes memory r) = address(child).delegatecall(abi.encodeWithSignature("poke(uint256)", v)); return r; }
  function staticRead() external view returns (uint256) { return child.x(); }
  function hash(bytes memory d) external view returns (bytes32) { return sha256(d); }
  function selfdestructNew() external payable { Child c = new Child{value: msg.value}(); c.kill(payable(msg.sender)); }
  function spin() external { for (uint256 i = 0; i < 200; i++) { counter += i; } }
}`;

export const corpus = compile(CORPUS_SOURCE);
export const corpusIface = new Interface(corpus.Corpus.abi as never);

export interface Receipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
  gasUsed: string;
  contractAddress: string | null;
  logs: Array<{ address: string; topics: string[]; data: string }>;
}

export interface Deployed {
  from: string;
  corpus: string;
  child: string;
  deployTx: string;
  txs: Record<string, string>;
}

/** Deploys the corpus and sends one transaction of each kind (failures included); returns their hashes. */
export async function runCorpus(h: Harness, opts: { gasPrice?: string } = {}): Promise<Deployed> {
  const from = (await h.request<string[]>("eth_accounts"))[0];
  const send = async (data: string, to?: string, value?: string): Promise<string> => {
    const tx: Record<string, string> = { from, data, gas: "0x2dc6c0" };
    if (opts.gasPrice !== undefined) tx.gasPrice = opts.gasPrice;
    if (to !== undefined) tx.to = to;
    if (value !== undefined) tx.value = value;
    try {
      return await h.request<string>("eth_sendTransaction", [tx]);
    } catch (err) {
      // the in-process network throws on failed transactions (as Hardhat's); the hash is in data
      const d = (err as { data?: { txHash?: string } | string }).data;
      if (typeof d === "object" && d?.txHash !== undefined) return d.txHash;
      throw err;
    }
  };
  const deployTx = await send(corpus.Corpus.bytecode);
  const r = await receiptOf(h, deployTx);
  const address = r.contractAddress as string;
  const child = corpusIface.decodeFunctionResult("child", await h.request<string>("eth_call", [{ to: address, data: corpusIface.encodeFunctionData("child") }]))[0] as string;
  const txs: Record<string, string> = {};
  const calls: Array<[string, string, unknown[], string?]> = [
    ["nested", "nested", [21]],
    ["tryRevert", "tryRevert", []],
    ["fail", "fail", []],
    ["failCustom", "failCustom", []],
    ["panic", "panic", [0]],
    ["make2", "make2", ["0x" + "11".repeat(32)]],
    ["delegate", "delegate", [5]],
    ["staticRead", "staticRead", []],
    ["hash", "hash", ["0x1234"]],
    ["selfdestructNew", "selfdestructNew", [], "0x3e8"],
  ];
  for (const [key, fn, args, value] of calls) {
    txs[key] = await send(corpusIface.encodeFunctionData(fn, args), address, value);
    await receiptOf(h, txs[key]);
  }
  return { from, corpus: address, child: child.toLowerCase(), deployTx, txs };
}

/** The receipt, waiting for it a little (another node may answer the hash before its block is in). */
export async function receiptOf(h: Harness, hash: string): Promise<Receipt> {
  for (let i = 0; ; i++) {
    const r = await h.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
    if (r !== null) return r;
    if (i >= 100) throw new Error(`no receipt for ${hash}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
