/**
 * The config of `npm run bench:tests` (scripts/bench-tests.ts): the suite under bench/tests/test in
 * the style of users' tests, run once on this plugin's in-process chain and once on Hardhat's own
 * (EDR) with BENCH_STOCK=1. Both compile with the plugin's offline solc override (src/hardhat/solc.ts);
 * with BENCH_STOCK=1 that is all of the plugin that loads, so the hardhat network stays Hardhat's.
 * The plugin loads from dist/ (`npm run build`), as users get it: from src/, ts-node would spend
 * seconds compiling it in every run.
 */
import { writeFileSync } from "node:fs";
import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";
import type {} from "../../src/hardhat/type-extensions";
import { version as SOLC_VERSION } from "solc/package.json";

// the bench compiles with the npm solc and downloads nothing (src/hardhat/solc.ts)
process.env.HARDHAT_EPOCHS_SOLC ??= "npm";
/* eslint-disable @typescript-eslint/no-require-imports -- which part of the plugin loads depends on the run */
if (process.env.BENCH_STOCK === "1") require("../../dist/src/hardhat/solc");
else require("../../dist/src");
/* eslint-enable @typescript-eslint/no-require-imports */

// The runner reads this process's CPU time (all threads: EDR's too), steadier than wall time on a busy machine.
const cpuFile = process.env.BENCH_CPU_FILE;
if (cpuFile !== undefined && cpuFile !== "") {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(cpuFile, String((user + system) / 1000));
  });
}

const config: HardhatUserConfig = {
  solidity: { version: SOLC_VERSION },
  mocha: { timeout: 120_000 },
  // one epoch timer for the hooks test (ignored by stock Hardhat)
  epochs: { genesis: { epochs: [{ identifier: "day", duration: 86400 }] } },
};

export default config;
