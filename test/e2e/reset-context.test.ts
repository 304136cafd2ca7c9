/**
 * Plugin test suites (Hardhat's own chai-matchers suite among them, docs/hardhat-plugin-suites.md) build
 * a fresh environment per test: `resetHardhatContext()` then `require("hardhat")`. Hardhat reloads
 * what the config loaded, while the chain runtime, loaded on the first request, stays in Node's
 * module cache: errors must still come out in Hardhat's classes and words from the second
 * environment on (they were `-32603 internal error: …`).
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT, buildDist } from "../helpers/processes";

// In the project that loads the built plugin: three environments, each runs a call that reverts.
const CHILD = `
const { resetHardhatContext } = require("hardhat/plugins-testing");
(async () => {
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const hre = require("hardhat");
    const p = hre.network.provider;
    const at = "0x00000000000000000000000000000000000000aa";
    await p.request({ method: "hardhat_setCode", params: [at, "0x60006000fd"] }); // PUSH1 0 PUSH1 0 REVERT
    try { await p.request({ method: "eth_call", params: [{ to: at }, "latest"] }); seen.push("no error"); }
    catch (e) { seen.push({ name: e.constructor.name, code: e.code ?? null, message: e.message.split("\\n")[0] }); }
    resetHardhatContext();
  }
  console.log(JSON.stringify(seen));
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe("fresh Hardhat environments in one process (resetHardhatContext)", function () {
  this.timeout(300_000);

  before(() => {
    buildDist();
  });

  it("a revert is Hardhat's error in every environment, not an internal error from the second on", () => {
    const r = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", CHILD], {
      cwd: path.join(ROOT, "test", "fixture-projects", "plugin-dist"),
      encoding: "utf8",
      timeout: 240_000,
      env: { ...process.env, HARDHAT_NETWORK: "hardhat" },
    });
    expect(r.status, r.stderr).to.equal(0);
    const seen = JSON.parse(r.stdout.trim().split("\n").pop() ?? "[]") as Array<{ name: string; code: number | null; message: string }>;
    expect(seen).to.have.length(3);
    expect(seen[0].message).to.equal("Transaction reverted without a reason string");
    for (const s of seen) expect(s).to.deep.equal(seen[0]);
  });
});
