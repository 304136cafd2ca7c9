/**
 * The node service both hosts run (src/host/node/node-service.ts), driven directly: a start that fails
 * once the servers listen closes them and the chain, and the project's compilations are registered
 * once (the build-info watcher loads them at start).
 */
import { expect } from "chai";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Runtime } from "../../src/app/runtime";
import { ContractRegistry } from "../../src/solidity/registry";
import { hardhat2BuildInfos } from "../../src/host/solidity/compilations";
import { type NodeFlags, type NodeHost, buildNodeRuntime, nodeBanner, planNode, runNode } from "../../src/host/node/node-service";
import { localNodeGenesis } from "../../scripts/local-node-genesis";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { ROOT } from "../helpers/processes";
import { compileStandard } from "../helpers/solc";

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

  it("without --home starts from the config's genesis file (epochs.genesisFile) and lists its funded addresses in the banner", async () => {
    const file = path.join(dir, "genesis.json");
    writeFileSync(file, JSON.stringify(localNodeGenesis("2024-03-01T12:00:00Z")));
    const withGenesis: NodeHost = {
      ...host(dir),
      base: { chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { profile: "cosmos-evm" } },
      configLayer: { source: "test", epochs: { profile: "cosmos-evm" } },
      genesisFile: file,
    };
    let banner: string[] = [];
    let validators: unknown;
    await runNode(withGenesis, FLAGS, {
      serverReady: async (server) => {
        banner = nodeBanner(server);
        validators = await server.runtime.dispatcher.call("cosmos_validators", [], { transport: "in-process", authenticated: true });
        throw new Error("stop");
      },
    }).catch((err: Error) => expect(err.message).to.equal("stop"));
    expect((validators as Array<{ description: { moniker: string } }>).map((v) => v.description.moniker)).to.deep.equal(["localtestnet"]);
    const at = banner.indexOf("Genesis balances (the genesis file's app_state.bank.balances; their keys are the genesis's owners')");
    expect(at).to.be.greaterThan(0);
    // local_node.sh's dev0 (1000 TEST) and its validator key (10^8 TEST less its 1000 TEST gentx bond)
    expect(banner.slice(at + 2, at + 7)).to.include.members(["0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101 (1000 TEST)", "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E (99999000 TEST)"]);
    expect(banner).to.include.members(['Chain id 9000 (9001), profile "cosmos-evm", epochs tick rule "sdk"']);
  });

  it("with --home keeps the names of deployed contracts across a restart after the project recompiled them with other code", async () => {
    const source = (extra: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Counter {
  uint256 public n;${extra}
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
  function beforeEpochStart(string calldata, int64) external { n++; }
  function afterEpochEnd(string calldata, int64) external {}
}`;
    const buildInfos = path.join(dir, "artifacts", "build-info");
    const writeBuildInfo = (extra: string) => {
      rmSync(buildInfos, { recursive: true, force: true });
      mkdirSync(buildInfos, { recursive: true });
      const c = compileStandard({ "Counter.sol": source(extra) });
      writeFileSync(path.join(buildInfos, `${extra === "" ? "one" : "two"}.json`), JSON.stringify({ input: c.input, output: c.output }));
      return c;
    };
    const flags: NodeFlags = { ...FLAGS, evmos: { ...FLAGS.evmos, home: path.join(dir, "home") } };
    const ctx = { transport: "in-process" as const, authenticated: true };
    const hookNames = async (runtime: Runtime) => ((await runtime.dispatcher.call("epochs_hookContracts", [], ctx)) as Array<{ name: string | null }>).map((h) => h.name);

    const first = writeBuildInfo("");
    let runtime = await buildNodeRuntime(await planNode(host(dir), flags));
    try {
      const [from] = (await runtime.dispatcher.call("eth_accounts", [], ctx)) as string[];
      await runtime.dispatcher.call("eth_sendTransaction", [{ from, data: `0x${first.output.contracts["Counter.sol"].Counter.evm.bytecode.object}` }], ctx);
      expect(await hookNames(runtime)).to.deep.equal(["Counter"]);
    } finally {
      await runtime.close();
    }
    // the project recompiles Counter with other code: Hardhat leaves only the new build-info
    writeBuildInfo("\n  function bump() external { n += 2; }");
    const names = path.join(dir, "home", "contract-names.json");
    const kept = readFileSync(names, "utf8");
    expect(Object.values(JSON.parse(kept) as Record<string, string>)).to.deep.equal(["Counter"]);
    runtime = await buildNodeRuntime(await planNode(host(dir), flags));
    try {
      expect(await hookNames(runtime)).to.deep.equal(["Counter"]);
    } finally {
      await runtime.close();
    }
    // what kept it: without the home's file the deployed code has no name
    rmSync(names);
    runtime = await buildNodeRuntime(await planNode(host(dir), flags));
    try {
      expect(await hookNames(runtime)).to.deep.equal([null]);
    } finally {
      await runtime.close();
    }
  });
});
