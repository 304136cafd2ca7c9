/**
 * Forking against a second node started here (our own runtime behind an HTTP server on 127.0.0.1,
 * port 0). The remote's requests are counted through its onRequest hook (each batch member counts).
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Interface } from "ethers";
import { type Harness, inProcess, rpcError } from "../../helpers/harness";
import { serveHttp } from "../../helpers/http";
import { compile } from "../../helpers/solc";
import { LevelKV } from "../../../src/storage/level-kv";

const TOKEN_SOURCE = fs.readFileSync(path.join(__dirname, "../../../contracts/test/Token.sol"), "utf8");
const token = compile(TOKEN_SOURCE).Token;
const erc20 = new Interface(token.abi as never);

const DEV0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const HOLDER = "0x1111111111111111111111111111111111111111";
const EMPTY = "0x2222222222222222222222222222222222222222";
const hexN = (n: bigint) => `0x${n.toString(16)}`;

interface Remote {
  h: Harness;
  requests: string[];
  tokenAddress: string;
  /** The block the tests fork at. */
  pinned: bigint;
}

async function send(h: Harness, tx: Record<string, unknown>): Promise<{ contractAddress: string | null; status: string }> {
  const hash = await h.request<string>("eth_sendTransaction", [tx]);
  return h.request("eth_getTransactionReceipt", [hash]);
}

/** A remote with a token, a holder and some ether, then more blocks after the pinned one that change them. */
async function startRemote(): Promise<Remote> {
  const requests: string[] = [];
  const h = await serveHttp({ onRequest: (m) => requests.push(m) });
  const deployed = await send(h, { from: DEV0, data: `${token.bytecode}${erc20.encodeDeploy(["Forked", "FRK", 10n ** 24n]).slice(2)}` });
  const tokenAddress = deployed.contractAddress as string;
  await send(h, { from: DEV0, to: tokenAddress, data: erc20.encodeFunctionData("transfer", [HOLDER, 5000n]) });
  await send(h, { from: DEV0, to: HOLDER, value: hexN(10n ** 18n) });
  const pinned = BigInt(await h.request<string>("eth_blockNumber"));
  // after the pinned block: the remote moves on, the fork must not see it
  await send(h, { from: DEV0, to: tokenAddress, data: erc20.encodeFunctionData("transfer", [HOLDER, 1n]) });
  await send(h, { from: DEV0, to: HOLDER, value: "0x1" });
  return { h, requests, tokenAddress, pinned };
}

function tmpCache(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "fork-cache-"));
}

async function balanceOf(h: Harness, tokenAddress: string, who: string, block: string = "latest"): Promise<bigint> {
  return BigInt(await h.request<string>("eth_call", [{ to: tokenAddress, data: erc20.encodeFunctionData("balanceOf", [who]) }, block]));
}

describe("forking a remote node", function () {
  this.timeout(120_000);
  let remote: Remote;
  let cacheDir: string;
  let local: Harness;

  before(async () => {
    remote = await startRemote();
    cacheDir = tmpCache();
    local = await inProcess({ fork: { url: remote.h.url as string, blockNumber: remote.pinned, cacheDir } });
  });

  after(async () => {
    await local?.close();
    await remote?.h.close();
  });

  it("reads balance, nonce, code, storage and an ERC20 balanceOf as the remote has them at the pinned block", async () => {
    const at = hexN(remote.pinned);
    for (const [method, params] of [
      ["eth_getBalance", [HOLDER]],
      ["eth_getTransactionCount", [DEV0]],
      ["eth_getCode", [remote.tokenAddress]],
      ["eth_getStorageAt", [remote.tokenAddress, "0x3"]],
      ["eth_getStorageAt", [remote.tokenAddress, "0x0"]],
    ] as const) {
      const want = await remote.h.request(method, [...params, at]);
      const got = await local.request(method, [...params, "latest"]);
      expect(got, `${method} ${params.join(" ")}`).to.equal(want);
    }
    expect(await balanceOf(local, remote.tokenAddress, HOLDER)).to.equal(5000n);
    expect(await balanceOf(remote.h, remote.tokenAddress, HOLDER, at)).to.equal(5000n);
    // the remote moved on after the pinned block; the fork did not
    expect(await balanceOf(remote.h, remote.tokenAddress, HOLDER)).to.equal(5001n);
  });

  it("continues the remote's chain: first block = the fork block (its hash), the next names it as parent", async () => {
    const remoteBlock = await remote.h.request<{ hash: string; timestamp: string }>("eth_getBlockByNumber", [hexN(remote.pinned), false]);
    expect(BigInt(await local.request<string>("eth_blockNumber"))).to.equal(remote.pinned);
    const first = await local.request<{ hash: string; timestamp: string }>("eth_getBlockByNumber", [hexN(remote.pinned), false]);
    expect(first.hash).to.equal(remoteBlock.hash);
    expect(first.timestamp).to.equal(remoteBlock.timestamp);
    await local.request("evm_mine");
    const next = await local.request<{ parentHash: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(BigInt(next.number)).to.equal(remote.pinned + 1n);
    expect(next.parentHash).to.equal(remoteBlock.hash);
    const meta = await local.request<{ forkedNetwork: { chainId: number; forkBlockNumber: number; forkBlockHash: string } }>("hardhat_metadata");
    expect(meta.forkedNetwork).to.deep.equal({ chainId: 9000, forkBlockNumber: Number(remote.pinned), forkBlockHash: remoteBlock.hash });
  });

  it("answers what a forked chain cannot: eth_getProof, calls and replays below the fork block; feeHistory starts at the fork block", async () => {
    const proof = await rpcError(local.request("eth_getProof", [HOLDER, [], "latest"]));
    expect(proof.code).to.equal(-32000);
    expect(proof.message).to.include("forked chain");
    const call = await rpcError(local.request("eth_call", [{ to: remote.tokenAddress, data: erc20.encodeFunctionData("totalSupply") }, hexN(remote.pinned - 1n)]));
    expect(call.message).to.include(`below the fork block ${remote.pinned}`);
    let trace = "";
    await local.runtime.node.replayBlock(remote.pinned).catch((err: Error) => (trace = err.message));
    expect(trace).to.include("not traceable");
    const fees = await local.request<{ oldestBlock: string; baseFeePerGas: string[] }>("eth_feeHistory", ["0x40", "latest"]);
    expect(BigInt(fees.oldestBlock)).to.equal(remote.pinned);
    expect(fees.baseFeePerGas.length).to.be.greaterThan(1);
  });

  it("reads older blocks' state from the remote", async () => {
    const older = hexN(remote.pinned - 1n);
    expect(await local.request("eth_getBalance", [HOLDER, older])).to.equal(await remote.h.request("eth_getBalance", [HOLDER, older]));
    expect(await local.request("eth_getTransactionCount", [DEV0, older])).to.equal(await remote.h.request("eth_getTransactionCount", [DEV0, older]));
  });

  it("a local transaction changes only the local view; a slot set to zero stays zero", async () => {
    await local.request("hardhat_impersonateAccount", [HOLDER]);
    // the holder sends its whole token balance: its slot becomes zero locally, not the remote's 5000 again
    await send(local, { from: HOLDER, to: remote.tokenAddress, data: erc20.encodeFunctionData("transfer", [EMPTY, 5000n]) });
    expect(await balanceOf(local, remote.tokenAddress, HOLDER)).to.equal(0n);
    expect(await balanceOf(local, remote.tokenAddress, EMPTY)).to.equal(5000n);
    await local.request("evm_mine");
    expect(await balanceOf(local, remote.tokenAddress, HOLDER)).to.equal(0n);
    expect(await balanceOf(remote.h, remote.tokenAddress, HOLDER, hexN(remote.pinned))).to.equal(5000n);
    expect(await balanceOf(remote.h, remote.tokenAddress, EMPTY)).to.equal(0n);
  });

  it("an impersonated remote contract sends a transaction (EIP-3607 exception on the forked state)", async () => {
    await local.request("hardhat_impersonateAccount", [remote.tokenAddress]);
    await local.request("hardhat_setBalance", [remote.tokenAddress, hexN(10n ** 18n)]);
    const receipt = await send(local, { from: remote.tokenAddress, to: EMPTY, value: "0x5" });
    expect(receipt.status).to.equal("0x1");
    // its code is still the remote's
    expect(await local.request("eth_getCode", [remote.tokenAddress])).to.equal(await remote.h.request("eth_getCode", [remote.tokenAddress, hexN(remote.pinned)]));
    await local.request("hardhat_stopImpersonatingAccount", [remote.tokenAddress]);
  });

  it("snapshots revert the local changes and keep the forked state", async () => {
    const id = await local.request<string>("evm_snapshot");
    await local.request("hardhat_setBalance", [HOLDER, "0x7"]);
    await send(local, { from: DEV0, to: remote.tokenAddress, data: erc20.encodeFunctionData("transfer", [HOLDER, 9n]) });
    expect(await local.request("eth_getBalance", [HOLDER])).to.equal("0x7");
    expect(await balanceOf(local, remote.tokenAddress, HOLDER)).to.equal(9n);
    expect(await local.request("evm_revert", [id])).to.equal(true);
    expect(await balanceOf(local, remote.tokenAddress, HOLDER)).to.equal(0n);
    expect(await local.request("eth_getBalance", [HOLDER])).to.not.equal("0x7");
  });

  it("runs the epochs module above the fork (genesis at the fork block)", async () => {
    const infos = await local.request<{ epochs: Array<{ identifier: string; current_epoch_start_height: string }> }>("epochs_epochInfos");
    expect(infos.epochs.map((e) => e.identifier)).to.include("week");
    for (const e of infos.epochs) expect(BigInt(e.current_epoch_start_height)).to.be.gte(remote.pinned);
  });

  it("a restart with the cache reads nothing remote", async () => {
    const warm = await inProcess({ fork: { url: remote.h.url as string, blockNumber: remote.pinned, cacheDir } });
    await warm.request("eth_getBalance", [HOLDER]); // make sure the first run's cache is on disk before counting
    await warm.close();
    await local.close();
    const before = remote.requests.length;
    const again = await inProcess({ fork: { url: remote.h.url as string, blockNumber: remote.pinned, cacheDir } });
    try {
      expect(await balanceOf(again, remote.tokenAddress, HOLDER)).to.equal(5000n);
      expect(await again.request("eth_getBalance", [HOLDER])).to.equal(await remote.h.request("eth_getBalance", [HOLDER, hexN(remote.pinned)]));
      const counted = remote.requests.length - 1; // the comparison's own request above
      expect(counted - before, remote.requests.slice(before).join(",")).to.equal(0);
    } finally {
      await again.close();
    }
    local = await inProcess({ fork: { url: remote.h.url as string, blockNumber: remote.pinned, cacheDir } });
  });

  it("hardhat_reset forks another block, or stops forking", async () => {
    const older = remote.pinned - 1n;
    expect(await local.request("hardhat_reset", [{ forking: { jsonRpcUrl: remote.h.url, blockNumber: Number(older) } }])).to.equal(true);
    expect(BigInt(await local.request<string>("eth_blockNumber"))).to.equal(older);
    expect(await local.request("eth_getBalance", [HOLDER])).to.equal(await remote.h.request("eth_getBalance", [HOLDER, hexN(older)]));
    const meta = await local.request<{ forkedNetwork?: { forkBlockNumber: number } }>("hardhat_metadata");
    expect(meta.forkedNetwork?.forkBlockNumber).to.equal(Number(older));
    expect(await local.request("hardhat_reset", [])).to.equal(true);
    expect(await local.request("eth_blockNumber")).to.equal("0x0");
    expect(await local.request("eth_getCode", [remote.tokenAddress])).to.equal("0x");
    expect((await local.request<{ forkedNetwork?: unknown }>("hardhat_metadata")).forkedNetwork).to.equal(undefined);
    await local.request("hardhat_reset", [{ forking: { jsonRpcUrl: remote.h.url, blockNumber: Number(remote.pinned) } }]);
    expect(await balanceOf(local, remote.tokenAddress, HOLDER)).to.equal(5000n);
  });

  it("hardhat_reset refuses bad options with -32602 and an unreachable remote with -32000, leaving the chain as it was", async () => {
    const head = await local.request("eth_blockNumber");
    for (const bad of [{ forking: { blockNumber: 1 } }, { forking: { jsonRpcUrl: remote.h.url, blockNumber: -1 } }, { forking: { jsonRpcUrl: remote.h.url, block: 1 } }, { fork: {} }, 7]) {
      const err = await rpcError(local.request("hardhat_reset", [bad]));
      expect(err.code, JSON.stringify(bad)).to.equal(-32602);
    }
    const err = await rpcError(local.request("hardhat_reset", [{ forking: { jsonRpcUrl: "http://127.0.0.1:1/" } }]));
    expect(err.code).to.equal(-32000);
    expect(err.message).to.include("http://127.0.0.1:1/");
    const future = await rpcError(local.request("hardhat_reset", [{ forking: { jsonRpcUrl: remote.h.url, blockNumber: 10_000 } }]));
    expect(future.message).to.match(/fork block 10000 is in the future/);
    expect(await local.request("eth_blockNumber")).to.equal(head);
  });

  it("a forked chain in a data directory restarts on its fork, refuses another fork and hardhat_reset", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fork-home-"));
    const open = async (block: bigint) => inProcess({ kv: await LevelKV.open(dir), fork: { url: remote.h.url as string, blockNumber: block, cacheDir } });
    let h = await open(remote.pinned);
    await h.request("hardhat_setBalance", [EMPTY, "0x99"]);
    await h.request("evm_mine");
    const reset = await rpcError(h.request("hardhat_reset", []));
    expect(reset.message).to.include("hardhat_reset needs an in-memory chain");
    await h.close();
    h = await open(remote.pinned);
    try {
      expect(await h.request("eth_getBalance", [EMPTY])).to.equal("0x99");
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(remote.pinned + 1n);
      expect(await balanceOf(h, remote.tokenAddress, HOLDER)).to.equal(5000n);
    } finally {
      await h.close();
    }
    let message = "";
    await open(remote.pinned - 1n).catch((err: Error) => (message = err.message));
    expect(message).to.include(`holds a fork of chain 9000 at block ${remote.pinned}`);
    message = "";
    await (async () => inProcess({ kv: await LevelKV.open(dir) }))().catch((err: Error) => (message = err.message));
    expect(message).to.include("start it with that fork");
  });

  it("a fork that cannot be opened releases the data directory it was given: the next start opens it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fork-home-"));
    try {
      // nothing listens on port 1: the remote's block cannot be read, the start fails
      let message = "";
      await (async () => inProcess({ kv: await LevelKV.open(dir), fork: { url: "http://127.0.0.1:1/", timeoutMs: 2000 } }))().catch((err: Error) => (message = err.message));
      expect(message).to.include("http://127.0.0.1:1/");
      // the same directory opens again in this process (a leaked handle: "in use by another running node")
      const h = await inProcess({ kv: await LevelKV.open(dir) });
      try {
        await h.request("evm_mine");
        expect(await h.request("eth_blockNumber")).to.equal("0x1");
      } finally {
        await h.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a remote that dies mid-run: reads it would need answer a clear error naming its URL, the node keeps serving", async () => {
    const dying = await startRemote();
    const url = dying.h.url as string;
    const h = await inProcess({ fork: { url, blockNumber: dying.pinned } });
    try {
      expect(await h.request("eth_getBalance", [HOLDER])).to.equal(await dying.h.request("eth_getBalance", [HOLDER, hexN(dying.pinned)]));
      await h.request("evm_mine");
      await dying.h.close();
      const cold = "0x3333333333333333333333333333333333333333";
      for (const [method, params] of [
        ["eth_getBalance", [cold]],
        ["eth_call", [{ to: dying.tokenAddress, data: erc20.encodeFunctionData("balanceOf", [cold]) }]],
      ] as const) {
        const err = await rpcError(h.request(method, [...params]));
        expect(err.code).to.equal(-32000);
        expect(err.message).to.include(url);
      }
      // what was read before still answers, and blocks are still made
      expect(BigInt(await h.request<string>("eth_getBalance", [HOLDER]))).to.equal(10n ** 18n);
      await h.request("evm_mine");
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(dying.pinned + 2n);
      // a transaction that needs the remote: no block is made, the pool does not keep it, mining goes on
      const tx = await rpcError(h.request("eth_sendTransaction", [{ from: DEV0, to: cold, value: "0x1" }]));
      expect(tx.code).to.equal(-32000);
      expect(tx.message).to.include(url);
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(dying.pinned + 2n);
      expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
      await h.request("evm_mine");
      expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(dying.pinned + 3n);
    } finally {
      await h.close();
    }
  });
});
