/**
 * Whether the pool takes a transaction, checked against the head's state before it goes in: the
 * checks and words of the real chain's ante handler where it has them (nonce, fee, balance), else
 * geth's. `Node.send` (src/chain/node.ts) runs it; a refusal is a `ChainError` for the sender.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import type { Account, Address } from "@ethereumjs/util";
import type { NodeSettings } from "../base/config";
import { ChainError } from "../base/errors";
import { maxFeeOf } from "./txpool";

/** Throws the reason `tx` from `sender` (holding `account` at the head) may not enter the pool. */
export function checkAdmission(tx: TypedTransaction, sender: Address, account: Account | undefined, settings: Readonly<NodeSettings>, nextBaseFee: bigint): void {
  const nonce = account?.nonce ?? 0n;
  const balance = account?.balance ?? 0n;
  if (tx.nonce < nonce) throw new ChainError(`nonce too low: address ${sender.toString()}, tx: ${tx.nonce} state: ${nonce}`);
  const intrinsic = tx.getIntrinsicGas();
  if (tx.gasLimit < intrinsic) throw new ChainError(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`);
  if (tx.gasLimit > settings.gasLimit) {
    throw new ChainError(`tx gas (${tx.gasLimit}) exceeds block gas limit (${settings.gasLimit}): out of gas`);
  }
  const fee = maxFeeOf(tx);
  if (fee < settings.minGasPrice) {
    throw new ChainError(`insufficient fee; got: ${fee * tx.gasLimit}aevmos required: ${settings.minGasPrice * tx.gasLimit}aevmos`);
  }
  const cost = tx.gasLimit * fee + tx.value;
  if (balance < cost) {
    throw new ChainError(
      `failed to check sender balance: sender balance < tx cost (${balance} < ${cost}): insufficient funds`,
      `Sender doesn't have enough funds to send tx. The max upfront cost is: ${cost} and the sender's balance is: ${balance}.`,
    );
  }
  if (settings.automine && !settings.paused && fee < nextBaseFee) {
    throw new ChainError(`max fee per gas less than block base fee (${fee} < ${nextBaseFee}): insufficient fee`);
  }
}
