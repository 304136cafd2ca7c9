/**
 * eth_estimateGas answers the smallest gas that succeeds, in one execution when the first run did not
 * depend on its gas (src/chain/calls/execution.ts `sameWithGas`) and by the search otherwise: for each
 * shape the estimate succeeds and one gas less fails (as an eth_call and as a mined transaction), and
 * the number of executions shows which path answered. The shapes that depend on their gas: an SSTORE
 * with little gas left after it (EIP-2200's sentry), `gasleft()`, a call into another contract, a
 * refund (each alone: no SSTORE in the calls that read the gas).
 */
import { expect } from "chai";
import { Interface } from "ethers";
import { Common, Mainnet } from "@ethereumjs/common";
import { getOpcodesForHF, paramsEVM } from "@ethereumjs/evm";
import { hardforkNames } from "../../src/chain/engine/common";
import { estimateRuns } from "../../src/chain/calls/execution";
import { type Harness, inProcess, rpcError } from "../helpers/harness";
import { compile } from "../helpers/solc";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Shapes {
  mapping(address => uint256) public balanceOf;
  uint256 public value = 1;
  event Transfer(address indexed from, address indexed to, uint256 amount);
  constructor() { balanceOf[msg.sender] = 1e24; }
  function transfer(address to, uint256 amount) external returns (bool) {
    balanceOf[msg.sender] -= amount;
    balanceOf[to] += amount;
    emit Transfer(msg.sender, to, amount);
    return true;
  }
  /** the last SSTORE leaves little gas after it: with exactly the gas used it would hit the 2300 sentry */
  function rewrite() external { value = value; }
  /** reads the gas left */
  function heavyIfRich() external { if (gasleft() > 200000) { for (uint256 i = 0; i < 20; i++) value += i; } }
  /** calls another contract (63/64 of the gas left goes with the call) */
  function callOther(Shapes other) external { other.rewrite(); }
  /** clears a slot first (a refund), then works on with plenty of gas left */
  function clearThenWork() external returns (uint256 s) { value = 0; for (uint256 i = 0; i < 100; i++) s += i; }
  /** fails unless it is given plenty of gas: only gasleft() tells */
  function needsGas() external view { require(gasleft() > 100000, "needs gas"); }
  /** the last 1/64 of the gas stays with the caller, and the callee needs nearly all of it */
  function callLoop(Shapes other) external view returns (uint256) { return other.loop(300); }
  function loop(uint256 n) external pure returns (uint256 s) { for (uint256 i = 0; i < n; i++) s += i; }
}`;

describe("eth_estimateGas: one execution when the gas did not matter, the search when it did", function () {
  this.timeout(60_000);
  let h: Harness;
  let from: string;
  let other: string;
  let shapes: string;
  const c = compile(SOURCE).Shapes;
  const iface = new Interface(c.abi as never);

  async function deploy(): Promise<string> {
    const hash = await h.request<string>("eth_sendTransaction", [{ from, data: c.bytecode, gas: "0x300000" }]);
    return (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
  }

  before(async function () {
    h = await inProcess();
    [from, other] = await h.request<string[]>("eth_accounts");
    shapes = await deploy();
  });
  after(() => h.close());

  /**
   * Estimates `data` to `to`, checks the estimate succeeds and (`least`) that one gas less fails;
   * returns it and the executions it took.
   */
  async function estimateExactly(to: string, data: string, least = true): Promise<{ gas: bigint; runs: number }> {
    const before = estimateRuns.count;
    const gas = BigInt(await h.request<string>("eth_estimateGas", [{ from, to, data }]));
    const runs = estimateRuns.count - before;
    const hex = (g: bigint) => `0x${g.toString(16)}`;
    expect(await h.request("eth_call", [{ from, to, data, gas: hex(gas) }])).to.be.a("string");
    if (least) {
      const short = await rpcError(h.request("eth_call", [{ from, to, data, gas: hex(gas - 1n) }]));
      // out of gas, a call that ran out inside (a revert without data), or the require on gasleft()
      expect(short.message).to.match(/out of gas|reverted without a reason|needs gas/i);
    }
    // and the same as a transaction: mined with the estimate, it succeeds and uses no more
    const snapshot = await h.request<string>("evm_snapshot");
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data, gas: hex(gas) }]);
    const receipt = await h.request<{ status: string; gasUsed: string }>("eth_getTransactionReceipt", [hash]);
    expect(receipt.status).to.equal("0x1");
    expect(BigInt(receipt.gasUsed) <= gas).to.equal(true);
    await h.request("evm_revert", [snapshot]);
    return { gas, runs };
  }

  it("the chain's one GAS/SSTORE/JUMPDEST list fits every hardfork: EthereumJS's handlers and fees are the same in each", function () {
    const tables = hardforkNames().map((hardfork) => {
      const common = new Common({ chain: Mainnet, hardfork });
      common.updateParams(paramsEVM);
      return getOpcodesForHF(common).opcodeMap;
    });
    for (const op of [0x55, 0x5a, 0x5b]) {
      for (const t of tables) {
        expect([t[op].opHandler, t[op].gasHandler, t[op].opcodeInfo.fee]).to.deep.equal([tables[0][op].opHandler, tables[0][op].gasHandler, tables[0][op].opcodeInfo.fee]);
      }
    }
  });

  it("an ERC-20 transfer: one execution, the gas it used", async function () {
    const data = iface.encodeFunctionData("transfer", [other, 5n]);
    const { gas, runs } = await estimateExactly(shapes, data);
    expect(runs).to.equal(1);
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to: shapes, data, gas: `0x${gas.toString(16)}` }]);
    expect(BigInt((await h.request<{ gasUsed: string }>("eth_getTransactionReceipt", [hash])).gasUsed)).to.equal(gas);
  });

  it("a plain value transfer: one execution, 21000", async function () {
    const before = estimateRuns.count;
    expect(await h.request("eth_estimateGas", [{ from, to: other, value: "0x1" }])).to.equal("0x5208");
    expect(estimateRuns.count - before).to.equal(1);
  });

  it("an SSTORE that would hit EIP-2200's sentry with exactly the gas used: searched, more than it used", async function () {
    const data = iface.encodeFunctionData("rewrite");
    const { gas, runs } = await estimateExactly(shapes, data);
    expect(runs).to.be.greaterThan(1);
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to: shapes, data, gas: `0x${gas.toString(16)}` }]);
    const used = BigInt((await h.request<{ gasUsed: string }>("eth_getTransactionReceipt", [hash])).gasUsed);
    // the SSTORE needs more than 2300 left when it starts, though it costs 100 (a warm no-op)
    expect(gas - used > 2000n).to.equal(true);
  });

  it("a call into another contract, a refund: each searched, the least gas that succeeds", async function () {
    const twin = await deploy();
    for (const data of [iface.encodeFunctionData("callOther", [twin]), iface.encodeFunctionData("callLoop", [twin]), iface.encodeFunctionData("clearThenWork")]) {
      const { runs } = await estimateExactly(shapes, data);
      expect(runs, data.slice(0, 10)).to.be.greaterThan(1);
    }
  });

  it("a require on gasleft(): searched, the least gas that passes it", async function () {
    const { gas, runs } = await estimateExactly(shapes, iface.encodeFunctionData("needsGas"));
    expect(runs).to.be.greaterThan(1);
    expect(gas > 100_000n).to.equal(true);
  });

  it("gasleft(): searched, and the gas found succeeds (as geth, enough rather than least: with less gas the code takes another path)", async function () {
    const data = iface.encodeFunctionData("heavyIfRich");
    const { gas, runs } = await estimateExactly(shapes, data, false);
    expect(runs).to.be.greaterThan(1);
    // the first run (at the cap) took the heavy path and used more than the light one needs: capped
    // below 200,000 gas, the estimate is the light path's
    const light = BigInt(await h.request<string>("eth_estimateGas", [{ from, to: shapes, data, gas: "0x30000" }]));
    expect(gas > light + 5000n).to.equal(true);
  });
});
