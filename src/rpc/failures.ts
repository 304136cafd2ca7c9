/**
 * Execution failures as wire errors: geth's code and text for the wire, plus what the in-process
 * provider needs to say it in Hardhat's words (a way to build the Solidity stack trace, on demand).
 */
import type { RunTxResult } from "@ethereumjs/vm";
import { describeFailure } from "../chain";
import type { StackTraceEntry } from "../solidity/stack-trace";
import type { RpcDeps } from "./deps";
import { RevertError, type RpcError, ServerError } from "./errors";
import { hex } from "./format";

/**
 * Code 3 + data for a revert with data, else -32000; `trace` re-runs the execution recorded (a
 * failure to do so is counted for hardhat_getStackTraceFailuresCount and leaves the plain message).
 */
export function executionFailure(deps: RpcDeps, result: RunTxResult, trace: () => Promise<StackTraceEntry[] | undefined>, transactionHash?: string): RpcError {
  const ex = result.execResult;
  const error = ex.exceptionError?.error ?? "execution failed";
  const message = describeFailure(error, ex.returnValue);
  const err = error === "revert" ? new RevertError(message, hex(ex.returnValue)) : new ServerError(message, transactionHash === undefined ? undefined : hex(ex.returnValue));
  err.hardhat = {
    execution: {
      error,
      returnValue: ex.returnValue,
      transactionHash,
      stackTrace: async () => {
        try {
          return await trace();
        } catch {
          deps.stackTraceFailures.count++;
          return undefined;
        }
      },
    },
  };
  return err;
}
