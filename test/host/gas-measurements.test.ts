/**
 * Gas statistics (src/host/solidity/gas-measurements.ts over src/chain/engine/executions.ts): the node's
 * `executed` events, made into Hardhat 3's gas measurements against the project's compilations, as
 * the Hardhat 3 host does under `--gas-stats`: deployments, transactions and eth_calls of known
 * functions, calls through a proxy named after the implementation, epoch hooks; nothing for
 * failures, estimates, replays or unknown code, and no recording while nobody listens.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Interface } from "ethers";
import type { ExecutionRecord } from "../../src/chain/engine/executions";
import { envOf } from "../../src/chain/engine/context";
import { type GasMeasurement, gasMeasurementOf } from "../../src/host/solidity/gas-measurements";
import { type Harness, inProcess } from "../helpers/harness";
import { compileStandard } from "../helpers/solc";

/** A minimal proxy (delegates every call). */
const FORWARDER = readFileSync(path.join(__dirname, "../fixtures/solidity/Forwarder.sol"), "utf8");

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Store {
    uint256 public value;
    function set(uint256 v) external { require(v != 13, "unlucky"); value = v; }
    function get() external view returns (uint256) { return value; }
}
contract Hooked {
    uint256 public ticks;
    constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
    function afterEpochEnd(string calldata, int64) external { ticks += 1; }
    function beforeEpochStart(string calldata, int64) external {}
}
`;

describe("gas measurements (Hardhat 3's --gas-stats) from the node's executions", function () {
  this.timeout(60_000);
  let h: Harness;
  after(() => h?.close());

  it("measure deployments, transactions, eth_calls, proxied calls and epoch hooks, as EDR's gas report does", async () => {
    const compilation = compileStandard({ "contracts/Test.sol": SOURCE, "contracts/Forwarder.sol": FORWARDER });
    const contract = (name: string): { abi: Interface; bytecode: string } => {
      const c = compilation.output.contracts[name === "Forwarder" ? "contracts/Forwarder.sol" : "contracts/Test.sol"][name];
      return { abi: new Interface(c.abi as never), bytecode: `0x${c.evm.bytecode.object}` };
    };
    h = await inProcess();
    const registry = h.runtime.deps.contracts;
    registry.addCompilation(compilation.input, compilation.output as never);
    const records: ExecutionRecord[] = [];
    const measured: GasMeasurement[] = [];
    // as src/hardhat3/shared/in-process-chain.mts does under --gas-stats
    h.runtime.node.on("executed", (e) => {
      records.push(e);
      const m = gasMeasurementOf(e, registry);
      if (m !== undefined) measured.push(m);
    });
    const take = (): GasMeasurement[] => measured.splice(0);
    const [from] = await h.request<string[]>("eth_accounts");
    const send = async (tx: Record<string, string>): Promise<{ contractAddress: string; gasUsed: string; status: string; transactionHash: string }> => {
      const hash = await h.request<string>("eth_sendTransaction", [{ from, ...tx }]);
      return h.request("eth_getTransactionReceipt", [hash]);
    };

    const store = contract("Store");
    const deployed = await send({ data: store.bytecode });
    const runtimeSize = (await h.request<string>("eth_getCode", [deployed.contractAddress, "latest"])).length / 2 - 1;
    expect(take()).to.deep.equal([{ type: "deployment", contractFqn: "contracts/Test.sol:Store", gas: Number(deployed.gasUsed), runtimeSize }]);

    const set = await send({ to: deployed.contractAddress, data: store.abi.encodeFunctionData("set", [5]) });
    expect(take()).to.deep.equal([{ type: "function", contractFqn: "contracts/Test.sol:Store", functionSig: "set(uint256)", gas: Number(set.gasUsed), proxyChain: [] }]);

    // an eth_call counts (its gas: what the call's receipt would say), an estimate does not
    const call = { from, to: deployed.contractAddress, data: store.abi.encodeFunctionData("get") };
    const callGas = Number(await h.request<string>("eth_estimateGas", [call]));
    expect(take()).to.deep.equal([]);
    await h.request("eth_call", [call, "latest"]);
    const [view] = take();
    expect(view).to.deep.include({ type: "function", contractFqn: "contracts/Test.sol:Store", functionSig: "get()", proxyChain: [] });
    expect(view.gas).to.be.within(21_000, callGas);

    // a failed transaction and a send to an account without code: recorded, not measured
    // (a failed transaction is mined, and its send fails in Hardhat's words)
    const failed = await send({ to: deployed.contractAddress, data: store.abi.encodeFunctionData("set", [13]), gas: "0x30000" }).catch((err: Error) => err);
    expect(String(failed)).to.include("unlucky");
    await send({ to: "0x00000000000000000000000000000000000000aa", value: "0x1" });
    expect(take()).to.deep.equal([]);
    expect(records.slice(-2).map((r) => [r.kind, r.frame.success])).to.deep.equal([
      ["transaction", false],
      ["transaction", true],
    ]);

    // through a proxy: named after the implementation, the proxy first in the chain
    const forwarder = contract("Forwarder");
    const proxy = await send({ data: forwarder.bytecode + forwarder.abi.encodeDeploy([deployed.contractAddress]).slice(2) });
    take();
    const proxied = await send({ to: proxy.contractAddress, data: store.abi.encodeFunctionData("set", [9]) });
    expect(take()).to.deep.equal([
      {
        type: "function",
        contractFqn: "contracts/Test.sol:Store",
        functionSig: "set(uint256)",
        gas: Number(proxied.gasUsed),
        proxyChain: ["contracts/Forwarder.sol:Forwarder", "contracts/Test.sol:Store"],
      },
    ]);

    // (the DELEGATECALL's input is a view of the proxy's memory, which its return value then overwrites)
    await h.request("eth_call", [{ to: proxy.contractAddress, data: store.abi.encodeFunctionData("get") }, "latest"]);
    expect(take()).to.deep.equal([
      {
        type: "function",
        contractFqn: "contracts/Test.sol:Store",
        functionSig: "get()",
        gas: Number(records.at(-1)?.gasUsed),
        proxyChain: ["contracts/Forwarder.sol:Forwarder", "contracts/Test.sol:Store"],
      },
    ]);

    // epoch hooks: calls of the hook contract by block production (their gas: the call's own)
    const hooked = contract("Hooked");
    await send({ data: hooked.bytecode });
    take();
    await h.request("epochs_advance", ["day"]);
    const hooks = take();
    expect(hooks.map((m) => (m.type === "function" ? `${m.contractFqn} ${m.functionSig}` : m.type)).sort()).to.deep.equal([
      "contracts/Test.sol:Hooked afterEpochEnd(string,int64)",
      "contracts/Test.sol:Hooked beforeEpochStart(string,int64)",
    ]);
    expect(records.filter((r) => r.kind === "system").length).to.equal(2);
    for (const m of hooks)
      expect(m.gas)
        .to.be.greaterThan(0)
        .and.lessThan(21_000 + 30_000);

    // replays are not executions
    await h.request("debug_traceTransaction", [set.transactionHash, {}]);
    expect(take()).to.deep.equal([]);
  });

  it("records messages only while someone listens to `executed`", async () => {
    const env = envOf(h.runtime.node.vm.evm);
    expect(env).to.not.equal(undefined);
    const recording = async (): Promise<boolean> => {
      let seen = false;
      const look = (): void => void (seen ||= env?.executions !== undefined);
      h.runtime.node.vm.evm.events?.on("beforeMessage", look);
      const [from] = await h.request<string[]>("eth_accounts");
      await h.request("eth_sendTransaction", [{ from, to: from, value: "0x1" }]);
      h.runtime.node.vm.evm.events?.off("beforeMessage", look);
      return seen;
    };
    expect(await recording()).to.equal(true);
    h.runtime.node.removeAllListeners("executed");
    expect(await recording()).to.equal(false);
    expect(env?.executions).to.equal(undefined);
  });
});
