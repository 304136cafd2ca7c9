/**
 * Hardhat 3 part of `npm run bench` (alone: `BENCH_ONLY=hardhat3 npm run bench`): how long
 * `network.create()` takes, to the first answer (eth_blockNumber), for the epochs chain (the
 * `default` network with the plugin) and for Hardhat 3's EDR network (a network `edr` of type
 * edr-simulated in the same project). Cold = the first connection of a fresh process (modules
 * loaded then); from start = the process's start (`hardhat run`: the CLI, the config, the plugins'
 * hooks) to that first answer; warm = the median of the next RUNS in that process. A fresh Hardhat 3 project on
 * Node 22 in a temporary folder: `npm pack` of this repository and Hardhat 3 from the npm registry
 * (npm's cache first). Each network is measured in its own processes, PROCESSES of them taken in turn
 * (cold starts vary by ±20 % on a busy machine): the medians are shown. A third row runs EDR in the
 * same project without the plugin in its config (stock Hardhat 3), so the plugin's cost to a
 * connection that is not its own shows too.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const RUNS = Number(process.env.BENCH_HH3_RUNS ?? 9);
const PROCESSES = Number(process.env.BENCH_HH3_PROCESSES ?? 5);

export interface Hardhat3Row {
  network: string;
  coldMs: number;
  fromStartMs: number;
  warmMs: number;
}

const CONFIG = `import { defineConfig } from "hardhat/config";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs],
  solidity: "0.8.30",
  networks: { edr: { type: "edr-simulated" } },
});
`;

const STOCK_CONFIG = `import { defineConfig } from "hardhat/config";
export default defineConfig({
  solidity: "0.8.30",
  networks: { edr: { type: "edr-simulated" } },
});
`;

const SCRIPT = `import { network } from "hardhat";
const name = process.env.BENCH_NETWORK;
const once = async () => {
  const t = performance.now();
  const c = await network.create(name);
  await c.provider.request({ method: "eth_blockNumber" });
  const ms = performance.now() - t;
  await c.close();
  return ms;
};
const cold = await once();
const fromStart = performance.now(); // performance.now() counts from the process's start
const warm = [];
for (let i = 0; i < ${RUNS}; i++) warm.push(await once());
warm.sort((a, b) => a - b);
console.log("RESULT " + JSON.stringify({ cold, fromStart, warm: warm[Math.floor(warm.length / 2)] }));
`;

export async function benchHardhat3(): Promise<Hardhat3Row[]> {
  const work = mkdtempSync(path.join(tmpdir(), "bench-hh3-"));
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  Object.assign(env, { npm_config_update_notifier: "false", HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", DO_NOT_TRACK: "1" });
  const run = (cwd: string, command: string, extra: Record<string, string> = {}): string => {
    const r = spawnSync("npx", ["-y", "-p", "node@22", "-c", command], { cwd, env: { ...env, ...extra }, encoding: "utf8", timeout: 300_000 });
    if (r.status !== 0) throw new Error(`${command}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  try {
    const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT, env, encoding: "utf8", timeout: 180_000 });
    if (pack.status !== 0) throw new Error(`npm pack: ${pack.stderr}`);
    const [{ filename }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as Array<{ filename: string }>;
    const dir = path.join(work, "project");
    spawnSync("mkdir", [dir]);
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "bench-hh3", private: true, type: "module", devDependencies: { hardhat: "^3.18.0", "hardhat-epochs": `file:${path.join(work, filename)}` } }),
    );
    writeFileSync(path.join(dir, "hardhat.config.ts"), CONFIG);
    writeFileSync(path.join(dir, "hardhat.stock.config.ts"), STOCK_CONFIG);
    writeFileSync(path.join(dir, "connect.ts"), SCRIPT);
    run(dir, "npm install --prefer-offline --no-audit --no-fund");
    const sides = [
      { label: "epochs chain (default, in-process)", name: "default", config: "hardhat.config.ts" },
      { label: "Hardhat 3 EDR (edr-simulated), plugin listed", name: "edr", config: "hardhat.config.ts" },
      { label: "Hardhat 3 EDR (edr-simulated), stock config", name: "edr", config: "hardhat.stock.config.ts" },
    ];
    const results = sides.map(() => [] as Array<{ cold: number; fromStart: number; warm: number }>);
    for (let p = 0; p < PROCESSES; p++) {
      for (const [i, side] of sides.entries()) {
        const out = run(dir, `./node_modules/.bin/hardhat --config ${side.config} run --no-compile connect.ts`, { BENCH_NETWORK: side.name });
        const m = /RESULT (\{.*\})/.exec(out);
        if (m === null) throw new Error(`no result for ${side.label}: ${out}`);
        results[i].push(JSON.parse(m[1]) as { cold: number; fromStart: number; warm: number });
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const rows: Hardhat3Row[] = sides.map((side, i) => ({
      network: side.label,
      coldMs: median(results[i].map((r) => r.cold)),
      fromStartMs: median(results[i].map((r) => r.fromStart)),
      warmMs: median(results[i].map((r) => r.warm)),
    }));
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function printHardhat3Rows(rows: Hardhat3Row[]): void {
  console.log(
    `\nHardhat 3 (Node 22): network.create() to the first answer; cold = first in a fresh process, from start = the process's start to that answer, warm = median of the next ${RUNS}; medians over ${PROCESSES} processes each\n`,
  );
  console.log("| network | cold (ms) | from start (ms) | warm (ms) |\n|---|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.network} | ${r.coldMs.toFixed(0)} | ${r.fromStartMs.toFixed(0)} | ${r.warmMs.toFixed(0)} |`);
}

if (require.main === module) {
  benchHardhat3()
    .then(printHardhat3Rows)
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
