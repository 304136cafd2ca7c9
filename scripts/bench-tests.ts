/**
 * `npm run bench:tests`: the suite under bench/tests (hardhat-ethers, chai matchers, loadFixture, time
 * travel, ~230 deployments, transfers, reverts, events, snapshots, 50 epochs of a hooked contract, a
 * governor whose votes wait mine(7,200) and mine(50,400) blocks and a timelock) run with
 * `hardhat test` on this plugin's in-process chain and on Hardhat's own (EDR, BENCH_STOCK=1: the epochs
 * test then runs its contract as a plain one), alternating. Prints the wall time of each run, the
 * median of each side and the ratio ours/Hardhat; the same for the CPU time of the test process (all
 * its threads), which other work on a shared machine disturbs less than the wall time.
 * The plugin runs from dist/, built first (as users install it).
 *
 * A third side anchors the figures: Hardhat 2.20.1, the last Hardhat whose network ran on EthereumJS
 * (2.21.0 moved to EDR), runs the same tests on the same artifacts (`--no-compile`, hardfork Cancun,
 * BENCH_STOCK=1 as for EDR). It is installed once from the npm registry into bench/.hardhat-2.20.1
 * (git-ignored) with the plugins of its time; BENCH_ANCHOR=0 leaves it out.
 * Options: --once (one run each instead of 3), --no-build, BENCH_RUNS=N.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { version as SOLC_VERSION } from "solc/package.json";

const ROOT = path.resolve(__dirname, "..");
const CONFIG = path.join(ROOT, "bench/tests/hardhat.config.ts");
const HARDHAT = path.join(ROOT, "node_modules/hardhat/internal/cli/bootstrap.js");
const RUNS = process.argv.includes("--once") ? 1 : Number(process.env.BENCH_RUNS ?? 3);
const TIMEOUT_MS = 15 * 60_000; // one run, bounded
const ANCHOR = process.env.BENCH_ANCHOR !== "0";
const ANCHOR_DIR = path.join(ROOT, "bench/.hardhat-2.20.1");

type Side = "epochs" | "hardhat" | "hardhat-2.20.1";

const TMP = mkdtempSync(path.join(os.tmpdir(), "bench-tests-"));
const CPU_FILE = path.join(TMP, "cpu-ms");

/** The plugins and tools as they were when Hardhat 2.20.1 was current (February 2024). */
const ANCHOR_PACKAGE = {
  name: "bench-hardhat-2-20-1",
  private: true,
  devDependencies: {
    hardhat: "2.20.1",
    "@nomicfoundation/hardhat-ethers": "3.0.5",
    "@nomicfoundation/hardhat-chai-matchers": "2.0.6",
    "@nomicfoundation/hardhat-network-helpers": "1.0.10",
    ethers: "6.11.1",
    chai: "4.4.1",
    "ts-node": "10.9.2",
    typescript: "5.3.3",
  },
};

const ANCHOR_CONFIG = `// written by scripts/bench-tests.ts: the bench suite on Hardhat 2.20.1's EthereumJS network
import { writeFileSync } from "node:fs";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";

const cpuFile = process.env.BENCH_CPU_FILE;
if (cpuFile !== undefined && cpuFile !== "") {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(cpuFile, String((user + system) / 1000));
  });
}

export default {
  solidity: { version: "${SOLC_VERSION}" },
  networks: { hardhat: { hardfork: "cancun" } },
  mocha: { timeout: 120_000 },
};
`;

/** Installs Hardhat 2.20.1 once, then gives it this checkout's bench tests and their compiled artifacts. */
function prepareAnchor(): void {
  mkdirSync(ANCHOR_DIR, { recursive: true });
  const pkg = JSON.stringify(ANCHOR_PACKAGE, null, 2);
  const pkgFile = path.join(ANCHOR_DIR, "package.json");
  const installed = existsSync(path.join(ANCHOR_DIR, "node_modules/hardhat/package.json")) && existsSync(pkgFile) && readFileSync(pkgFile, "utf8") === pkg;
  if (!installed) {
    writeFileSync(pkgFile, pkg);
    console.log("installing Hardhat 2.20.1 into bench/.hardhat-2.20.1 (once) ...");
    const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: ANCHOR_DIR, encoding: "utf8", timeout: TIMEOUT_MS });
    if (r.status !== 0) throw new Error(`npm install of Hardhat 2.20.1 failed (set BENCH_ANCHOR=0 to leave it out):\n${r.stdout}${r.stderr}`);
  }
  writeFileSync(path.join(ANCHOR_DIR, "hardhat.config.ts"), ANCHOR_CONFIG);
  for (const dir of ["test", "contracts", "artifacts", "cache"]) {
    rmSync(path.join(ANCHOR_DIR, dir), { recursive: true, force: true });
    cpSync(path.join(ROOT, "bench/tests", dir), path.join(ANCHOR_DIR, dir), { recursive: true });
  }
}

function hardhat(side: Side, args: string[]): { ms: number; cpuMs: number; passing: string } {
  rmSync(CPU_FILE, { force: true });
  const env = { ...process.env, HARDHAT_EPOCHS_QUIET: "1", BENCH_STOCK: side === "epochs" ? "" : "1", BENCH_CPU_FILE: CPU_FILE };
  const anchor = side === "hardhat-2.20.1";
  const cli = anchor ? [path.join(ANCHOR_DIR, "node_modules/hardhat/internal/cli/bootstrap.js"), "--config", path.join(ANCHOR_DIR, "hardhat.config.ts")] : [HARDHAT, "--config", CONFIG];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...cli, ...args], { cwd: anchor ? ANCHOR_DIR : ROOT, env, encoding: "utf8", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
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
  if (ANCHOR) prepareAnchor();
  const sides: Side[] = ANCHOR ? ["epochs", "hardhat", "hardhat-2.20.1"] : ["epochs", "hardhat"];
  const wall: Record<Side, number[]> = { epochs: [], hardhat: [], "hardhat-2.20.1": [] };
  const cpu: Record<Side, number[]> = { epochs: [], hardhat: [], "hardhat-2.20.1": [] };
  for (let i = 0; i < RUNS; i++) {
    // each run in another order: no side always follows the same one
    const order = sides.map((_, k) => sides[(k + i) % sides.length]);
    for (const side of order) {
      const { ms, cpuMs, passing } = hardhat(side, ["test", "--no-compile"]);
      wall[side].push(ms);
      cpu[side].push(cpuMs);
      console.log(`run ${i + 1}/${RUNS} ${side.padEnd(14)} wall ${s(ms)} s, cpu ${s(cpuMs)} s  (${passing} passing)`);
    }
  }
  rmSync(TMP, { recursive: true, force: true });
  console.log(`\nbench/tests suite: \`hardhat test\` (process start included), median of ${RUNS}\n`);
  console.log("| network | wall s | cpu s | wall runs | cpu runs |\n|---|---:|---:|---|---|");
  const row = (name: string, side: Side): void => console.log(`| ${name} | ${s(median(wall[side]))} | ${s(median(cpu[side]))} | ${wall[side].map(s).join(", ")} | ${cpu[side].map(s).join(", ")} |`);
  row("hardhat-epochs (in-process)", "epochs");
  row("Hardhat EDR (stock)", "hardhat");
  if (ANCHOR) row("Hardhat 2.20.1 (EthereumJS)", "hardhat-2.20.1");
  console.log(`\nratio ours/Hardhat: wall ${(median(wall.epochs) / median(wall.hardhat)).toFixed(2)}×, cpu ${(median(cpu.epochs) / median(cpu.hardhat)).toFixed(2)}×`);
  if (ANCHOR) {
    const a = "hardhat-2.20.1";
    console.log(
      `ratio Hardhat 2.20.1/ours: wall ${(median(wall[a]) / median(wall.epochs)).toFixed(2)}×, cpu ${(median(cpu[a]) / median(cpu.epochs)).toFixed(2)}× (how much faster this plugin runs the suite)`,
    );
  }
}

main();
