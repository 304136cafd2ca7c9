/**
 * The jump-destination analysis cached per code (src/chain/engine/jump-analysis.ts): the wrap is in place
 * with the pinned EthereumJS, later calls into the same code (in calls and in mined transactions, in
 * another contract with the same code) reuse the first analysis, and what they reuse is right: a
 * JUMPDEST byte inside PUSH data stays an invalid destination, a real one stays valid, a truncated
 * PUSH at the end of the code is handled. EVMs the chain did not make are left to EthereumJS.
 */
import { expect } from "chai";
import { createVM, runTx } from "@ethereumjs/vm";
import { createLegacyTx } from "@ethereumjs/tx";
import { Address, createAccount, hexToBytes, privateToAddress } from "@ethereumjs/util";
import { installJumpAnalysisCache, jumpAnalysisStats } from "../../src/chain/engine/jump-analysis";
import { type Harness, inProcess, rpcError } from "../helpers/harness";

// jumps to 4, a JUMPDEST, and returns 42; the code ends in a PUSH32 with two of its bytes
const VALID = "600456fe5b602a60005260206000f37f0102";
// jumps to 4, a 0x5b byte inside PUSH1's data: not a jump destination
const INTO_PUSH_DATA = "600456605b00";

/** Init code that returns `runtime` as the contract's code (CODECOPY of the bytes after it). */
function deployCode(runtime: string): string {
  const len = (runtime.length / 2).toString(16).padStart(4, "0");
  return `0x61${len}80600c6000396000f3${runtime}`;
}

describe("jump analysis cached per code", function () {
  let h: Harness;
  let from: string;

  before(async function () {
    h = await inProcess();
    from = (await h.request<string[]>("eth_accounts"))[0];
  });
  after(async function () {
    await h.close();
  });

  async function deploy(runtime: string): Promise<string> {
    const hash = await h.request<string>("eth_sendTransaction", [{ from, data: deployCode(runtime), gas: "0x100000" }]);
    const receipt = await h.request<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [hash]);
    expect(receipt.status).to.equal("0x1");
    expect(await h.request("eth_getCode", [receipt.contractAddress, "latest"])).to.equal(`0x${runtime}`);
    return receipt.contractAddress;
  }

  it("is in place with the EthereumJS the package pins", function () {
    expect(installJumpAnalysisCache()).to.equal(true);
  });

  it("analyses a code once and serves later calls, mined transactions and twins from the cache, with the right destinations", async function () {
    const a = await deploy(VALID);
    const before = { ...jumpAnalysisStats };
    const answer = `0x${"2a".padStart(64, "0")}`;
    expect(await h.request("eth_call", [{ to: a }, "latest"])).to.equal(answer);
    expect(await h.request("eth_call", [{ to: a }, "latest"])).to.equal(answer);
    const first = { ...jumpAnalysisStats };
    expect(first.misses - before.misses).to.equal(1);
    expect(first.hits - before.hits).to.equal(1);

    // a mined transaction (the live VM: a table of its own) analyses once, then reuses it
    for (let i = 0; i < 2; i++) {
      const hash = await h.request<string>("eth_sendTransaction", [{ from, to: a, gas: "0x10000" }]);
      expect((await h.request<{ status: string }>("eth_getTransactionReceipt", [hash])).status).to.equal("0x1");
    }
    expect(jumpAnalysisStats.hits - first.hits).to.be.greaterThan(0);

    // another contract with the same code: the analysis is found by the code's hash
    const twin = await deploy(VALID);
    const beforeTwin = { ...jumpAnalysisStats };
    expect(await h.request("eth_call", [{ to: twin }, "latest"])).to.equal(answer);
    expect(jumpAnalysisStats.misses).to.equal(beforeTwin.misses);
    expect(jumpAnalysisStats.hits).to.equal(beforeTwin.hits + 1);
  });

  it("keeps a JUMPDEST byte inside PUSH data invalid on a cached analysis", async function () {
    const bad = await deploy(INTO_PUSH_DATA);
    for (let i = 0; i < 2; i++) {
      // the chain's own answer (the raw JSON-RPC one, as over HTTP), not the provider's Hardhat-style text
      const res = (await h.raw({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: bad, gas: "0x10000" }, "latest"] })) as { error?: { message: string } };
      expect(res.error?.message).to.match(/^invalid JUMP at 0x[0-9a-f]{64}\/0x[0-9a-f]{40}:2$/);
    }
    expect(jumpAnalysisStats.hits).to.be.greaterThan(0);
    // and a mined transaction into it fails the same way
    const err = await rpcError(h.request("eth_sendTransaction", [{ from, to: bad, gas: "0x10000" }]));
    expect(err.message).to.be.a("string");
    const block = await h.request<{ transactions: string[] }>("eth_getBlockByNumber", ["latest", false]);
    const receipt = await h.request<{ status: string; to: string }>("eth_getTransactionReceipt", [block.transactions[0]]);
    expect([receipt.to, receipt.status]).to.deep.equal([bad, "0x0"]);
  });

  it("leaves EVMs the chain did not make to EthereumJS", async function () {
    const key = hexToBytes("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    const vm = await createVM();
    await vm.stateManager.putAccount(new Address(privateToAddress(key)), createAccount({ balance: 10n ** 20n }));
    const target = new Address(hexToBytes("0x00000000000000000000000000000000000000aa"));
    await vm.stateManager.putCode(target, hexToBytes(`0x${VALID}`));
    const before = { ...jumpAnalysisStats };
    for (let nonce = 0n; nonce < 2n; nonce++) {
      const tx = createLegacyTx({ nonce, gasPrice: 10n ** 10n, gasLimit: 100_000n, to: target }, { common: vm.common }).sign(key);
      const res = await runTx(vm, { tx, skipBlockGasLimitValidation: true, skipHardForkValidation: true });
      expect(res.execResult.exceptionError).to.equal(undefined);
      expect(res.execResult.returnValue[31]).to.equal(42);
    }
    expect(jumpAnalysisStats).to.deep.equal(before);
  });
});
