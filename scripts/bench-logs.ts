/**
 * eth_getLogs latency as the chain grows: a LevelDB home with BLOCKS blocks where one block in
 * EVERY carries a log with a rare topic; topic-filtered queries over the last 10,000 blocks and over
 * the whole chain (median of 5). With the log index the cost follows the matched logs, not the range.
 * Run: npx ts-node --transpile-only scripts/bench-logs.ts   (BENCH_LOG_BLOCKS, BENCH_LOG_EVERY)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface, Wallet } from "ethers";
import solc from "solc";
import { defaultChainConfig } from "../src/chain/config";
import { createRuntime } from "../src/rpc/runtime";
import { LevelKV } from "../src/storage/level-kv";

const BLOCKS = Number(process.env.BENCH_LOG_BLOCKS ?? 100_000);
const EVERY = Number(process.env.BENCH_LOG_EVERY ?? 1000);
const SRC = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract E { event Rare(uint256 indexed n); event Common(uint256 n); function rare(uint256 n) external { emit Rare(n); emit Common(n); } }`;

async function main(): Promise<void> {
  const out = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources: { "E.sol": { content: SRC } }, settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } } }))) as {
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const c = out.contracts["E.sol"].E;
  const iface = new Interface(c.abi as never);
  const dir = mkdtempSync(path.join(tmpdir(), "bench-logs-"));
  try {
    const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-01-01T00:00:00Z") }, clientVersion: "bench", kv: await LevelKV.open(dir), epochs: false });
    const ctx = { transport: "in-process" as const, authenticated: true };
    const call = (m: string, p: unknown[] = []) => rt.dispatcher.call(m, p, ctx);
    const from = new Wallet("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").address;
    const h = (await call("eth_sendTransaction", [{ from, data: `0x${c.evm.bytecode.object}`, gas: "0x100000" }])) as string;
    const addr = ((await call("eth_getTransactionReceipt", [h])) as { contractAddress: string }).contractAddress;
    const t0 = performance.now();
    let n = 1;
    while (rt.node.headNumber < BigInt(BLOCKS)) {
      await call("hardhat_mine", [`0x${(EVERY - 1).toString(16)}`]);
      await call("eth_sendTransaction", [{ from, to: addr, data: iface.encodeFunctionData("rare", [n++]), gas: "0x30000" }]);
    }
    const buildS = (performance.now() - t0) / 1000;
    const topic = iface.getEvent("Rare")!.topicHash;
    const head = rt.node.headNumber;
    const measure = async (from: bigint) => {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const logs = (await call("eth_getLogs", [{ fromBlock: `0x${from.toString(16)}`, toBlock: "latest", topics: [topic] }])) as unknown[];
        times.push(performance.now() - t);
        count = logs.length;
      }
      return { ms: times.sort((a, b) => a - b)[2], count };
    };
    // the block-range cap (10,000 by default) would refuse the long query: lift it for the bench
    rt.deps.settings.blockRangeCap = 0;
    const recent = await measure(head - 10_000n);
    const all = await measure(0n);
    console.log(`\neth_getLogs (topic filter), LevelDB home, ${head} blocks, a matching log every ${EVERY} blocks (built in ${buildS.toFixed(0)} s)\n`);
    console.log("| range | blocks | matched logs | median ms |\n|---|---:|---:|---:|");
    console.log(`| last 10,000 blocks | 10000 | ${recent.count} | ${recent.ms.toFixed(2)} |`);
    console.log(`| whole chain | ${head} | ${all.count} | ${all.ms.toFixed(2)} |`);
    await rt.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
