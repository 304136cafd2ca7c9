/**
 * Differential test of failures: one set of contracts deployed on our in-process provider and on
 * Hardhat's own EDR network; every kind of failure, sent as eth_sendTransaction, eth_call and
 * eth_estimateGas, must throw the same class with the same message, the same Solidity frames
 * (`at Contract.function (file:line)`), the same data and (for transactions) a transaction hash —
 * first without compilation info (unrecognised contracts), then after hardhat_addCompilationResult.
 */
import { expect } from "chai";
import hre from "hardhat";
import { createProvider } from "hardhat/internal/core/providers/construction";
import type { EthereumProvider } from "hardhat/types";
import { AbiCoder } from "ethers";
import { EpochsProvider } from "../../src/hardhat/provider";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { FAILURES_SOURCE, failureCases, failureContracts, failureInterface, failuresCompilation } from "../helpers/failure-cases";

const SOURCE_NAME = FAILURES_SOURCE;
const compilation = failuresCompilation;
const contracts = failureContracts;
const iface = failureInterface;
const METHODS = ["eth_sendTransaction", "eth_call", "eth_estimateGas"] as const;

interface Seen {
  cls: string;
  message: string;
  frames: string[];
  data: unknown;
  code: unknown;
  hasTxHash: boolean;
}

/** What a user sees of an error: its class, message, Solidity frames (stack lines naming a contract), data. */
function seen(err: unknown): Seen {
  const e = err as Error & { data?: unknown; code?: unknown; transactionHash?: unknown };
  const frames = (e.stack ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^at (\S+\.\S+|<UnrecognizedContract>\.\S+) \((contracts\/|0x|unknown)/.test(l));
  return { cls: e.constructor.name, message: e.message, frames, data: e.data, code: e.code, hasTxHash: typeof e.transactionHash === "string" };
}

describe("Solidity errors: our in-process provider vs Hardhat's EDR network", function () {
  this.timeout(180_000);
  let runtime: Runtime;
  let ours: EpochsProvider;
  let edr: EthereumProvider;
  let from: string;
  const addresses: Record<string, string> = {};

  async function both(method: string, params: unknown[]): Promise<[unknown, unknown]> {
    return Promise.all([ours.request({ method, params }), edr.request({ method, params })]);
  }

  async function failures(method: string, tx: Record<string, unknown>): Promise<[Seen, Seen]> {
    const run = async (p: { request(a: { method: string; params: unknown[] }): Promise<unknown> }) => {
      try {
        await p.request({ method, params: [{ from, ...tx }] });
      } catch (err) {
        return seen(err);
      }
      throw new Error(`${method} did not fail`);
    };
    return [await run(ours), await run(edr)];
  }

  before(async () => {
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION });
    ours = new EpochsProvider(async () => runtime);
    edr = await createProvider(hre.config, "hardhat");
    const accounts = await both("eth_accounts", []);
    expect(accounts[0]).to.deep.equal(accounts[1]);
    from = (accounts[0] as string[])[0];
    const deploy = async (name: string, args = "0x") => {
      const data = `0x${contracts[name].evm.bytecode.object}${args.slice(2)}`;
      const [a, b] = await both("eth_sendTransaction", [{ from, data }]);
      const [ra, rb] = (await Promise.all([ours.request({ method: "eth_getTransactionReceipt", params: [a] }), edr.request({ method: "eth_getTransactionReceipt", params: [b] })])) as Array<{
        contractAddress: string;
      }>;
      expect(ra.contractAddress).to.equal(rb.contractAddress); // same sender, same nonce: same address
      addresses[name] = ra.contractAddress;
    };
    await deploy("Target");
    await deploy("Caller", AbiCoder.defaultAbiCoder().encode(["address"], [addresses.Target]));
    await deploy("NoFallback");
    await deploy("Limited", AbiCoder.defaultAbiCoder().encode(["uint256"], [100]));
  });
  after(() => runtime.close());

  const cases = failureCases(addresses);

  function compare(a: Seen, b: Seen, method: string): void {
    expect(a.cls, "class").to.equal(b.cls);
    expect(a.message, "message").to.equal(b.message);
    expect(a.frames, "Solidity frames").to.deep.equal(b.frames);
    expect(a.code, "code").to.equal(b.code);
    if (a.message === "Transaction ran out of gas") {
      // EDR adds its own `reason` object; the revert data and the hash are what both carry
      expect((a.data as { data: string }).data).to.equal((b.data as { data: string }).data);
      expect(typeof (a.data as { transactionHash: unknown }).transactionHash).to.equal(typeof (b.data as { transactionHash: unknown }).transactionHash);
    } else {
      expect(a.data, "data").to.deep.equal(b.data);
      expect(a.hasTxHash, "transactionHash").to.equal(b.hasTxHash);
      expect(a.hasTxHash).to.equal(method === "eth_sendTransaction" && a.cls === "SolidityError");
    }
  }

  for (const info of [false, true]) {
    describe(info ? "with the compilation registered (hardhat_addCompilationResult)" : "without compilation info", () => {
      if (info) {
        before(async () => {
          const params = [compilation.solcVersion, compilation.input, compilation.output];
          expect(await both("hardhat_addCompilationResult", params)).to.deep.equal([true, true]);
        });
      }
      for (const c of cases) {
        for (const method of METHODS) {
          it(`${c.name}: ${method}`, async () => {
            const [a, b] = await failures(method, c.tx());
            compare(a, b, method);
            if (info && c.name === "a revert through another contract") {
              expect(a.frames).to.deep.equal([`at Target.failReason (${SOURCE_NAME}:9)`, `at Caller.callThrough (${SOURCE_NAME}:47)`]);
            }
          });
        }
      }
    });
  }

  it("a transfer beyond the balance: Hardhat's text (the numbers follow each chain's fees)", async () => {
    const tx = { to: addresses.NoFallback, value: `0x${(10n ** 30n).toString(16)}`, gas: "0x10000" };
    const [a, b] = await failures("eth_sendTransaction", tx);
    const form = /^Sender doesn't have enough funds to send tx\. The max upfront cost is: \d+ and the sender's balance is: \d+\.$/;
    expect(b.message).to.match(form);
    expect(a.message).to.match(form);
    expect([a.cls, a.code]).to.deep.equal([b.cls, b.code]);
  });

  it("eth_estimateGas without from: the first account sends, its balance unchecked, as on Hardhat", async () => {
    const probe = { to: addresses.Limited, data: iface("Limited").encodeFunctionData("check", [1]) };
    const [a, b] = await both("eth_estimateGas", [probe]);
    expect(BigInt(a as string)).to.equal(BigInt(b as string));
    const poor = { from: "0x000000000000000000000000000000000000bEEF", to: addresses.Target, data: iface("Target").encodeFunctionData("nonPayable"), value: "0x0", gasPrice: "0x100000000000" };
    const [c, d] = await both("eth_estimateGas", [poor]);
    expect(BigInt(c as string)).to.equal(BigInt(d as string));
  });

  it("counts no stack-trace failures", async () => {
    expect(await ours.request({ method: "hardhat_getStackTraceFailuresCount" })).to.equal(0);
  });
});
