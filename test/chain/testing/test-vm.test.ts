/**
 * The Solidity tests' VM (src/chain/testing/test-vm.ts) against the chain it is opened on: cheatcodes
 * exist only in it (the node's own EVM has no interceptor and the cheat addresses no code), nothing a
 * test does reaches the chain, `mark`/`rewind` isolate runs, and the step listener the log cheats
 * need is attached only while one of them waits.
 */
import { expect } from "chai";
import { Address, hexToBytes } from "@ethereumjs/util";
import { Interface } from "ethers/abi";
import { getBytes } from "ethers/utils";
import { TEST_SENDER, TestVm, VM_ADDRESS } from "../../../src/chain";
import type { ChainEVM } from "../../../src/chain/engine/evm";
import { type Harness, inProcess } from "../../helpers/harness";
import { compile } from "../../helpers/solc";

const SOURCE = `
pragma solidity ^0.8.20;
interface Vm { function warp(uint256) external; function deal(address, uint256) external; function recordLogs() external; }
contract Cheater {
  Vm constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);
  function run(address who) external returns (uint256) {
    vm.warp(2_000_000_000);
    vm.deal(who, 77);
    return block.timestamp;
  }
  function record() external { vm.recordLogs(); }
}`;

const WHO = "0x00000000000000000000000000000000000a11ce";

describe("Solidity tests' VM", function () {
  this.timeout(30_000);
  let h: Harness;
  const cheater = compile(SOURCE).Cheater;
  const abi = new Interface(cheater.abi as string[]);

  beforeEach(async () => {
    h = await inProcess();
  });
  afterEach(() => h.close());

  async function deployed(): Promise<{ vm: TestVm; at: Address }> {
    const vm = await TestVm.open(h.runtime.node, { artifactCode: () => new Uint8Array(), environment: {} });
    const r = await vm.call(TEST_SENDER, undefined, getBytes(cheater.bytecode));
    expect(r.success).to.equal(true);
    return { vm, at: r.createdAddress! };
  }

  it("runs cheatcodes in the test's VM only: the node keeps its state, its EVM has no interceptor, the cheat addresses no code", async () => {
    const head = await h.request<string>("eth_blockNumber");
    const { vm, at } = await deployed();
    const r = await vm.call(TEST_SENDER, at, getBytes(abi.encodeFunctionData("run", [WHO])));
    expect(r.success).to.equal(true);
    expect(BigInt(abi.decodeFunctionResult("run", r.returnValue)[0])).to.equal(2_000_000_000n);
    expect(await vm.vm.stateManager.getAccount(new Address(hexToBytes(WHO)))).to.have.property("balance", 77n);
    // the chain: no balance, no new block, no code at forge's address, no interceptor on its EVM
    expect(await h.request("eth_getBalance", [WHO, "latest"])).to.equal("0x0");
    expect(await h.request("eth_blockNumber")).to.equal(head);
    expect(await h.request("eth_getCode", [VM_ADDRESS, "latest"])).to.equal("0x");
    expect((h.runtime.node.vm.evm as ChainEVM).interceptor).to.equal(undefined);
    // a warp's calldata sent to the node is a call to an empty account: nothing happens
    const warp = new Interface(["function warp(uint256)"]).encodeFunctionData("warp", [5n]);
    expect(await h.request("eth_call", [{ to: VM_ADDRESS, data: warp }, "latest"])).to.equal("0x");
  });

  it("rewinds to a mark: state, block env and cheats as they were", async () => {
    const { vm, at } = await deployed();
    const mark = await vm.mark();
    const before = vm.blockEnv.timestamp;
    await vm.call(TEST_SENDER, at, getBytes(abi.encodeFunctionData("run", [WHO])));
    expect(vm.blockEnv.timestamp).to.equal(2_000_000_000n);
    await vm.rewind(mark);
    expect(vm.blockEnv.timestamp).to.equal(before);
    expect((await vm.vm.stateManager.getAccount(new Address(hexToBytes(WHO))))?.balance ?? 0n).to.equal(0n);
  });

  it("listens to the EVM's steps only while a log cheat waits", async () => {
    const { vm, at } = await deployed();
    const events = vm.vm.evm.events!;
    expect(events.listenerCount("step")).to.equal(0);
    await vm.call(TEST_SENDER, at, getBytes(abi.encodeFunctionData("record")));
    expect(events.listenerCount("step")).to.equal(1);
    vm.cheats.reset();
    expect(events.listenerCount("step")).to.equal(0);
  });
});
