/**
 * README.md's Install sections, run as a newcomer pastes them: in an empty folder, each host's
 * commands in order and its files saved where their first line says (test/helpers/readme.ts), with
 * the package's tarball in place of the registry name, both on this machine's Node (20): the
 * Hardhat 3 section's own lines install Node 22 into the project and put it first on PATH. Fails when
 * the README drifts from what works.
 *
 * Needs the npm registry, as a reader does (npm's cache first).
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { npmChildEnv, packTarball } from "../helpers/pack";
import { ROOT } from "../helpers/processes";
import { type ReadmePrelude, readmeScript, readmeSection } from "../helpers/readme";

/**
 * What this machine cannot reach and a reader's can, put in place before Hardhat 3's `--init`:
 * forge-std, which the template installs from GitHub (test/fixtures/offline-npm/npm, first on PATH,
 * installs the stand-in test/fixtures/forge-std-stand-in in its place), and solc 0.8.34, which
 * Hardhat downloads from binaries.soliditylang.org (the README's offline line: the npm package).
 */
const OFFLINE_HARDHAT3: ReadmePrelude = {
  before: /--init --template/,
  lines: `export PATH="${path.join(ROOT, "test", "fixtures", "offline-npm")}:$PATH"\nnpm install --save-dev --no-audit --no-fund solc@0.8.34`,
};

function runReadme(heading: string, prelude?: ReadmePrelude): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const dir = mkdtempSync(path.join(tmpdir(), "epochs-readme-"));
  try {
    const script = path.join(dir, "readme.sh");
    writeFileSync(script, `node --version\n${readmeScript(readmeSection(readme, heading), packTarball().file, prelude)}`);
    const env = npmChildEnv({ npm_config_prefer_offline: "true" });
    const r = spawnSync("bash", [script], { cwd: dir, env, encoding: "utf8", timeout: 540_000 });
    const out = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`README.md's "${heading}" failed (${r.status ?? r.signal}):\n${out.split("\n").slice(-80).join("\n")}`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

describe("README.md's install steps, pasted into an empty folder", function () {
  this.timeout(600_000);

  it("Hardhat 2 on Node 20: install, tsconfig, config, a test; `npx hardhat test` and `epochs:list`", () => {
    const out = runReadme("### Hardhat 2");
    expect(out).to.match(/^v20\./m);
    expect(out).to.match(/^\s*2 passing/m);
    expect(out).to.not.match(/failing/);
    expect(out).to.match(/^week\s+604800s\s+0\s/m);
    expect(out).to.match(/^day\s+86400s\s+0\s/m);
  });

  it("Hardhat 3 from a machine whose Node is 20: Node 22 into the project and first on PATH, `--init`'s default template (node:test + viem), the plugin, a hook contract and its test; `npx hardhat test nodejs` and `epochs:list`", () => {
    // the machine's Node (20 here, as a newcomer's may be): the README's own lines bring Node 22
    const out = runReadme("### Hardhat 3", OFFLINE_HARDHAT3);
    expect(out).to.match(/^v20\./m);
    expect(out).to.not.match(/HHE27|Missing platform package/);
    // the template's 0.8.34 compiled with the npm solc the README's offline line installs (no download)
    expect(out).to.match(/Compiled \d+ Solidity files with solc 0\.8\.34/);
    // the template's two Counter tests and the README's two, on the epochs chain
    expect(out).to.match(/^\s*4 passing/m);
    expect(out).to.not.match(/failing/);
    expect(out).to.match(/^week\s+604800s\s+0\s/m);
    expect(out).to.match(/^day\s+86400s\s+\d+\s/m);
  });
});
