/**
 * `--network localhost` follows this project's running node where it listens (its record in the
 * project's cache: src/hardhat/chain-config.ts, followProjectNode) unless the user gave localhost a
 * URL, and says which URL it used. Hardhat 2's CLI on a project of its own, the plugin from dist/.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { newEpochInfo } from "../../src/epochs";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { NODE_RECORD_FILE_NAME } from "../../src/host/node/node-files";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { BOOTSTRAP, ROOT, buildDist } from "../helpers/processes";

describe("--network localhost and this project's node", function () {
  this.timeout(180_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let port: number;
  let dir: string;

  before(async () => {
    buildDist();
    // the project's node, moved off 8545 (it listens on a free port)
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { genesis: { epochs: [newEpochInfo("fortnight", 1_209_600n)] } } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
    port = (await server.listen()).httpAddress.port;
    // inside the repository (its cache, ignored by git), so Hardhat finds its local installation
    mkdirSync(path.join(ROOT, "cache"), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, "cache", "localhost-follow-"));
    mkdirSync(path.join(dir, "cache"));
    // its record, as the node task writes it; this test's process stands in for the node's (alive)
    writeFileSync(path.join(dir, "cache", NODE_RECORD_FILE_NAME), JSON.stringify({ pid: process.pid, ports: [port] }));
  });
  after(async () => {
    await server?.close();
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the CLI without blocking this process, whose event loop serves the node. */
  const run = (config: string): Promise<{ status: number | null; stdout: string; stderr: string }> => {
    writeFileSync(path.join(dir, "hardhat.config.js"), `require(${JSON.stringify(path.join(ROOT, "dist/src"))});\nmodule.exports = ${config};\n`);
    // this test runs inside `hardhat test`, whose settings reach children as HARDHAT_* variables: none of them here
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("HARDHAT_")));
    const args = [BOOTSTRAP, "--config", path.join(dir, "hardhat.config.js"), "--network", "localhost", "epochs:list"];
    return new Promise((resolve) => {
      const child = spawn(process.execPath, args, { cwd: dir, env: { ...env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
      child.once("exit", (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });
  };

  it("goes where the node listens when localhost has no URL of the user's, and says so", async () => {
    const r = await run(`{ solidity: "0.8.30" }`);
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    // the node's own timer, not a chain on 8545
    expect(r.stdout).to.match(/^fortnight\s+1209600s/m);
    expect(r.stderr).to.include(`localhost: this project's node, at http://127.0.0.1:${port} (its record in ${path.join(dir, "cache")}; set networks.localhost.url to choose)`);
  });

  it("keeps a URL the user gave localhost", async () => {
    const r = await run(`{ solidity: "0.8.30", networks: { localhost: { url: "http://127.0.0.1:${port}/" } } }`);
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    expect(r.stdout).to.match(/^fortnight\s+1209600s/m);
    expect(r.stderr).to.not.include("localhost: this project's node");
  });
});
