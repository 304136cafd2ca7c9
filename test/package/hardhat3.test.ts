/**
 * The package on Hardhat 3, as a team starting today gets it: `npm pack`, a fresh project made of
 * examples/weekly-rewards-hardhat3, installed with npm from the registry under Node 22 (Hardhat 3
 * needs ≥ 22.13; Node comes from the registry's `node@22` package), then the team's commands:
 * build offline, type-check against the package's declarations, `hardhat test mocha` (epoch hooks,
 * loadFixture, time.increase, the chai matchers), `epochs:list`, and `hardhat node` answering
 * `epochs:current --network localhost`.
 *
 * Unlike test/package/outside-in.test.ts this one needs the npm registry: this repository installs
 * Hardhat 2, and one node_modules holds one `hardhat`. The install uses npm's cache first.
 */
import { expect } from "chai";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Started, freePort, startNodeProcess, stopProcessGroup } from "../helpers/processes";

const ROOT = path.resolve(__dirname, "../..");
const EXAMPLE = path.join(ROOT, "examples", "weekly-rewards-hardhat3");
const NODE = "node@22";

describe("the package on Hardhat 3 (Node 22), installed from its tarball into a fresh project", function () {
  this.timeout(600_000);
  let work: string;
  let project: string;
  let node: Started | undefined;
  // npm's own variables (set by `npm test`) would turn the nested npx into another command
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  Object.assign(env, { npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false", HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", DO_NOT_TRACK: "1" });

  /** A shell command on Node 22 in the project, bounded in time; returns stdout + stderr, failing with them on a non-zero exit. */
  const on22 = (command: string, extraEnv: Record<string, string> = {}): string => {
    const r: SpawnSyncReturns<string> = spawnSync("npx", ["-y", "-p", NODE, "-c", command], { cwd: project, env: { ...env, ...extraEnv }, encoding: "utf8", timeout: 300_000 });
    const out = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`${command} exited ${r.status ?? r.signal}:\n${out}`);
    return out;
  };
  const hardhat = (args: string, extraEnv: Record<string, string> = {}): string => on22(`./node_modules/.bin/hardhat ${args}`, extraEnv);

  before(function () {
    work = mkdtempSync(path.join(tmpdir(), "epochs-hh3-"));
    const r = spawnSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT, env, encoding: "utf8", timeout: 180_000 });
    if (r.status !== 0) throw new Error(`npm pack failed:\n${r.stdout}${r.stderr}`);
    const [packed] = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as Array<{ filename: string }>;
    project = path.join(work, "weekly-rewards-hardhat3");
    cpSync(EXAMPLE, project, { recursive: true, filter: (src) => !/[/\\](node_modules|cache|artifacts)$/.test(src) });
    // the tarball stands in for the registry's hardhat-epochs
    const pkgFile = path.join(project, "package.json");
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { devDependencies: Record<string, string> };
    pkg.devDependencies["hardhat-epochs"] = `file:${path.join(work, packed.filename)}`;
    writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
    on22("npm install --prefer-offline --no-audit --no-fund");
  });

  after(async () => {
    await stopProcessGroup(node?.child);
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it("runs on Node 22 with Hardhat 3", () => {
    expect(on22("node --version")).to.match(/^v22\./m);
    expect(hardhat("--version")).to.match(/^3\.\d+\.\d+/m);
  });

  it("builds offline with the npm solc", () => {
    expect(hardhat("build")).to.match(/Compiled 1 Solidity file with solc 0\.8\.30/);
  });

  it("type-checks: connection.epochs and the epochs config are typed from the package's declarations", () => {
    on22("./node_modules/.bin/tsc --noEmit -p .");
  });

  it("runs the example's mocha tests on the in-process epochs chain", () => {
    const out = hardhat("test mocha");
    expect(out).to.match(/4 passing/);
    expect(out).to.not.match(/failing/);
  });

  it("lists the epochs in-process (hardhat epochs:list)", () => {
    const out = hardhat("epochs:list");
    expect(out).to.match(/^week\s+604800s\s+0\s/m);
    expect(out).to.match(/^day\s+86400s\s+0\s/m);
  });

  it("serves `hardhat node`: epochs:current with --network localhost", async () => {
    const port = await freePort();
    node = await startNodeProcess("npx", ["-y", "-p", NODE, "-c", `./node_modules/.bin/hardhat node --port ${port} --json-rpc-ws-address 127.0.0.1:0`], { cwd: project, env });
    expect(node.output()).to.not.match(/beyond loopback/);
    const out = hardhat("epochs:current --identifier week --network localhost", { LOCALHOST_URL: node.url });
    expect(out).to.match(/^week: current epoch 0$/m);
    await stopProcessGroup(node.child);
  });
});
