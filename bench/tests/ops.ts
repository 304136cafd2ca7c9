/**
 * `npm run bench:ops`: the cost of single operations on the in-process chain (what one request
 * costs in a test) — wall time, CPU time and V8 heap allocation per operation (bench/tests/alloc.ts,
 * sampled over BENCH_OPS_ALLOC_N more steps, default 100) — each repeated BENCH_OPS_N times (default
 * 300) after a warm-up: an automined
 * eth_sendTransaction, one that reverts (its error and stack trace made), eth_estimateGas, an empty evm_mine, evm_snapshot + evm_revert, a send before and after an evm_revert, eth_call at the
 * head and after a block, the chai matchers' changeTokenBalances pattern (a send, then balances at the
 * block before and the block itself), hardhat-ethers' transfer and a deploy. BENCH_STOCK=1 runs the same on
 * Hardhat's own network (EDR) for comparison; then hardhat_mine of 1,000 to 1,000,000 empty blocks,
 * once each. BENCH_OPS_ONLY=PREFIX runs the operations whose name
 * starts with it (for a CPU profile of one). CPU time is the process's (all threads, V8's collector
 * included); a user waits for wall time, which the goals are judged on (the tables end saying so).
 * Runs with the bench suite's config (the plugin from dist/).
 *
 * Then, in the same run, the operations the chain's speed goals are stated against are printed beside
 * their floors, what EthereumJS alone costs for them (bench/tests/floors.ts): the automined send
 * beside a bare `runTx` of the transfer, eth_call beside a bare `evm.runCall`, an empty evm_mine
 * beside EthereumJS's block builder making and storing an empty block, and the send again beside that
 * builder making and storing a block of the transfer; with EDR's figures for the same
 * operations from this script run again with BENCH_STOCK=1 (BENCH_OPS_EDR=0 skips that run). The
 * chain's operation and its floor are timed in turns (BENCH_OPS_ROUNDS rounds, default 10, of
 * BENCH_OPS_N / rounds each, the order flipped every round, after 500 untimed steps of each): a shared
 * machine's speed drifts by tens of percent within a minute, and figures taken minutes apart do not
 * compare.
 */
import { spawnSync } from "node:child_process";
import { ethers, network } from "hardhat";
import { type Cost, type Step, emptyBlockFloor, measure, runCallFloor, runTxFloor, transferBlockFloor } from "./floors";
import { allocKiB } from "./alloc";

/** The line prefix of one operation's cost in a run's report (BENCH_OPS_REPORT=1: EDR's figures for the floors' table). */
const REPORT = "#op ";

const N = Number(process.env.BENCH_OPS_N ?? 300);
/** Steps whose allocation is sampled, after the timed ones (BENCH_OPS_ALLOC_N). */
const ALLOC_N = Number(process.env.BENCH_OPS_ALLOC_N ?? 100);
const ONLY = process.env.BENCH_OPS_ONLY;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Each operation this run timed, by name: the floors' table times it again, in turns with its floor. */
const steps = new Map<string, Step>();

async function op(name: string, f: () => Promise<unknown>): Promise<void> {
  if (ONLY !== undefined && !name.startsWith(ONLY)) return;
  steps.set(name, f);
  const c0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await f();
  const cost = { cpu: (cpuMs() - c0) / N, wall: (performance.now() - t0) / N };
  // apart from the timed steps: the sampling profiler slows what it watches
  const alloc = await allocKiB(ALLOC_N, f);
  console.log(`| ${name} | ${cost.wall.toFixed(3)} | ${cost.cpu.toFixed(3)} | ${alloc.toFixed(1)} |`);
  if (process.env.BENCH_OPS_REPORT === "1") console.log(`${REPORT}${JSON.stringify({ name, ...cost, alloc })}`);
}

async function main(): Promise<void> {
  const [owner, other] = await ethers.getSigners();
  const token = await ethers.deployContract("BenchToken", ["Bench", 10n ** 24n]);
  await token.waitForDeployment();
  const to = await token.getAddress();
  const p = network.provider;
  const data = token.interface.encodeFunctionData("transfer", [other.address, 1n]);
  const send = () => p.request({ method: "eth_sendTransaction", params: [{ from: owner.address, to, data, gas: "0x30000" }] });
  // the calls' data encoded once, as the send's is: ABI encoding is the test's work, not the chain's
  const balanceOf = new Map([owner.address, other.address].map((who) => [who, token.interface.encodeFunctionData("balanceOf", [who])]));
  const balance = (who: string, tag: string) => p.request({ method: "eth_call", params: [{ to, data: balanceOf.get(who) }, tag] });
  for (let i = 0; i < 20; i++) await send(); // warm-up

  console.log(`${network.name === "hardhat" && process.env.BENCH_STOCK === "1" ? "Hardhat EDR" : "hardhat-epochs"}, ${N} of each\n`);
  console.log("| operation | wall ms/op | cpu ms/op | alloc KiB/op |\n|---|---:|---:|---:|");
  await op("eth_sendTransaction (automine, gas given)", send);
  // a transfer of more than the sender holds: mined as a failed transaction, answered with its error and stack trace
  const tooMuch = token.interface.encodeFunctionData("transfer", [other.address, 10n ** 30n]);
  await op("eth_sendTransaction that reverts (automine, gas given)", () =>
    p.request({ method: "eth_sendTransaction", params: [{ from: owner.address, to, data: tooMuch, gas: "0x30000" }] }).then(
      () => {
        throw new Error("the transfer did not revert");
      },
      (err: Error) => {
        if (!/InsufficientBalance/.test(err.message)) throw err;
      },
    ),
  );
  await op("eth_estimateGas (ERC20 transfer)", () => p.request({ method: "eth_estimateGas", params: [{ from: owner.address, to, data }] }));
  await op("evm_mine (empty block)", () => p.request({ method: "evm_mine", params: [] }));
  await op("evm_snapshot + evm_revert", async () => {
    const id = await p.request({ method: "evm_snapshot", params: [] });
    await p.request({ method: "evm_revert", params: [id] });
  });
  // loadFixture's pattern: a send after evm_revert should cost what a send before it did
  if (ONLY === undefined || "snapshot, send, revert, send".startsWith(ONLY) || ONLY.startsWith("snapshot")) {
    let before = 0;
    let after = 0;
    const c0 = cpuMs();
    for (let i = 0; i < N; i++) {
      const id = await p.request({ method: "evm_snapshot", params: [] });
      let t = performance.now();
      await send();
      before += performance.now() - t;
      await p.request({ method: "evm_revert", params: [id] });
      t = performance.now();
      await send();
      after += performance.now() - t;
    }
    console.log(`| snapshot, send, revert, send: the send before / after the revert | ${(before / N).toFixed(3)} / ${(after / N).toFixed(3)} | ${((cpuMs() - c0) / N).toFixed(3)} (all four) | – |`);
  }
  await op("eth_call balanceOf (same state)", () => balance(other.address, "latest"));
  await op("evm_mine + eth_call balanceOf", async () => {
    await p.request({ method: "evm_mine", params: [] });
    await balance(other.address, "latest");
  });
  await op("changeTokenBalances pattern (send + 4 eth_call)", async () => {
    await send();
    const n = BigInt((await p.request({ method: "eth_blockNumber", params: [] })) as string);
    for (const tag of [`0x${(n - 1n).toString(16)}`, `0x${n.toString(16)}`]) {
      await balance(owner.address, tag);
      await balance(other.address, tag);
    }
  });
  await op("token.transfer (hardhat-ethers)", () => token.transfer(other.address, 1n));
  const { data: deployData } = await (await ethers.getContractFactory("BenchToken")).getDeployTransaction("Bench", 10n ** 24n);
  await op("deploy BenchToken (eth_sendTransaction, automine)", () => p.request({ method: "eth_sendTransaction", params: [{ from: owner.address, data: deployData, gas: "0x500000" }] }));

  // empty ranges: hardhat_mine of 1,000 / 10,000 / 100,000 / 1,000,000 blocks (reserved on this chain, docs/reserved-blocks.md), once each
  if (ONLY === undefined || ONLY.startsWith("hardhat_mine")) {
    console.log("\n| hardhat_mine blocks | wall ms | cpu ms |\n|---:|---:|---:|");
    for (const count of [1_000, 10_000, 100_000, 1_000_000]) {
      const c0 = cpuMs();
      const t0 = performance.now();
      await p.request({ method: "hardhat_mine", params: [`0x${count.toString(16)}`] });
      const wall = performance.now() - t0;
      console.log(`| ${count.toLocaleString("en-US")} | ${wall.toFixed(1)} | ${(cpuMs() - c0).toFixed(1)} |`);
    }
  }
}

/** The operations the chain's speed goals compare with EthereumJS alone, each with its floor (prepared for `n` steps). */
const FLOORED: Array<{ op: string; floor: string; prepare: (n: number) => Promise<Step> }> = [
  { op: "eth_sendTransaction (automine, gas given)", floor: "bare runTx of the transfer", prepare: (n) => runTxFloor(n, true) },
  { op: "eth_sendTransaction (automine, gas given)", floor: "EthereumJS's buildBlock + putBlock, the transfer", prepare: (n) => transferBlockFloor(n) },
  { op: "eth_call balanceOf (same state)", floor: "bare evm.runCall of balanceOf", prepare: () => runCallFloor() },
  { op: "evm_mine (empty block)", floor: "EthereumJS's buildBlock + putBlock, empty", prepare: () => emptyBlockFloor() },
];

const ROUNDS = Number(process.env.BENCH_OPS_ROUNDS ?? 10);
/** Steps of each side run untimed before a floored operation's rounds. */
const WARM_UP = 500;

/**
 * Each floored operation beside EthereumJS's own cost for it, timed in turns in this run, and the
 * chain's own cost (the difference); with EDR's figures when `edr` has them (BENCH_STOCK=1's run of
 * this script).
 */
async function floors(edr: Map<string, Cost & { alloc?: number }>): Promise<void> {
  console.log(
    "\n| operation | chain wall / cpu ms | floor | floor wall / cpu ms | chain's own wall / cpu ms | ratio wall / cpu | chain / floor alloc KiB | EDR wall / cpu ms, alloc KiB |\n|---|---:|---|---:|---:|---:|---:|---:|",
  );
  const per = Math.max(1, Math.floor(N / ROUNDS));
  for (const f of FLOORED) {
    const chainStep = steps.get(f.op);
    if (chainStep === undefined) continue;
    const floorStep = await f.prepare(per * ROUNDS + WARM_UP + ALLOC_N);
    // untimed first: the collection of the garbage the operation before left (the sends' blocks, before
    // the calls) landed in the next operation's first few hundred steps and doubled its figure
    for (let i = 0; i < WARM_UP; i++) await chainStep();
    for (let i = 0; i < WARM_UP; i++) await floorStep();
    const total = { chain: { cpu: 0, wall: 0 }, floor: { cpu: 0, wall: 0 } };
    for (let r = 0; r < ROUNDS; r++) {
      const turns: Array<["chain" | "floor", Step]> = [
        ["chain", chainStep],
        ["floor", floorStep],
      ];
      for (const [side, step] of r % 2 === 0 ? turns : turns.reverse()) {
        const c = await measure(per, step);
        total[side].cpu += c.cpu;
        total[side].wall += c.wall;
      }
    }
    const chain = { cpu: total.chain.cpu / ROUNDS, wall: total.chain.wall / ROUNDS };
    const floor = { cpu: total.floor.cpu / ROUNDS, wall: total.floor.wall / ROUNDS };
    const alloc = { chain: await allocKiB(ALLOC_N, chainStep), floor: await allocKiB(ALLOC_N, floorStep) };
    const e = edr.get(f.op);
    const pair = (a: number, b: number, digits = 3) => `${a.toFixed(digits)} / ${b.toFixed(digits)}`;
    console.log(
      `| ${f.op} | ${pair(chain.wall, chain.cpu)} | ${f.floor} | ${pair(floor.wall, floor.cpu)} | ${pair(chain.wall - floor.wall, chain.cpu - floor.cpu)} | ${pair(chain.wall / floor.wall, chain.cpu / floor.cpu, 2)}× | ${pair(alloc.chain, alloc.floor, 1)} | ${e === undefined ? "–" : `${pair(e.wall, e.cpu)}, ${e.alloc?.toFixed(1) ?? "–"}`} |`,
    );
  }
  console.log(`(chain and floor timed in turns: ${ROUNDS} rounds of ${per} each; allocation sampled over ${ALLOC_N} more)`);
  console.log(GOALS);
}

/**
 * Which figure each goal uses. A user waits for wall time; CPU time counts V8's garbage-collector
 * threads too (on two cores they compete with the test process); allocation is what feeds them.
 */
const GOALS = [
  "Goals: wall ms per operation is what a user waits for and what the ratios beside EDR and the floors are judged on;",
  "cpu ms counts every thread of the process (V8's collector included) and shows where wall time hides work;",
  "alloc KiB is V8 heap allocated per operation (sampled), what the collector must later free (EDR's: its JavaScript side only).",
].join("\n");

/** EDR's figures: this script run again with BENCH_STOCK=1 (Hardhat's own network), its report lines read back. */
function edrRun(): Map<string, Cost & { alloc: number }> {
  const out = new Map<string, Cost & { alloc: number }>();
  if (process.env.BENCH_OPS_EDR === "0") return out;
  const r = spawnSync(process.execPath, [require.resolve("hardhat/internal/cli/cli"), "--config", "bench/tests/hardhat.config.ts", "run", "bench/tests/ops.ts"], {
    env: { ...process.env, BENCH_STOCK: "1", BENCH_OPS_REPORT: "1", BENCH_OPS_ONLY: ONLY ?? "" },
    encoding: "utf8",
    timeout: 600_000,
  });
  for (const line of (r.stdout ?? "").split("\n")) {
    if (!line.startsWith(REPORT)) continue;
    const { name, cpu, wall, alloc } = JSON.parse(line.slice(REPORT.length)) as { name: string; alloc: number } & Cost;
    out.set(name, { cpu, wall, alloc });
  }
  if (out.size === 0) console.log(`(EDR's run gave no figures: ${(r.stderr ?? "").split("\n").slice(-3).join(" ")})`);
  return out;
}

async function all(): Promise<void> {
  await main();
  // the floors and EDR only beside this chain's run, not inside EDR's own
  if (process.env.BENCH_STOCK === "1") return;
  await floors(edrRun());
}

all().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
