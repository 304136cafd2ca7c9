/**
 * `npx hardhat node --state FILE`: the state written at exit (and every --state-interval seconds)
 * is loaded by the next start, epochs records included; a bad file stops the start with a clear error.
 */
import { expect } from "chai";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, type Started, startHardhatNode, startNodeProcess, hardhatCli, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

describe("npx hardhat node --state", function () {
  this.timeout(120_000);
  let dir: string;
  let node: Started | undefined;
  const flags = ["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0"];

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "node-state-"));
  });
  afterEach(async () => {
    await stopProcessGroup(node?.child);
    node = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the state at exit and every --state-interval seconds; the next start loads it", async () => {
    const file = path.join(dir, "state.json");
    node = await startHardhatNode([...flags, "--state", file, "--state-interval", "1"]);
    const [from, to] = (await rpc<string[]>(node.url, "eth_accounts")).result as string[];
    await rpc(node.url, "eth_sendTransaction", [{ from, to, value: "0x1234" }]);
    await rpc(node.url, "evm_increaseTime", [86_400 * 8]);
    await rpc(node.url, "evm_mine");
    await rpc(node.url, "evm_mine");
    const before = {
      balance: (await rpc(node.url, "eth_getBalance", [to, "latest"])).result,
      block: (await rpc(node.url, "eth_blockNumber")).result,
      epochs: (await rpc(node.url, "epochs_epochInfos")).result,
    };
    // the interval writes while the node runs
    const deadline = Date.now() + 20_000;
    while (!existsSync(file) || !readFileSync(file, "utf8").includes(`"block_number":"${before.block as string}"`)) {
      if (Date.now() > deadline) throw new Error("no state file written by --state-interval");
      await new Promise((r) => setTimeout(r, 100));
    }
    await stopProcessGroup(node.child);
    expect(node.output()).to.include(`Wrote the state to ${file}`);
    node = await startHardhatNode([...flags, "--state", file]);
    await waitForOutput(node, `Loaded the state in ${file}`);
    expect((await rpc(node.url, "eth_getBalance", [to, "latest"])).result).to.equal(before.balance);
    expect((await rpc(node.url, "eth_blockNumber")).result).to.equal(before.block);
    expect((await rpc(node.url, "epochs_epochInfos")).result).to.deep.equal(before.epochs);
  });

  it("refuses a bad file with a message naming what is wrong, and does not start", async () => {
    const file = path.join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ accounts: { "0x12": {} } }));
    const err = await startNodeProcess(process.execPath, hardhatCli("node", ...flags, "--load-state", file), { cwd: ROOT }).then(
      (n) => {
        node = n;
        throw new Error("the node started");
      },
      (e: Error) => e,
    );
    expect(err.message).to.match(/invalid state dump: accounts\.0x12: not a 20-byte address/);
    const err2 = await startNodeProcess(process.execPath, hardhatCli("node", ...flags, "--state-interval", "5"), { cwd: ROOT }).catch((e: Error) => e);
    expect((err2 as Error).message).to.include("--state-interval needs a file to write");
  });

  it("refuses a file whose module records cannot be read, before its home changes", async () => {
    const home = path.join(dir, "home");
    node = await startHardhatNode([...flags, "--home", home]);
    await rpc(node.url, "evm_mine");
    await stopProcessGroup(node.child);
    node = undefined;
    // a dump whose epochs records are not EpochInfos
    const file = path.join(dir, "bad-records.json");
    const records = { "0x01646179": "0xdeadbeef" };
    writeFileSync(file, JSON.stringify({ accounts: {}, hardhat_epochs: { version: 1, chain_id: "9000", block_number: "0x5", timestamp: "0x0", modules: { epochs: records } } }));
    const err = await startNodeProcess(process.execPath, hardhatCli("node", ...flags, "--home", home, "--load-state", file), { cwd: ROOT }).then(
      (n) => {
        node = n;
        throw new Error("the node started");
      },
      (e: Error) => e,
    );
    expect(err.message).to.match(/invalid state dump: hardhat_epochs\.modules\.epochs\[0x01646179\]: not an EpochInfo record/);
    // the home is as it was: its chain at block 1, its epochs readable
    node = await startHardhatNode([...flags, "--home", home]);
    expect((await rpc(node.url, "eth_blockNumber")).result).to.equal("0x1");
    expect(((await rpc(node.url, "epochs_epochInfos")).result as { epochs: unknown[] }).epochs.length).to.be.greaterThan(0);
  });
});
