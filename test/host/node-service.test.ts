/**
 * The node service both hosts run (src/host/node/node-service.ts), driven directly: a start that fails
 * once the servers listen closes them and the chain, and the project's compilations are registered
 * once (the build-info watcher loads them at start).
 */
import { expect } from "chai";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Runtime } from "../../src/app/runtime";
import { ContractRegistry } from "../../src/solidity/registry";
import { hardhat2BuildInfos } from "../../src/host/solidity/compilations";
import { type NodeFlags, type NodeHost, buildNodeRuntime, planNode, runNode } from "../../src/host/node/node-service";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { ROOT } from "../helpers/processes";

function host(dir: string): NodeHost {
  return {
    base: { chain: testChainConfig(), clientVersion: CLIENT_VERSION },
    configLayer: { source: "test" },
    cacheDir: path.join(dir, "cache"),
    compilations: hardhat2BuildInfos(path.join(dir, "artifacts")),
    forkSetting: "networks.hardhat.forking",
  };
}

const FLAGS: NodeFlags = { evmos: { hostname: "127.0.0.1", port: "0", "json-rpc.ws-address": "127.0.0.1:0", quiet: true }, state: {} };

describe("node service", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "node-service-"));
    mkdirSync(path.join(dir, "cache"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("closes the servers and the chain when a start fails after they listen (a throwing node:server-ready hook)", async () => {
    let port: number | undefined;
    let runtime: Runtime | undefined;
    const failed = await runNode(host(dir), FLAGS, {
      createRuntime: async (plan) => (runtime = await buildNodeRuntime(plan)),
      serverReady: async (server) => {
        port = server.port;
        throw new Error("a plugin's server-ready hook failed");
      },
    }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failed?.message).to.equal("a plugin's server-ready hook failed");
    expect(port).to.be.a("number");
    // nothing listens on the port any more, and the chain is closed
    const refused = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }).then(
      () => false,
      () => true,
    );
    expect(refused).to.equal(true);
    // the node's lock was released: a change still goes through it
    await expect(runtime?.node.dev.configure({})).to.not.be.rejected;
  });

  it("registers the project's compilations once", async () => {
    // one build-info of this repository's own compilation
    const buildInfos = path.join(ROOT, "artifacts", "build-info");
    const [file] = readdirSync(buildInfos).filter((f) => f.endsWith(".json"));
    mkdirSync(path.join(dir, "artifacts", "build-info"), { recursive: true });
    copyFileSync(path.join(buildInfos, file), path.join(dir, "artifacts", "build-info", file));
    const alone = new ContractRegistry();
    const { input, output } = hardhat2BuildInfos(path.join(dir, "artifacts")).read(path.join(dir, "artifacts", "build-info", file));
    alone.addCompilation(input, output);
    const runtime = await buildNodeRuntime(await planNode(host(dir), FLAGS));
    try {
      expect(alone.size).to.be.greaterThan(0);
      expect(runtime.deps.contracts.size).to.equal(alone.size);
    } finally {
      await runtime.close();
    }
  });
});
