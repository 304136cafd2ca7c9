/**
 * Today's client libraries against the real server (HTTP and WebSocket on 127.0.0.1, port 0):
 * viem 2 and web3.js 4 through their everyday calls, including the ones that answered -32601 before
 * (eth_createAccessList, eth_simulateV1, eth_blobBaseFee, eth_pendingTransactions).
 */
import { expect } from "chai";
import { Web3, WebSocketProvider } from "web3";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { compile } from "../helpers/solc";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Counter {
  uint256 public count;
  event Bumped(address indexed by, uint256 count);
  function bump() external { count += 1; emit Bumped(msg.sender, count); }
  function fail() external pure { revert("nope"); }
}`;

const KEY1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"; // dev account 1

// viem's type declarations are ES modules only; its CommonJS build is what loads here, through import()
const loadViem = async () => ({ ...(await import("viem")), ...(await import("viem/accounts")) });
type Viem = Awaited<ReturnType<typeof loadViem>>;
const chain = { id: 9000, name: "hardhat-epochs", nativeCurrency: { name: "Evmos", symbol: "EVMOS", decimals: 18 }, rpcUrls: { default: { http: ["http://127.0.0.1"] } } } as const;
const abiText = ["function count() view returns (uint256)", "function bump()", "function fail()", "event Bumped(address indexed by, uint256 count)"] as const;
const makeAbi = (v: Viem) => v.parseAbi(abiText);
const makePub = (v: Viem, url: string) => v.createPublicClient({ chain, transport: v.http(url) });

describe("client libraries over HTTP and WebSocket", function () {
  this.timeout(120_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let httpUrl: string;
  let wsUrl: string;
  const counter = compile(SOURCE).Counter;
  let viem: Viem;
  let abi: ReturnType<typeof makeAbi>;
  let BUMP: `0x${string}`;

  before(async () => {
    viem = await loadViem();
    abi = makeAbi(viem);
    BUMP = viem.encodeFunctionData({ abi, functionName: "bump" });
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
    const { httpAddress } = await server.listen();
    httpUrl = `http://127.0.0.1:${httpAddress.port}/`;
    wsUrl = `ws://127.0.0.1:${httpAddress.port}/`;
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  describe("viem", () => {
    let pub: ReturnType<typeof makePub>;
    let counterAt: `0x${string}`;
    let account: ReturnType<Viem["privateKeyToAccount"]>;

    before(() => {
      account = viem.privateKeyToAccount(KEY1);
      pub = makePub(viem, httpUrl);
    });

    it("reads the chain", async () => {
      expect(await pub.getChainId()).to.equal(9000);
      const n = await pub.getBlockNumber();
      const block = await pub.getBlock({ blockNumber: n });
      expect(block.number).to.equal(n);
      expect(await pub.getBalance({ address: account.address })).to.equal(viem.parseEther("10000"));
      expect((await pub.getGasPrice()) > 0n).to.equal(true);
      const fees = await pub.estimateFeesPerGas();
      expect(fees.maxFeePerGas > 0n).to.equal(true);
      expect(await pub.getBlobBaseFee()).to.equal(1n);
      const history = await pub.getFeeHistory({ blockCount: 2, rewardPercentiles: [50] });
      expect(history.baseFeePerGas.length).to.be.greaterThan(0);
    });

    it("deploys, writes and reads a contract with a local account (raw transactions)", async () => {
      const wallet = viem.createWalletClient({ chain, account, transport: viem.http(httpUrl) });
      const hash = await wallet.deployContract({ abi, bytecode: counter.bytecode as `0x${string}` });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      expect(receipt.status).to.equal("success");
      counterAt = receipt.contractAddress as `0x${string}`;
      const tx = await wallet.writeContract({ address: counterAt, abi, functionName: "bump" });
      expect((await pub.waitForTransactionReceipt({ hash: tx })).status).to.equal("success");
      expect(await pub.readContract({ address: counterAt, abi, functionName: "count" })).to.equal(1n);
      const logs = await pub.getContractEvents({ address: counterAt, abi, eventName: "Bumped", fromBlock: 0n });
      expect(logs).to.have.length(1);
      expect(logs[0].args.by?.toLowerCase()).to.equal(account.address.toLowerCase());
      const sim = await pub.simulateContract({ address: counterAt, abi, functionName: "bump", account: account.address });
      expect(sim.request.functionName).to.equal("bump");
      const failed = await pub.simulateContract({ address: counterAt, abi, functionName: "fail", account: account.address }).catch((e: Error) => e);
      expect(String((failed as Error).message)).to.include("nope");
    });

    it("sends through the node's key (a JSON-RPC account) and estimates gas", async () => {
      const [addr] = (await pub.request({ method: "eth_accounts" } as never)) as `0x${string}`[];
      const wallet = viem.createWalletClient({ chain, account: addr, transport: viem.http(httpUrl) });
      const gas = await pub.estimateGas({ account: addr, to: account.address, value: 1n });
      expect(gas).to.equal(21000n);
      const hash = await wallet.sendTransaction({ to: account.address, value: 1n });
      expect((await pub.waitForTransactionReceipt({ hash })).status).to.equal("success");
    });

    it("creates access lists and simulates calls (eth_createAccessList, eth_simulateV1)", async () => {
      const list = await pub.createAccessList({ account: account.address, to: counterAt, data: BUMP });
      expect(list.accessList.some((e) => e.address.toLowerCase() === counterAt.toLowerCase() && e.storageKeys.length === 1)).to.equal(true);
      expect(list.gasUsed > 21000n).to.equal(true);
      const { results } = await pub.simulateCalls({
        account: account.address,
        calls: [
          { to: counterAt, abi, functionName: "bump" },
          { to: counterAt, abi, functionName: "count" },
          { to: counterAt, abi, functionName: "fail" },
        ],
      });
      expect(results[0].status).to.equal("success");
      expect(results[1].result).to.equal(2n); // sees the simulated bump
      expect(results[2].status).to.equal("failure");
      expect(await pub.readContract({ address: counterAt, abi, functionName: "count" })).to.equal(1n);
    });

    it("works over WebSocket, with a newHeads subscription", async () => {
      const ws = viem.createPublicClient({ chain, transport: viem.webSocket(wsUrl) });
      try {
        const before = await ws.getBlockNumber({ cacheTime: 0 });
        const seen = new Promise<bigint>((resolve) => {
          const stop = ws.watchBlockNumber({
            onBlockNumber: (n) => {
              stop();
              resolve(n);
            },
          });
        });
        // the subscription is set up in the background: mine until a block arrives
        let got: bigint | undefined;
        void seen.then((n) => (got = n));
        for (let i = 0; i < 100 && got === undefined; i++) {
          await pub.request({ method: "evm_mine" } as never);
          await new Promise((r) => setImmediate(r));
          await Promise.race([seen, new Promise((r) => setTimeout(r, 20))]);
        }
        expect((await seen) > before).to.equal(true);
        expect(await ws.getChainId()).to.equal(9000);
      } finally {
        await (ws.transport as unknown as { getRpcClient(): Promise<{ close(): void }> })
          .getRpcClient()
          .then((c) => c.close())
          .catch(() => undefined);
      }
    });
  });

  describe("web3.js", () => {
    it("reads, sends and deploys over HTTP", async () => {
      const web3 = new Web3(httpUrl);
      expect(await web3.eth.getChainId()).to.equal(9000n);
      const accounts = await web3.eth.getAccounts();
      expect(accounts).to.have.length(20);
      const start = await web3.eth.getBlockNumber();
      expect(typeof start).to.equal("bigint");
      expect(await web3.eth.getBalance(accounts[5])).to.equal(10_000n * 10n ** 18n);
      const receipt = await web3.eth.sendTransaction({ from: accounts[2], to: accounts[3], value: 1000n });
      expect(receipt.status).to.equal(1n);
      const tx = await web3.eth.getTransaction(receipt.transactionHash);
      expect(tx.value).to.equal(1000n);
      expect((await web3.eth.getBlock(receipt.blockNumber)).transactions).to.include(receipt.transactionHash);
      expect(await web3.eth.estimateGas({ from: accounts[2], to: accounts[3], value: 1n })).to.equal(21000n);
      expect((await web3.eth.getGasPrice()) > 0n).to.equal(true);
      const history = await web3.eth.getFeeHistory(2, "latest", [25, 75]);
      expect(history.baseFeePerGas.length).to.be.greaterThan(0);
      expect(await web3.eth.getPendingTransactions()).to.deep.equal([]);

      const contract = new web3.eth.Contract(counter.abi as never);
      const deployed = await contract.deploy({ data: counter.bytecode }).send({ from: accounts[2] });
      const at = deployed.options.address as string;
      await deployed.methods.bump().send({ from: accounts[2] });
      expect(await deployed.methods.count().call()).to.equal(1n);
      const logs = await web3.eth.getPastLogs({ address: at, fromBlock: 0 });
      expect(logs).to.have.length(1);
      const al = await web3.eth.createAccessList({ from: accounts[2], to: at, data: BUMP });
      expect(al.accessList?.length).to.be.greaterThan(0);
    });

    it("lists the node's pooled transactions (eth_pendingTransactions)", async () => {
      const web3 = new Web3(httpUrl);
      const accounts = await web3.eth.getAccounts();
      await runtime.dispatcher.call("miner_stop", [], { transport: "in-process", authenticated: true });
      let sent: Promise<unknown> | undefined;
      try {
        const hash = await new Promise<string>((resolve, reject) => {
          const p = web3.eth.sendTransaction({ from: accounts[4], to: accounts[5], value: 1n });
          sent = p.then((r) => r);
          p.on("transactionHash", (h) => resolve(h)).catch(reject);
        });
        const pending = await web3.eth.getPendingTransactions();
        expect(pending.map((t) => (t as { hash?: string }).hash)).to.deep.equal([hash]);
      } finally {
        await runtime.dispatcher.call("miner_start", [], { transport: "in-process", authenticated: true });
      }
      // its receipt arrives once mining resumes (web3.js polls for it)
      expect(((await sent) as { status: bigint }).status).to.equal(1n);
    });

    it("subscribes to new block headers over WebSocket", async () => {
      const provider = new WebSocketProvider(wsUrl);
      const web3 = new Web3(provider);
      try {
        expect(await web3.eth.getChainId()).to.equal(9000n);
        const sub = await web3.eth.subscribe("newBlockHeaders");
        const head = new Promise<{ number: bigint; hash: string }>((resolve) => sub.on("data", (h) => resolve(h as never)));
        await runtime.dispatcher.call("evm_mine", [], { transport: "in-process", authenticated: true });
        const got = await head;
        const block = await web3.eth.getBlock("latest");
        expect(got.hash).to.equal(block.hash);
        await sub.unsubscribe();
      } finally {
        provider.disconnect();
      }
    });
  });
});
