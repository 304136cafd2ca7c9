/**
 * What loading the plugin costs a process: plugin test suites build a fresh Hardhat environment per
 * test (`resetHardhatContext()` then `require("hardhat")`), and Hardhat reloads every module the
 * config loaded each time. A child process (run with --expose-gc) builds 200 environments of a
 * project whose config loads the built plugin, and 100 of a stock project, and reports the heap after
 * GC; the plugin may add little per environment to what stock Hardhat itself keeps, and none of the
 * heavy packages (EthereumJS, LevelDB, protobufjs, ws, ethers, solc) may load with the config.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT, buildDist } from "../helpers/processes";

const CHILD = path.join(__dirname, "load-cost-child.ts");
const MiB = 1024 * 1024;

interface Report {
  environments: number;
  heapAtWarmup: number;
  heapAtEnd: number;
  perEnvironment: number;
  heavy: string[];
}

function measure(project: string, environments: number): Report {
  const r = spawnSync(process.execPath, ["--expose-gc", "-r", "ts-node/register/transpile-only", CHILD, String(environments)], {
    cwd: path.join(ROOT, "test", "fixture-projects", project),
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, "tsconfig.json") },
  });
  if (r.status !== 0) throw new Error(`${project}: exited ${r.status ?? r.signal}\n${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string) as Report;
}

describe("loading the plugin: start cost and memory", function () {
  this.timeout(600_000);

  before(() => {
    // the built package, as users load it (prepack builds it on npm pack)
    buildDist();
  });

  it("keeps the heap flat over 200 fresh Hardhat environments, loading nothing heavy with the config", () => {
    const stock = measure("stock", 100);
    const plugin = measure("plugin-dist", 200);
    const fmt = (r: Report) => `${(r.perEnvironment / MiB).toFixed(3)} MiB per environment (heap ${(r.heapAtWarmup / MiB).toFixed(1)} → ${(r.heapAtEnd / MiB).toFixed(1)} MiB)`;
    console.log(`      stock Hardhat: ${fmt(stock)}\n      with the plugin: ${fmt(plugin)}`);
    expect(plugin.heavy, "packages loaded with the config").to.deep.equal([]);
    // Stock Hardhat itself keeps ~0.8 MiB per environment here (the harness's `require("hardhat")`
    // keeps each old environment in its module's children). Loading EthereumJS with the config
    // used to add ~31 MiB; the plugin's own code now adds a fraction of a MiB.
    expect(plugin.perEnvironment - stock.perEnvironment).to.be.lessThan(0.5 * MiB);
    expect(plugin.perEnvironment).to.be.lessThan(2 * MiB);
  });
});

describe("building a chain: the modules it loads", function () {
  this.timeout(300_000);

  before(() => buildDist());

  it("loads ethers' ABI, hashing and byte helpers, not its providers, contracts, wallets or word lists", () => {
    // a fresh process, as a cold Hardhat 3 connection or `npx hardhat node` builds its first chain
    const script = `
      const { createRuntime } = require("./dist/src/app/runtime");
      const { defaultChainConfig } = require("./dist/src/chain/config");
      (async () => {
        const runtime = await createRuntime({ chain: defaultChainConfig(), clientVersion: "probe" });
        const ctx = { transport: "in-process", authenticated: true };
        await runtime.dispatcher.call("eth_blockNumber", [], ctx);
        await runtime.close();
        const ethers = Object.keys(require.cache).filter((f) => f.includes("/node_modules/ethers/"));
        console.log(JSON.stringify(ethers.map((f) => f.replace(/.*\\/lib\\.commonjs\\//, ""))));
      })().catch((err) => { console.error(err); process.exit(1); });`;
    const r = spawnSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    if (r.status !== 0) throw new Error(`exited ${r.status ?? r.signal}\n${r.stdout}${r.stderr}`);
    const loaded = JSON.parse(r.stdout.trim().split("\n").pop() as string) as string[];
    expect(
      loaded.some((f) => f.startsWith("abi/")),
      "ethers' ABI coder",
    ).to.equal(true);
    expect(loaded.filter((f) => /^(providers|contract|wallet|wordlists)\//.test(f))).to.deep.equal([]);
  });
});
