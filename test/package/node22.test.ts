/**
 * The core of the suite again on Node 22 (Hardhat 3's floor; Node from the npm registry's `node@22`
 * package): the storage (LevelDB's native module), the key store, the epochs module, the chain and
 * RPC units, the HTTP/WebSocket transport, the JavaScript tracer's WebAssembly isolate and the
 * Hardhat 2 provider, run by Hardhat 2's test task in a child process. The rest of the suite runs on
 * the Node that runs this file; test/package/hardhat3.test.ts covers Hardhat 3 on Node 22.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { builtDistEnv } from "../helpers/processes";

const ROOT = path.resolve(__dirname, "../..");

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((f) => {
    const rel = path.join(dir, f);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return testFiles(rel);
    return /\.test\.ts$/.test(f) ? [rel] : [];
  });
}

describe("the suite's core on Node 22", function () {
  this.timeout(900_000);

  it("passes", () => {
    const files = [
      // all but the two randomized differential tests of the state path: plain JavaScript over
      // EthereumJS, nothing Node's version changes, and ~26 s of this run
      ...["test/unit", "test/persistence", "test/keystore"].flatMap(testFiles).filter((f) => !/(state-flush|trie-batch)\.test\.ts$/.test(f)),
      "test/rpc/eth.test.ts",
      "test/rpc/transport.test.ts",
      "test/rpc/js-tracer-isolation.test.ts",
      "test/epochs/contract-hooks.test.ts",
      "test/hardhat/provider.test.ts",
    ];
    // npm's own variables (set by `npm test`) would turn the nested npx into another command
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    // LevelDB's native module under SIGKILL on Node 22: the kills at each write phase, no random ones
    env.CRASH_KILLS ??= "0";
    // the crash test's child loads dist/: built once, by this process, for both
    Object.assign(env, builtDistEnv());
    const r = spawnSync("npx", ["-y", "-p", "node@22", "-c", `node --version && ./node_modules/.bin/hardhat test ${files.join(" ")}`], { cwd: ROOT, env, encoding: "utf8", timeout: 840_000, maxBuffer: 64 * 1024 * 1024 });
    const out = `${r.stdout}${r.stderr}`;
    const tail = out.split("\n").slice(-60).join("\n");
    expect(out, tail).to.match(/^v22\./m);
    expect(r.status, tail).to.equal(0);
    expect(out, tail).to.match(/^\s*\d+ passing/m);
    expect(out, tail).to.not.match(/^\s*\d+ failing/m);
  });
});
