/**
 * The package as a contract team gets it, proven from the outside: `npm pack`, a fresh project in a
 * temporary folder holding only the example's files (examples/weekly-rewards), the tarball installed
 * there, then the team's commands: compile, type-check, `npx hardhat test` (epoch hooks fire),
 * `npx hardhat epochs:list`, `npx hardhat node` with `epochs:current --network localhost` and the
 * deploy script against it.
 *
 * Installing without the network: the tarball is unpacked into node_modules/hardhat-epochs, as npm
 * unpacks it, and every other package the project needs — the tarball's dependencies and peers plus
 * the example's devDependencies, closed over their own dependencies by this repository's lockfile —
 * is linked from this repository's node_modules (installed by `npm ci`). Nothing is fetched, so the
 * test cannot hang on a registry, and a dependency missing from the package's `dependencies` is
 * missing in the project too (only what the lockfile says those packages need is linked).
 */
import { expect } from "chai";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Packed, packTarball } from "../helpers/pack";
import { type Started, freePort, startNodeProcess, stopProcessGroup } from "../helpers/processes";

const ROOT = path.resolve(__dirname, "../..");
const EXAMPLE = path.join(ROOT, "examples", "weekly-rewards");

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * The top-level folders of node_modules that `roots` need, following the lockfile as Node resolves:
 * a dependency of the package at `loc` is the nearest `<ancestor>/node_modules/<name>`.
 */
export function installClosure(lock: Record<string, LockEntry>, roots: string[]): string[] {
  const resolveFrom = (loc: string, name: string): string | undefined => {
    for (let base = loc; ;) {
      const candidate = `${base === "" ? "" : `${base}/`}node_modules/${name}`;
      if (lock[candidate] !== undefined) return candidate;
      if (base === "") return undefined;
      const i = base.lastIndexOf("/node_modules/");
      base = i < 0 ? "" : base.slice(0, i);
    }
  };
  const seen = new Set<string>();
  const stack = roots.map((name) => {
    const loc = resolveFrom("", name);
    if (loc === undefined) throw new Error(`${name} is not in this repository's node_modules (package-lock.json)`);
    return loc;
  });
  while (stack.length > 0) {
    const loc = stack.pop() as string;
    if (seen.has(loc)) continue;
    seen.add(loc);
    const e = lock[loc];
    const optional = new Set([
      ...Object.keys(e.optionalDependencies ?? {}),
      ...Object.entries(e.peerDependenciesMeta ?? {})
        .filter(([, m]) => m.optional === true)
        .map(([n]) => n),
    ]);
    for (const name of Object.keys({ ...e.dependencies, ...e.optionalDependencies, ...e.peerDependencies })) {
      const dep = resolveFrom(loc, name);
      if (dep !== undefined) stack.push(dep);
      else if (!optional.has(name)) throw new Error(`${loc} needs ${name}, which this repository's node_modules lacks`);
    }
  }
  const top = new Set([...seen].map((loc) => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(loc)?.[1] as string));
  return [...top].sort();
}

describe("the package, installed from its tarball into a fresh project", function () {
  this.timeout(300_000);
  let work: string;
  let project: string;
  let packed: Packed;
  let node: Started | undefined;
  const env = {
    ...process.env,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
  };
  /** `npx <args>` in the project, bounded in time; returns stdout + stderr, failing with them on a non-zero exit. */
  const npx = (args: string[], extraEnv: Record<string, string> = {}, cwd = project): string => {
    const r: SpawnSyncReturns<string> = spawnSync("npx", ["--no", "--", ...args], { cwd, env: { ...env, ...extraEnv }, encoding: "utf8", timeout: 180_000 });
    const out = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`npx ${args.join(" ")} exited ${r.status ?? r.signal}:\n${out}`);
    return out;
  };

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), "epochs-pack-"));
    // npm pack runs `prepack` (the build) first
    packed = packTarball();

    project = path.join(work, "weekly-rewards");
    cpSync(EXAMPLE, project, { recursive: true, filter: (src) => !/[/\\](node_modules|cache|artifacts|typechain-types)$/.test(src) });
    const modules = path.join(project, "node_modules");
    const pkgDir = path.join(modules, "hardhat-epochs");
    mkdirSync(pkgDir, { recursive: true });
    const tar = spawnSync("tar", ["-xzf", packed.file, "-C", pkgDir, "--strip-components=1"], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);

    const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
    const example = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const lock = (JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages;
    const roots = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies), ...Object.keys(example.devDependencies).filter((n) => n !== "hardhat-epochs")];
    for (const name of installClosure(lock, roots)) {
      mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      symlinkSync(path.join(ROOT, "node_modules", name), path.join(modules, name), "dir");
    }
    mkdirSync(path.join(modules, ".bin"));
    symlinkSync("../hardhat/internal/cli/bootstrap.js", path.join(modules, ".bin", "hardhat"));
    symlinkSync("../typescript/bin/tsc", path.join(modules, ".bin", "tsc"));
  });

  after(async () => {
    await stopProcessGroup(node?.child);
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it("packs what a user needs and nothing else", () => {
    const files = packed.files.map((f) => f.path);
    for (const f of [
      "package.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/src/index.js",
      "dist/src/index.d.ts",
      "dist/src/hardhat/type-extensions.d.ts",
      "dist/src/hardhat/tasks/epochs.js",
      "contracts/IEpochs.sol",
      "contracts/IEpochHooks.sol",
      "contracts/examples/WeeklyRewards.sol",
    ]) {
      expect(files, f).to.include(f);
    }
    expect(files.filter((f) => /^(src|test|scripts)\/|^(?!examples\/).*\.ts$(?<!\.d\.ts)|\.map$|^contracts\/test\/|^examples\/.*\/(node_modules|artifacts|cache)\//.test(f))).to.deep.equal([]);
    // the examples the README names, whole, in the package (node_modules/hardhat-epochs/examples/)
    const examples = [...new Set([...readFileSync(path.join(ROOT, "README.md"), "utf8").matchAll(/`(examples\/[\w-]+)\/`/g)].map((m) => m[1]))];
    expect(examples).to.include.members(["examples/weekly-rewards", "examples/weekly-rewards-hardhat3", "examples/staking-vault-viem"]);
    for (const e of examples) for (const f of ["package.json", "hardhat.config.ts", "README.md"]) expect(files, `${e}/${f}`).to.include(`${e}/${f}`);
    // the README's links to docs/ and the banner's (docs/security.md) resolve in the installed package
    const linked = [...readFileSync(path.join(ROOT, "README.md"), "utf8").matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]);
    expect(linked.length).to.be.greaterThan(5);
    for (const doc of new Set([...linked, "docs/security.md"])) expect(files, doc).to.include(doc);
  });

  it("asks the example's devDependencies at the ranges this repository tests with, and the tarball `npm pack` writes at the root", () => {
    const ours = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const example = JSON.parse(readFileSync(path.join(EXAMPLE, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    for (const [name, range] of Object.entries(example.devDependencies)) {
      expect(range, name).to.equal(name === "hardhat-epochs" ? `file:../../${packed.filename}` : (ours.devDependencies[name] ?? ours.dependencies[name]));
    }
  });

  it("every example depends on that tarball and its README says how to make it", () => {
    for (const name of readdirSync(path.join(ROOT, "examples"))) {
      const pkg = JSON.parse(readFileSync(path.join(ROOT, "examples", name, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
      expect(pkg.devDependencies["hardhat-epochs"], name).to.equal(`file:../../${packed.filename}`);
      const readme = readFileSync(path.join(ROOT, "examples", name, "README.md"), "utf8");
      expect(readme, name).to.include("npm ci && npm pack").and.include("npm install\n");
    }
  });

  it("compiles a contract that imports hardhat-epochs/contracts/*.sol: Hardhat's download first, then offline with the npm solc, said once", () => {
    // as a user's project runs: the repository's own HARDHAT_EPOCHS_SOLC=npm (no download tried) left out
    const out = npx(["hardhat", "compile"], { HARDHAT_EPOCHS_SOLC: "" });
    expect(out).to.match(/Compiled 3 Solidity files/);
    // this machine reaches no compiler host: Hardhat's download fails, and the build says what it did instead
    expect(out.match(/could not be downloaded/g)).to.have.length(1);
    expect(out).to.match(/^hardhat-epochs: solc 0\.8\.30 could not be downloaded \(HH\d+: [^)]*\); compiling with the npm "solc" package instead \(solc-js 0\.8\.30\)\.$/m);
    expect(existsSync(path.join(project, "artifacts", "contracts", "WeeklyRewards.sol", "WeeklyRewards.json"))).to.equal(true);
  });

  it("type-checks: hre.epochs and the epochs config are typed from the package's declarations", () => {
    npx(["tsc", "--noEmit", "-p", "."]);
  });

  it("runs the example's tests: the chain calls the contract's hook when a week ends", () => {
    const out = npx(["hardhat", "test"]);
    expect(out).to.match(/4 passing/);
    expect(out).to.not.match(/failing/);
  });

  /** Runs an example project under examples/ beside the weekly-rewards one, whose node_modules serve both (the same dependencies). */
  const runExample = (name: string, passing: number): void => {
    const dir = path.join(work, name);
    cpSync(path.join(ROOT, "examples", name), dir, { recursive: true, filter: (src) => !/[/\\](node_modules|cache|artifacts|typechain-types)$/.test(src) });
    symlinkSync(path.join(project, "node_modules"), path.join(dir, "node_modules"), "dir");
    npx(["tsc", "--noEmit", "-p", "."], {}, dir);
    const out = npx(["hardhat", "test"], {}, dir);
    expect(out).to.match(new RegExp(`${passing} passing`));
    expect(out).to.not.match(/failing/);
  };

  it("runs the liquid-staking example (examples/liquid-staking): staking and rewards through the Cosmos precompiles", () => {
    runExample("liquid-staking", 4);
  });

  it("runs the ibc-payouts example (examples/ibc-payouts): an IBC token through its ERC-20, bridged out with ICS20 from a week hook", () => {
    runExample("ibc-payouts", 6);
  });

  it("lists the epochs (npx hardhat epochs:list)", () => {
    const out = npx(["hardhat", "epochs:list"]);
    // at genesis, before the first block: no epoch has started yet
    expect(out).to.match(/^week\s+604800s\s+0\s/m);
    expect(out).to.match(/^day\s+86400s\s+0\s/m);
    // and the table says why (a newcomer saw epoch 0 at year 1 with no word)
    expect(out).to.include("(not started yet: day, week: a timer starts counting in the first block mined at or after its start time)");
  });

  it("reports coverage with solidity-coverage (`npx hardhat coverage`): a line only an epoch hook runs is covered, a contract no test calls is not", () => {
    // beside the example: a contract the tests never call
    writeFileSync(
      path.join(project, "contracts", "Unused.sol"),
      "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Unused {\n    uint256 public n;\n    function bump() external {\n        n += 1;\n    }\n}\n",
    );
    try {
      const out = npx(["hardhat", "coverage"]);
      expect(out, out).to.match(/4 passing/);
      const lcov = readFileSync(path.join(project, "coverage", "lcov.info"), "utf8");
      const record = (file: string): string => lcov.split("end_of_record").find((r) => r.includes(`contracts/${file}\n`)) ?? expect.fail(`no ${file} in lcov.info:\n${lcov}`);
      // afterEpochEnd's body: only the chain calls it, at the end of a week
      const source = readFileSync(path.join(project, "contracts", "WeeklyRewards.sol"), "utf8").split("\n");
      const hookLine = source.findIndex((l) => l.includes("rewardPerStake += (rewardPerWeek * SCALE) / totalStaked;")) + 1;
      expect(hookLine).to.be.greaterThan(0);
      expect(record("WeeklyRewards.sol")).to.match(new RegExp(`^DA:${hookLine},[1-9]\\d*$`, "m"));
      expect(record("WeeklyRewards.sol")).to.match(/^FNDA:[1-9]\d*,afterEpochEnd$/m);
      const unused = record("Unused.sol");
      expect(unused).to.match(/^DA:\d+,0$/m);
      expect(unused).to.not.match(/^DA:\d+,[1-9]/m);
    } finally {
      rmSync(path.join(project, "contracts", "Unused.sol"), { force: true });
    }
  });

  it("prints hardhat-gas-reporter's table from the epochs chain (`REPORT_GAS=true npx hardhat test`): the hook contract's methods the tests call", () => {
    const out = npx(["hardhat", "test"], { REPORT_GAS: "true" }).replace(/\x1b\[[0-9;]*m/g, "");
    expect(out, out).to.match(/4 passing/);
    const [methods, deployments] = out.slice(out.indexOf("Contracts / Methods")).split("Deployments");
    expect(methods, out).to.match(/^\|\s+WeeklyRewards\s+·/m);
    // a row per method the tests sent (its gas), the epoch hooks' calls being no transactions; the deployment
    for (const method of ["stake", "claim"]) expect(methods, out).to.match(new RegExp(`^\\|\\s+${method}\\s+·.*\\d{2},\\d{3}`, "m"));
    expect(deployments, out).to.match(/^\|\s+WeeklyRewards\s+·.*\d{3},\d{3}/m);
  });

  it("serves `npx hardhat node`: epochs:current and the deploy script with --network localhost", async () => {
    const port = await freePort();
    node = await startNodeProcess("npx", ["--no", "--", "hardhat", "node", "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"], { cwd: project, env });
    const LOCALHOST_URL = node.url;
    expect(npx(["hardhat", "epochs:current", "--identifier", "week", "--network", "localhost"], { LOCALHOST_URL })).to.match(/^week: current epoch 0$/m);
    // the deployment's block starts the timers
    expect(npx(["hardhat", "run", "scripts/deploy.ts", "--network", "localhost"], { LOCALHOST_URL })).to.match(/WeeklyRewards deployed at 0x[0-9a-fA-F]{40}; week 1; registered hook: true/);
    await stopProcessGroup(node.child);
    expect(node.child.exitCode !== null || node.child.signalCode !== null).to.equal(true);
  });
});
