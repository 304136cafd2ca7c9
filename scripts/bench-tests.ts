/**
 * `npm run bench:tests`: the suite under bench/tests (hardhat-ethers, chai matchers, loadFixture, time
 * travel, ~230 deployments, transfers, reverts, events, snapshots, 50 epochs of a hooked contract, a
 * governor whose votes wait mine(7,200) and mine(50,400) blocks and a timelock) run with
 * `hardhat test` on this plugin's in-process chain and on Hardhat's own (EDR, BENCH_STOCK=1: the epochs
 * test then runs its contract as a plain one), alternating. Prints the wall time of each run, the
 * median of each side and the ratio ours/Hardhat; the same for the CPU time of the test process (all
 * its threads), which other work on a shared machine disturbs less than the wall time.
 * The plugin runs from dist/, built first (as users install it).
 * Options: --once (one run each instead of 3), --no-build, BENCH_RUNS=N.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const CONFIG = path.join(ROOT, "bench/tests/hardhat.config.ts");
const HARDHAT = path.join(ROOT, "node_modules/hardhat/internal/cli/bootstrap.js");
const RUNS = process.argv.includes("--once") ? 1 : Number(process.env.BENCH_RUNS ?? 3);
const TIMEOUT_MS = 15 * 60_000; // one run, bounded

type Side = "epochs" | "hardhat";

const TMP = mkdtempSync(path.join(os.tmpdir(), "bench-tests-"));
const CPU_FILE = path.join(TMP, "cpu-ms");

function hardhat(side: Side, args: string[]): { ms: number; cpuMs: number; passing: string } {
  rmSync(CPU_FILE, { force: true });
  const env = { ...process.env, HARDHAT_EPOCHS_QUIET: "1", BENCH_STOCK: side === "hardhat" ? "1" : "", BENCH_CPU_FILE: CPU_FILE };
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [HARDHAT, "--config", CONFIG, ...args], { cwd: ROOT, env, encoding: "utf8", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`hardhat ${args.join(" ")} on ${side} failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
  return { ms, cpuMs: Number(readFileSync(CPU_FILE, "utf8")), passing: /(\d+) passing/.exec(r.stdout)?.[1] ?? "?" };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const s = (ms: number): string => (ms / 1000).toFixed(2);

function main(): void {
  if (!process.argv.includes("--no-build")) {
    const b = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8", timeout: TIMEOUT_MS });
    if (b.status !== 0) throw new Error(`npm run build failed:\n${b.stdout}${b.stderr}`);
  }
  // compiled once beforehand, so no run pays for the compiler
  hardhat("hardhat", ["compile", "--quiet"]);
  const wall: Record<Side, number[]> = { epochs: [], hardhat: [] };
  const cpu: Record<Side, number[]> = { epochs: [], hardhat: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const side of (i % 2 === 0 ? ["epochs", "hardhat"] : ["hardhat", "epochs"]) as Side[]) {
      const { ms, cpuMs, passing } = hardhat(side, ["test", "--no-compile"]);
      wall[side].push(ms);
      cpu[side].push(cpuMs);
      console.log(`run ${i + 1}/${RUNS} ${side.padEnd(7)} wall ${s(ms)} s, cpu ${s(cpuMs)} s  (${passing} passing)`);
    }
  }
  rmSync(TMP, { recursive: true, force: true });
  console.log(`\nbench/tests suite: \`hardhat test\` (process start included), median of ${RUNS}\n`);
  console.log("| network | wall s | cpu s | wall runs | cpu runs |\n|---|---:|---:|---|---|");
  const row = (name: string, side: Side): void =>
    console.log(`| ${name} | ${s(median(wall[side]))} | ${s(median(cpu[side]))} | ${wall[side].map(s).join(", ")} | ${cpu[side].map(s).join(", ")} |`);
  row("hardhat-epochs (in-process)", "epochs");
  row("Hardhat EDR (stock)", "hardhat");
  console.log(`\nratio ours/Hardhat: wall ${(median(wall.epochs) / median(wall.hardhat)).toFixed(2)}×, cpu ${(median(cpu.epochs) / median(cpu.hardhat)).toFixed(2)}×`);
}

main();
