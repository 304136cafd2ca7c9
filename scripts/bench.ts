/**
 * `npm run bench`: starts our node (the built plugin, dist/, in a project of its own, as users run it)
 * and Hardhat's own node (EDR) side by side on 127.0.0.1, runs the same bounded workloads against
 * both over real HTTP/WebSocket, one node at a time, and prints each workload with the ratio
 * ours/Hardhat and the goal for it. First, the start times (scripts/bench-start.ts). Every loop is
 * bounded in count or time; every node is stopped by process group.
 *
 * env: BENCH_MS (per throughput workload, default 2000), BENCH_TRANSFERS (default 2000),
 * BENCH_ONLY=start|fork|nodes|tracer|hardhat3.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Interface, Transaction, Wallet, getCreateAddress } from "ethers";
import solc from "solc";
import WebSocket from "ws";
import { benchStart, buildDist, freePort, printStartRows, project } from "./bench-start";
import { benchHardhat3, printHardhat3Rows } from "./bench-hardhat3";
import { benchTracer, printTracerRows } from "./bench-tracer";

const ROOT = path.resolve(__dirname, "..");
const DURATION_MS = Number(process.env.BENCH_MS ?? 2000);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 2000);
const SENDERS = 8;
// Hardhat's default mnemonic, accounts 0..8
const KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
];

const TOKEN = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Token {
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor(address[] memory holders) { for (uint256 i = 0; i < holders.length; i++) balanceOf[holders[i]] = 1e24; }
  function transfer(address to, uint256 value) external returns (bool) {
    require(balanceOf[msg.sender] >= value, "balance");
    balanceOf[msg.sender] -= value; balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }
}`;

export interface NodeHandle {
  name: string;
  url: string;
  wsUrl: string;
  child: ChildProcess;
  stop(): void;
}

// keep-alive connections, as load generators use (fetch's client cost more CPU than the nodes' answers);
// idle ones are closed before the servers' 5 s keep-alive timeout, so none is reused as the server drops it
export const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 3000 });

/** POSTs `body` to `url` and resolves with the response text. */
function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      res.on("error", reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("request timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const body = JSON.parse(await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }))) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Our node: the built plugin in a project of its own (what a user runs), removed again by `stop`. */
export function oursProject(): string {
  return project("ours", `require(${JSON.stringify(path.join(ROOT, "dist", "src"))});\nmodule.exports = { solidity: "0.8.30" };\n`);
}

export async function startNode(name: string, extraArgs: string[], nodeArgs: string[], cwd = ROOT): Promise<NodeHandle> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/hardhat/internal/cli/bootstrap.js"), ...extraArgs, "node", "--hostname", "127.0.0.1", "--port", String(port), ...nodeArgs], {
    cwd,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, HARDHAT_EPOCHS_QUIET: "1" },
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}/`;
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} node exited: ${stderr}`);
    try {
      await rpc(url, "eth_chainId");
      return { name, url, wsUrl: `ws://127.0.0.1:${port}/`, child, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  stop();
  throw new Error(`${name} node did not start: ${stderr}`);
}

/** Requests per second of `body` over `DURATION_MS` (after a quarter of that unmeasured, to warm up) with `concurrency` keep-alive clients. */
async function throughput(url: string, body: unknown, concurrency: number): Promise<number> {
  const payload = JSON.stringify(body);
  let count = 0;
  const warm = Date.now() + DURATION_MS / 4;
  const end = warm + DURATION_MS;
  let t0 = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const text = await post(url, payload);
      const json = JSON.parse(text) as { error?: unknown } | Array<{ error?: unknown }>;
      const err = Array.isArray(json) ? json.find((j) => j.error !== undefined)?.error : json.error;
      if (err !== undefined) throw new Error(JSON.stringify(err));
      if (Date.now() < warm) continue;
      if (t0 === 0) t0 = performance.now();
      count++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (count / (performance.now() - t0)) * 1000;
}

function peakRssMb(pid: number): number {
  // the node may run in a child of the process we spawned: take the largest peak in the tree
  const pids = [pid];
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    pids.push(...kids);
  } catch {
    /* no children file */
  }
  let peak = 0;
  for (const p of pids) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m !== null) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      /* exited */
    }
  }
  return peak;
}

function compileToken(): { abi: unknown[]; bytecode: string } {
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "T.sol": { content: TOKEN } },
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  ) as { contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>> };
  const c = out.contracts["T.sol"].Token;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

async function percentiles(samples: number[]): Promise<{ p50: number; p99: number }> {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length * 0.5)], p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] };
}

/** The workloads' names, and the goal for each ratio ours/Hardhat (the open issue "Speed"). */
const W = {
  blockNumber1: "eth_blockNumber req/s (c=1)",
  blockNumber32: "eth_blockNumber req/s (c=32)",
  balance1: "eth_getBalance req/s (c=1)",
  balance32: "eth_getBalance req/s (c=32)",
  batch: "batch of 100 eth_getBalance /s (c=1)",
  call1: "eth_call ERC20 balanceOf req/s (c=1)",
  call32: "eth_call ERC20 balanceOf req/s (c=32)",
  transfers1: "pre-signed ERC20 transfers, automine, 1 sender tx/s",
  transfers8: `pre-signed ERC20 transfers, automine, ${SENDERS} senders tx/s`,
  shared16Mined: `one account's ${TRANSFERS} pre-signed transfers, 16 workers: mined`,
  shared16Rate: "one account, 16 workers: mined tx/s",
  logs: "eth_getLogs whole range ms (median of 5)",
  wsP50: "WS sendRawTransaction → newHeads p50 ms",
  wsP99: "WS sendRawTransaction → newHeads p99 ms",
  rss: "node peak RSS MiB",
} as const;

/** `>=`: ours/Hardhat must reach it (rates); `<=`: must stay under it (times, memory). */
const GOALS: Record<string, { op: ">=" | "<="; ratio: number }> = {
  [W.blockNumber32]: { op: ">=", ratio: 2.5 },
  [W.balance32]: { op: ">=", ratio: 2.5 },
  [W.batch]: { op: ">=", ratio: 5 },
  [W.call32]: { op: ">=", ratio: 2 },
  [W.transfers1]: { op: ">=", ratio: 1.2 },
  [W.logs]: { op: "<=", ratio: 0.5 },
  [W.wsP50]: { op: "<=", ratio: 1 },
};
/** Our node's peak RSS goal, MiB (absolute, not a ratio). */
const RSS_GOAL_MIB = 300;

async function signTransfers(url: string, w: Wallet, chainId: bigint, tokenAddr: string, iface: Interface, count: number, toIndex: number): Promise<string[]> {
  const fee = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n };
  const n0 = Number(BigInt((await rpc(url, "eth_getTransactionCount", [w.address, "pending"])) as string));
  const list: string[] = [];
  for (let i = 0; i < count; i++) {
    const data = iface.encodeFunctionData("transfer", [new Wallet(KEYS[(toIndex + i) % 9]).address, 1n]);
    list.push(await w.signTransaction(Transaction.from({ type: 2, chainId, nonce: n0 + i, to: tokenAddr, gasLimit: 100_000n, data, ...fee })));
  }
  return list;
}

async function waitReceipt(url: string, hash: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if ((await rpc(url, "eth_getTransactionReceipt", [hash])) !== null) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`transaction ${hash} not mined within 60 s`);
}

/**
 * One account's pre-signed transfers sent by `workers` concurrent clients sharing one queue (a script
 * author's burst: arrival order differs from nonce order), then waits (bounded) for the account's
 * nonce to pass them: how many were mined, and how fast.
 */
async function sharedNonces(
  url: string,
  w: Wallet,
  chainId: bigint,
  tokenAddr: string,
  iface: Interface,
  workers: number,
): Promise<{ mined: number; rate: number; refused: number; firstError?: string }> {
  const list = await signTransfers(url, w, chainId, tokenAddr, iface, TRANSFERS, 0);
  const n0 = Number(BigInt((await rpc(url, "eth_getTransactionCount", [w.address, "latest"])) as string));
  let next = 0;
  let refused = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < list.length) {
        const raw = list[next++];
        try {
          await rpc(url, "eth_sendRawTransaction", [raw]);
        } catch (err) {
          refused++;
          firstError ??= (err as Error).message;
        }
      }
    }),
  );
  let mined = 0;
  for (let i = 0; i < (refused > 0 ? 40 : 1200); i++) {
    mined = Number(BigInt((await rpc(url, "eth_getTransactionCount", [w.address, "latest"])) as string)) - n0;
    if (mined >= TRANSFERS) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  return { mined, rate: (mined / (performance.now() - t0)) * 1000, refused, firstError };
}

/** Sends every list (one client per list, each in order, back to back) and waits for the last receipts: mined transactions per second. */
async function sendAll(url: string, lists: string[][]): Promise<number> {
  const t0 = performance.now();
  const last = await Promise.all(
    lists.map(async (list) => {
      let h = "";
      for (const raw of list) h = (await rpc(url, "eth_sendRawTransaction", [raw])) as string;
      return h;
    }),
  );
  for (const h of last) await waitReceipt(url, h);
  return (lists.reduce((n, l) => n + l.length, 0) / (performance.now() - t0)) * 1000;
}

async function benchNode(node: NodeHandle): Promise<Record<string, number>> {
  const r: Record<string, number> = {};
  const wallets = KEYS.map((k) => new Wallet(k));
  const chainId = BigInt((await rpc(node.url, "eth_chainId")) as string);
  const token = compileToken();
  const iface = new Interface(token.abi as never);

  const addr0 = wallets[0].address;
  r[W.blockNumber1] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }, 1);
  r[W.blockNumber32] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }, 32);
  r[W.balance1] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [addr0, "latest"] }, 1);
  r[W.balance32] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [addr0, "latest"] }, 32);
  const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_getBalance", params: [wallets[i % 9].address, "latest"] }));
  r[W.batch] = await throughput(node.url, batch, 1);

  // deploy the token, funding the senders
  const holders = wallets.slice(1, 1 + SENDERS).map((w) => w.address);
  const deployData = token.bytecode + new Interface(token.abi as never).encodeDeploy([holders]).slice(2);
  const fee = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n };
  const nonce0 = Number(BigInt((await rpc(node.url, "eth_getTransactionCount", [addr0, "latest"])) as string));
  const deploy = await wallets[0].signTransaction(Transaction.from({ type: 2, chainId, nonce: nonce0, gasLimit: 3_000_000n, data: deployData, ...fee }));
  await waitReceipt(node.url, (await rpc(node.url, "eth_sendRawTransaction", [deploy])) as string);
  const tokenAddr = getCreateAddress({ from: addr0, nonce: nonce0 });

  const callBody = { jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: tokenAddr, data: iface.encodeFunctionData("balanceOf", [holders[0]]) }, "latest"] };
  r[W.call1] = await throughput(node.url, callBody, 1);
  r[W.call32] = await throughput(node.url, callBody, 32);

  // pre-signed transfers: all from one sender, then SENDERS senders in parallel (each in nonce order)
  const firstBlock = BigInt((await rpc(node.url, "eth_blockNumber")) as string) + 1n;
  r[W.transfers1] = await sendAll(node.url, [await signTransfers(node.url, wallets[1], chainId, tokenAddr, iface, TRANSFERS, 0)]);
  const perSender = Math.ceil(TRANSFERS / SENDERS);
  const lists: string[][] = [];
  for (let s = 0; s < SENDERS; s++) lists.push(await signTransfers(node.url, wallets[1 + s], chainId, tokenAddr, iface, perSender, s));
  r[W.transfers8] = await sendAll(node.url, lists);
  const lastBlock = BigInt((await rpc(node.url, "eth_blockNumber")) as string);

  const logsMs: number[] = [];
  let logCount = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const logs = (await rpc(node.url, "eth_getLogs", [{ fromBlock: `0x${firstBlock.toString(16)}`, toBlock: `0x${lastBlock.toString(16)}`, address: tokenAddr }])) as unknown[];
    logsMs.push(performance.now() - t);
    logCount = logs.length;
  }
  if (logCount !== TRANSFERS + SENDERS * perSender) throw new Error(`${node.name}: eth_getLogs returned ${logCount} logs, ${TRANSFERS + SENDERS * perSender} transfers were mined`);
  r[W.logs] = logsMs.sort((a, b) => a - b)[2];

  const shared = await sharedNonces(node.url, wallets[1], chainId, tokenAddr, iface, 16);
  r[W.shared16Mined] = shared.mined;
  r[W.shared16Rate] = shared.rate;
  if (shared.refused > 0) console.log(`${node.name}: one account, 16 workers: ${shared.refused} refused, the first: ${shared.firstError}`);

  Object.assign(r, await benchTraces(node.url, chainId, tokenAddr, iface));

  // WebSocket: time from sendRawTransaction to the newHeads notification
  const ws = new WebSocket(node.wsUrl);
  await new Promise<void>((res, rej) => {
    ws.once("open", () => res());
    ws.once("error", rej);
  });
  const pending = new Map<number, (v: unknown) => void>();
  let heads: Array<(h: { number: string }) => void> = [];
  ws.on("message", (buf: Buffer) => {
    const m = JSON.parse(buf.toString()) as { id?: number; result?: unknown; method?: string; params?: { result: { number: string } } };
    if (m.method === "eth_subscription" && m.params !== undefined) {
      const waiting = heads;
      heads = [];
      for (const f of waiting) f(m.params.result);
    } else if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  let nextId = 1;
  const wsCall = (method: string, params: unknown[]) =>
    new Promise<unknown>((res) => {
      const id = nextId++;
      pending.set(id, res);
      ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  await wsCall("eth_subscribe", ["newHeads"]);
  const latencies: number[] = [];
  const w = wallets[0];
  let n = Number(BigInt((await rpc(node.url, "eth_getTransactionCount", [w.address, "latest"])) as string));
  for (let i = 0; i < 200; i++) {
    const raw = await w.signTransaction(Transaction.from({ type: 2, chainId, nonce: n++, to: wallets[2].address, value: 1n, gasLimit: 21_000n, ...fee }));
    const t = performance.now();
    const head = new Promise((res) => heads.push(res));
    await wsCall("eth_sendRawTransaction", [raw]);
    await head;
    latencies.push(performance.now() - t);
  }
  ws.close();
  const { p50, p99 } = await percentiles(latencies);
  r[W.wsP50] = p50;
  r[W.wsP99] = p99;

  r[W.rss] = node.child.pid !== undefined ? peakRssMb(node.child.pid) : NaN;
  return r;
}

/** Milliseconds to read the balances of `accounts` one after the other (each a cold or cached read). */
async function readAll(url: string, accounts: string[]): Promise<number> {
  const t0 = performance.now();
  for (const a of accounts) await rpc(url, "eth_getBalance", [a, "latest"]);
  return performance.now() - t0;
}

/**
 * Forking: a remote (our node) with 100 funded accounts; each forking node reads them once cold
 * (every read goes to the remote), again in the same process, and once more after a restart (from
 * its disk cache). Both forks pin the same block, so both cache.
 */
async function benchFork(nodes: NodeHandle[]): Promise<void> {
  const remote = await startNode("remote", [], ["--json-rpc.ws-address", "127.0.0.1:0"]);
  nodes.push(remote);
  const accounts = Array.from({ length: 100 }, (_, i) => `0x${(0x100000 + i).toString(16).padStart(40, "0")}`);
  for (const [i, a] of accounts.entries()) await rpc(remote.url, "hardhat_setBalance", [a, `0x${(i + 1).toString(16)}`]);
  await rpc(remote.url, "evm_mine");
  const pinned = String(BigInt((await rpc(remote.url, "eth_blockNumber")) as string));
  const forkArgs = ["--fork", remote.url, "--fork-block-number", pinned];
  // the cold runs start without a cache (a cache from an earlier bench would hold another remote's block)
  const { rmSync } = await import("node:fs");
  rmSync(path.join(ROOT, "cache/hardhat-epochs-fork"), { recursive: true, force: true });
  rmSync(path.join(ROOT, "cache/edr/hardhat-network-fork"), { recursive: true, force: true });
  const edrConfig = ["--config", path.join(ROOT, "scripts/hardhat-edr.config.ts")];
  const rows: Array<{ workload: string; ours: number; hardhat: number }> = [];
  const run = async (name: string, extra: string[], nodeArgs: string[]): Promise<number[]> => {
    const cold = await startNode(name, extra, nodeArgs);
    nodes.push(cold);
    const first = await readAll(cold.url, accounts);
    // a fork that reads wrong values would be fast for nothing: the last account holds 100 wei at the remote
    const last = BigInt((await rpc(cold.url, "eth_getBalance", [accounts[99], "latest"])) as string);
    if (last !== 100n) throw new Error(`${name} read ${last} for an account that holds 100 wei at the remote`);
    const again = await readAll(cold.url, accounts);
    cold.stop();
    await new Promise((r) => cold.child.once("exit", r));
    const warm = await startNode(name, extra, nodeArgs);
    nodes.push(warm);
    const cached = await readAll(warm.url, accounts);
    warm.stop();
    return [first, again, cached];
  };
  const ours = await run("ours-fork", [], [...forkArgs, "--json-rpc.ws-address", "127.0.0.1:0"]);
  let edr: number[] = [NaN, NaN, NaN];
  try {
    edr = await run("hardhat-fork", edrConfig, forkArgs);
  } catch (err) {
    console.error(`Hardhat's node could not fork our node: ${(err as Error).message.split("\n")[0]}`);
  }
  const names = ["first read of 100 cold accounts through the fork ms", "the same accounts again, same process ms", "the same, cached (after a restart) ms"];
  names.forEach((workload, i) => rows.push({ workload, ours: ours[i], hardhat: edr[i] }));
  const fmt = (v: number) => (Number.isNaN(v) ? "n/a" : v >= 100 ? v.toFixed(0) : v.toFixed(2));
  console.log(`\nforking: both nodes fork our node (loopback) at block ${pinned}; eth_getBalance one after the other`);
  console.log(`| workload | ours | Hardhat | ratio (Hardhat/ours, > 1 = ours better) |\n|---|---:|---:|---:|`);
  for (const r of rows) console.log(`| ${r.workload} | ${fmt(r.ours)} | ${fmt(r.hardhat)} | ${Number.isNaN(r.hardhat) ? "n/a" : (r.hardhat / r.ours).toFixed(2)} |`);
  remote.stop();
}

/** One ERC20 transfer in a block of its own, then debug_traceTransaction of it with the struct logger and callTracer. */
async function benchTraces(url: string, chainId: bigint, tokenAddr: string, iface: Interface): Promise<Record<string, number>> {
  const r: Record<string, number> = {};
  const w = new Wallet(KEYS[1]);
  const to = new Wallet(KEYS[2]).address;
  const nonce = Number(BigInt((await rpc(url, "eth_getTransactionCount", [w.address, "latest"])) as string));
  const raw = await w.signTransaction(
    Transaction.from({ type: 2, chainId, nonce, to: tokenAddr, gasLimit: 100_000n, data: iface.encodeFunctionData("transfer", [to, 1n]), maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n }),
  );
  const hash = (await rpc(url, "eth_sendRawTransaction", [raw])) as string;
  for (let i = 0; i < 600 && (await rpc(url, "eth_getTransactionReceipt", [hash])) === null; i++) await new Promise((res) => setTimeout(res, 50));
  const tracers: Array<[string, object]> = [
    ["struct logger", {}],
    ["callTracer", { tracer: "callTracer" }],
  ];
  for (const [label, cfg] of tracers) {
    const key = `debug_traceTransaction ERC20 transfer, ${label} req/s (c=1)`;
    try {
      r[key] = await throughput(url, { jsonrpc: "2.0", id: 1, method: "debug_traceTransaction", params: [hash, cfg] }, 1);
    } catch {
      r[key] = NaN; // the node does not have this tracer
    }
  }
  return r;
}

/** Anvil (Foundry), when its npm package is installed here: the trace workloads and the one-account burst. */
async function benchAnvil(): Promise<Record<string, number> | undefined> {
  let bin: string;
  try {
    bin = path.join(path.dirname(require.resolve("@foundry-rs/anvil-linux-amd64/package.json")), "bin", "anvil");
  } catch {
    return undefined;
  }
  const port = await freePort();
  const child = spawn(bin, ["--host", "127.0.0.1", "--port", String(port), "--silent", "--steps-tracing"], { detached: true, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/`;
  try {
    for (let i = 0; ; i++) {
      try {
        await rpc(url, "eth_chainId");
        break;
      } catch (err) {
        if (i > 100) throw err;
        await new Promise((res) => setTimeout(res, 100));
      }
    }
    const chainId = BigInt((await rpc(url, "eth_chainId")) as string);
    const token = compileToken();
    const iface = new Interface(token.abi as never);
    const w0 = new Wallet(KEYS[0]);
    const deployData = token.bytecode + iface.encodeDeploy([[new Wallet(KEYS[1]).address]]).slice(2);
    const raw = await w0.signTransaction(Transaction.from({ type: 2, chainId, nonce: 0, gasLimit: 3_000_000n, data: deployData, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n }));
    const h = (await rpc(url, "eth_sendRawTransaction", [raw])) as string;
    for (let i = 0; i < 600 && (await rpc(url, "eth_getTransactionReceipt", [h])) === null; i++) await new Promise((res) => setTimeout(res, 50));
    const tokenAddr = getCreateAddress({ from: w0.address, nonce: 0 });
    const traces = await benchTraces(url, chainId, tokenAddr, iface);
    const shared = await sharedNonces(url, new Wallet(KEYS[1]), chainId, tokenAddr, iface, 16);
    if (shared.refused > 0) console.log(`anvil: one account, 16 workers: ${shared.refused} refused, the first: ${shared.firstError}`);
    return { ...traces, [W.shared16Mined]: shared.mined, [W.shared16Rate]: shared.rate };
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
}

async function main(): Promise<void> {
  // start time first, while nothing else runs; BENCH_ONLY=start stops after it, =fork runs only the
  // forking workloads, =nodes only the node workloads
  const only = process.env.BENCH_ONLY;
  if (only === "tracer") {
    printTracerRows(await benchTracer());
    return;
  }
  if (only === "hardhat3") {
    printHardhat3Rows(await benchHardhat3());
    return;
  }
  if (only === undefined || only === "start") printStartRows(await benchStart());
  else buildDist();
  if (only === "start") return;
  const nodes: NodeHandle[] = [];
  const stopAll = () => nodes.forEach((n) => n.stop());
  const dir = oursProject();
  process.on("SIGINT", () => {
    stopAll();
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    if (only === "fork") {
      await benchFork(nodes);
      return;
    }
    // one node at a time, so they do not compete for the two cores
    const bench = async (name: string, extra: string[], nodeArgs: string[], cwd?: string): Promise<Record<string, number>> => {
      const node = await startNode(name, extra, nodeArgs, cwd);
      nodes.push(node);
      try {
        return await benchNode(node);
      } finally {
        node.stop();
        await new Promise((res) => (node.child.exitCode !== null ? res(undefined) : node.child.once("exit", res)));
      }
    };
    const a = await bench("ours", [], ["--json-rpc.ws-address", "127.0.0.1:0"], dir);
    const b = await bench("hardhat", ["--config", path.join(ROOT, "scripts/hardhat-edr.config.ts")], []);
    const fmt = (v: number) => (Number.isNaN(v) ? "n/a" : v >= 100 ? v.toFixed(0) : v.toFixed(2));
    console.log(`\nhardhat-epochs vs Hardhat node (EDR), ${DURATION_MS} ms per throughput workload, ${TRANSFERS} transfers per transfer workload, loopback`);
    console.log("ratio: ours/Hardhat (rates: higher is better; times and memory: lower is better)\n");
    console.log(`| workload | ours | Hardhat | ratio | goal | met |\n|---|---:|---:|---:|---:|:-:|`);
    for (const k of Object.keys(a).filter((key) => !key.startsWith("debug_") && !key.startsWith("one account"))) {
      const ratio = a[k] / b[k];
      const g = GOALS[k];
      let goal = "";
      let met = "";
      if (g !== undefined) {
        goal = `${g.op === ">=" ? "≥" : "≤"} ${g.ratio}`;
        met = (g.op === ">=" ? ratio >= g.ratio : ratio <= g.ratio) ? "yes" : "no";
      } else if (k === W.rss) {
        goal = `ours ≤ ${RSS_GOAL_MIB} MiB`;
        met = a[k] <= RSS_GOAL_MIB ? "yes" : "no";
      }
      console.log(`| ${k} | ${fmt(a[k])} | ${fmt(b[k])} | ${ratio.toFixed(2)} | ${goal} | ${met} |`);
    }
    const anvil = await benchAnvil();
    // Hardhat's node refuses out-of-order nonces under automine ("Nonce too high"): its burst loses what arrives early
    console.log(`\nOne account's pre-signed nonces from 16 concurrent workers (automine); Anvil: ${anvil === undefined ? "not installed" : "@foundry-rs/anvil"}\n`);
    console.log(`| workload | ours | Hardhat | Anvil |\n|---|---:|---:|---:|`);
    for (const k of [W.shared16Mined, W.shared16Rate]) console.log(`| ${k} | ${fmt(a[k])} | ${fmt(b[k])} | ${anvil === undefined ? "n/a" : fmt(anvil[k])} |`);
    if (anvil !== undefined) {
      console.log(`\ndebug_traceTransaction of an ERC20 transfer, req/s (c=1); NaN = the node has no such tracer\n`);
      console.log(`| tracer | ours | Hardhat | Anvil |\n|---|---:|---:|---:|`);
      for (const k of Object.keys(anvil).filter((key) => key.startsWith("debug_"))) console.log(`| ${k} | ${fmt(a[k])} | ${fmt(b[k])} | ${fmt(anvil[k])} |`);
    }
    if (only !== "nodes") await benchFork(nodes);
    if (only === undefined) printTracerRows(await benchTracer());
    if (only === undefined) printHardhat3Rows(await benchHardhat3());
  } finally {
    stopAll();
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
