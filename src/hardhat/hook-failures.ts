/**
 * Failing epoch hooks told as Hardhat tells a failed transaction: the node explains each failed
 * contract hook with Hardhat's message and, when the project's compilations know the code, the
 * Solidity frames (the `error` and `stack` attributes of `epoch_hook_failed`, the node's log). Only
 * failures pay: the block producer re-runs a failed hook, recorded here, at the state it failed at.
 */
import type { SystemCallExplainer } from "../chain/block-producer";
import { runStackTrace } from "../chain/solidity/failure";
import type { ContractRegistry } from "../chain/solidity/registry";
import { failureMessage, solidityFailure } from "./errors";

export function hookFailureExplainer(registry: ContractRegistry): SystemCallExplainer {
  return async (vm, failure, rerun) => {
    // as for a transaction, running out of gas has no stack trace; without compilations nothing can be located
    if (failure.error === "out of gas" || registry.size === 0) return { message: failureMessage(failure), frames: [] };
    // code no compilation knows: Hardhat's message from the return data alone, no frames (solidityFailure)
    return solidityFailure(failure, await runStackTrace(vm, registry, rerun));
  };
}
