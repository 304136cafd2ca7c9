/**
 * Hardhat's own wording of a failure known by its VM error and return data, from Hardhat 2's own
 * decoders (ReturnData, panic texts): the reference src/host/solidity/failure-text.ts is checked against.
 */
export interface FailedExecution {
  error?: string;
  returnValue: Uint8Array;
}

/** Names revert data as a custom error a compiled contract declares: `Name(args)`, or undefined. */
export type CustomErrorDecoder = (data: Uint8Array) => string | undefined;

/**
 * Hardhat's text for a failure known only by its VM error and return data, what it says of an
 * unrecognised contract (Hardhat's own ReturnData and panic texts): the in-process provider's message
 * when no stack trace could be built, and the node log's `Error:` lines. `customError` decodes custom
 * errors of the project's contracts (the node's log); without it they are unrecognised, as on EDR.
 */
export function hardhatFailureMessage(f: FailedExecution, customError?: CustomErrorDecoder): string {
  const vmException = "VM Exception while processing transaction:";
  const error = f.error ?? "revert";
  if (error === "out of gas") return "Transaction ran out of gas";
  if (error === "invalid opcode") return `${vmException} invalid opcode`;
  if (error !== "revert") return "Transaction reverted and Hardhat couldn't infer the reason.";
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: EDR's native module, needed only once something failed
  const { ReturnData } = require("hardhat/internal/hardhat-network/provider/return-data") as typeof import("hardhat/internal/hardhat-network/provider/return-data");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred, as above
  const { panicErrorCodeToMessage } = require("hardhat/internal/hardhat-network/stack-traces/panic-errors") as typeof import("hardhat/internal/hardhat-network/stack-traces/panic-errors");
  const rd = new ReturnData(f.returnValue);
  if (rd.isEmpty()) return "Transaction reverted without a reason string";
  try {
    if (rd.isErrorReturnData()) return `${vmException} reverted with reason string '${rd.decodeError()}'`;
    if (rd.isPanicReturnData()) return `${vmException} ${panicErrorCodeToMessage(rd.decodePanic())}`;
  } catch {
    // a selector with a malformed body (EDR's decoders throw): said as data below
  }
  const custom = customError?.(f.returnValue);
  if (custom !== undefined) return `${vmException} reverted with custom error '${custom}'`;
  return `${vmException} reverted with an unrecognized custom error (return data: 0x${Buffer.from(f.returnValue).toString("hex")})`;
}
