/**
 * examples/staking-vault-viem, as a team gets it: Hardhat 3's default template (node:test + viem)
 * with the plugin, its hardhat-epochs the tarball `npm pack` writes, installed from the registry
 * under Node 22 (npm's cache first). Its tests delegate through the staking precompile, compound
 * rewards from an epoch hook and vote through the gov precompile, on the in-process epochs chain;
 * the project type-checks against the package's declarations and hardhat-viem's contract types.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nodeBin, npmChildEnv, packTarball } from "../helpers/pack";
import { ROOT } from "../helpers/processes";

describe("examples/staking-vault-viem on Hardhat 3 (node:test + viem), from the tarball", function () {
  this.timeout(600_000);
  let work: string;
  let project: string;
  let env: NodeJS.ProcessEnv;

  const run = (command: string): string => {
    const r = spawnSync("sh", ["-c", command], { cwd: project, env, encoding: "utf8", timeout: 300_000 });
    const out = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`${command} exited ${r.status ?? r.signal}:\n${out}`);
    return out;
  };

  before(function () {
    work = mkdtempSync(path.join(tmpdir(), "epochs-vault-"));
    const packed = packTarball();
    // the example as it stands: its hardhat-epochs is ../../<the tarball>
    project = path.join(work, "examples", "staking-vault-viem");
    cpSync(path.join(ROOT, "examples", "staking-vault-viem"), project, { recursive: true, filter: (src) => !/[/\\](node_modules|cache|artifacts)$/.test(src) });
    copyFileSync(packed.file, path.join(work, packed.filename));
    const base = npmChildEnv();
    env = { ...base, PATH: `${nodeBin("node@22")}${path.delimiter}${base.PATH ?? ""}` };
    run("npm install --prefer-offline --no-audit --no-fund");
  });

  after(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it("runs its node:test tests on the epochs chain: staking, an epoch hook compounding rewards, a gov vote", () => {
    const out = run("./node_modules/.bin/hardhat test");
    expect(out, out).to.match(/4 passing \(4 nodejs\)/);
    expect(out).to.not.match(/failing/);
    for (const t of ["delegates deposits through the staking precompile", "compounds its rewards at each day's end", "votes on a proposal with its stake", "takes hook calls only from the chain"])
      expect(out).to.include(t);
  });

  it("type-checks: viem's contract types, connection.epochs from the package's declarations", () => {
    run("./node_modules/.bin/tsc --noEmit -p .");
  });
});
