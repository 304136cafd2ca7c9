/**
 * Hardhat's text for a failed execution known by its VM error and return data ("VM Exception while
 * processing transaction: reverted with reason string '…'", panic codes, custom errors), written
 * here for the Hardhat 3 host: Hardhat 3 does not export the decoders the Hardhat 2 host borrows
 * (src/hardhat/errors.ts). Same texts as Hardhat's, checked against them in test/host/failure-text.test.ts.
 */
import { AbiCoder } from "ethers";

export interface FailedExecution {
  /** The VM's error ("revert", "out of gas", "invalid opcode", …); absent: a revert. */
  error?: string;
  returnValue: Uint8Array;
}

const VM_EXCEPTION = "VM Exception while processing transaction:";
const ERROR_SELECTOR = "08c379a0";
const PANIC_SELECTOR = "4e487b71";

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
  try {
    if (hex.startsWith(ERROR_SELECTOR)) return `${VM_EXCEPTION} reverted with reason string '${AbiCoder.defaultAbiCoder().decode(["string"], `0x${hex.slice(8)}`)[0] as string}'`;
    if (hex.startsWith(PANIC_SELECTOR)) return `${VM_EXCEPTION} ${panicMessage(AbiCoder.defaultAbiCoder().decode(["uint256"], `0x${hex.slice(8)}`)[0] as bigint)}`;
  } catch {
    // a known selector with a malformed body: said as data below
  }
  const custom = customError?.(f.returnValue);
  if (custom !== undefined) return `${VM_EXCEPTION} reverted with custom error '${custom}'`;
  return `${VM_EXCEPTION} reverted with an unrecognized custom error (return data: 0x${hex})`;
}
