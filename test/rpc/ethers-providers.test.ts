/**
 * The server as ethers v6 users reach it: JsonRpcProvider over HTTP and WebSocketProvider over WS
 * (ethers' own polling, filters and eth_subscribe paths), against a real server on 127.0.0.1.
 */
import { expect } from "chai";
import { Contract, JsonRpcProvider, Wallet, WebSocketProvider, parseEther } from "ethers";
import { compile } from "../helpers/solc";
import type { Harness } from "../helpers/harness";
import { serveHttp } from "../helpers/http";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Greeter { string public greeting = "hi"; event Greeted(address indexed by, string text);
  function greet(string calldata text) external { greeting = text; emit Greeted(msg.sender, text); } }`;

describe("ethers providers against the server", function () {
  this.timeout(60_000);
  let h: Harness;
  let http: JsonRpcProvider;
  let ws: WebSocketProvider;
  const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

  before(async () => {
    h = await serveHttp();
    // cacheTimeout -1: ethers otherwise answers an identical request from a 250 ms cache (a stale nonce)
    http = new JsonRpcProvider(h.url, undefined, { staticNetwork: true, polling: true, pollingInterval: 50, cacheTimeout: -1 });
    ws = new WebSocketProvider(h.url!.replace("http", "ws"));
  });
  after(async () => {
    http.destroy();
    await ws.destroy();
    await h.close();
  });

  it("reads the chain and sends a signed transfer over HTTP", async () => {
    expect((await http.getNetwork()).chainId).to.equal(9000n);
    const wallet = new Wallet(key, http);
    const to = Wallet.createRandom().address;
    const tx = await wallet.sendTransaction({ to, value: parseEther("1.5") });
    const receipt = await tx.wait();
    expect(receipt?.status).to.equal(1);
    expect(await http.getBalance(to)).to.equal(parseEther("1.5"));
    const block = await http.getBlock(receipt!.blockNumber, true);
    expect(block?.hash).to.equal(receipt!.blockHash);
    const fee = await http.getFeeData();
    expect(typeof fee.maxFeePerGas).to.equal("bigint");
  });

  it("deploys and calls a contract, and decodes a revert, over HTTP", async () => {
    const c = compile(SOURCE).Greeter;
    const wallet = new Wallet(key, http);
    const deployed = await wallet.sendTransaction({ data: c.bytecode });
    const address = (await deployed.wait())!.contractAddress!;
    const greeter = new Contract(address, c.abi as never, wallet);
    expect(await greeter.greeting()).to.equal("hi");
    await (await greeter.greet("hello")).wait();
    expect(await greeter.greeting()).to.equal("hello");
    const err = await http.call({ to: address, data: "0xdeadbeef" }).then(
      () => undefined,
      (e: { code: string }) => e,
    );
    expect(err?.code).to.equal("CALL_EXCEPTION");
  });

  it("receives new blocks and contract events over WebSocket subscriptions", async () => {
    const c = compile(SOURCE).Greeter;
    const wallet = new Wallet(key, http);
    const address = (await (await wallet.sendTransaction({ data: c.bytecode })).wait())!.contractAddress!;
    const greeter = new Contract(address, c.abi as never, ws);
    const blocks: number[] = [];
    await ws.on("block", (n: number) => blocks.push(n));
    const heard = new Promise<string>((resolve) => {
      void greeter.on("Greeted", (_by: string, text: string) => resolve(text));
    });
    await new Promise((r) => setTimeout(r, 200));
    await (await (greeter.connect(wallet) as Contract).greet("over ws")).wait();
    expect(await heard).to.equal("over ws");
    for (let i = 0; i < 50 && blocks.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(blocks.length).to.be.greaterThan(0);
    await ws.removeAllListeners();
    // let the eth_unsubscribe calls finish before the provider is destroyed
    await new Promise((r) => setTimeout(r, 100));
  });
});
