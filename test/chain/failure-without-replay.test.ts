/**
 * A mined transaction (or an eth_call) that reverted without calling anything gets its stack trace
 * from its own result (`inferFromResult`, src/solidity/stack-trace.ts) instead of a replay of its
 * block (a second run of the call). Where it answers, the answer must be the replay's, entry for
 * entry; where the result cannot say it all (no revert data, an unmapped REVERT, calls made, another
 * error) the node replays. Every kind of
 * failure of the EDR differential test (test/hardhat/solidity-errors.test.ts), with the compilation
 * registered and without.
 */
import { expect } from "chai";
import { AbiCoder } from "ethers";
import type { TypedTransaction } from "@ethereumjs/tx";
import type { RunTxResult } from "@ethereumjs/vm";
import { Address, hexToBytes } from "@ethereumjs/util";
import { callStackTrace, txStackTrace } from "../../src/chain/tracing/failure";
import { type CallRequest, runCall } from "../../src/chain/calls/execution";
import { inferFromResult } from "../../src/solidity/stack-trace";
import { madeNoCalls } from "../../src/chain/engine/context";
import type { MinedBlock } from "../../src/chain/reads/node-types";
import { type Harness, inProcess } from "../helpers/harness";
import { failureCases, failureContracts, failuresCompilation } from "../helpers/failure-cases";

const compilation = failuresCompilation;
const contracts = failureContracts;

describe("stack traces of failures without a second run", function () {
  this.timeout(60_000);
  let h: Harness;
  let from: string;
  const addresses: Record<string, string> = {};
  let lastBlock: MinedBlock | undefined;

  before(async () => {
    h = await inProcess();
    h.runtime.node.on("block", (mined: MinedBlock) => (lastBlock = mined));
    [from] = await h.request<string[]>("eth_accounts");
    const deploy = async (name: string, args = "0x") => {
      const hash = await h.request<string>("eth_sendTransaction", [{ from, data: `0x${contracts[name].evm.bytecode.object}${args.slice(2)}` }]);
      addresses[name] = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
    };
    await deploy("Target");
    await deploy("Caller", AbiCoder.defaultAbiCoder().encode(["address"], [addresses.Target]));
    await deploy("NoFallback");
    await deploy("Limited", AbiCoder.defaultAbiCoder().encode(["uint256"], [100]));
  });
  after(() => h.close());

  const cases = failureCases(addresses);

  /** Sends a failing transaction (automined; the node answers with its failure) and returns what the block that holds it ran. */
  async function mine(tx: Record<string, unknown>): Promise<{ n: bigint; index: number; ran: { result: RunTxResult; tx: TypedTransaction } }> {
    lastBlock = undefined;
    await h.request("eth_sendTransaction", [{ from, gas: "0x100000", ...tx }]).then(
      () => expect.fail("the transaction did not fail"),
      () => undefined,
    );
    const mined = lastBlock as MinedBlock | undefined;
    if (mined?.results === undefined) throw new Error("no block was mined");
    return { n: mined.block.header.number, index: 0, ran: { result: mined.results[0], tx: mined.block.transactions[0] } };
  }

  for (const registered of [false, true]) {
    it(`answers as the replay does, ${registered ? "with the compilation registered" : "without compilation info"}`, async () => {
      if (registered) expect(await h.request("hardhat_addCompilationResult", [compilation.solcVersion, compilation.input, compilation.output])).to.equal(true);
      const registry = h.runtime.deps.contracts;
      const quick: string[] = [];
      for (const c of cases) {
        const { n, index, ran } = await mine(c.tx());
        const replayed = await txStackTrace(h.runtime.node, registry, n, index);
        expect(replayed, `${c.name}: a replayed stack trace`).to.not.equal(undefined);
        const fromResult = madeNoCalls.has(ran.result) ? inferFromResult(ran.result, ran.tx, registry) : undefined;
        if (fromResult !== undefined) {
          quick.push(c.name);
          expect(fromResult, c.name).to.deep.equal(replayed);
        }
        // what the node answers with (the quick one where it can)
        expect(await txStackTrace(h.runtime.node, registry, n, index, ran), c.name).to.deep.equal(replayed);
      }
      // the failures a result alone tells: a reason, a custom error, the dispatcher's refusals; any revert
      // of code no compilation knows (solc checks an account's code before calling it: no call is made)
      const expected = registered
        ? [
            "require with a reason",
            "a custom error",
            "a non-payable function called with value",
            "an unrecognised selector without fallback",
            "value to a contract without fallback or receive",
            "a require in a contract with immutables",
            "a constructor called without its parameters",
          ]
        : cases.filter((c) => !["a revert through another contract", "running out of gas"].includes(c.name)).map((c) => c.name);
      expect(quick).to.deep.equal(expected);
    });

    it(`answers eth_call's failures as a second run does, ${registered ? "with the compilation registered" : "without compilation info"}`, async () => {
      const registry = h.runtime.deps.contracts;
      const node = h.runtime.node;
      let quick = 0;
      for (const c of cases) {
        const t = c.tx();
        const req: CallRequest = { from: hexToBytes(from as `0x${string}`), gas: BigInt((t.gas as string | undefined) ?? "0x100000") };
        if (t.to !== undefined) req.to = hexToBytes(t.to as `0x${string}`);
        if (t.data !== undefined) req.data = hexToBytes(t.data as `0x${string}`);
        if (t.value !== undefined) req.value = BigInt(t.value as string);
        const n = node.headNumber;
        const result = await runCall(node, req, n, { lenient: true });
        expect(result.execResult.exceptionError, c.name).to.not.equal(undefined);
        const again = await callStackTrace(node, registry, req, n, undefined, true);
        expect(again, `${c.name}: a stack trace`).to.not.equal(undefined);
        const call = { to: req.to === undefined ? undefined : new Address(req.to), value: req.value ?? 0n, data: req.data ?? new Uint8Array() };
        if (madeNoCalls.has(result) && inferFromResult(result, call, registry) !== undefined) quick++;
        expect(await callStackTrace(node, registry, req, n, undefined, true, result), c.name).to.deep.equal(again);
      }
      expect(quick).to.equal(registered ? 7 : 11);
    });
  }
});
