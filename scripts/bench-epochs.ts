/**
 * What the epochs module costs per block: the same chain mining the same empty blocks (1 s apart)
 * with no timers, and with 100 timers (durations 1…100 s) and 10 registered contract hooks.
 * Run: npx ts-node --transpile-only scripts/bench-epochs.ts  (bounded: BLOCKS blocks per run)
 */
import solc from "solc";
import { Wallet } from "ethers";
import { defaultChainConfig } from "../src/chain/config";
import { newEpochInfo } from "../src/epochs";
import { createRuntime, type RuntimeOptions } from "../src/rpc/runtime";

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 300);
const HOOK = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Hook {
  uint256 public starts; uint256 public ends;
  function beforeEpochStart(string calldata, int64) external { starts++; }
  function afterEpochEnd(string calldata, int64) external { ends++; }
}`;

function hookBytecode(): string {
  const out = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources: { "H.sol": { content: HOOK } }, settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } } }))) as {
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  return `0x${out.contracts["H.sol"].Hook.evm.bytecode.object}`;
}

async function run(name: string, epochs: RuntimeOptions["epochs"], hooks: number): Promise<{ name: string; msPerBlock: number; hookCalls: number; events: number }> {
  const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-01-01T00:00:00Z") }, clientVersion: "bench", epochs });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = (method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx);
  const from = new Wallet("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").address;
  const code = hookBytecode();
  for (let i = 0; i < hooks; i++) {
    const hash = (await call("eth_sendTransaction", [{ from, data: code, gas: "0x100000" }])) as string;
    const r = (await call("eth_getTransactionReceipt", [hash])) as { contractAddress: string };
    await call("epochs_registerHooks", [r.contractAddress]);
  }
  const start = rt.node.headNumber;
  const t0 = performance.now();
  await call("hardhat_mine", [`0x${BLOCKS.toString(16)}`, "0x1"]);
  const ms = performance.now() - t0;
  let hookCalls = 0;
  let events = 0;
  for (let n = start + 1n; n <= rt.node.headNumber; n++) {
    const ev = await rt.node.store.getEvents(n);
    for (const e of [...ev.begin, ...ev.end]) {
      events++;
      if (e.type.startsWith("epoch_hook")) hookCalls++;
    }
  }
  await rt.close();
  return { name, msPerBlock: ms / BLOCKS, hookCalls, events };
}

async function main(): Promise<void> {
  const timers = { genesis: { epochs: Array.from({ length: 100 }, (_, i) => newEpochInfo(`t${String(i + 1).padStart(3, "0")}`, BigInt(i + 1))) } };
  await run("warm-up", { genesis: { epochs: [] } }, 0);
  const rows = [
    await run("no timers, no hooks", { genesis: { epochs: [] } }, 0),
    await run("100 timers, no hooks", timers, 0),
    await run("100 timers, 10 contract hooks", timers, 10),
  ];
  console.log(`\nepochs cost per block (${BLOCKS} empty blocks, 1 s apart, in-process, spec rule)\n`);
  console.log("| chain | ms/block | extra ms/block | hook calls | events |\n|---|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.msPerBlock.toFixed(3)} | ${(r.msPerBlock - rows[0].msPerBlock).toFixed(3)} | ${r.hookCalls} | ${r.events} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
