/**
 * `npx hardhat node --fork URL --fork-block-number N --fork-rest URL` as a real child process, and the
 * network helpers' `reset` against a remote, in-process. The remote is our own runtime behind a
 * server on 127.0.0.1 (port 0) with the epochs REST routes, its epochs genesis one "hour" timer.
 */
import { expect } from "chai";
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import hre from "hardhat";
import { reset } from "@nomicfoundation/hardhat-network-helpers";
import { newEpochInfo } from "../../src/epochs";
import { forkFromFlags, withFork } from "../../src/hardhat/fork";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { hardhatCli, ROOT, stopProcessGroup } from "../helpers/processes";
import { rpcResult } from "../helpers/json-rpc";

const DEV0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const OTHER = "0x4444444444444444444444444444444444444444";

const rpc = rpcResult;

interface RemoteNode {
  runtime: Runtime;
  server: JsonRpcServer;
  url: string;
}

async function startRemote(): Promise<RemoteNode> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { genesis: { epochs: [newEpochInfo("hour", 3600n)] } } });
  const server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
  runtime.mountRest(server.rest);
  const { httpAddress } = await server.listen();
  const url = `http://127.0.0.1:${httpAddress.port}/`;
  await rpc(url, "hardhat_setBalance", [OTHER, "0x1234"]);
  await rpc(url, "evm_mine");
  return { runtime, server, url };
}

function startNode(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, hardhatCli("node", ...args), {
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
      if (m !== null && /Forked chain/.test(out)) resolve({ child, url: m[1], output: () => out });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`node exited (${code}) before starting:\n${out}`)));
  });
}

describe("forking from the command line and the network helpers", function () {
  this.timeout(120_000);
  let remote: RemoteNode;
  let child: ChildProcess | undefined;

  before(async () => {
    remote = await startRemote();
  });

  after(async () => {
    await stopProcessGroup(child);
    await remote?.server.close();
    await remote?.runtime.close();
  });

  it("npx hardhat node --fork --fork-block-number --fork-rest: the remote's state, its epochs as genesis", async () => {
    const pinned = BigInt(await rpc<string>(remote.url, "eth_blockNumber"));
    const node = await startNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--fork", remote.url, "--fork-block-number", pinned.toString(), "--fork-rest", remote.url]);
    child = node.child;
    expect(node.output()).to.include(`Forked chain 9000 at block ${pinned}`);
    expect(BigInt(await rpc<string>(node.url, "eth_blockNumber"))).to.equal(pinned);
    expect(await rpc(node.url, "eth_getBalance", [OTHER, "latest"])).to.equal("0x1234");
    const infos = await rpc<{ epochs: Array<{ identifier: string }> }>(node.url, "epochs_epochInfos");
    expect(infos.epochs.map((e) => e.identifier)).to.deep.equal(["hour"]);
    await rpc(node.url, "evm_mine");
    expect(BigInt(await rpc<string>(node.url, "eth_blockNumber"))).to.equal(pinned + 1n);
    await stopProcessGroup(child);
    child = undefined;
  });

  it("refuses --fork-block-number without --fork and a --fork that is not an http URL", () => {
    expect(() => forkFromFlags(hre, undefined, 3)).to.throw("--fork-block-number needs --fork URL");
    expect(() => forkFromFlags(hre, "ws://127.0.0.1:1", undefined)).to.throw("expected an http:// or https:// JSON-RPC URL");
    expect(() => forkFromFlags(hre, "not a url", undefined)).to.throw('invalid --fork "not a url"');
    expect(() => forkFromFlags(hre, "http://127.0.0.1:1", -1)).to.throw("invalid --fork-block-number -1");
    expect(forkFromFlags(hre, "http://127.0.0.1:1", 7)).to.deep.include({ url: "http://127.0.0.1:1", blockNumber: 7n });
  });

  it("networks.hardhat.forking becomes the runtime's fork (enabled, pinned, headers), the command line wins", () => {
    const fakeHre = (forking: unknown) => ({ config: { paths: { cache: "/tmp/c" }, networks: { hardhat: { forking } } } }) as unknown as typeof hre;
    const base = { chain: {} as never, clientVersion: "x" };
    const out = withFork(base, fakeHre({ enabled: true, url: "http://127.0.0.1:9/", blockNumber: 12, httpHeaders: { "x-api-key": "k" } }));
    expect(out.fork).to.deep.equal({ url: "http://127.0.0.1:9/", blockNumber: 12n, httpHeaders: { "x-api-key": "k" }, cacheDir: path.join("/tmp/c", "hardhat-epochs-fork") });
    expect(out.forkCacheDir).to.equal(path.join("/tmp/c", "hardhat-epochs-fork"));
    expect(withFork(base, fakeHre({ enabled: false, url: "http://127.0.0.1:9/" })).fork).to.equal(undefined);
    expect(withFork(base, fakeHre(undefined)).fork).to.equal(undefined);
    const cli = { url: "http://127.0.0.1:8/" };
    expect(withFork({ ...base, fork: cli }, fakeHre({ enabled: true, url: "http://127.0.0.1:9/" })).fork).to.equal(cli);
  });

  it("the network helpers' reset(url, block) forks hre's chain, reset() returns it to a local one", async () => {
    const pinned = BigInt(await rpc<string>(remote.url, "eth_blockNumber"));
    try {
      await reset(remote.url, pinned);
      expect(await hre.network.provider.request({ method: "eth_getBalance", params: [OTHER, "latest"] })).to.equal("0x1234");
      const meta = (await hre.network.provider.request({ method: "hardhat_metadata" })) as { forkedNetwork?: { forkBlockNumber: number } };
      expect(meta.forkedNetwork?.forkBlockNumber).to.equal(Number(pinned));
      // a transaction on the fork, from a dev account (funded by the local config)
      await hre.network.provider.request({ method: "eth_sendTransaction", params: [{ from: DEV0, to: OTHER, value: "0x1" }] });
      expect(await hre.network.provider.request({ method: "eth_getBalance", params: [OTHER, "latest"] })).to.equal("0x1235");
      expect(await rpc(remote.url, "eth_getBalance", [OTHER, "latest"])).to.equal("0x1234");
    } finally {
      await reset();
    }
    expect(await hre.network.provider.request({ method: "eth_blockNumber" })).to.equal("0x0");
    expect(await hre.network.provider.request({ method: "eth_getBalance", params: [OTHER, "latest"] })).to.equal("0x0");
  });
});
