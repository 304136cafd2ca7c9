/**
 * The Hardhat 3 host run from this repository rather than only through the packed tarball
 * (test/package/hardhat3.test.ts): the `node` task (test/hardhat3/run-node.mjs: the plugin's config
 * hooks, then the task's action with Hardhat 3's argument shape) — its banner, the served chain and
 * the plugin's errors — and the network hooks (test/hardhat3/run-network.mjs: a connection to the
 * in-process network, requests through onRequest, subscriptions, Hardhat's errors, the
 * epochs:advance task's action, close).
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_ACCOUNT_BALANCE, DEFAULT_HD_PATH, deriveAccounts } from "../../src/chain/config";
import { addressOfKey } from "../../src/chain/base/crypto";
import { ROOT, type Started, buildDist, startNodeProcess, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

const RUNNER = path.join(__dirname, "run-node.mjs");
const OWN = "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat";
const DEFAULT_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

function input(dir: string, userConfig: object, args: object): NodeJS.ProcessEnv {
  const paths = { root: dir, cache: path.join(dir, "cache"), artifacts: path.join(dir, "artifacts") };
  return { ...process.env, HH3_NODE: JSON.stringify({ dist: path.join(ROOT, "dist"), userConfig, paths, args: { jsonRpcWsAddress: "127.0.0.1:0", ...args } }) };
}

function startHardhat3Node(dir: string, userConfig: object, args: object = {}): Promise<Started> {
  return startNodeProcess(process.execPath, [RUNNER], { cwd: dir, env: input(dir, userConfig, args) });
}

/** Runs the task to its end (a start that fails); resolves with its exit code and output. */
function runHardhat3Node(dir: string, userConfig: object, args: object): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER], { cwd: dir, env: input(dir, userConfig, args), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe("Hardhat 3's node task (in-repo harness)", function () {
  this.timeout(180_000);
  let dir: string;
  let node: Started | undefined;

  before(() => {
    buildDist();
    dir = mkdtempSync(path.join(os.tmpdir(), "hh3-node-"));
  });
  afterEach(async () => {
    await stopProcessGroup(node?.child);
    node = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the private keys of Hardhat's default mnemonic under the warning, and serves the chain", async () => {
    node = await startHardhat3Node(dir, {});
    // the banner arrives in chunks: the accounts come last
    await waitForOutput(node, "Account #19:");
    const out = node.output();
    expect(out).to.include("WARNING: These accounts, and their private keys, are publicly known.");
    expect(out).to.include(`Private Key: ${DEFAULT_KEY_0}`);
    expect(out).to.match(/Bearer token in .*jsonrpc\.token:/);
    expect(out).to.include(`Epochs page: ${node.url}epochs`);
    expect((await rpc<string>(node.url, "eth_chainId")).result).to.equal("0x2328");
    expect((await rpc<string[]>(node.url, "eth_accounts")).result?.[0]).to.equal("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
  });

  it("prints no private key of a user's own mnemonic (as on Hardhat 2)", async () => {
    node = await startHardhat3Node(dir, { epochs: { network: { accounts: { mnemonic: OWN, count: 2 } } } });
    const [first] = deriveAccounts(OWN, DEFAULT_HD_PATH, 1, 0, DEFAULT_ACCOUNT_BALANCE);
    await waitForOutput(node, "Account #1:");
    const out = node.output();
    expect(out.toLowerCase()).to.include(`account #0: ${addressOfKey(first.privateKey).toString()}`);
    expect(out).to.not.include("Private Key");
    expect(out).to.not.include("publicly known");
    expect(out).to.not.include(Buffer.from(first.privateKey).toString("hex"));
  });

  it("takes Hardhat 3's options: --chain-id, and Evmos's flags in their kebab-case names", async () => {
    node = await startHardhat3Node(dir, {}, { chainId: 4242, jsonRpcApi: "eth,net" });
    expect((await rpc<string>(node.url, "eth_chainId")).result).to.equal("0x1092");
    expect(node.output()).to.include("Chain id 4242 (evmos_4242-1)");
    expect((await rpc<string>(node.url, "net_version")).result).to.equal("4242");
    // --json-rpc-api eth,net: the other namespaces are not served
    expect((await rpc(node.url, "web3_clientVersion")).error?.code).to.equal(-32601);
  });

  it("says what is wrong with a setting as Hardhat 3's plugin error, before starting", async () => {
    const bad = await runHardhat3Node(dir, {}, { stateInterval: "5" });
    expect(bad.code).to.equal(1);
    expect(bad.output).to.include("HardhatPluginError: --state-interval needs a file to write: --state FILE or --dump-state FILE");
    const noFork = await runHardhat3Node(dir, {}, { forkRest: "http://127.0.0.1:1" });
    expect(noFork.output).to.include("HardhatPluginError: --fork-rest needs a fork: --fork URL or epochs.network.forking");
  });
});

describe("Hardhat 3's network hooks (in-repo harness)", function () {
  this.timeout(120_000);

  it("answer a connection to the in-process network from the epochs chain: requests, epochs helpers, subscriptions, errors, close", async () => {
    buildDist();
    const dir = mkdtempSync(path.join(os.tmpdir(), "hh3-network-"));
    try {
      const paths = { root: dir, cache: path.join(dir, "cache"), artifacts: path.join(dir, "artifacts") };
      const env = { ...process.env, HH3_NETWORK: JSON.stringify({ dist: path.join(ROOT, "dist"), userConfig: {}, paths }) };
      const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(__dirname, "run-network.mjs")], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (c: Buffer) => (output += c.toString()));
        child.stderr.on("data", (c: Buffer) => (output += c.toString()));
        child.once("exit", (code) => resolve({ code, output }));
      });
      expect(result.code, result.output).to.equal(0);
      const steps = new Map(
        result.output
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { step: string; value: unknown })
          .map((s) => [s.step, s.value]),
      );
      // the chain's code loads for a connection to the in-process network, not for one to EDR
      expect(steps.get("chainFilesForEdr")).to.equal(0);
      expect(steps.get("chainFilesForOurs"), "the same probe sees them load").to.be.greaterThan(0);
      expect(steps.get("chainId")).to.equal("0x2328");
      expect(steps.get("clientVersion")).to.match(/^HardhatNetwork\/3\.0\.0\/hardhat-epochs\/\d+\.\d+\.\d+/);
      expect(steps.get("epochs")).to.deep.equal(["day", "week"]);
      const note = steps.get("notification") as { subscription: string; got: Array<[string, boolean, string]> };
      expect(note.got).to.deep.equal([["eth_subscription", true, "string"]]);
      // Hardhat 3's words for a failed call (src/host/solidity/failure-text.ts), with the chain's code
      expect(steps.get("revert")).to.deep.equal({ message: "VM Exception while processing transaction: reverted with reason string 'epochs precompile: unknown function selector'", code: 3 });
      // epochs:advance --identifier day --count 2: two epochs on, and the new number printed; --to-next day: one more
      const advance = steps.get("advance") as { printed: string[]; moved: string; toNext: string; both: string; warned: string[] };
      expect(advance.moved).to.equal("2");
      expect(advance.toNext).to.equal("1");
      expect(advance.printed).to.have.length(3);
      // the project's node runs: the in-process advance says it is not the node's
      expect(advance.warned).to.have.length(1);
      expect(advance.warned[0]).to.match(
        /^warning: epochs:advance moves this command's own in-process chain, which ends with it, not the node this project runs \(pid \d+, http:\/\/127\.0\.0\.1:18545\/\); to move the node's, add --network localhost$/,
      );
      expect(advance.printed[0]).to.match(/^day: current epoch \d+$/);
      expect(advance.both).to.equal("epochs:advance takes --to-next ID or --identifier ID, not both");
      expect(steps.get("closed")).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
