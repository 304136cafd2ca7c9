/**
 * `npx hardhat node` smoke test: a real child process on a free port, Evmos's dotted flags on its
 * command line, JSON-RPC over HTTP. The child runs in its own process group, which is always killed.
 */
import { expect } from "chai";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Interface } from "ethers";
import { inProcess, rpcError } from "../helpers/harness";
import { compile } from "../helpers/solc";
import { BOOTSTRAP, ROOT, hardhatCli, stopProcessGroup } from "../helpers/processes";
import { NODE_RECORD_FILE_NAME } from "../../src/hardhat/chain-config";
import { rpc } from "../helpers/json-rpc";

interface StartedNode {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the node and resolves with its HTTP URL once the banner is printed. */
function startNode(args: string[]): Promise<StartedNode> {
  const child = spawn(process.execPath, [BOOTSTRAP, "node", ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/\S+)/.exec(out);
      if (m !== null) resolve({ child, url: m[1], output: () => out });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`node exited (${code}) before starting:\n${out}`)));
  });
}

/** Kills the child's whole process group and waits for it to exit. */
/** Waits until the node's output matches (the banner arrives in several chunks). */
async function waitForOutput(node: StartedNode, re: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!re.test(node.output())) {
    if (Date.now() > deadline) throw new Error(`no ${re} in the node's output:\n${node.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("npx hardhat node", function () {
  this.timeout(60_000);
  let node: StartedNode | undefined;

  after(async () => stopProcessGroup(node?.child));

  it("starts on a free port with Evmos's flags and answers JSON-RPC over HTTP", async () => {
    node = await startNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--json-rpc.api", "eth,net,web3", "--json-rpc.enable=true", "--minimum-gas-prices", "50000000000aevmos"]);
    expect(node.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await waitForOutput(node, /Account #19: /);
    expect(node.output()).to.include("Account #0: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000 ETH)");
    expect(node.output()).to.include("Private Key: 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");

    expect((await rpc(node.url, "eth_chainId")).result).to.equal("0x2328");
    expect((await rpc(node.url, "net_version")).result).to.equal("9000");
    // --minimum-gas-prices refuses what pays less, with the text app.toml's setting and miner_setGasPrice give
    const cheap = await rpc(node.url, "eth_sendTransaction", [
      { from: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", to: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", gas: "0x5208", gasPrice: "0x3b9aca00" },
    ]);
    expect(cheap.error).to.deep.include({ code: -32000, message: "insufficient fee; got: 21000000000000aevmos required: 1050000000000000aevmos" });
    // --json-rpc.api narrowed the namespaces: evm_* answers like an unknown method.
    expect((await rpc(node.url, "evm_mine")).error?.code).to.equal(-32601);

    // The second WebSocket listener (--json-rpc.ws-address) and the bearer token are announced.
    await waitForOutput(node, /WebSocket JSON-RPC server at ws:\/\/127\.0\.0\.1:\d+\//);
    await waitForOutput(node, /Bearer token in .*jsonrpc\.token:/);
    // the page's address, and why the timers stand still on a node that mines only for transactions
    expect(node.output()).to.include(`Epochs page: ${node.url}epochs\n`);
    expect(node.output()).to.include("Blocks are mined only when a transaction arrives: epoch timers move with blocks, so they wait too. For blocks over time start with --block-time S");
    await waitForOutput(node, /dev methods \(.*\) and signing with a key-store account are open from this machine to callers without an Origin and to pages from localhost, 127\.0\.0\.1, \[::1\];/);
    await waitForOutput(node, /private methods \(admin_\*, miner_\*, .*\) and JavaScript tracers always need the token\./);
    // the plugin's header goes only to this node: its pid and ports are recorded beside the token
    const record = JSON.parse(readFileSync(path.join(ROOT, "cache", NODE_RECORD_FILE_NAME), "utf8")) as { pid: number; ports: number[] };
    expect(record.ports).to.include(Number(new URL(node.url).port));

    // Each request's method is logged, one line each, as Hardhat's node does.
    await waitForOutput(node, /^eth_chainId$/m);
    await waitForOutput(node, /^net_version$/m);
  });

  it("epochs:advance without --network while the node runs: moves its own in-process chain, and says so", () => {
    const r = spawnSync(process.execPath, hardhatCli("epochs:advance", "--identifier", "day"), { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    expect(r.stdout).to.match(/^day: current epoch \d+$/m);
    const port = new URL((node as StartedNode).url).port;
    expect(r.stderr).to.include(
      `warning: epochs:advance moves this command's own in-process chain, which ends with it, not the node this project runs (pid ${node?.child.pid}, http://127.0.0.1:${port}/); to move the node's, add --network localhost`,
    );
  });

  it("stops on SIGTERM to its process group, and removes its record", async () => {
    const child = node?.child;
    await stopProcessGroup(child);
    expect(child?.exitCode !== null || child?.signalCode !== null).to.equal(true);
    expect(existsSync(path.join(ROOT, "cache", NODE_RECORD_FILE_NAME))).to.equal(false);
  });

  it("epochs:advance with no node of the project running: no warning", () => {
    const r = spawnSync(process.execPath, hardhatCli("epochs:advance", "--identifier", "day"), { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    expect(r.stderr).to.not.include("warning: epochs:advance");
  });
});

describe("npx hardhat node: sending as evmosd answers, and the node's log", function () {
  this.timeout(90_000);
  let node: StartedNode | undefined;
  after(async () => stopProcessGroup(node?.child));
  const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Talker {
  function say() external view returns (bool ok) { (ok, ) = address(0x000000000000000000636F6e736F6c652e6c6f67).staticcall(abi.encodeWithSignature("log(string)", "hello from the node")); }
  function boom() external pure { revert("boom"); }
}`;
  const talker = compile(SOURCE).Talker;
  const iface = new Interface(talker.abi as never);

  it("answers a reverting transaction with its hash and mines it with status 0, while the in-process network throws as Hardhat does", async () => {
    node = await startNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0"]);
    const from = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    const deploy = (await rpc(node.url, "eth_sendTransaction", [{ from, data: talker.bytecode }])).result as string;
    const address = ((await rpc(node.url, "eth_getTransactionReceipt", [deploy])).result as { contractAddress: string }).contractAddress;
    const sent = await rpc(node.url, "eth_sendTransaction", [{ from, to: address, data: iface.encodeFunctionData("boom") }]);
    expect(sent.error).to.equal(undefined);
    const receipt = (await rpc(node.url, "eth_getTransactionReceipt", [sent.result])).result as { status: string };
    expect(receipt.status).to.equal("0x0");

    const h = await inProcess();
    try {
      const [account] = await h.request<string[]>("eth_accounts");
      const d = await h.request<string>("eth_sendTransaction", [{ from: account, data: talker.bytecode }]);
      const at = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [d])).contractAddress;
      const err = await rpcError(h.request("eth_sendTransaction", [{ from: account, to: at, data: iface.encodeFunctionData("boom") }]));
      // Hardhat's words (no JSON-RPC code on a Solidity failure, as on EDR), the revert data kept
      expect(err.message).to.equal("VM Exception while processing transaction: reverted with reason string 'boom'");
      expect(err.data).to.match(/^0x08c379a0/);
    } finally {
      await h.close();
    }
  });

  it("prints console.log lines under the request that ran them", async () => {
    if (node === undefined) node = await startNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0"]);
    const from = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    const deploy = (await rpc(node.url, "eth_sendTransaction", [{ from, data: talker.bytecode }])).result as string;
    const address = ((await rpc(node.url, "eth_getTransactionReceipt", [deploy])).result as { contractAddress: string }).contractAddress;
    const said = (await rpc(node.url, "eth_sendTransaction", [{ from, to: address, data: iface.encodeFunctionData("say") }])).result as string;
    // under the transaction's section (Talker is no artifact of the project: the section starts at its hash)
    await waitForOutput(node, new RegExp(`^eth_sendTransaction\\n {2}Transaction: +${said}\\n(?: {2}.*\\n){5}\\n {2}console\\.log:\\n {4}hello from the node$`, "m"));
    await rpc(node.url, "eth_call", [{ to: address, data: iface.encodeFunctionData("say") }]);
    await waitForOutput(node, /^eth_call\n {2}console\.log:\n {4}hello from the node$/m);
  });
});
