/**
 * `npm run bench:soak`: memory under a steady load, ours (in memory and with `--home`) beside
 * Hardhat's node (EDR), one node at a time on 127.0.0.1. Eight senders, each sending a transfer and
 * then reading as a dapp does (eth_getLogs over the last 50 blocks, eth_getBalance, the latest block
 * with its transactions), for SOAK_MS per node (default 90 s). Prints the transactions done, the
 * node's RSS after a warm-up, at each quarter of the run and at the end, and the RSS growth per
 * transaction. SOAK_NODES=memory,home,hardhat picks the nodes (default: all three). Every loop is
 * bounded in time; every node is stopped by process group.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildDist } from "./bench-start";
import { type NodeHandle, agent, oursProject, rpc, startNode } from "./bench";

const ROOT = path.resolve(__dirname, "..");
const SOAK_MS = Number(process.env.SOAK_MS ?? 90_000);
const WARMUP_MS = Math.min(10_000, SOAK_MS / 6);
const SENDERS = 8;

/** The node's resident memory now (the spawned process and its children), MiB. */
function rssMb(pid: number): number {
  const pids = [pid];
  try {
    pids.push(...readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    /* no children */
  }
  let total = 0;
  for (const p of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m !== null) total += Number(m[1]) / 1024;
    } catch {
      /* exited */
    }
  }
  return total;
}

interface SoakRow {
  node: string;
  txs: number;
  errors: number;
  rssStart: number;
  rssEnd: number;
  /** RSS at each quarter of the measured time (MiB): flat or still growing. */
  rssQuarters: number[];
}

async function soak(node: NodeHandle): Promise<SoakRow> {
  const accounts = (await rpc(node.url, "eth_accounts")) as string[];
  let txs = 0;
  let errors = 0;
  let rssStart = 0;
  let measuring = false;
  const started = Date.now();
  const end = started + WARMUP_MS + SOAK_MS;
  const sender = async (i: number): Promise<void> => {
    const from = accounts[i];
    const to = accounts[(i + 1) % SENDERS];
    while (Date.now() < end) {
      try {
        await rpc(node.url, "eth_sendTransaction", [{ from, to, value: "0x1" }]);
        const head = Number(await rpc(node.url, "eth_blockNumber"));
        await rpc(node.url, "eth_getLogs", [{ fromBlock: `0x${Math.max(0, head - 50).toString(16)}`, toBlock: "latest" }]);
        await rpc(node.url, "eth_getBalance", [from, "latest"]);
        await rpc(node.url, "eth_getBlockByNumber", ["latest", true]);
        if (measuring) txs++;
      } catch {
        errors++;
      }
    }
  };
  const rssQuarters: number[] = [];
  const timers = [
    setTimeout(() => {
      rssStart = rssMb(node.child.pid as number);
      measuring = true;
    }, WARMUP_MS),
    ...[1, 2, 3].map((q) => setTimeout(() => rssQuarters.push(rssMb(node.child.pid as number)), WARMUP_MS + (SOAK_MS * q) / 4)),
  ];
  await Promise.all(Array.from({ length: SENDERS }, (_, i) => sender(i)));
  timers.forEach(clearTimeout);
  const rssEnd = rssMb(node.child.pid as number);
  return { node: node.name, txs, errors, rssStart, rssEnd, rssQuarters: [...rssQuarters, rssEnd] };
}

async function main(): Promise<void> {
  buildDist();
  const dir = oursProject();
  const home = mkdtempSync(path.join(tmpdir(), "soak-home-"));
  const rows: SoakRow[] = [];
  const run = async (name: string, extra: string[], nodeArgs: string[], cwd?: string): Promise<void> => {
    const node = await startNode(name, extra, nodeArgs, cwd);
    try {
      rows.push(await soak(node));
    } finally {
      node.stop();
      await new Promise((res) => (node.child.exitCode !== null ? res(undefined) : node.child.once("exit", res)));
    }
  };
  try {
    // SOAK_NODES=memory,home,hardhat (the default: all three) picks the nodes
    const which = new Set((process.env.SOAK_NODES ?? "memory,home,hardhat").split(","));
    if (which.has("memory")) await run("ours (in memory)", [], ["--json-rpc.ws-address", "127.0.0.1:0"], dir);
    if (which.has("home")) await run("ours (--home)", [], ["--json-rpc.ws-address", "127.0.0.1:0", "--home", home], dir);
    if (which.has("hardhat")) await run("Hardhat (EDR)", ["--config", path.join(ROOT, "scripts/hardhat-edr.config.ts")], []);
  } finally {
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  console.log(
    `\nsoak: ${SENDERS} senders, each transfer followed by getLogs (last 50 blocks), getBalance and the latest full block; ${SOAK_MS / 1000} s measured after ${WARMUP_MS / 1000} s of warm-up\n`,
  );
  console.log("| node | transactions | errors | RSS after warm-up (MiB) | RSS at each quarter (MiB) | RSS growth per tx (KiB) |\n|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const per = r.txs > 0 ? ((r.rssEnd - r.rssStart) * 1024) / r.txs : NaN;
    console.log(`| ${r.node} | ${r.txs} | ${r.errors} | ${r.rssStart.toFixed(0)} | ${r.rssQuarters.map((q) => q.toFixed(0)).join(" → ")} | ${per.toFixed(2)} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
