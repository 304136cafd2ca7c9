/**
 * Statement coverage's seam (src/chain/engine/coverage.ts): code instrumented by Hardhat 3 calls a fixed
 * address with each statement's tag; the node hands every tag on (`coverageHit`) from the
 * executions a user makes (transactions, eth_call, eth_estimateGas) and from block production's
 * epoch hooks, and not from replays (a trace is not a new execution).
 */
import { expect } from "chai";
import { Interface } from "ethers";
import { type Harness, inProcess } from "../helpers/harness";
import { compile, compileStandard } from "../helpers/solc";
import { hookFailureExplainer } from "../../src/host/solidity/hook-failures";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Probe {
    address constant COVERAGE = 0xc0bEc0BEc0BeC0bEC0beC0bEC0bEC0beC0beC0BE;
    function hit(uint256 tag) internal view { (bool ok, ) = COVERAGE.staticcall(abi.encode(tag)); ok; }
    constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
    function send() external { hit(1); }
    function look() external view returns (uint256) { hit(2); return 7; }
    function afterEpochEnd(string calldata, int64) external { hit(3); }
    function beforeEpochStart(string calldata, int64) external { hit(4); }
}
`;

describe("coverage hits (the node's coverageHit event)", function () {
  this.timeout(60_000);
  let h: Harness;
  after(() => h?.close());

  it("come from transactions, calls, estimates and epoch hooks, not from replays", async () => {
    const { Probe } = compile(SOURCE);
    const abi = new Interface(Probe.abi as never);
    h = await inProcess();
    const hits: bigint[] = [];
    h.runtime.node.on("coverageHit", (tag: Uint8Array) => hits.push(BigInt(`0x${Buffer.from(tag).toString("hex")}`)));
    const [from] = await h.request<string[]>("eth_accounts");
    const deployed = await h.request<string>("eth_sendTransaction", [{ from, data: Probe.bytecode }]);
    const to = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deployed])).contractAddress;
    const take = (): bigint[] => hits.splice(0, hits.length);
    take();
    const sent = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData("send") }]);
    expect(take()).to.deep.equal([1n]);
    expect(await h.request("eth_call", [{ to, data: abi.encodeFunctionData("look") }, "latest"])).to.match(/7$/);
    expect(take()).to.deep.equal([2n]);
    await h.request("eth_estimateGas", [{ from, to, data: abi.encodeFunctionData("send") }]);
    expect(new Set(take())).to.deep.equal(new Set([1n]));
    // block production: the hooks of an epoch's end and of the next one's start
    await h.request("epochs_advance", ["day"]);
    expect(new Set(take())).to.deep.equal(new Set([3n, 4n]));
    // a trace replays the transaction: no new hit
    await h.request("debug_traceTransaction", [sent, {}]);
    expect(take()).to.deep.equal([]);
  });

  it("the node's step relay (solidity-coverage's seam) relays the same executions' EVM steps, and only while someone listens", async () => {
    const { Probe } = compile(SOURCE);
    const abi = new Interface(Probe.abi as never);
    const [from] = await h.request<string[]>("eth_accounts");
    const deployed = await h.request<string>("eth_sendTransaction", [{ from, data: Probe.bytecode }]);
    const to = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deployed])).contractAddress;
    const live = h.runtime.node.vm;
    const steps: Array<{ pc: number; opcode: { name: string }; stack: bigint[] }> = [];
    const listener = (step: { pc: number; opcode: { name: string }; stack: bigint[] }): void => void steps.push(step);
    // nobody listens: the VMs have no step listener (EthereumJS builds no step objects)
    expect(live.evm.events?.listenerCount("step")).to.equal(0);
    h.runtime.node.steps.events.on("step", listener);
    expect(live.evm.events?.listenerCount("step")).to.equal(1);
    const counts = async (run: () => Promise<unknown>): Promise<number> => {
      steps.length = 0;
      await run();
      return steps.length;
    };
    const sent = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData("send") }]);
    expect(await counts(async () => h.request("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData("send") }]))).to.be.greaterThan(10);
    expect(steps.some((s) => s.opcode.name === "STATICCALL")).to.equal(true);
    expect(await counts(() => h.request("eth_call", [{ to, data: abi.encodeFunctionData("look") }, "latest"]))).to.be.greaterThan(10);
    expect(await counts(() => h.request("eth_estimateGas", [{ from, to, data: abi.encodeFunctionData("send") }]))).to.be.greaterThan(10);
    expect(await counts(() => h.request("epochs_advance", ["day"]))).to.be.greaterThan(10);
    // replays are not relayed
    expect(await counts(() => h.request("debug_traceTransaction", [sent, {}]))).to.equal(0);
    h.runtime.node.steps.events.off("step", listener);
    expect(live.evm.events?.listenerCount("step")).to.equal(0);
    expect(await counts(() => h.request("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData("send") }]))).to.equal(0);
  });

  it("in opcode mode (solidity-coverage's steps: stepOpcodes) relays the same PUSH1 steps as EthereumJS's, minimal, and nothing else", async () => {
    const { Probe } = compile(SOURCE);
    const abi = new Interface(Probe.abi as never);
    type Step = { pc: number; depth: number; opcode: { name: string }; stack: bigint[] };
    // the same transactions on a chain relaying every step and on one relaying PUSH1's only
    const full = await inProcess();
    const light = await inProcess({ stepOpcodes: ["PUSH1"] });
    try {
      const pushSteps = async (chain: Harness, only: boolean): Promise<Array<[number, number, bigint | undefined]>> => {
        const steps: Step[] = [];
        const listener = (step: Step): void => void steps.push(step);
        const [from] = await chain.request<string[]>("eth_accounts");
        const deployed = await chain.request<string>("eth_sendTransaction", [{ from, data: Probe.bytecode }]);
        const to = (await chain.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deployed])).contractAddress;
        chain.runtime.node.steps.events.on("step", listener);
        try {
          await chain.request("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData("send") }]);
          await chain.request("eth_call", [{ to, data: abi.encodeFunctionData("look") }, "latest"]);
          await chain.request("epochs_advance", ["day"]);
        } finally {
          chain.runtime.node.steps.events.off("step", listener);
        }
        if (only) expect(steps.every((s) => s.opcode.name === "PUSH1" && s.stack.length <= 1)).to.equal(true);
        return steps.filter((s) => s.opcode.name === "PUSH1").map((s) => [s.pc, s.depth, s.stack.at(-1)]);
      };
      const expected = await pushSteps(full, false);
      expect(expected.length).to.be.greaterThan(50);
      // pc 0 (a contract's first PUSH1) is among them: solidity-coverage counts those steps
      expect(expected.some(([pc]) => pc === 0)).to.equal(true);
      expect(await pushSteps(light, true)).to.deep.equal(expected);
      // no EthereumJS step listener on the live VM, listened or not
      light.runtime.node.steps.events.on("step", () => undefined);
      expect(light.runtime.node.vm.evm.events?.listenerCount("step")).to.equal(0);
      light.runtime.node.steps.events.removeAllListeners("step");
    } finally {
      await light.close();
      await full.close();
    }
  });

  it("in opcode mode, a failing hook's explanation (a re-run) relays no steps: its steps come once", async () => {
    const compiled = compileStandard({
      "contracts/FailingProbe.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract FailingProbe {
    constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
    function afterEpochEnd(string calldata, int64) external pure { revert("not today"); }
    function beforeEpochStart(string calldata, int64) external pure {}
}
`,
    });
    const bytecode = `0x${compiled.output.contracts["contracts/FailingProbe.sol"].FailingProbe.evm.bytecode.object}`;
    type Attribute = { key: string; value: string };
    type BlockEvents = { begin_block_events: Array<{ type: string; attributes: Attribute[] }>; end_block_events: Array<{ type: string; attributes: Attribute[] }> };
    /** The PUSH1 steps an epoch's end relays with the failing hook registered, and the failure's event. */
    const hookSteps = async (explain: boolean): Promise<{ steps: number; failed: Attribute[] }> => {
      const chain = await inProcess({ stepOpcodes: ["PUSH1"], ...(explain ? { explainHookFailure: (contracts) => hookFailureExplainer(contracts) } : {}) });
      try {
        chain.runtime.deps.contracts.addCompilation(compiled.input, compiled.output as never);
        const [from] = await chain.request<string[]>("eth_accounts");
        await chain.request("eth_sendTransaction", [{ from, data: bytecode }]);
        let steps = 0;
        chain.runtime.node.steps.events.on("step", () => void steps++);
        const first = BigInt(await chain.request<string>("eth_blockNumber")) + 1n;
        await chain.request("epochs_advance", ["day"]);
        const last = BigInt(await chain.request<string>("eth_blockNumber"));
        // the blocks epochs_advance mined: the one that ended the day holds the failure
        for (let n = first; n <= last; n++) {
          const events = await chain.request<BlockEvents>("epochs_blockEvents", [`0x${n.toString(16)}`]);
          const failed = [...events.begin_block_events, ...events.end_block_events].find((e) => e.type === "epoch_hook_failed");
          if (failed !== undefined) return { steps, failed: failed.attributes };
        }
        return { steps, failed: [] };
      } finally {
        await chain.close();
      }
    };
    const plain = await hookSteps(false);
    const explained = await hookSteps(true);
    // the explanation ran (Hardhat's words and the hook's frame), and told no steps of its own
    expect(explained.failed.find((a) => a.key === "error")?.value).to.include("not today");
    expect(plain.failed.find((a) => a.key === "error")).to.equal(undefined);
    expect(plain.steps).to.be.greaterThan(0);
    expect(explained.steps).to.equal(plain.steps);
  });
});
