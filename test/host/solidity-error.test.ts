import { expect } from "chai";
import { AbiCoder } from "ethers";
import { hardhatFailureMessage as failureMessage } from "../helpers/hardhat-failure-text";
import { SolidityError, solidityFailure } from "../../src/host/solidity/solidity-error";
import { type StackTraceEntry, StackTraceEntryType as T } from "../../src/solidity/stack-trace";
import type { SourceReference } from "../../src/solidity/registry";

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
const reason = (text: string): Uint8Array => bytes(`08c379a0${AbiCoder.defaultAbiCoder().encode(["string"], [text]).slice(2)}`);
const panic = (code: number): Uint8Array => bytes(`4e487b71${AbiCoder.defaultAbiCoder().encode(["uint256"], [code]).slice(2)}`);

const ref = (contract: string | undefined, fn: string | undefined, line: number): SourceReference => ({
  sourceName: "contracts/Vault.sol",
  sourceContent: "",
  contract,
  function: fn,
  line,
  range: [0, 1],
});
const call = (fn: string, line: number): StackTraceEntry => ({ type: T.CALLSTACK_ENTRY, sourceReference: ref("Vault", fn, line), functionType: 1 });
const address = bytes("5fbdb2315678afecb367f032d93f642f64180aa3");

/** The reference: Hardhat 2's own encodeSolidityStackTrace, its frames read back from the error's stack. */
function hardhat2Failure(f: { returnValue: Uint8Array }, trace: StackTraceEntry[]): { message: string; frames: string[] } {
  if (!trace.some((e) => e.sourceReference !== undefined)) return { message: failureMessage(f), frames: [] };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- Hardhat 2's internals, as the Hardhat 2 host loads them
  const { encodeSolidityStackTrace } = require("hardhat/internal/hardhat-network/stack-traces/solidity-errors") as typeof import("hardhat/internal/hardhat-network/stack-traces/solidity-errors");
  // an empty previous stack: only the Solidity call sites are printed
  const err = encodeSolidityStackTrace(failureMessage(f), trace as never, []);
  const frames = (err.stack ?? "")
    .split("\n")
    .slice(err.message.split("\n").length)
    .map((l) => l.trim())
    .filter((l) => l.startsWith("at "));
  return { message: err.message, frames };
}

describe("Solidity failures of the Hardhat 3 host", function () {
  // Hardhat 2's own encoder (src/hardhat/errors.ts borrows it) is the reference for every entry type the chain makes
  const traces: Array<[string, StackTraceEntry[], Uint8Array]> = [
    ["a reason string", [{ type: T.REVERT_ERROR, returnData: reason("too big"), sourceReference: ref("Vault", "deposit", 12), isInvalidOpcodeError: false }], reason("too big")],
    [
      "a revert without reason, two calls deep",
      [call("run", 30), call("step", 21), { type: T.REVERT_ERROR, returnData: new Uint8Array(), sourceReference: ref("Vault", "check", 9), isInvalidOpcodeError: false }],
      new Uint8Array(),
    ],
    ["an invalid opcode", [{ type: T.REVERT_ERROR, returnData: new Uint8Array(), sourceReference: ref("Vault", "boom", 40), isInvalidOpcodeError: true }], new Uint8Array()],
    ["a panic", [{ type: T.PANIC_ERROR, errorCode: 0x11n, sourceReference: ref("Vault", "add", 7) }], panic(0x11)],
    ["a custom error", [{ type: T.CUSTOM_ERROR, message: "reverted with custom error 'TooBig(40)'", sourceReference: ref("Vault", "bump", 15) }], bytes("deadbeef")],
    ["an unknown selector", [{ type: T.UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR, sourceReference: ref("Vault", undefined, 4) }], new Uint8Array()],
    ["no receive nor fallback", [{ type: T.MISSING_FALLBACK_OR_RECEIVE_ERROR, sourceReference: ref("Vault", undefined, 4) }], new Uint8Array()],
    ["a non-payable function", [{ type: T.FUNCTION_NOT_PAYABLE_ERROR, value: 5n, sourceReference: ref("Vault", "withdraw", 22) }], new Uint8Array()],
    ["a non-payable fallback", [{ type: T.FALLBACK_NOT_PAYABLE_ERROR, value: 7n, sourceReference: ref("Vault", "fallback", 50) }], new Uint8Array()],
    ["no receive, non-payable fallback", [{ type: T.FALLBACK_NOT_PAYABLE_AND_NO_RECEIVE_ERROR, value: 1n, sourceReference: ref("Vault", "fallback", 50) }], new Uint8Array()],
    ["wrong parameters", [{ type: T.INVALID_PARAMS_ERROR, sourceReference: ref("Vault", "deposit", 12) }], new Uint8Array()],
    ["a call to an account without code", [call("run", 30), { type: T.NONCONTRACT_ACCOUNT_CALLED_ERROR, sourceReference: ref("Vault", "ping", 33) }], new Uint8Array()],
    ["a callee out of gas", [{ type: T.CONTRACT_CALL_RUN_OUT_OF_GAS_ERROR, sourceReference: ref("Vault", "loop", 61) }], new Uint8Array()],
    ["another VM error", [{ type: T.OTHER_EXECUTION_ERROR, sourceReference: ref("Vault", "weird", 70) }], new Uint8Array()],
    ["a free function", [{ type: T.REVERT_ERROR, returnData: reason("free"), sourceReference: ref(undefined, "helper", 3), isInvalidOpcodeError: false }], reason("free")],
    ["an unknown contract called by a known one", [call("run", 30), { type: T.UNRECOGNIZED_CONTRACT_ERROR, address, returnData: reason("far away"), isInvalidOpcodeError: false }], reason("far away")],
    ["an unknown contract's panic", [call("run", 30), { type: T.UNRECOGNIZED_CONTRACT_ERROR, address, returnData: panic(0x12), isInvalidOpcodeError: false }], panic(0x12)],
    ["an unknown contract's raw data", [call("run", 30), { type: T.UNRECOGNIZED_CONTRACT_ERROR, address, returnData: bytes("cafe"), isInvalidOpcodeError: false }], bytes("cafe")],
    ["an unknown constructor", [call("make", 18), { type: T.UNRECOGNIZED_CREATE_ERROR, returnData: new Uint8Array(), isInvalidOpcodeError: true }], new Uint8Array()],
    [
      "through an unknown contract",
      [
        { type: T.UNRECOGNIZED_CONTRACT_CALLSTACK_ENTRY, address },
        call("run", 30),
        { type: T.REVERT_ERROR, returnData: reason("deep"), sourceReference: ref("Vault", "check", 9), isInvalidOpcodeError: false },
      ],
      reason("deep"),
    ],
    ["through an unknown constructor", [{ type: T.UNRECOGNIZED_CREATE_CALLSTACK_ENTRY }, { type: T.PANIC_ERROR, errorCode: 0x1n, sourceReference: ref("Vault", "assertOk", 2) }], panic(0x1)],
  ];
  for (const [what, trace, returnValue] of traces) {
    it(`tells ${what} as Hardhat does: message and frames`, () => {
      const ours = solidityFailure({ returnValue }, trace);
      const hardhat = hardhat2Failure({ returnValue }, trace);
      expect(ours.frames.length, "a trace with a known source has frames").to.be.greaterThan(0);
      expect(ours).to.deep.equal(hardhat);
    });
  }

  it("gives no frames for a trace that reaches no known source, and the return data's message", () => {
    const trace: StackTraceEntry[] = [{ type: T.UNRECOGNIZED_CONTRACT_ERROR, address, returnData: reason("nope"), isInvalidOpcodeError: false }];
    expect(solidityFailure({ returnValue: reason("nope") }, trace)).to.deep.equal({ message: "VM Exception while processing transaction: reverted with reason string 'nope'", frames: [] });
    expect(solidityFailure({ returnValue: bytes("deadbeef") }, undefined, () => "TooBig(40)").message).to.equal("VM Exception while processing transaction: reverted with custom error 'TooBig(40)'");
  });

  it("leaves Hardhat 3's `project/` prefix out of the project's source names when asked, and only that prefix", () => {
    const at = (sourceName: string): StackTraceEntry => ({
      type: T.REVERT_ERROR,
      returnData: new Uint8Array(),
      sourceReference: { ...ref("Vault", "check", 9), sourceName },
      isInvalidOpcodeError: false,
    });
    const opts = { localSourcePrefix: "project/" };
    expect(solidityFailure({ returnValue: new Uint8Array() }, [at("project/contracts/Vault.sol")], undefined, opts).frames).to.deep.equal(["at Vault.check (contracts/Vault.sol:9)"]);
    expect(solidityFailure({ returnValue: new Uint8Array() }, [at("npm/@oz/contracts@5.0.0/Vault.sol")], undefined, opts).frames).to.deep.equal([
      "at Vault.check (npm/@oz/contracts@5.0.0/Vault.sol:9)",
    ]);
    expect(solidityFailure({ returnValue: new Uint8Array() }, [at("project/contracts/Vault.sol")]).frames).to.deep.equal(["at Vault.check (project/contracts/Vault.sol:9)"]);
  });

  it("puts the frames at the top of a SolidityError's stack, with Hardhat 3's code, data and hash", () => {
    const err = new SolidityError("VM Exception while processing transaction: reverted with reason string 'x'", "0x08c379a0", "0xabc", [
      "at Vault.deposit (contracts/Vault.sol:12)",
      "at Vault.run (contracts/Vault.sol:30)",
    ]);
    const lines = (err.stack ?? "").split("\n");
    expect(lines.slice(0, 3)).to.deep.equal([
      "SolidityError: VM Exception while processing transaction: reverted with reason string 'x'",
      "    at Vault.deposit (contracts/Vault.sol:12)",
      "    at Vault.run (contracts/Vault.sol:30)",
    ]);
    expect(lines[3]).to.match(/^ {4}at .*solidity-error\.test\.ts/);
    expect({ code: err.code, data: err.data, hash: err.transactionHash, name: err.name }).to.deep.equal({ code: 3, data: "0x08c379a0", hash: "0xabc", name: "SolidityError" });
    expect(err).to.not.have.property("stackTrace");
  });
});
