/**
 * One chain in tests and node: a project whose config names a team's genesis.json
 * (`epochs.genesisFile`, local_node.sh's here) gets an in-process network that answers as a node
 * started with `--home` on the same genesis does — chain ids, the native coin's WERC20 at the
 * genesis's address, the gentx validator, the modules' params (src/host/settings/genesis-file.ts is
 * the one reader of both). A file it cannot honour stops the network naming the file and the field.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { localNodeGenesis } from "../../scripts/local-node-genesis";
import { resolveEpochsConfig } from "../../src/host/settings/epochs-config";
import { closeLocalNode, localNode } from "../helpers/local-node";
import { BOOTSTRAP, ROOT } from "../helpers/processes";

const CONFIG = path.join(ROOT, "test", "fixture-projects", "genesis-file", "hardhat.config.ts");

/** The fixture's `facts` task on the in-process network started from `file`. */
function factsOf(file: string): { status: number | null; out: string; facts?: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [BOOTSTRAP, "--config", CONFIG, "facts"], { cwd: ROOT, encoding: "utf8", timeout: 100_000, env: { ...process.env, GENESIS_FILE: file } });
  const out = `${r.stdout}${r.stderr}`;
  const line = /^facts: (.*)$/m.exec(out)?.[1];
  return { status: r.status, out, ...(line !== undefined ? { facts: JSON.parse(line) as Record<string, unknown> } : {}) };
}

describe("epochs.genesisFile: the in-process network from a team's genesis.json", function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "genesis-file-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("answers as a node started with --home on the same genesis: chain ids, WERC20, validators, params", async () => {
    const file = path.join(dir, "genesis.json");
    writeFileSync(file, JSON.stringify(localNodeGenesis("2024-03-01T12:00:00Z")));
    const test = factsOf(file);
    expect(test.status, test.out).to.equal(0);
    // the node: `hardhat node --home` on a home holding the same genesis (src/host/node/home.ts), chain id 262144
    const node = await localNode();
    try {
      const facts = {
        chainId: await node.h.request("eth_chainId"),
        cosmosChainId: node.h.runtime.node.config.cosmosChainId,
        genesis: await node.h.request("cosmos_exportGenesis"),
      };
      expect(test.facts).to.deep.equal(JSON.parse(JSON.stringify(facts)));
    } finally {
      await closeLocalNode(node);
    }
    // and they are local_node.sh's, not the plugin's defaults
    const g = test.facts?.genesis as { staking: { validators: Array<{ description: { moniker: string } }> }; erc20: { native_precompiles: string[] }; gov: { params: { voting_period: string } } };
    expect([test.facts?.chainId, test.facts?.cosmosChainId]).to.deep.equal(["0x40000", "9001"]);
    expect(g.staking.validators.map((v) => v.description.moniker)).to.deep.equal(["localtestnet"]);
    expect(g.erc20.native_precompiles).to.deep.equal(["0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"]);
    expect(g.gov.params.voting_period).to.equal("30s");
  });

  it("refuses a file it cannot honour, naming the file and the field; the config key is checked", () => {
    const file = path.join(dir, "genesis.json");
    const genesis = localNodeGenesis("2024-03-01T12:00:00Z") as { app_state: { mint: { params: Record<string, unknown> } } };
    genesis.app_state.mint.params.goal_bonded = "0";
    writeFileSync(file, JSON.stringify(genesis));
    const bad = factsOf(file);
    expect(bad.status).to.not.equal(0);
    expect(bad.out).to.contain(`${file}: app_state.mint.params: goal bonded must be positive: 0.000000000000000000`);
    const missing = factsOf(path.join(dir, "none.json"));
    expect(missing.out).to.contain(`${path.join(dir, "none.json")}: ENOENT`);
    expect(() => resolveEpochsConfig({ genesisFile: "" })).to.throw('invalid epochs.genesisFile "": expected the path of a genesis.json');
    expect(() => resolveEpochsConfig({ genesisFile: "g.json", genesis: { epochs: [] } })).to.throw("epochs.genesis and epochs.genesisFile both set");
  });
});
