/**
 * `npm run bench:tests`: the suite under bench/tests (hardhat-ethers, chai matchers, loadFixture, time
 * travel, ~230 deployments, transfers, reverts, events, snapshots, 50 epochs of a hooked contract) run with
 * `hardhat test` on this plugin's in-process chain and on Hardhat's own (EDR, BENCH_STOCK=1: the epochs
 * test then runs its contract as a plain one), alternating. Prints the wall time of each run, the
 * median of each side and the ratio ours/Hardhat.
 * The plugin runs from dist/, built first (as users install it).
 * Options: --once (one run each instead of 3), --no-build, BENCH_RUNS=N.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const CONFIG = path.join(ROOT, "bench/tests/hardhat.config.ts");
const HARDHAT = path.join(ROOT, "node_modules/hardhat/internal/cli/bootstrap.js");
const RUNS = process.argv.includes("--once") ? 1 : Number(process.env.BENCH_RUNS ?? 3);
const TIMEOUT_MS = 15 * 60_000; // one run, bounded

type Side = "epochs" | "hardhat";

function hardhat(side: Side, args: string[]): { ms: number; passing: string } {
  const env = { ...process.env, HARDHAT_EPOCHS_QUIET: "1", BENCH_STOCK: side === "hardhat" ? "1" : "" };
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [HARDHAT, "--config", CONFIG, ...args], { cwd: ROOT, env, encoding: "utf8", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`hardhat ${args.join(" ")} on ${side} failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
  return { ms, passing: /(\d+) passing/.exec(r.stdout)?.[1] ?? "?" };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main(): void {
  if (!process.argv.includes("--no-build")) {
    const b = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8", timeout: TIMEOUT_MS });
    if (b.status !== 0) throw new Error(`npm run build failed:\n${b.stdout}${b.stderr}`);
  }
  // compiled once beforehand, so no run pays for the compiler
  hardhat("hardhat", ["compile", "--quiet"]);
  const times: Record<Side, number[]> = { epochs: [], hardhat: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const side of (i % 2 === 0 ? ["epochs", "hardhat"] : ["hardhat", "epochs"]) as Side[]) {
      const { ms, passing } = hardhat(side, ["test", "--no-compile"]);
      times[side].push(ms);
      console.log(`run ${i + 1}/${RUNS} ${side.padEnd(7)} ${(ms / 1000).toFixed(2)} s  (${passing} passing)`);
    }
  }
  const ours = median(times.epochs);
  const stock = median(times.hardhat);
  console.log(`\nbench/tests suite, wall time of \`hardhat test\` (process start included), median of ${RUNS}\n`);
  console.log("| network | median s | runs s |\n|---|---:|---|");
  console.log(`| hardhat-epochs (in-process) | ${(ours / 1000).toFixed(2)} | ${times.epochs.map((t) => (t / 1000).toFixed(2)).join(", ")} |`);
  console.log(`| Hardhat EDR (stock) | ${(stock / 1000).toFixed(2)} | ${times.hardhat.map((t) => (t / 1000).toFixed(2)).join(", ")} |`);
  console.log(`\nratio ours/Hardhat: ${(ours / stock).toFixed(2)}×`);
}

main();
