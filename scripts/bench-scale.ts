/**
 * `npm run bench:scale`: how the chain's costs grow with its size. For each number of funded
 * accounts (and each store: memory, a LevelDB home) a chain is built in a process of its own, then
 * measured: block production (a 1-wei transfer to a random funded account per block, and empty
 * blocks), eth_getBalance of random funded accounts, eth_call of a contract reading a mapping entry
 * of a random account, the process's peak RSS and the data directory's size. Then a long chain on a
 * LevelDB home: the cost of a block at its start and at its end.
 *
 * The goal: per-block cost flat within 2× from the smallest to the largest chain, and RSS bounded
 * by caches on a LevelDB home.
 *
 *   npm run bench:scale                 # quick (default): 10k and 100k accounts on LevelDB, 5,000 blocks; a few minutes
 *   npm run bench:scale -- --full       # 10k, 100k and 1M accounts, memory and LevelDB, 100,000 blocks; an hour or more
 *   (--accounts 10000,50000 --blocks 2000 --stores leveldb choose other sizes)
 *
 * Everything runs in-process through the JSON-RPC dispatcher (no HTTP), so the figures are the
 * chain's own. Every child has a time limit; every loop is bounded.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAccount, createAddressFromString } from "@ethereumjs/util";
import { Interface } from "ethers";
import { defaultChainConfig } from "../src/chain/config";
import { createRuntime, type Runtime } from "../src/app/runtime";
import { LevelKV } from "../src/storage/level-kv";
import { keccak256 } from "../src/utils/keccak";

type Store = "memory" | "leveldb";

interface Options {
  accounts: number[];
  blocks: number;
  stores: Store[];
}

/** What one child measured. */
interface AccountsResult {
  kind: "accounts";
  accounts: number;
  store: Store;
  fundS: number;
  txBlockMs: number;
  emptyBlockMs: number;
  balanceP50Us: number;
  balanceP99Us: number;
  callP50Us: number;
  callP99Us: number;
  peakRssMiB: number;
  /** Peak of the process's private memory (JS heap + native allocations), sampled. */
  peakAnonMiB: number;
  /** Memory-mapped files at the end: LevelDB maps its table files (page cache, grows with the data, reclaimable). */
  fileRssMiB: number;
  heapMiB: number;
  dataMB: number | undefined;
}

interface BlocksResult {
  kind: "blocks";
  blocks: number;
  store: Store;
  buildS: number;
  firstEmptyMs: number;
  lastEmptyMs: number;
  firstTxMs: number;
  lastTxMs: number;
  peakRssMiB: number;
  peakAnonMiB: number;
  fileRssMiB: number;
  /** Live JS heap after the first blocks and at the end of the chain. */
  firstHeapMiB: number;
  lastHeapMiB: number;
  dataMB: number | undefined;
}

const QUICK: Options = { accounts: [10_000, 100_000], blocks: 5_000, stores: ["leveldb"] };
const FULL: Options = { accounts: [10_000, 100_000, 1_000_000], blocks: 100_000, stores: ["memory", "leveldb"] };
/** Blocks measured per workload; accounts funded per state change. */
const SAMPLE_BLOCKS = 200;
const FUND_CHUNK = 10_000;
const READS = 1000;
const CALLS = 300;

const SRC = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Balances {
  mapping(address => uint256) public balanceOf;
  constructor() { balanceOf[msg.sender] = 1; }
}`;

/** Compiled in the parent only (solc-js loaded in a child would count in its RSS). */
async function compile(): Promise<{ abi: unknown[]; bytecode: string }> {
  const solc = (await import("solc")).default;
  const input = {
    language: "Solidity",
    sources: { "B.sol": { content: SRC } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>> };
  const c = out.contracts["B.sol"].Balances;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/** The i-th funded account: spread over the trie as real addresses are (a hash, not a counter). */
function accountAt(i: number): string {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(i));
  return `0x${Buffer.from(keccak256(b)).subarray(12).toString("hex")}`;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir, { withFileTypes: true })) n += f.isDirectory() ? dirBytes(path.join(dir, f.name)) : statSync(path.join(dir, f.name)).size;
  return n;
}

/** The JS heap still in use after a full collection (children run with --expose-gc): what caches and state really hold, where peak RSS also counts garbage not yet collected. */
function liveHeapMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** A field of /proc/self/status in MiB (Linux), undefined elsewhere. */
function statusMiB(field: string): number | undefined {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"));
    return m !== null ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function peakRssMiB(): number {
  return statusMiB("VmHWM") ?? process.memoryUsage().rss / 2 ** 20;
}

/**
 * Peak RSS counts LevelDB's memory-mapped table files, which grow with the data on disk and are
 * page cache the kernel takes back when it needs it. The process's own memory is RssAnon: sampled
 * here, as the kernel keeps no peak of it.
 */
let peakAnon = 0;
function sampleAnon(): void {
  peakAnon = Math.max(peakAnon, statusMiB("RssAnon") ?? process.memoryUsage().rss / 2 ** 20);
}
setInterval(sampleAnon, 200).unref();
const peakAnonMiB = (): number => (sampleAnon(), peakAnon);
const fileRssMiB = (): number => statusMiB("RssFile") ?? 0;

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;

/** A pseudo-random sequence (the same in every run, so runs compare). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

async function openRuntime(store: Store): Promise<{ rt: Runtime; dir: string | undefined }> {
  const dir = store === "leveldb" ? mkdtempSync(path.join(tmpdir(), "bench-scale-")) : undefined;
  const rt = await createRuntime({
    chain: { ...defaultChainConfig(), initialDate: new Date("2024-01-01T00:00:00Z") },
    clientVersion: "bench",
    kv: dir !== undefined ? await LevelKV.open(dir) : undefined,
  });
  // block production is measured here: hardhat_mine makes every block instead of reserving empty ranges (docs/reserved-blocks.md)
  rt.node.wantsEveryBlock(() => true);
  return { rt, dir };
}

function caller(rt: Runtime): (m: string, p?: unknown[]) => Promise<unknown> {
  const ctx = { transport: "in-process" as const, authenticated: true };
  return (m, p = []) => rt.dispatcher.call(m, p, ctx);
}

/** Funds `n` accounts with 1 ETH each, FUND_CHUNK per state change, each chunk written with a block. */
async function fund(rt: Runtime, n: number): Promise<void> {
  const call = caller(rt);
  for (let start = 0; start < n; start += FUND_CHUNK) {
    const end = Math.min(n, start + FUND_CHUNK);
    // the path hardhat_setBalance takes, for a chunk of accounts at once
    await rt.node.modifyState(async (sm) => {
      for (let i = start; i < end; i++) await sm.putAccount(createAddressFromString(accountAt(i)), createAccount({ balance: 10n ** 18n }));
    });
    await call("evm_mine");
  }
}

/** Milliseconds per block of `count` blocks, each with one 1-wei transfer to a random funded account. */
async function txBlocks(rt: Runtime, from: string, funded: number, count: number, rand: () => number): Promise<number> {
  const call = caller(rt);
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await call("eth_sendTransaction", [{ from, to: accountAt(Math.floor(rand() * funded)), value: "0x1", gas: "0x5208" }]);
  return (performance.now() - t0) / count;
}

async function emptyBlocks(rt: Runtime, count: number): Promise<number> {
  const t0 = performance.now();
  await caller(rt)("hardhat_mine", [hexq(count)]);
  return (performance.now() - t0) / count;
}

async function childAccounts(n: number, store: Store): Promise<AccountsResult> {
  const { rt, dir } = await openRuntime(store);
  try {
    const call = caller(rt);
    const rand = rng(n);
    const from = ((await call("eth_accounts")) as string[])[0];
    const t0 = performance.now();
    await fund(rt, n);
    const fundS = (performance.now() - t0) / 1000;

    const c = JSON.parse(process.env.BENCH_SCALE_CONTRACT ?? "null") as { abi: unknown[]; bytecode: string };
    const iface = new Interface(c.abi as never);
    const deploy = (await call("eth_sendTransaction", [{ from, data: c.bytecode }])) as string;
    const contract = ((await call("eth_getTransactionReceipt", [deploy])) as { contractAddress: string }).contractAddress;

    const txBlockMs = await txBlocks(rt, from, n, SAMPLE_BLOCKS, rand);
    const emptyBlockMs = await emptyBlocks(rt, SAMPLE_BLOCKS);

    const balance: number[] = [];
    for (let i = 0; i < READS; i++) {
      const a = accountAt(Math.floor(rand() * n));
      const t = performance.now();
      const b = (await call("eth_getBalance", [a, "latest"])) as string;
      balance.push((performance.now() - t) * 1000);
      if (BigInt(b) < 10n ** 18n) throw new Error(`account ${a} holds ${b}, funded with 1 ETH`);
    }
    const calls: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const data = iface.encodeFunctionData("balanceOf", [accountAt(Math.floor(rand() * n))]);
      const t = performance.now();
      await call("eth_call", [{ to: contract, data }, "latest"]);
      calls.push((performance.now() - t) * 1000);
    }
    const heapMiB = liveHeapMiB();
    const fileMiB = fileRssMiB(); // before close: closing unmaps LevelDB's files
    await rt.close();
    return {
      kind: "accounts",
      accounts: n,
      store,
      fundS,
      txBlockMs,
      emptyBlockMs,
      balanceP50Us: pct(balance, 0.5),
      balanceP99Us: pct(balance, 0.99),
      callP50Us: pct(calls, 0.5),
      callP99Us: pct(calls, 0.99),
      peakRssMiB: peakRssMiB(),
      peakAnonMiB: peakAnonMiB(),
      fileRssMiB: fileMiB,
      heapMiB,
      dataMB: dir !== undefined ? dirBytes(dir) / 1e6 : undefined,
    };
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function childBlocks(blocks: number, store: Store): Promise<BlocksResult> {
  const { rt, dir } = await openRuntime(store);
  try {
    const call = caller(rt);
    const from = ((await call("eth_accounts")) as string[])[0];
    await fund(rt, FUND_CHUNK);
    const rand = rng(blocks);
    const t0 = performance.now();
    const firstTxMs = await txBlocks(rt, from, FUND_CHUNK, SAMPLE_BLOCKS, rand);
    const firstEmptyMs = await emptyBlocks(rt, SAMPLE_BLOCKS);
    const firstHeapMiB = liveHeapMiB();
    // the long middle, in steps (hardhat_mine writes each block as it goes)
    const middle = Math.max(0, blocks - 4 * SAMPLE_BLOCKS);
    for (let done = 0; done < middle; done += 1000) await emptyBlocks(rt, Math.min(1000, middle - done));
    const lastTxMs = await txBlocks(rt, from, FUND_CHUNK, SAMPLE_BLOCKS, rand);
    const lastEmptyMs = await emptyBlocks(rt, SAMPLE_BLOCKS);
    const buildS = (performance.now() - t0) / 1000;
    const lastHeapMiB = liveHeapMiB();
    const fileMiB = fileRssMiB();
    await rt.close();
    return {
      kind: "blocks",
      blocks,
      store,
      buildS,
      firstEmptyMs,
      lastEmptyMs,
      firstTxMs,
      lastTxMs,
      peakRssMiB: peakRssMiB(),
      peakAnonMiB: peakAnonMiB(),
      fileRssMiB: fileMiB,
      firstHeapMiB,
      lastHeapMiB,
      dataMB: dir !== undefined ? dirBytes(dir) / 1e6 : undefined,
    };
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

function parseOptions(argv: string[]): Options {
  const o: Options = argv.includes("--full") ? { ...FULL } : { ...QUICK };
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const accounts = value("--accounts");
  if (accounts !== undefined) o.accounts = accounts.split(",").map(Number);
  const blocks = value("--blocks");
  if (blocks !== undefined) o.blocks = Number(blocks);
  const stores = value("--stores");
  if (stores !== undefined) o.stores = stores.split(",") as Store[];
  if (o.accounts.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(o.blocks) || o.blocks < 0 || o.stores.some((s) => s !== "memory" && s !== "leveldb")) {
    throw new Error("usage: bench-scale.ts [--full] [--accounts N,N] [--blocks N] [--stores memory,leveldb]");
  }
  return o;
}

/** Runs one measurement in a process of its own (its own RSS), with a time limit. */
let contract = "null";
function runChild(args: string[], timeoutMs: number): AccountsResult | BlocksResult {
  const env = { ...process.env, BENCH_SCALE_CONTRACT: contract };
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, __filename, "--child", ...args], { encoding: "utf8", timeout: timeoutMs, maxBuffer: 16 * 2 ** 20, env });
  const line = r.stdout.split("\n").find((l) => l.startsWith("{"));
  if (r.status !== 0 || line === undefined) throw new Error(`bench-scale child ${args.join(" ")} failed (${r.signal ?? r.status}):\n${r.stdout}${r.stderr}`);
  return JSON.parse(line) as AccountsResult | BlocksResult;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === "--child") {
    const [kind, size, store] = argv.slice(1);
    const out = kind === "accounts" ? await childAccounts(Number(size), store as Store) : await childBlocks(Number(size), store as Store);
    console.log(JSON.stringify(out));
    return;
  }
  const o = parseOptions(argv);
  contract = JSON.stringify(await compile());
  const full = argv.includes("--full");
  const limitMs = (full ? 60 : 10) * 60_000;
  const f = (v: number | undefined, d = 2) => (v === undefined ? "–" : v.toFixed(d));
  console.log(`chain size: ${full ? "full" : "quick (--full for 1M accounts and 100,000 blocks)"}; ${SAMPLE_BLOCKS} blocks per block figure, ${READS} reads, ${CALLS} calls\n`);
  console.log(
    "| funded accounts | store | funding s | ms/block, 1 transfer | ms/block, empty | eth_getBalance p50 / p99 µs | eth_call p50 / p99 µs | peak RSS MiB | peak anon RSS MiB | file RSS MiB | live heap MiB | data MB |",
  );
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const rows: AccountsResult[] = [];
  for (const n of o.accounts) {
    for (const store of o.stores) {
      const r = runChild(["accounts", String(n), store], limitMs) as AccountsResult;
      rows.push(r);
      console.log(
        `| ${n} | ${store} | ${f(r.fundS, 1)} | ${f(r.txBlockMs)} | ${f(r.emptyBlockMs)} | ${f(r.balanceP50Us, 0)} / ${f(r.balanceP99Us, 0)} | ${f(r.callP50Us, 0)} / ${f(r.callP99Us, 0)} | ${f(r.peakRssMiB, 0)} | ${f(r.peakAnonMiB, 0)} | ${f(r.fileRssMiB, 0)} | ${f(r.heapMiB, 0)} | ${f(r.dataMB, 1)} |`,
      );
    }
  }
  for (const store of o.stores) {
    const mine = rows.filter((r) => r.store === store);
    if (mine.length < 2) continue;
    const first = mine[0];
    const last = mine[mine.length - 1];
    const growth = last.txBlockMs / first.txBlockMs;
    console.log(`\n${store}: ms/block (1 transfer) ${last.accounts} vs ${first.accounts} accounts: ×${growth.toFixed(2)} (goal ≤ 2: ${growth <= 2 ? "met" : "not met"})`);
  }
  if (o.blocks > 0) {
    const store: Store = o.stores.includes("leveldb") ? "leveldb" : "memory";
    const r = runChild(["blocks", String(o.blocks), store], limitMs) as BlocksResult;
    console.log(`\nlong chain: ${o.blocks} blocks on ${store} (${FUND_CHUNK} funded accounts), built in ${f(r.buildS, 0)} s`);
    console.log("| | first blocks | last blocks | ratio |\n|---|---:|---:|---:|");
    console.log(`| ms/block, 1 transfer | ${f(r.firstTxMs)} | ${f(r.lastTxMs)} | ${f(r.lastTxMs / r.firstTxMs)} |`);
    console.log(`| ms/block, empty | ${f(r.firstEmptyMs)} | ${f(r.lastEmptyMs)} | ${f(r.lastEmptyMs / r.firstEmptyMs)} |`);
    console.log(`| live heap MiB | ${f(r.firstHeapMiB, 0)} | ${f(r.lastHeapMiB, 0)} | ${f(r.lastHeapMiB / r.firstHeapMiB)} |`);
    console.log(`peak RSS ${f(r.peakRssMiB, 0)} MiB (peak anon ${f(r.peakAnonMiB, 0)}, file ${f(r.fileRssMiB, 0)}), data ${f(r.dataMB, 1)} MB`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
