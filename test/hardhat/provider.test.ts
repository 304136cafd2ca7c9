/**
 * The in-process EIP-1193 provider: lazy start, Hardhat-shaped errors, the legacy send/sendAsync
 * forms, and subscriptions as "message" events.
 */
import { expect } from "chai";
import { Interface } from "ethers";
import { ProviderError } from "hardhat/internal/core/providers/errors";
import { EpochsProvider, EpochsProviderError } from "../../src/hardhat/provider";
import { createRuntime } from "../../src/app/runtime";
import type { JsonRpcResponse } from "hardhat/types";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { compile } from "../helpers/solc";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Fails { error Nope(uint256 x); function reason() external pure { revert("no"); } function custom() external pure { revert Nope(5); } }`;

describe("in-process provider", function () {
  let builds = 0;
  let provider: EpochsProvider;

  beforeEach(() => {
    builds = 0;
    provider = new EpochsProvider(() => {
      builds++;
      return createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION });
    });
  });
  afterEach(() => provider.close());

  it("builds its chain on the first request, once", async () => {
    expect(provider.started).to.equal(false);
    expect(builds).to.equal(0);
    const [a, b] = await Promise.all([provider.request({ method: "eth_chainId" }), provider.send("eth_blockNumber")]);
    expect([a, b]).to.deep.equal(["0x2328", "0x0"]);
    expect(builds).to.equal(1);
    expect(() => provider.useRuntimeFactory(() => Promise.reject(new Error("late")))).to.throw(/already started/);
  });

  it("throws errors Hardhat keeps as they are: numeric code, data, _isProviderError, plain message", async () => {
    const err = (await provider.send("eth_getBalance", ["0x12"]).catch((e: unknown) => e)) as EpochsProviderError;
    expect(err).to.be.instanceOf(EpochsProviderError);
    expect(err).to.be.instanceOf(ProviderError);
    expect(ProviderError.isProviderError(err)).to.equal(true);
    expect(err.code).to.equal(-32602);
    expect(err.message).to.not.match(/^Error|internal/i);
  });

  it("carries revert data on reverted calls", async () => {
    const c = compile(SOURCE).Fails;
    const [from] = (await provider.send("eth_accounts")) as string[];
    const hash = await provider.send("eth_sendTransaction", [{ from, data: c.bytecode, gas: "0x200000" }]);
    const receipt = (await provider.send("eth_getTransactionReceipt", [hash])) as { contractAddress: string };
    const iface = new Interface(c.abi as never);

    const reason = (await provider.send("eth_call", [{ to: receipt.contractAddress, data: iface.encodeFunctionData("reason") }]).catch((e: unknown) => e)) as EpochsProviderError;
    // Hardhat's network throws a SolidityError (no code) carrying the revert data
    expect(reason.message).to.equal("VM Exception while processing transaction: reverted with reason string 'no'");
    expect(iface.parseError(reason.data as string)?.args[0]).to.equal("no");

    const custom = (await provider.send("eth_call", [{ to: receipt.contractAddress, data: iface.encodeFunctionData("custom") }]).catch((e: unknown) => e)) as EpochsProviderError;
    expect(iface.parseError(custom.data as string)?.name).to.equal("Nope");
  });

  it("answers sendAsync with results and with errors inside the response", async () => {
    const call = (method: string, params: unknown[] = []) =>
      new Promise<JsonRpcResponse>((resolve, reject) => provider.sendAsync({ jsonrpc: "2.0", id: 7, method, params }, (error, response) => (error !== null ? reject(error) : resolve(response))));
    expect(await call("net_version")).to.deep.equal({ jsonrpc: "2.0", id: 7, result: "9000" });
    const res = await call("no_such");
    expect(res.error?.code).to.equal(-32601);
    expect(res.error?.message).to.equal("the method no_such does not exist/is not available");
  });

  it("delivers subscription notifications as EIP-1193 message events", async () => {
    const messages: Array<{ type: string; data: { subscription: string; result: { number: string } } }> = [];
    provider.on("message", (m: (typeof messages)[number]) => messages.push(m));
    const id = (await provider.send("eth_subscribe", ["newHeads"])) as string;
    await provider.send("evm_mine");
    await new Promise((r) => setTimeout(r, 50));
    expect(messages).to.have.length(1);
    expect(messages[0].type).to.equal("eth_subscription");
    expect(messages[0].data.subscription).to.equal(id);
    expect(messages[0].data.result.number).to.equal("0x1");
    expect(await provider.send("eth_unsubscribe", [id])).to.equal(true);
  });

  it("reports a failed start on each request instead of caching it", async () => {
    let attempts = 0;
    const failing = new EpochsProvider(() => {
      attempts++;
      return Promise.reject(new Error("bad genesis"));
    });
    await failing.send("eth_chainId").catch(() => undefined);
    const err = (await failing.send("eth_chainId").catch((e: unknown) => e)) as Error;
    expect(err?.message).to.equal("bad genesis");
    expect(attempts).to.equal(2);
  });
});
