/**
 * The texts geth gives a failed execution (revert data decoded by src/solidity/revert-data.ts), and
 * EthereumJS's own error texts, cleaned of the dumps it appends.
 */
import { revertReason } from "../../solidity/revert-data";
import { errorText } from "./errors";

/** A failed execution as geth words it: "execution reverted[: reason]" for a revert, else the VM's error. */
export function describeFailure(vmError: string, returnValue: Uint8Array): string {
  if (vmError !== "revert") return vmError;
  const reason = revertReason(returnValue);
  return reason === undefined ? "execution reverted" : `execution reverted: ${reason}`;
}

/**
 * EthereumJS appends block and transaction dumps to its messages (`… (vm hf=osaka -> block number=…`,
 * `… (block number=…`, `… (tx type=…`); keep the sentence that says what went wrong, never a
 * dangling `(vm hf=…` tail.
 */
export function cleanVmError(err: unknown): string {
  const msg = errorText(err);
  const cut = msg.search(/\s*\((?:vm hf|block number|tx type)=| -> /);
  return (cut >= 0 ? msg.slice(0, cut) : msg).trim();
}
