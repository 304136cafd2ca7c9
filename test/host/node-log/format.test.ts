/**
 * The node log's texts (src/host/node-log/format.ts) and its collapsing of repeated lines
 * (src/host/node-log/node-log.ts), without a node: data in, lines out.
 */
import { expect } from "chai";
import { AbiCoder, getBytes, id } from "ethers";
import { type TxStory, ANSI, epochLines, estimateNote, failureText, formatValue, paramsSummary, txLines } from "../../../src/host/node-log/format";
import { NodeLog } from "../../../src/host/node-log/node-log";
import { hardhatFailureMessage as failureMessage } from "../../helpers/hardhat-failure-text";
import { StackTraceEntryType } from "../../../src/solidity/stack-trace";
import { encodeSolidityStackTrace } from "hardhat/internal/hardhat-network/stack-traces/solidity-errors";
import { getVerbosity, setVerbosity } from "../../../src/utils/log-level";
import { bech32 } from "bech32";
import { GOV_MODULE_ACCOUNT } from "../../../src/cosmos/gov/keeper";
import { GOV_ABI } from "../../../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../../../src/cosmos/staking/precompile";
import { type LocalNode, closeLocalNode, localNode } from "../../helpers/local-node";

const coder = AbiCoder.defaultAbiCoder();
const selector = (sig: string): string => id(sig).slice(0, 10);
const errorString = (reason: string): Uint8Array => getBytes(selector("Error(string)") + coder.encode(["string"], [reason]).slice(2));
const panic = (code: number): Uint8Array => getBytes(selector("Panic(uint256)") + coder.encode(["uint256"], [code]).slice(2));

function story(over: Partial<TxStory> = {}): TxStory {
  return {
    hash: `0x${"ab".repeat(32)}`,
    from: `0x${"11".repeat(20)}`,
    to: `0x${"22".repeat(20)}`,
    value: 0n,
    gasUsed: 21_000n,
    gasLimit: 30_000n,
    status: 1,
    returnData: new Uint8Array(),
    consoleLines: [],
    block: { number: 7n, hash: `0x${"cd".repeat(32)}` },
    ...over,
  };
}

describe("node log: texts", () => {
  it("writes values as a person reads them", () => {
    expect(formatValue(0n)).to.equal("0 ETH");
    expect(formatValue(1n)).to.equal("1 wei");
    expect(formatValue(2_500_000_000n)).to.equal("2.5 gwei");
    expect(formatValue(1_500_000_000_000_000_000n)).to.equal("1.5 ETH");
    expect(formatValue(10n ** 18n)).to.equal("1 ETH");
    // on the node, in the chain's coin: whole coins by its symbol, small amounts in its base denom
    const test = { symbol: "TEST", denom: "atest" };
    expect([formatValue(0n, test), formatValue(5n, test), formatValue(1_500_000_000_000_000_000n, test)]).to.deep.equal(["0 TEST", "5atest", "1.5 TEST"]);
  });

  it("decodes why a transaction failed in Hardhat's words: Error(string), Panic(uint256), custom errors, other data, none, out of gas", () => {
    const vm = "Error: VM Exception while processing transaction:";
    expect(failureText("revert", errorString("no way"))).to.equal(`${vm} reverted with reason string 'no way'`);
    expect(failureText("revert", panic(0x11))).to.equal(`${vm} reverted with panic code 0x11 (Arithmetic operation overflowed outside of an unchecked block)`);
    expect(failureText("revert", panic(0x99))).to.equal(`${vm} reverted with unknown panic code 0x99`);
    expect(failureText("revert", getBytes("0xdeadbeef01"))).to.equal(`${vm} reverted with an unrecognized custom error (return data: 0xdeadbeef01)`);
    // a custom error the project's contracts declare (the node passes its contract registry's decoder)
    const decode = (data: Uint8Array) => (Buffer.from(data.subarray(0, 4)).toString("hex") === "deadbeef" ? "Nope(1)" : undefined);
    expect(failureText("revert", getBytes("0xdeadbeef01"), decode)).to.equal(`${vm} reverted with custom error 'Nope(1)'`);
    expect(failureText("revert", getBytes("0xcafebabe01"), decode)).to.equal(`${vm} reverted with an unrecognized custom error (return data: 0xcafebabe01)`);
    // an Error(string) selector with a body that is no string: shown as data, never a crash
    expect(failureText("revert", getBytes(selector("Error(string)")))).to.equal(`${vm} reverted with an unrecognized custom error (return data: ${selector("Error(string)")})`);
    expect(failureText("revert", new Uint8Array())).to.equal("Error: Transaction reverted without a reason string");
    expect(failureText("out of gas", new Uint8Array())).to.equal("Error: Transaction ran out of gas");
    expect(failureText("invalid opcode", new Uint8Array())).to.equal(`${vm} invalid opcode`);
    expect(failureText("stack underflow", new Uint8Array())).to.equal("Error: Transaction reverted and Hardhat couldn't infer the reason.");
  });

  it("says of return data exactly what Hardhat's own encodeSolidityStackTrace says of an unrecognised contract", () => {
    // Hardhat's message for the same data, from its own code (the entry EDR makes for code it does not know)
    const hardhatSays = (returnData: Uint8Array, isInvalidOpcodeError = false): string =>
      encodeSolidityStackTrace("fallback", [{ type: StackTraceEntryType.UNRECOGNIZED_CONTRACT_ERROR, address: new Uint8Array(20), returnData, isInvalidOpcodeError }] as never).message;
    for (const data of [errorString("no way"), errorString(""), panic(0x01), panic(0x32), panic(0x99), getBytes("0xdeadbeef01"), new Uint8Array()]) {
      expect(failureMessage({ error: "revert", returnValue: data })).to.equal(hardhatSays(data));
      expect(failureText("revert", data)).to.equal(`Error: ${hardhatSays(data)}`);
    }
    expect(failureMessage({ error: "invalid opcode", returnValue: new Uint8Array() })).to.equal(hardhatSays(new Uint8Array(), true));
  });

  it("tells a deployment: its contract, address, then the transaction's fields and the block", () => {
    const lines = txLines(story({ to: undefined, contractAddress: `0x${"33".repeat(20)}`, name: { contract: "Token" } }), { indent: "  ", withBlock: true });
    expect(lines).to.deep.equal([
      "  Contract deployment: Token",
      `  Contract address:    0x${"33".repeat(20)}`,
      `  Transaction:         0x${"ab".repeat(32)}`,
      `  From:                0x${"11".repeat(20)}`,
      "  Value:               0 ETH",
      "  Gas used:            21000 of 30000",
      `  Block #7:            0x${"cd".repeat(32)}`,
      "",
    ]);
    expect(txLines(story({ to: undefined }), { indent: "  ", withBlock: true })[0]).to.equal("  Contract deployment: <UnrecognizedContract>");
  });

  it("tells a failed call: the function, console.log lines under it, then the reason", () => {
    const lines = txLines(story({ status: 0, vmError: "revert", returnData: errorString("boom"), name: { contract: "Token", function: "transfer" }, consoleLines: ["a", "b"] }), {
      indent: "    ",
      withBlock: false,
    });
    expect(lines[0]).to.equal("    Contract call:       Token#transfer");
    expect(lines).to.not.include.members([`    Block #7:            0x${"cd".repeat(32)}`]);
    const at = lines.indexOf("    console.log:");
    expect(lines.slice(at, at + 3)).to.deep.equal(["    console.log:", "      a", "      b"]);
    expect(lines.slice(-2)).to.deep.equal(["    Error: VM Exception while processing transaction: reverted with reason string 'boom'", ""]);
    // located in the project's sources: the frames under the error, as Hardhat's node prints them
    const located = txLines(story({ status: 0, vmError: "revert", returnData: errorString("boom"), frames: ["at Token.transfer (contracts/Token.sol:42)", "at Bank.pay (contracts/Bank.sol:7)"] }), {
      indent: "  ",
      withBlock: true,
    });
    expect(located.slice(-4)).to.deep.equal([
      "  Error: VM Exception while processing transaction: reverted with reason string 'boom'",
      "      at Token.transfer (contracts/Token.sol:42)",
      "      at Bank.pay (contracts/Bank.sol:7)",
      "",
    ]);
    // an unknown callee: no "Contract call" line at all
    expect(txLines(story(), { indent: "", withBlock: true })[0]).to.match(/^Transaction: +0x/);
  });

  it("says under a precompile call that ran out of gas after its block's begin block did module work why the estimate fell short", () => {
    const staking = `0x${"0".repeat(36)}0800`;
    const note = estimateNote({ to: staking, status: 0, vmError: "out of gas" }, [{ type: "mint" }, { type: "mint" }]);
    expect(note).to.match(
      /^Note: this block's begin block did module work before this transaction \(mint\), .* as on evmd\. Send such calls with a margin \(docs\/cosmos-precompiles\.md, "Gas estimates"\)\.$/,
    );
    const lines = txLines(story({ to: staking, status: 0, vmError: "out of gas", note }), { indent: "  ", withBlock: true });
    expect(lines.slice(-3)).to.deep.equal(["  Error: Transaction ran out of gas", `  ${note}`, ""]);
    // not said of another failure, another address, or a block whose begin block did nothing
    expect(estimateNote({ to: staking, status: 0, vmError: "revert" }, [{ type: "mint" }])).to.equal(undefined);
    expect(estimateNote({ to: `0x${"22".repeat(20)}`, status: 0, vmError: "out of gas" }, [{ type: "mint" }])).to.equal(undefined);
    expect(estimateNote({ to: staking, status: 0, vmError: "out of gas" }, [])).to.equal(undefined);
    expect(estimateNote({ to: staking, status: 1 }, [{ type: "mint" }])).to.equal(undefined);
  });

  it("colours only what it is given to colour", () => {
    const lines = txLines(story({ status: 0, vmError: "revert" }), { indent: "", withBlock: true, paint: ANSI });
    expect(lines.find((l) => l.startsWith("Transaction"))).to.include("\u001b[1m");
    expect(lines.find((l) => l.includes("reverted without a reason"))).to.match(/^\u001b\[31m/);
  });

  it("tells epoch ticks, one line each, with the hooks they called and why one failed (Hardhat's message and frames when explained)", () => {
    const attrs = (o: Record<string, string>) => Object.entries(o).map(([key, value]) => ({ key, value }));
    const a = `0x${"44".repeat(20)}`;
    const b = `0x${"55".repeat(20)}`;
    const lines = epochLines(
      [
        { type: "epoch_end", attributes: attrs({ epoch_number: "3", identifier: "week" }) },
        { type: "epoch_hook", attributes: attrs({ identifier: "week", hook: "AfterEpochEnd", address: a, epoch_number: "3", gas_used: "752" }) },
        { type: "epoch_start", attributes: attrs({ epoch_number: "4", start_time: "1", identifier: "week" }) },
        { type: "epoch_hook_failed", attributes: attrs({ identifier: "week", hook: "BeforeEpochStart", address: b, epoch_number: "4", gas_used: "0", reason: "execution reverted: no" }) },
        { type: "epoch_hook_failed", attributes: attrs({ identifier: "week", hook: "BeforeEpochStart", address: "typescript", epoch_number: "4", gas_used: "0", reason: "thrown" }) },
        {
          type: "epoch_hook_failed",
          attributes: attrs({
            identifier: "week",
            hook: "BeforeEpochStart",
            address: a,
            epoch_number: "4",
            gas_used: "900",
            reason: "execution reverted: late",
            error: "VM Exception while processing transaction: reverted with reason string 'late'",
            stack: "at Rewards.check (contracts/Rewards.sol:9)\nat Rewards.beforeEpochStart (contracts/Rewards.sol:4)",
          }),
        },
      ],
      "  ",
      (addr) => (addr === a ? "Rewards" : undefined),
    );
    expect(lines).to.deep.equal([
      "  epoch week #3 ended",
      `    afterEpochEnd: Rewards (${a}): ok, gas used 752`,
      "  epoch week #4 started",
      `    beforeEpochStart: ${b}: failed: execution reverted: no (gas used 0)`,
      "    beforeEpochStart: a TypeScript hook: failed: thrown (gas used 0)",
      `    beforeEpochStart: Rewards (${a}): failed: execution reverted: late (gas used 900)`,
      "      Error: VM Exception while processing transaction: reverted with reason string 'late'",
      "        at Rewards.check (contracts/Rewards.sol:9)",
      "        at Rewards.beforeEpochStart (contracts/Rewards.sol:4)",
    ]);
  });

  it("sums up request params in one short line", () => {
    expect(paramsSummary([])).to.equal("");
    expect(paramsSummary(["0x1", true])).to.equal('["0x1",true]');
    const long = paramsSummary([{ data: `0x${"00".repeat(500)}` }]);
    expect(long).to.include("…(500 bytes)");
    expect(paramsSummary([{ note: "x".repeat(400) }]).length).to.equal(160);
  });
});

describe("node log: repeated requests collapse into one line", () => {
  let before = 3;
  beforeEach(() => {
    before = getVerbosity();
    setVerbosity(3); // the story's level, whatever an earlier test left
  });
  afterEach(() => setVerbosity(before));

  function capture(tty: boolean): { log: NodeLog; out: () => string } {
    let text = "";
    return { log: new NodeLog({ write: (t) => (text += t), tty, holdMs: 60_000 }), out: () => text };
  }

  it("off a terminal, writes the line once with its count when another line comes", async () => {
    const { log, out } = capture(false);
    for (let i = 0; i < 3; i++) log.onRequest("eth_blockNumber", []);
    log.onRequest("eth_chainId", []);
    log.onRequest("eth_blockNumber", []);
    await log.flush();
    expect(out()).to.equal("eth_blockNumber (3)\neth_chainId\neth_blockNumber\n");
  });

  it("on a terminal, rewrites the line in place with the count", async () => {
    const { log, out } = capture(true);
    log.onRequest("eth_call", []);
    log.onRequest("eth_call", []);
    await log.flush();
    expect(out()).to.equal("\u001b[32meth_call\u001b[39m\n\u001b[1A\u001b[2K\u001b[32meth_call (2)\u001b[39m\n");
  });
});

describe("node log: the Cosmos modules' block work, on a local_node.sh chain", function () {
  this.timeout(60_000);
  let before = 3;
  let c: LocalNode | undefined;
  beforeEach(() => {
    before = getVerbosity();
    setVerbosity(3);
  });
  afterEach(async () => {
    setVerbosity(before);
    await closeLocalNode(c);
    c = undefined;
  });

  it("tells proposals dropped, passed and failed, an unbonding completed, x/mint's provision, and why a precompile call ran out of gas", async () => {
    c = await localNode();
    const { h } = c;
    let text = "";
    const log = new NodeLog({ write: (t) => (text += t), tty: false, holdMs: 60_000 });
    log.attach(h.runtime.node, undefined, { symbol: "TEST", denom: "atest" });
    const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
    const GOV = "0x0000000000000000000000000000000000000805";
    const STAKING = "0x0000000000000000000000000000000000000800";
    const valoper = bech32.encode("cosmosvaloper", bech32.toWords(getBytes(VALIDATOR)));
    const govAccount = bech32.encode("cosmos", bech32.toWords(getBytes(GOV_MODULE_ACCOUNT)));
    const q = (n: bigint) => `0x${n.toString(16)}`;
    const send = async (to: string, data: string, gas = 3_000_000n) => {
      try {
        await h.request("eth_sendTransaction", [{ from: ALICE, to, data, gas: q(gas) }]);
      } catch {
        // a failure is mined and told; this test reads the log
      }
    };
    const json = (messages: unknown[]) => Buffer.from(JSON.stringify({ messages, metadata: "", title: "t", summary: "s" }));
    const msgSend = (amount: string) => ({
      "@type": "/cosmos.bank.v1beta1.MsgSend",
      from_address: govAccount,
      to_address: bech32.encode("cosmos", bech32.toWords(getBytes(ALICE))),
      amount: [{ denom: "atest", amount }],
    });
    await send(STAKING, STAKING_ABI.encodeFunctionData("delegate", [ALICE, valoper, 5000n * 10n ** 18n]));
    // the gov account's own coins, which proposal #1's MsgSend spends
    await h.request("eth_sendTransaction", [{ from: ALICE, to: GOV_MODULE_ACCOUNT, value: q(10n) }]);
    await send(GOV, GOV_ABI.encodeFunctionData("submitProposal", [ALICE, json([msgSend("1")]), [["atest", 10n ** 18n]]]));
    await send(GOV, GOV_ABI.encodeFunctionData("submitProposal", [ALICE, json([msgSend("1" + "0".repeat(30))]), [["atest", 10n ** 18n]]]));
    await send(GOV, GOV_ABI.encodeFunctionData("submitProposal", [ALICE, json([msgSend("1")]), []]));
    await send(GOV, GOV_ABI.encodeFunctionData("vote", [ALICE, 1, 1, ""]));
    await send(GOV, GOV_ABI.encodeFunctionData("vote", [ALICE, 2, 1, ""]));
    await send(STAKING, STAKING_ABI.encodeFunctionData("undelegate", [ALICE, valoper, 10n ** 18n]));
    // the exact estimate of a second undelegate, the block's mint between (docs/cosmos-precompiles.md, "Gas estimates")
    const data = STAKING_ABI.encodeFunctionData("undelegate", [ALICE, valoper, 10n ** 18n]);
    await send(STAKING, data, BigInt(await h.request<string>("eth_estimateGas", [{ from: ALICE, to: STAKING, data }])));
    const head = BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    await h.request("evm_mine", [Number(head + 31n)]);
    await h.request("evm_mine", [Number(head + 1_814_401n)]);
    await log.flush();
    expect(text).to.match(/x\/mint: minted \d+atest \(inflation 0\.\d{18}, bonded ratio 0\.\d{18}\)/);
    expect(text).to.contain("x/gov: proposal #1 passed: its messages ran");
    expect(text).to.match(/x\/gov: proposal #2 failed: .*insufficient funds/);
    expect(text).to.contain("x/gov: proposal #3 dropped: its deposit period ended without the minimum deposit");
    expect(text).to.match(new RegExp(`x/staking: unbonding of 1000000000000000000atest from ${VALIDATOR} to ${ALICE} completed`));
    expect(text).to.contain("Error: Transaction ran out of gas");
    expect(text).to.contain("  Value:               0 TEST\n");
    // precompile calls by cosmos/evm's interface names
    expect(text).to.contain("  Contract call:       StakingI#delegate\n");
    expect(text).to.contain("  Contract call:       IGov#submitProposal\n");
    // the SDK's typed epoch events carry no identifier: the log names the timers from the epochs store
    expect(text).to.match(/epoch day #1 started\n  epoch hour #1 started\n  epoch minute #1 started\n  epoch week #1 started/);
    expect(text).to.match(/epoch minute #1 ended\n  epoch minute #2 started/);
    expect(text).to.match(/Note: this block's begin block did module work before this transaction \(mint\)/);
  });

  it("tells a hardhat_mine run whose minute ticks were played as one range and the count of its ticks, as epochs_blockEvents lists them", async () => {
    c = await localNode();
    const { h } = c;
    let text = "";
    const log = new NodeLog({ write: (t) => (text += t), tty: false, holdMs: 60_000 });
    log.attach(h.runtime.node, undefined, { symbol: "TEST", denom: "atest" });
    await h.request("hardhat_mine", ["0x2"]);
    const first = BigInt(await h.request<string>("eth_blockNumber", [])) + 1n;
    await h.request("hardhat_mine", ["0x258"]);
    await log.flush();
    const m = new RegExp(`Mined empty block range #${first} to #${first + 599n}\\n  (\\d+) epoch end\\(s\\) and (\\d+) start\\(s\\) in these blocks, no hook acting`).exec(text);
    expect(m, text).to.not.equal(null);
    let ends = 0;
    let starts = 0;
    for (let n = first; n < first + 600n; n++) {
      const e = await h.request<{ begin_block_events: Array<{ type: string }>; end_block_events: Array<{ type: string }> }>("epochs_blockEvents", [`0x${n.toString(16)}`]);
      for (const x of [...e.begin_block_events, ...e.end_block_events]) {
        if (x.type.endsWith("EventEpochEnd")) ends++;
        if (x.type.endsWith("EventEpochStart")) starts++;
      }
    }
    // ten minutes: ten ends and ten starts of the minute timer (the hour's one if the run crosses it)
    expect(ends).to.be.within(9, 11);
    expect([Number(m?.[1]), Number(m?.[2])]).to.deep.equal([ends, starts]);
  });
});
