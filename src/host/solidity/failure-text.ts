/**
 * Hardhat's text for a failed execution known by its VM error and return data ("VM Exception while
 * processing transaction: reverted with reason string '…'", panic codes, custom errors), written
 * here once for both hosts and the node's log (Hardhat 3 does not export its decoders). Same texts as
 * Hardhat's, checked against Hardhat 2's own decoders in test/host/failure-text.test.ts.
 */
import { panicCode, revertReason } from "../../solidity/revert-data";

export interface FailedExecution {
  /** The VM's error ("revert", "out of gas", "invalid opcode", …); absent: a revert. */
  error?: string;
  returnValue: Uint8Array;
}

const VM_EXCEPTION = "VM Exception while processing transaction:";

const PANIC_REASONS: Record<number, string> = {
  0x1: "Assertion error",
  0x11: "Arithmetic operation overflowed outside of an unchecked block",
  0x12: "Division or modulo division by zero",
  0x21: "Tried to convert a value into an enum, but the value was too big or negative",
  0x22: "Incorrectly encoded storage byte array",
  0x31: ".pop() was called on an empty array",
  0x32: "Array accessed at an out-of-bounds or negative index",
  0x41: "Too much memory was allocated, or an array was created that is too large",
  0x51: "Called a zero-initialized variable of internal function type",
};

export function panicMessage(code: bigint): string {
  const reason = code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined;
  return reason !== undefined ? `reverted with panic code 0x${code.toString(16)} (${reason})` : `reverted with unknown panic code 0x${code.toString(16)}`;
}

/** `customError` names revert data as a custom error of a known contract (`Name(args)`), or undefined. */
/** Names a custom error of the project's contracts from its revert data ("TooBig(40)"), or undefined. */
export type CustomErrorDecoder = (data: Uint8Array) => string | undefined;

export function failureText(f: FailedExecution, customError?: CustomErrorDecoder): string {
  const error = f.error ?? "revert";
  if (error === "out of gas") return "Transaction ran out of gas";
  if (error === "invalid opcode") return `${VM_EXCEPTION} invalid opcode`;
  if (error !== "revert") return "Transaction reverted and Hardhat couldn't infer the reason.";
  const hex = Buffer.from(f.returnValue).toString("hex");
  if (hex === "") return "Transaction reverted without a reason string";
  // as Solidity's ABI decoder reads them (strict): a known selector with a malformed body is said as data below
  const reason = revertReason(f.returnValue, { strict: true });
  if (reason !== undefined) return `${VM_EXCEPTION} reverted with reason string '${reason}'`;
  const code = panicCode(f.returnValue);
  if (code !== undefined) return `${VM_EXCEPTION} ${panicMessage(code)}`;
  const custom = customError?.(f.returnValue);
  if (custom !== undefined) return `${VM_EXCEPTION} reverted with custom error '${custom}'`;
  return `${VM_EXCEPTION} reverted with an unrecognized custom error (return data: 0x${hex})`;
}
