/**
 * `npm run bench:phases`: where one automined eth_sendTransaction (an ERC-20 transfer, through the
 * dispatcher as the in-process provider sends it) spends its time, phase by phase: filling and signing,
 * admission, the pool, the epochs module's begin/end-block (the default chain's only block module), the transaction's runTx, the state root (the
 * state manager's flush and its trie batches), the transaction and receipt tries, encoding the
 * block and its receipts, the address index and the store's batch. The difference between the send
 * and a bare runTx (`npm run bench:ops`'s floors table) is these phases less the runTx row.
 *
 * It times the project's own functions by wrapping their module exports and class prototypes in this
 * process only (src/ loaded through ts-node's CommonJS output, whose cross-module calls read the
 * exports object): a measuring tool, not a path the node runs. Wall time of a sequential loop, each
 * phase inclusive of what it calls (nested rows are indented); the wrapping adds a few microseconds
 * per row, so compare rows of one run, not with bench:ops.
 *
 * env: BENCH_PHASES_N (timed sends, default 3000, after 500 untimed).
 */
import { Interface } from "ethers";
import { compile } from "../test/helpers/solc";

const N = Number(process.env.BENCH_PHASES_N ?? 3000);
const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Token {
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor(uint256 supply) { balanceOf[msg.sender] = supply; }
  function transfer(address to, uint256 value) external returns (bool) {
    require(balanceOf[msg.sender] >= value, "balance");
    balanceOf[msg.sender] -= value;
    balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }
}`;

/** Time per phase label, in the order the phases were declared (a parent before what it calls). */
const spent = new Map<string, bigint>();

/** Replaces `holder[name]` with a function that adds its time (until its promise settles) to `label`. */
function timed(holder: Record<string, unknown>, name: string, label: string): void {
  const f = holder[name];
  spent.set(label, 0n);
  if (typeof f !== "function") throw new Error(`bench:phases: ${label} is not a function (${name}); the code moved`);
  holder[name] = function (this: unknown, ...args: unknown[]): unknown {
    const t0 = process.hrtime.bigint();
    const add = (): void => {
      spent.set(label, (spent.get(label) ?? 0n) + process.hrtime.bigint() - t0);
    };
    const out: unknown = f.apply(this, args);
    if (out instanceof Promise) return out.finally(add);
    add();
    return out;
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- the modules are wrapped before the runtime loads them */
function wrapPhases(): void {
  const proto = (m: { prototype: object }): Record<string, unknown> => m.prototype as Record<string, unknown>;
  timed(proto(require("../src/chain/calls/calls").Calls), "sign", "fill and sign");
  timed(require("../src/chain/pool/admission"), "checkAdmission", "admission");
  timed(proto(require("../src/chain/pool/txpool").TxPool), "add", "pool");
  timed(proto(require("../src/chain/block/miner").Miner), "mineBlock", "block (miner.mineBlock)");
  timed(require("../src/chain/block/block-producer"), "produceBlock", "  produce");
  const abci = require("../src/epochs/abci");
  timed(abci, "beginBlocker", "    epochs begin-block");
  const sm = require("../src/chain/engine/state-manager");
  timed(sm, "withContractSender", "    runTx");
  timed(abci, "endBlocker", "    epochs end-block");
  timed(proto(sm.ChainStateManager), "flush", "    state root (flush)");
  timed(proto(require("../src/chain/engine/trie-batch").TrieBatch), "apply", "      trie batches");
  timed(require("../src/chain/block/ordered-trie"), "orderedTrieRoot", "    transaction and receipt tries");
  timed(require("../src/chain/block/commit"), "commitBlock", "  commit");
  timed(proto(require("../src/chain/store/chain-store").ChainStore), "commitBlockOps", "    block and receipts encoded");
  timed(proto(require("../src/chain/store/address-index").AddressIndex), "commitOps", "    address index");
  timed(proto(require("../src/storage/memory-kv").MemoryKV), "batch", "    store batch");
}

async function main(): Promise<void> {
  wrapPhases();
  const { createRuntime } = require("../src/app/runtime");
  const { defaultChainConfig } = require("../src/chain/config");
  const runtime = await createRuntime({ chain: defaultChainConfig(), clientVersion: "bench" });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = (method: string, params: unknown[]): Promise<unknown> => runtime.dispatcher.call(method, params, ctx);
  const token = compile(TOKEN).Token;
  const iface = new Interface(token.abi as never);
  const [from, other] = (await call("eth_accounts", [])) as string[];
  const deploy = await call("eth_sendTransaction", [{ from, data: token.bytecode + iface.encodeDeploy([10n ** 24n]).slice(2) }]);
  const to = ((await call("eth_getTransactionReceipt", [deploy])) as { contractAddress: string }).contractAddress;
  const data = iface.encodeFunctionData("transfer", [other, 1n]);
  const send = (): Promise<unknown> => call("eth_sendTransaction", [{ from, to, data, gas: "0x30000" }]);
  for (let i = 0; i < 500; i++) await send();
  for (const label of spent.keys()) spent.set(label, 0n);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await send();
  const total = process.hrtime.bigint() - t0;
  const cpu = process.cpuUsage(c0);
  const ms = (ns: bigint): string => `${(Number(ns) / 1e6 / N).toFixed(3)} ms`;
  const at = (label: string): bigint => spent.get(label) ?? 0n;
  console.log(`| phase (per send, wall, inclusive) | time |`);
  console.log(`| --- | --- |`);
  console.log(`| automined eth_sendTransaction, ${N} of them | ${ms(total)} (CPU, all threads: ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms) |`);
  for (const [label, ns] of spent) console.log(`| ${label.replace(/^ +/, (pad) => "\u00a0".repeat(pad.length * 2))} | ${ms(ns)} |`);
  const produceRest = at("  produce") - at("    epochs begin-block") - at("    runTx") - at("    epochs end-block") - at("    state root (flush)") - at("    transaction and receipt tries");
  const commitRest = at("  commit") - at("    block and receipts encoded") - at("    address index") - at("    store batch");
  const blockRest = at("block (miner.mineBlock)") - at("  produce") - at("  commit");
  const sendRest = total - at("fill and sign") - at("admission") - at("pool") - at("block (miner.mineBlock)");
  console.log(`| rest of produce (header, receipts, bloom, journal) | ${ms(produceRest)} |`);
  console.log(`| rest of commit (readability check, caches) | ${ms(commitRest)} |`);
  console.log(`| rest of the block (miner: candidates, pool upkeep, events) | ${ms(blockRest)} |`);
  console.log(`| rest of the send (dispatch, parameters, lock, answer) | ${ms(sendRest)} |`);
  console.log(`| everything but runTx | ${ms(total - at("    runTx"))} |`);
  await runtime.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
