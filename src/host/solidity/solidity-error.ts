/**
 * A failed execution as Hardhat tells it, for the Hardhat 3 host: the message Hardhat derives from
 * the last entry of the Solidity stack trace ("function selector was not recognized …", panics, …)
 * and the `at Contract.function (file.sol:line)` frames it puts in the error's stack, innermost
 * first. Hardhat 2's encoder is borrowed from its internals (src/hardhat/errors.ts); Hardhat 3 does
 * not export its own, so this one is written here and checked against Hardhat 2's in
 * test/host/solidity-error.test.ts. The trace comes from src/solidity/stack-trace.ts.
 */
import { type StackTraceEntry, StackTraceEntryType as T } from "../../solidity/stack-trace";
import { type CustomErrorDecoder, type FailedExecution, failureText, panicMessage } from "./failure-text";
import { ERROR_SELECTOR, selectorOf } from "../../solidity/revert-data";

// Hardhat's names for what a frame cannot name (EDR's constants).
const UNRECOGNIZED_CONTRACT = "<UnrecognizedContract>";
const UNRECOGNIZED_FUNCTION = "<unrecognized-selector>";
const UNKNOWN_FUNCTION = "<unknown>";
const CONSTRUCTOR = "constructor";

const VM_EXCEPTION = "VM Exception while processing transaction:";

/** Hardhat 3's code on a SolidityError (its REVERT_ERROR_CODE), what viem and the matchers read. */
const REVERT_ERROR_CODE = 3;

/** One frame as V8 prints a call site: `Type.method (file:line)`, or `(file)` without a line. */
function site(file: string | undefined, contract: string | undefined, fn: string | undefined, line: number | undefined): string {
  const name = contract !== undefined ? `${contract}.${fn ?? "<anonymous>"}` : (fn ?? "<anonymous>");
  return `at ${name} (${file ?? "unknown"}${line !== undefined ? `:${line}` : ""})`;
}

function hex(bytes: Uint8Array | undefined): string {
  return `0x${Buffer.from(bytes ?? []).toString("hex")}`;
}

/** How the host names sources in frames. */
export interface FrameOptions {
  /**
   * A prefix of the project's own source names that frames leave out: Hardhat 3 compiles the
   * project's files as `project/contracts/X.sol` and prints `contracts/X.sol`. None on Hardhat 2.
   */
  localSourcePrefix?: string;
}

/** The frame Hardhat prints for one entry, or undefined for an entry it skips. */
function callSite(e: StackTraceEntry, opts: FrameOptions = {}): string | undefined {
  const ref = e.sourceReference;
  const prefix = opts.localSourcePrefix;
  const file = ref === undefined ? undefined : prefix !== undefined && ref.sourceName.startsWith(prefix) ? ref.sourceName.slice(prefix.length) : ref.sourceName;
  const own = (): string | undefined => (ref === undefined ? undefined : site(file, ref.contract, ref.function ?? UNKNOWN_FUNCTION, ref.line));
  switch (e.type) {
    case T.UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR:
    case T.MISSING_FALLBACK_OR_RECEIVE_ERROR:
      return ref === undefined ? undefined : site(file, ref.contract, UNRECOGNIZED_FUNCTION, ref.line);
    case T.CALLSTACK_ENTRY:
    case T.REVERT_ERROR:
    case T.CUSTOM_ERROR:
    case T.FUNCTION_NOT_PAYABLE_ERROR:
    case T.INVALID_PARAMS_ERROR:
    case T.FALLBACK_NOT_PAYABLE_ERROR:
    case T.FALLBACK_NOT_PAYABLE_AND_NO_RECEIVE_ERROR:
    case T.RETURNDATA_SIZE_ERROR:
    case T.NONCONTRACT_ACCOUNT_CALLED_ERROR:
    case T.CALL_FAILED_ERROR:
    case T.DIRECT_LIBRARY_CALL_ERROR:
      return own();
    case T.UNRECOGNIZED_CREATE_CALLSTACK_ENTRY:
    case T.UNRECOGNIZED_CREATE_ERROR:
      return site(undefined, UNRECOGNIZED_CONTRACT, CONSTRUCTOR, undefined);
    case T.UNRECOGNIZED_CONTRACT_CALLSTACK_ENTRY:
    case T.UNRECOGNIZED_CONTRACT_ERROR:
      return site(hex(e.address), UNRECOGNIZED_CONTRACT, UNKNOWN_FUNCTION, undefined);
    case T.CONTRACT_CALL_RUN_OUT_OF_GAS_ERROR:
    case T.OTHER_EXECUTION_ERROR:
    case T.CONTRACT_TOO_LARGE_ERROR:
    case T.PANIC_ERROR:
    case T.UNMAPPED_SOLC_0_6_3_REVERT_ERROR:
      return own() ?? site(undefined, UNRECOGNIZED_CONTRACT, UNKNOWN_FUNCTION, undefined);
    default:
      return undefined;
  }
}

/** Hardhat's message for the entry that ends a trace; undefined where it falls back to the return data's. */
function lastEntryMessage(e: StackTraceEntry): string | undefined {
  const value = (e.value ?? 0n).toString(10);
  switch (e.type) {
    case T.FUNCTION_NOT_PAYABLE_ERROR:
      return `Transaction reverted: non-payable function was called with value ${value}`;
    case T.INVALID_PARAMS_ERROR:
      return "Transaction reverted: function was called with incorrect parameters";
    case T.FALLBACK_NOT_PAYABLE_ERROR:
      return `Transaction reverted: fallback function is not payable and was called with value ${value}`;
    case T.FALLBACK_NOT_PAYABLE_AND_NO_RECEIVE_ERROR:
      return `Transaction reverted: there's no receive function, fallback function is not payable and was called with value ${value}`;
    case T.UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR:
      return "Transaction reverted: function selector was not recognized and there's no fallback function";
    case T.MISSING_FALLBACK_OR_RECEIVE_ERROR:
      return "Transaction reverted: function selector was not recognized and there's no fallback nor receive function";
    case T.RETURNDATA_SIZE_ERROR:
      return "Transaction reverted: function returned an unexpected amount of data";
    case T.NONCONTRACT_ACCOUNT_CALLED_ERROR:
      return "Transaction reverted: function call to a non-contract account";
    case T.CALL_FAILED_ERROR:
      return "Transaction reverted: function call failed to execute";
    case T.DIRECT_LIBRARY_CALL_ERROR:
      return "Transaction reverted: library was called directly";
    case T.UNRECOGNIZED_CREATE_ERROR:
    case T.UNRECOGNIZED_CONTRACT_ERROR: {
      const data = e.returnData ?? new Uint8Array();
      // an unknown contract: the return data says what it can (a reason, a panic, raw data)
      if (data.length === 0 && e.isInvalidOpcodeError === true) return `${VM_EXCEPTION} invalid opcode`;
      return failureText({ returnValue: data });
    }
    case T.REVERT_ERROR: {
      const data = e.returnData ?? new Uint8Array();
      if (selectorOf(data) === ERROR_SELECTOR) {
        const text = failureText({ returnValue: data });
        if (text.includes("reason string")) return text;
      }
      if (e.isInvalidOpcodeError === true) return `${VM_EXCEPTION} invalid opcode`;
      return "Transaction reverted without a reason string";
    }
    case T.PANIC_ERROR:
      return `${VM_EXCEPTION} ${panicMessage(e.errorCode ?? 0n)}`;
    case T.CUSTOM_ERROR:
      return `${VM_EXCEPTION} ${e.message ?? ""}`;
    case T.OTHER_EXECUTION_ERROR:
      return "Transaction reverted and Hardhat couldn't infer the reason.";
    case T.UNMAPPED_SOLC_0_6_3_REVERT_ERROR:
      return "Transaction reverted without a reason string and without a valid sourcemap provided by the compiler. Some line numbers may be off. We strongly recommend upgrading solc and always using revert reasons.";
    case T.CONTRACT_TOO_LARGE_ERROR:
      return "Transaction reverted: trying to deploy a contract whose code is too large";
    case T.CONTRACT_CALL_RUN_OUT_OF_GAS_ERROR:
      return "Transaction reverted: contract call run out of gas and made the transaction revert";
    default:
      return undefined;
  }
}

/**
 * A failure as Hardhat tells it: the message (from the trace's last entry, else from the VM error and
 * return data) and the Solidity frames, innermost first. A trace that reaches no known source (or
 * none) gives the message from the return data alone and no frames, as Hardhat does for unknown code.
 */
export function solidityFailure(f: FailedExecution, trace: StackTraceEntry[] | undefined, customError?: CustomErrorDecoder, opts: FrameOptions = {}): { message: string; frames: string[] } {
  const fallback = failureText(f, customError);
  if (trace === undefined || trace.length === 0 || !trace.some((e) => e.sourceReference !== undefined)) return { message: fallback, frames: [] };
  const frames = trace
    .map((e) => callSite(e, opts))
    .filter((s): s is string => s !== undefined)
    .reverse();
  return { message: lastEntryMessage(trace[trace.length - 1]) ?? fallback, frames };
}

/**
 * What Hardhat 3's EDR network throws for a failed execution with a Solidity stack trace: a
 * `SolidityError` (not a ProviderError: libraries read `code` to take over JSON-RPC errors) with code
 * 3, the revert data and the transaction's hash; its stack starts with the Solidity frames.
 */
export class SolidityError extends Error {
  readonly code = REVERT_ERROR_CODE;

  constructor(
    message: string,
    readonly data: string,
    readonly transactionHash: string | undefined,
    frames: string[],
  ) {
    super(message);
    this.name = "SolidityError";
    const js = (this.stack ?? "").split("\n").slice(message.split("\n").length);
    this.stack = [`${this.name}: ${message}`, ...frames.map((s) => `    ${s}`), ...js].join("\n");
  }
}
