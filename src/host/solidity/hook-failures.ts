/**
 * Failing epoch hooks told as Hardhat tells a failed transaction: each failed contract hook gets
 * Hardhat's message and, when the project's compilations know the code, the Solidity frames (the
 * `error` and `stack` attributes of `epoch_hook_failed`, the node's log). Only failures pay: the
 * block producer re-runs a failed hook, recorded here, at the state it failed at. Both hosts install it.
 */
import { runStackTrace, type SystemCallExplainer } from "../../chain/setup";
import type { ContractRegistry } from "../../solidity/registry";
import { failureText } from "./failure-text";
import { type FrameOptions, solidityFailure } from "./solidity-error";

export function hookFailureExplainer(registry: ContractRegistry, frames: FrameOptions = {}): SystemCallExplainer {
  return async (vm, failure, rerun) => {
    // as for a transaction, running out of gas has no stack trace; without compilations nothing can be located
    if (failure.error === "out of gas" || registry.size === 0) return { message: failureText(failure), frames: [] };
    // code no compilation knows: Hardhat's message from the return data alone, no frames
    return solidityFailure(failure, await runStackTrace(vm, registry, rerun), undefined, frames);
  };
}
