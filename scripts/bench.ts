/**
 * `npm run bench`: starts our node and Hardhat's own node (EDR) side by side on 127.0.0.1, runs the
 * same bounded workloads against both over real HTTP/WebSocket, and prints a table with the ratio
 * ours/Hardhat. First, the start times (scripts/bench-start.ts). Every loop is bounded in count or time; both nodes are stopped by process group.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { Interface, Transaction, Wallet, getCreateAddress } from "ethers";
import solc from "solc";
import WebSocket from "ws";
import { benchStart, printStartRows } from "./bench-start";

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

interface NodeHandle {
  name: string;
  url: string;
  wsUrl: string;
  child: ChildProcess;
  stop(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function startNode(name: string, extraArgs: string[], nodeArgs: string[]): Promise<NodeHandle> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/hardhat/internal/cli/bootstrap.js"), ...extraArgs, "node", "--hostname", "127.0.0.1", "--port", String(port), ...nodeArgs], {
    cwd: ROOT,
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

/** Requests per second of `body` over `DURATION_MS` with `concurrency` keep-alive clients. */
async function throughput(url: string, body: unknown, concurrency: number): Promise<number> {
  const payload = JSON.stringify(body);
  let count = 0;
  const end = Date.now() + DURATION_MS;
  const worker = async () => {
    while (Date.now() < end) {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: payload });
      const json = (await res.json()) as { error?: unknown } | unknown[];
      if (!Array.isArray(json) && json.error !== undefined) throw new Error(JSON.stringify(json.error));
      count++;
    }
  };
  const t0 = performance.now();
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
    solc.compile(JSON.stringify({ language: "Solidity", sources: { "T.sol": { content: TOKEN } }, settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } } })),
  ) as { contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>> };
  const c = out.contracts["T.sol"].Token;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

async function percentiles(samples: number[]): Promise<{ p50: number; p99: number }> {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length * 0.5)], p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] };
}

async function benchNode(node: NodeHandle): Promise<Record<string, number>> {
  const r: Record<string, number> = {};
  const wallets = KEYS.map((k) => new Wallet(k));
  const chainId = BigInt((await rpc(node.url, "eth_chainId")) as string);
  const token = compileToken();
  const iface = new Interface(token.abi as never);

  const addr0 = wallets[0].address;
  r["eth_blockNumber req/s (c=1)"] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }, 1);
  r["eth_blockNumber req/s (c=32)"] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }, 32);
  r["eth_getBalance req/s (c=1)"] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [addr0, "latest"] }, 1);
  r["eth_getBalance req/s (c=32)"] = await throughput(node.url, { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [addr0, "latest"] }, 32);
  const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_getBalance", params: [wallets[i % 9].address, "latest"] }));
  r["batch of 100 eth_getBalance /s"] = await throughput(node.url, batch, 1);

  // deploy the token, funding the senders
  const holders = wallets.slice(1, 1 + SENDERS).map((w) => w.address);
  const deployData = token.bytecode + new Interface(token.abi as never).encodeDeploy([holders]).slice(2);
  const fee = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n };
  const nonce0 = Number(BigInt((await rpc(node.url, "eth_getTransactionCount", [addr0, "latest"])) as string));
  const deploy = await wallets[0].signTransaction(Transaction.from({ type: 2, chainId, nonce: nonce0, gasLimit: 3_000_000n, data: deployData, ...fee }));
  await rpc(node.url, "eth_sendRawTransaction", [deploy]);
  const tokenAddr = getCreateAddress({ from: addr0, nonce: nonce0 });

  r["eth_call balanceOf req/s (c=8)"] = await throughput(
    node.url,
    { jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: tokenAddr, data: iface.encodeFunctionData("balanceOf", [holders[0]]) }, "latest"] },
    8,
  );

  // pre-signed transfers: SENDERS senders in parallel, each in nonce order
  const perSender = Math.ceil(TRANSFERS / SENDERS);
  const signed: string[][] = [];
  for (let s = 0; s < SENDERS; s++) {
    const w = wallets[1 + s];
    const n0 = Number(BigInt((await rpc(node.url, "eth_getTransactionCount", [w.address, "latest"])) as string));
    const list: string[] = [];
    for (let i = 0; i < perSender; i++) {
      const data = iface.encodeFunctionData("transfer", [wallets[(s + i) % 9].address, 1n]);
      list.push(await w.signTransaction(Transaction.from({ type: 2, chainId, nonce: n0 + i, to: tokenAddr, gasLimit: 100_000n, data, ...fee })));
    }
    signed.push(list);
  }
  const firstBlock = BigInt((await rpc(node.url, "eth_blockNumber")) as string) + 1n;
  const t0 = performance.now();
  const hashes = await Promise.all(
    signed.map(async (list) => {
      let last = "";
      for (const raw of list) last = (await rpc(node.url, "eth_sendRawTransaction", [raw])) as string;
      return last;
    }),
  );
  for (const h of hashes) {
    for (let i = 0; i < 600 && (await rpc(node.url, "eth_getTransactionReceipt", [h])) === null; i++) await new Promise((res) => setTimeout(res, 50));
  }
  r[`${SENDERS * perSender} ERC20 transfers, automine tx/s`] = ((SENDERS * perSender) / (performance.now() - t0)) * 1000;
  const lastBlock = BigInt((await rpc(node.url, "eth_blockNumber")) as string);

  const logsMs: number[] = [];
  let logCount = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const logs = (await rpc(node.url, "eth_getLogs", [{ fromBlock: `0x${firstBlock.toString(16)}`, toBlock: `0x${lastBlock.toString(16)}`, address: tokenAddr }])) as unknown[];
    logsMs.push(performance.now() - t);
    logCount = logs.length;
  }
  r[`eth_getLogs over the transfers ms (${logCount} logs, median)`] = logsMs.sort((a, b) => a - b)[2];

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
  r["WS sendRawTransaction → newHeads p50 ms"] = p50;
  r["WS sendRawTransaction → newHeads p99 ms"] = p99;

  r["node peak RSS MB"] = node.child.pid !== undefined ? peakRssMb(node.child.pid) : NaN;
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

/** Anvil (Foundry), when its npm package is installed here: the trace workloads only. */
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
    return await benchTraces(url, chainId, getCreateAddress({ from: w0.address, nonce: 0 }), iface);
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
}

async function main(): Promise<void> {
  // start time first, while nothing else runs; BENCH_ONLY=start stops after it (BENCH_ONLY=fork skips it)
  if (process.env.BENCH_ONLY !== "fork") printStartRows(await benchStart());
  if (process.env.BENCH_ONLY === "start") return;
  const nodes: NodeHandle[] = [];
  const stopAll = () => nodes.forEach((n) => n.stop());
  process.on("SIGINT", () => {
    stopAll();
    process.exit(130);
  });
  try {
    // BENCH_ONLY=fork runs only the forking workloads
    if (process.env.BENCH_ONLY === "fork") {
      await benchFork(nodes);
      return;
    }
    const ours = await startNode("ours", [], ["--json-rpc.ws-address", "127.0.0.1:0"]);
    nodes.push(ours);
    const edr = await startNode("hardhat", ["--config", path.join(ROOT, "scripts/hardhat-edr.config.ts")], []);
    nodes.push(edr);
    // one node at a time, so they do not compete for the two cores
    const a = await benchNode(ours);
    const b = await benchNode(edr);
    const rows = Object.keys(a).map((k) => {
      const lowerIsBetter = /ms|RSS/.test(k);
      const ratio = lowerIsBetter ? b[k] / a[k] : a[k] / b[k];
      return { workload: k, ours: a[k], hardhat: b[k], ratio };
    });
    const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));
    console.log(`\nhardhat-epochs vs Hardhat node (EDR), ${DURATION_MS} ms per throughput workload, loopback`);
    console.log("ratio: ours/Hardhat for rates, Hardhat/ours for times and memory (> 1 = ours better)\n");
    console.log(`| workload | ours | Hardhat | ratio |\n|---|---:|---:|---:|`);
    for (const r of rows) console.log(`| ${r.workload} | ${fmt(r.ours)} | ${fmt(r.hardhat)} | ${r.ratio.toFixed(2)} |`);
    stopAll();
    const anvil = await benchAnvil();
    if (anvil !== undefined) {
      console.log(`\ndebug_traceTransaction of an ERC20 transfer, req/s (c=1); NaN = the node has no such tracer\n`);
      console.log(`| tracer | ours | Hardhat | Anvil |\n|---|---:|---:|---:|`);
      for (const k of Object.keys(anvil)) console.log(`| ${k} | ${fmt(a[k])} | ${fmt(b[k])} | ${fmt(anvil[k])} |`);
    }
    await benchFork(nodes);
  } finally {
    stopAll();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
