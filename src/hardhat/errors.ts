/**
 * Errors of the in-process provider in Hardhat's words and classes: a failed execution becomes the
 * `SolidityError` Hardhat's own `encodeSolidityStackTrace` makes from our stack trace (so messages and
 * `at Token.transfer (contracts/Token.sol:42)` frames are Hardhat's); everything else is a
 * `ProviderError` (Hardhat's class) with the chain's code and data. A failure without a stack trace is
 * worded by src/host/solidity/failure-text.ts, as on Hardhat 3 and in the node's log.
 */
import { InvalidArgumentsError, ProviderError } from "hardhat/internal/core/providers/errors";
import { type RpcError, isRpcError } from "../rpc/errors";
import { failureText } from "../host/solidity/failure-text";

/** The provider's errors are Hardhat's own ProviderError (this name stays for code written against it). */
export const EpochsProviderError = ProviderError;
export type EpochsProviderError = ProviderError;

/** Hardhat's ProviderError (InvalidArgumentsError for -32602, as Hardhat's provider) with the JSON-RPC code and data. */
export function providerError(message: string, code: number, data?: unknown): ProviderError {
  const err = code === InvalidArgumentsError.CODE ? new InvalidArgumentsError(message) : new ProviderError(message, code);
  err.data = data;
  return err;
}

function toProviderError(err: unknown): ProviderError {
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
    const solidityError = encodeSolidityStackTrace(failureText(execution), trace as never) as Error & { data?: string; transactionHash?: string };
    solidityError.data = data;
    solidityError.transactionHash = execution.transactionHash;
    return solidityError;
  }
  const plain = providerError(failureText(execution), (err as RpcError).code, data) as ProviderError & { transactionHash?: string };
  plain.transactionHash = execution.transactionHash;
  return plain;
}
