/**
 * Child of load-cost.test.ts (run with --expose-gc, in a fixture project's folder): builds N fresh
 * Hardhat environments in one process, resetting the context between them as plugin test suites do,
 * and prints one JSON line: the heap after warm-up and at the end (after GC), and which heavy
 * packages the first environment loaded.
 */
import path from "node:path";

const N = Number(process.argv[2] ?? 200);
const WARMUP = 20;
const HEAVY = ["@ethereumjs", "classic-level", "protobufjs", "ws", "ethers", "@noble", "secp256k1", "smol-toml", "solc"];

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --expose-gc");
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { resetHardhatContext } = require("hardhat/internal/reset") as typeof import("hardhat/internal/reset");
let heavy: string[] = [];
let warm = 0;
for (let i = 1; i <= N; i++) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hre = require("hardhat") as import("hardhat/types").HardhatRuntimeEnvironment;
  if (hre.config.paths.root !== process.cwd()) throw new Error(`wrong project: ${hre.config.paths.root}`);
  if (i === 1) {
    const loaded = Object.keys(require.cache);
    heavy = HEAVY.filter((p) => loaded.some((f) => f.includes(`${path.sep}node_modules${path.sep}${p}${path.sep}`)));
  }
  resetHardhatContext();
  if (i === WARMUP) warm = heapAfterGc();
}
const end = heapAfterGc();
console.log(JSON.stringify({ environments: N, warmup: WARMUP, heapAtWarmup: warm, heapAtEnd: end, perEnvironment: (end - warm) / (N - WARMUP), heavy }));
