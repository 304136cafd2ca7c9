/**
 * `npx hardhat node --home DIR` end to end: a Cosmos genesis.json, app.toml created and read, epochs
 * ticking as blocks are mined, the epoch tasks against the running node, REST, and a restart that
 * resumes at the last committed block.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hardhatCli, ROOT, type Started, freePort, startHardhatNode, stopProcessGroup } from "../helpers/processes";
import { rpcResult } from "../helpers/json-rpc";

describe("npx hardhat node --home", function () {
  this.timeout(120_000);
  let home: string;
  let port: number;
  let node: Started | undefined;
  let url: string;
  const rpc = <T>(method: string, params: unknown[] = []): Promise<T> => rpcResult<T>(url, method, params);
  const genesisTime = Math.floor(Date.now() / 1000) - 100;

  before(async () => {
    home = mkdtempSync(path.join(tmpdir(), "epochs-home-"));
    mkdirSync(path.join(home, "config"));
    writeFileSync(
      path.join(home, "config", "genesis.json"),
      JSON.stringify({
        genesis_time: new Date(genesisTime * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
        chain_id: "evmos_9001-2",
        app_state: {
          epochs: {
            epochs: [
              {
                identifier: "week",
                start_time: "0001-01-01T00:00:00Z",
                duration: "604800s",
                current_epoch: "0",
                current_epoch_start_time: "0001-01-01T00:00:00Z",
                epoch_counting_started: false,
                current_epoch_start_height: "0",
              },
              { identifier: "fast", duration: "5s" },
            ],
          },
        },
      }),
    );
    port = await freePort();
    url = `http://127.0.0.1:${port}/`;
  });
  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(home, { recursive: true, force: true });
  });

  it("starts from a Cosmos genesis.json and creates app.toml, the data dir and the token", async () => {
    node = await startHardhatNode(["--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"]);
    expect(await rpc("eth_chainId")).to.equal("0x2329");
    expect(existsSync(path.join(home, "config", "app.toml"))).to.equal(true);
    expect(readFileSync(path.join(home, "config", "app.toml"), "utf8")).to.match(/\[json-rpc\]/);
    expect(statSync(path.join(home, "jsonrpc.token")).mode & 0o777).to.equal(0o600);
    expect(statSync(path.join(home, "keystore")).mode & 0o777).to.equal(0o700);
    const genesis = await rpc<{ timestamp: string }>("eth_getBlockByNumber", ["0x0", false]);
    expect(Number(genesis.timestamp)).to.equal(genesisTime);
  });

  it("ticks epochs as blocks are mined", async () => {
    for (let i = 0; i < 6; i++) {
      await rpc("evm_increaseTime", [3]);
      await rpc("evm_mine");
    }
    const fast = BigInt((await rpc<{ current_epoch: string }>("epochs_currentEpoch", ["fast"])).current_epoch);
    // exactly as many epochs as the blocks started: each start is an epoch_start event of "fast"
    const head = BigInt(await rpc<string>("eth_blockNumber"));
    let starts = 0n;
    for (let n = 1n; n <= head; n++) {
      const ev = await rpc<{ begin_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>("epochs_blockEvents", [`0x${n.toString(16)}`]);
      starts += BigInt(ev.begin_block_events.filter((e) => e.type === "epoch_start" && e.attributes.some((a) => a.key === "identifier" && a.value === "fast")).length);
    }
    expect(fast).to.equal(starts);
    expect(fast).to.be.greaterThanOrEqual(2n);
    const rest = await (await fetch(`${url}evmos/epochs/v1/current_epoch?identifier=week`)).json();
    expect(rest).to.deep.equal({ current_epoch: "1" });
  });

  it("answers the epoch tasks with --network localhost", () => {
    const env = { ...process.env, HARDHAT_EPOCHS_LOCALHOST_URL: url };
    const list = spawnSync(process.execPath, hardhatCli("epochs:list", "--network", "localhost"), { cwd: ROOT, env, encoding: "utf8" });
    expect(list.status, list.stderr).to.equal(0);
    expect(list.stdout).to.match(/^fast\s+5s\s+\d+/m);
    expect(list.stdout).to.match(/^week\s+604800s\s+1\s/m);
    const current = spawnSync(process.execPath, hardhatCli("epochs:current", "--identifier", "week", "--network", "localhost"), { cwd: ROOT, env, encoding: "utf8" });
    expect(current.stdout.trim()).to.equal("week: current epoch 1");
    // the running node's week moved on from the command line (through its dev methods, with the project's token)
    const advance = spawnSync(process.execPath, hardhatCli("epochs:advance", "--identifier", "week", "--network", "localhost"), { cwd: ROOT, env, encoding: "utf8" });
    expect(advance.status, advance.stderr + advance.stdout).to.equal(0);
    expect(advance.stdout.trim()).to.equal("week: current epoch 2");
    const after = spawnSync(process.execPath, hardhatCli("epochs:current", "--identifier", "week", "--network", "localhost"), { cwd: ROOT, env, encoding: "utf8" });
    expect(after.stdout.trim()).to.equal("week: current epoch 2");
    const rest = spawnSync(process.execPath, hardhatCli("epochs:current", "--identifier", "nope", "--rest", url), { cwd: ROOT, env, encoding: "utf8" });
    expect(rest.status).to.not.equal(0);
    expect(rest.stderr + rest.stdout).to.include("epoch info not found: nope");
  });

  it("resumes at the last committed block after a restart", async () => {
    const head = await rpc<{ number: string; hash: string; stateRoot: string }>("eth_getBlockByNumber", ["latest", false]);
    const fast = await rpc("epochs_currentEpoch", ["fast"]);
    await stopProcessGroup(node?.child);
    node = await startHardhatNode(["--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"]);
    const again = await rpc<{ number: string; hash: string; stateRoot: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(again).to.deep.include({ number: head.number, hash: head.hash, stateRoot: head.stateRoot });
    expect(await rpc("epochs_currentEpoch", ["fast"])).to.deep.equal(fast);
    await rpc("evm_mine");
    expect(BigInt(await rpc<string>("eth_blockNumber"))).to.equal(BigInt(head.number) + 1n);
  });

  it("refuses to start with a malformed app.toml, naming the file and the key", async () => {
    await stopProcessGroup(node?.child);
    node = undefined;
    const file = path.join(home, "config", "app.toml");
    writeFileSync(file, readFileSync(file, "utf8").replace("filter-cap = 200", 'filter-cap = "lots"'));
    const r = spawnSync(process.execPath, hardhatCli("node", "--home", home, "--port", String(port)), { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(r.status).to.not.equal(0);
    expect(r.stderr + r.stdout).to.include(`${file}: json-rpc.filter-cap: expected a non-negative integer`);
  });
});
