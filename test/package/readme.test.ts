/**
 * README.md's Install sections, run as a newcomer pastes them: in an empty folder, each host's
 * commands in order and its files saved where their first line says (test/helpers/readme.ts), with
 * the package's tarball in place of the registry name. Hardhat 2 runs on this machine's Node (20),
 * Hardhat 3 on Node 22 (the registry's `node@22`). Fails when the README drifts from what works.
 *
 * Needs the npm registry, as a reader does (npm's cache first).
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nodeBin, npmChildEnv, packTarball } from "../helpers/pack";
import { ROOT } from "../helpers/processes";
import { readmeScript, readmeSection } from "../helpers/readme";

function runReadme(heading: string, node?: string): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const dir = mkdtempSync(path.join(tmpdir(), "epochs-readme-"));
  try {
    const script = path.join(dir, "readme.sh");
    writeFileSync(script, `node --version\n${readmeScript(readmeSection(readme, heading), packTarball().file)}`);
    const env = npmChildEnv({ npm_config_prefer_offline: "true" });
    if (node !== undefined) env.PATH = `${nodeBin(node)}${path.delimiter}${env.PATH ?? ""}`;
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

  it("Hardhat 3 on Node 22: type module, install, config, a test; `npx hardhat test mocha` and `epochs:list`", () => {
    const out = runReadme("### Hardhat 3", "node@22");
    expect(out).to.match(/^v22\./m);
    expect(out).to.match(/^\s*2 passing/m);
    expect(out).to.not.match(/failing/);
    expect(out).to.match(/^week\s+604800s\s+0\s/m);
    expect(out).to.match(/^day\s+86400s\s+0\s/m);
  });
});
