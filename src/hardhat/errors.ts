/**
 * Errors of the in-process provider in Hardhat's words and classes: a failed execution becomes the
 * `SolidityError` Hardhat's own `encodeSolidityStackTrace` makes from our stack trace (so messages and
 * `at Token.transfer (contracts/Token.sol:42)` frames are Hardhat's); everything else is a
 * `ProviderError` (Hardhat's class) with the chain's code and data. (The node logs, failing epoch
 * hooks and Hardhat 3 use the host's own encoder, src/host/solidity-error.ts, checked against this one.)
 */
import { InvalidArgumentsError, ProviderError } from "hardhat/internal/core/providers/errors";
import { type RpcError, isRpcError } from "../rpc/errors";

/** The provider's errors are Hardhat's own ProviderError (this name stays for code written against it). */
export const EpochsProviderError = ProviderError;
export type EpochsProviderError = ProviderError;

/** Hardhat's ProviderError (InvalidArgumentsError for -32602, as Hardhat's provider) with the JSON-RPC code and data. */
export function providerError(message: string, code: number, data?: unknown): ProviderError {
  const err = code === InvalidArgumentsError.CODE ? new InvalidArgumentsError(message) : new ProviderError(message, code);
  err.data = data;
  return err;
}

export function toProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (isRpcError(err)) return providerError(err.hardhat?.message ?? err.message, err.code, err.data);
  const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return providerError(`internal error: ${message}`, -32603);
}

/** The error Hardhat's network throws for the same failure (a stack trace is built only here, on failure). */
export async function toHardhatError(err: unknown): Promise<Error> {
  const execution = isRpcError(err) ? err.hardhat?.execution : undefined;
  if (execution === undefined) return toProviderError(err);
  const data = `0x${Buffer.from(execution.returnValue).toString("hex")}`;
  if (execution.error === "out of gas") {
    // EDR answers a transaction that ran out of gas without a stack trace
    return providerError("Transaction ran out of gas", -32000, { data, transactionHash: execution.transactionHash ?? null });
  }
  const trace = await execution.stackTrace();
  if (trace !== undefined && trace.length > 0) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: it loads EDR's native module, needed only once something failed
    const { encodeSolidityStackTrace } = require("hardhat/internal/hardhat-network/stack-traces/solidity-errors") as typeof import("hardhat/internal/hardhat-network/stack-traces/solidity-errors");
    const solidityError = encodeSolidityStackTrace(failureMessage(execution), trace as never) as Error & { data?: string; transactionHash?: string };
    solidityError.data = data;
    solidityError.transactionHash = execution.transactionHash;
    return solidityError;
  }
  const plain = providerError(failureMessage(execution), (err as RpcError).code, data) as ProviderError & { transactionHash?: string };
  plain.transactionHash = execution.transactionHash;
  return plain;
}

/** How an execution ended: the VM's error ("revert", "out of gas", "invalid opcode", …; absent: a revert) and its return data. */
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
export function failureMessage(f: FailedExecution, customError?: CustomErrorDecoder): string {
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
