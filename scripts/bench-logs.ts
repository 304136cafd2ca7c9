/**
 * eth_getLogs latency as the chain grows, on a LevelDB home: BLOCKS blocks, mostly empty
 * (hardhat_mine), one block in NOISE_EVERY with a log of a common topic and one in RARE_EVERY with a
 * log of a rare topic. Topic-filtered queries over the last 10,000 blocks and over the whole chain
 * (median of RUNS), and for reference a scan of every block's receipts without the index.
 * With the log index the cost follows the matched logs, not the length of the range.
 *
 * Run: npx ts-node --transpile-only scripts/bench-logs.ts
 *      (env BENCH_LOG_BLOCKS=100000, BENCH_LOG_RARE_EVERY=1000, BENCH_LOG_NOISE_EVERY=100)
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Interface } from "ethers";
import solc from "solc";
import { defaultChainConfig } from "../src/chain/config";
import { blockLogs } from "../src/rpc/log-matcher";
import { logFilter } from "../src/rpc/objects";
import { createRuntime } from "../src/app/runtime";
import { LevelKV } from "../src/storage/level-kv";

const BLOCKS = Number(process.env.BENCH_LOG_BLOCKS ?? 100_000);
const RARE_EVERY = Number(process.env.BENCH_LOG_RARE_EVERY ?? 1000);
const NOISE_EVERY = Number(process.env.BENCH_LOG_NOISE_EVERY ?? 100);
const RUNS = 7;
const SRC = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract E {
  event Rare(uint256 indexed n);
  event Common(uint256 indexed n);
  function rare(uint256 n) external { emit Rare(n); }
  function noise(uint256 n) external { emit Common(n); }
}`;

function compileE(): { abi: unknown[]; bytecode: string } {
  const input = { language: "Solidity", sources: { "E.sol": { content: SRC } }, settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } } };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const c = out.contracts["E.sol"].E;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;

async function main(): Promise<void> {
  const c = compileE();
  const iface = new Interface(c.abi as never);
  const dir = mkdtempSync(path.join(tmpdir(), "bench-logs-"));
  try {
    const rt = await createRuntime({
      chain: { ...defaultChainConfig(), initialDate: new Date("2024-01-01T00:00:00Z") },
      clientVersion: "bench",
      kv: await LevelKV.open(dir),
      epochs: false,
      // the block-range cap (10,000 by default) would refuse the whole-chain query
      rpc: { blockRangeCap: 0 },
    });
    const ctx = { transport: "in-process" as const, authenticated: true };
    const call = (m: string, p: unknown[] = []) => rt.dispatcher.call(m, p, ctx);
    const from = ((await call("eth_accounts")) as string[])[0];
    const deploy = (await call("eth_sendTransaction", [{ from, data: c.bytecode }])) as string;
    const addr = ((await call("eth_getTransactionReceipt", [deploy])) as { contractAddress: string }).contractAddress;

    // each step fills the gap to the next block with a log with empty blocks, then sends that log's transaction
    const t0 = performance.now();
    let n = 0;
    for (;;) {
      const next = (Math.floor(Number(rt.node.headNumber) / NOISE_EVERY) + 1) * NOISE_EVERY;
      if (next > BLOCKS) break;
      const gap = next - Number(rt.node.headNumber) - 1;
      if (gap > 0) await call("hardhat_mine", [hexq(gap)]);
      const fn = next % RARE_EVERY === 0 ? "rare" : "noise";
      await call("eth_sendTransaction", [{ from, to: addr, data: iface.encodeFunctionData(fn, [n++]), gas: "0x30000" }]);
    }
    const rest = BLOCKS - Number(rt.node.headNumber);
    if (rest > 0) await call("hardhat_mine", [hexq(rest)]);
    const buildS = (performance.now() - t0) / 1000;

    const head = rt.node.headNumber;
    const rare = iface.getEvent("Rare")!.topicHash;
    const common = iface.getEvent("Common")!.topicHash;
    const absent = `0x${"ab".repeat(32)}`;
    const measure = async (fromBlock: bigint, topic: string) => {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const logs = (await call("eth_getLogs", [{ fromBlock: hexq(fromBlock), toBlock: "latest", topics: [topic] }])) as unknown[];
        times.push(performance.now() - t);
        count = logs.length;
      }
      return { ms: median(times), count };
    };
    const last10k = head - 9_999n;
    const rows: Array<[string, bigint, string]> = [
      ["rare topic, last 10,000 blocks", last10k, rare],
      ["rare topic, whole chain", 0n, rare],
      ["common topic, last 10,000 blocks", last10k, common],
      ["common topic, whole chain", 0n, common],
      ["topic never logged, last 10,000 blocks", last10k, absent],
      ["topic never logged, whole chain", 0n, absent],
    ];
    const results = [];
    for (const [name, fromBlock, topic] of rows) results.push({ name, blocks: head - fromBlock + 1n, ...(await measure(fromBlock, topic)) });

    // reference: what eth_getLogs would cost without the index (read every block and its receipts)
    const f = logFilter.parse({ topics: [rare] });
    const tScan = performance.now();
    let scanned = 0;
    for (let b = last10k; b <= head; b++) {
      const block = await rt.node.getBlock(b);
      if (block !== undefined) scanned += blockLogs(block, (await rt.node.store.getReceipts(b)) ?? [], f).length;
    }
    const scanMs = performance.now() - tScan;

    let indexEntries = 0;
    for await (const _ of rt.node.store.logBlooms(0n, head)) indexEntries++;
    console.log(`\neth_getLogs, topic filter, LevelDB home: ${head + 1n} blocks (0..${head}), ${indexEntries} with logs`);
    console.log(`(a Common log every ${NOISE_EVERY} blocks, a Rare one every ${RARE_EVERY}; built in ${buildS.toFixed(0)} s; data dir ${(dirBytes(dir) / 1e6).toFixed(1)} MB; median of ${RUNS})\n`);
    console.log("| query | blocks in range | matched logs | median ms |\n|---|---:|---:|---:|");
    for (const r of results) console.log(`| ${r.name} | ${r.blocks} | ${r.count} | ${r.ms.toFixed(2)} |`);
    console.log(`| reference: every block's receipts read, no index, last 10,000 blocks | 10000 | ${scanned} | ${scanMs.toFixed(0)} (once) |`);
    await rt.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
