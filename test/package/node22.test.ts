/**
 * What Node's version can change, again on Node 22 (Hardhat 3's floor; Node from the npm registry's
 * `node@22` package): the native modules (LevelDB, secp256k1, keccak), Node's crypto, HTTP and
 * WebSocket servers, the JavaScript tracer's WebAssembly engine, and the chain end to end with
 * Hardhat 2's provider, run by Hardhat 2's test task in a child process. Pure JavaScript over
 * EthereumJS (most of the suite) runs the same on either. The rest of the suite runs on
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
    // what Node's version can change, named: native modules, Node's own servers and crypto, WebAssembly
    const files = [
      // LevelDB's native module: the store, homes reopened, SIGKILLs under write load
      "test/storage/level-kv.test.ts",
      ...testFiles("test/chain/store"),
      "test/e2e/crash.test.ts",
      // native secp256k1 and keccak; Node's scrypt and AES (the key store)
      "test/chain/native-crypto.test.ts",
      "test/keystore/keystore.test.ts",
      // Node's HTTP and WebSocket servers
      ...testFiles("test/rpc/transport"),
      "test/rpc/transport.test.ts",
      // QuickJS compiled to WebAssembly (the JavaScript tracers)
      "test/rpc/js-tracer-isolation.test.ts",
      // the chain end to end, and Hardhat 2's provider over it
      "test/rpc/eth.test.ts",
      "test/epochs/contract-hooks.test.ts",
      "test/hardhat/provider.test.ts",
    ];
    // npm's own variables (set by `npm test`) would turn the nested npx into another command
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    // LevelDB's native module under SIGKILL on Node 22: the kills at each write phase, no random ones
    env.CRASH_KILLS ??= "0";
    // the crash test's child loads dist/: built once, by this process, for both
    Object.assign(env, builtDistEnv());
    const r = spawnSync("npx", ["-y", "-p", "node@22", "-c", `node --version && ./node_modules/.bin/hardhat test ${files.join(" ")}`], {
      cwd: ROOT,
      env,
      encoding: "utf8",
      timeout: 840_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${r.stdout}${r.stderr}`;
    const tail = out.split("\n").slice(-60).join("\n");
    expect(out, tail).to.match(/^v22\./m);
    expect(r.status, tail).to.equal(0);
    expect(out, tail).to.match(/^\s*\d+ passing/m);
    expect(out, tail).to.not.match(/^\s*\d+ failing/m);
  });
});
