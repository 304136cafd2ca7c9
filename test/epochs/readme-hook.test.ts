/**
 * README.md's hook contract, as the README shows it: it compiles against the package's interfaces,
 * registers on this chain, refuses a caller that is not the chain, and is called at epoch
 * boundaries. Fails when the README's snippet drifts from what works.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import solc from "solc";
import { Interface } from "ethers";
import { EPOCHS_PRECOMPILE } from "../../src/epochs";
import { type Harness, inProcess, rpcError } from "../helpers/harness";
import { ROOT } from "../helpers/processes";
import { getAddress } from "ethers";

function readmeHookSource(): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const m = /```solidity\n(import \{EPOCHS\} from "hardhat-epochs\/contracts\/IEpochs\.sol";[\s\S]*?)```/.exec(readme);
  if (m === null) throw new Error("README.md has no Solidity block importing hardhat-epochs/contracts/IEpochs.sol");
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n${m[1]}`;
}

function compileReadmeHook(): { abi: Interface; bytecode: string } {
  const pkg = (file: string) => ({ content: readFileSync(path.join(ROOT, "contracts", file), "utf8") });
  const sources = { "Readme.sol": { content: readmeHookSource() }, "hardhat-epochs/contracts/IEpochs.sol": pkg("IEpochs.sol"), "hardhat-epochs/contracts/IEpochHooks.sol": pkg("IEpochHooks.sol") };
  const out = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources, settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } } }))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const [c] = Object.values(out.contracts["Readme.sol"]);
  return { abi: new Interface(c.abi as never), bytecode: `0x${c.evm.bytecode.object}` };
}

describe("README.md's hook contract", function () {
  this.timeout(60_000);
  let h: Harness;
  after(() => h?.close());

  it("compiles against the package's interfaces, registers, refuses other callers, and is called at epoch boundaries", async () => {
    const { abi, bytecode } = compileReadmeHook();
    h = await inProcess({
      epochs: {
        genesis: {
          epochs: [
            {
              identifier: "tick",
              duration: { seconds: 10n, nanos: 0 },
              startTime: { seconds: 0n, nanos: 0 },
              currentEpoch: 0n,
              currentEpochStartTime: { seconds: -62135596800n, nanos: 0 },
              epochCountingStarted: false,
              currentEpochStartHeight: 0n,
            },
          ],
        },
      },
    });
    const [from] = await h.request<string[]>("eth_accounts");
    const hash = await h.request<string>("eth_sendTransaction", [{ from, data: bytecode, gas: "0x1000000" }]);
    const { contractAddress, status } = await h.request<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [hash]);
    expect(status).to.equal("0x1");
    expect(await h.request("epochs_hooks")).to.deep.equal([getAddress(contractAddress)]);
    // anyone else calling a hook: OnlyChain()
    const err = await rpcError(h.request("eth_call", [{ from, to: contractAddress, data: abi.encodeFunctionData("afterEpochEnd", ["tick", 1n]) }, "latest"]));
    expect((err.data as string).slice(0, 10)).to.equal(abi.getError("OnlyChain")?.selector);
    // the chain's own calls pass the guard
    const ok = await h.request("eth_call", [{ from: EPOCHS_PRECOMPILE, to: contractAddress, data: abi.encodeFunctionData("afterEpochEnd", ["tick", 1n]) }, "latest"]);
    expect(ok).to.equal("0x");
    const head = BigInt(await h.request<string>("eth_blockNumber"));
    await h.request("evm_increaseTime", [11]);
    await h.request("hardhat_mine", ["0x2"]);
    const types: string[] = [];
    for (let n = head + 1n; n <= head + 2n; n++) {
      const ev = await h.request<{ begin_block_events: Array<{ type: string }>; end_block_events: Array<{ type: string }> }>("epochs_blockEvents", [`0x${n.toString(16)}`]);
      types.push(...[...ev.begin_block_events, ...ev.end_block_events].map((e) => e.type));
    }
    expect(types).to.include("epoch_hook");
    expect(types).to.not.include("epoch_hook_failed");
  });
});
