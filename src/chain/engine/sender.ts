/**
 * The sender of a transaction, told to the VM explicitly.
 *
 * Impersonated accounts (hardhat_impersonateAccount) and calls have no key: their transactions get
 * a signature only so they have bytes and a hash, and the chain records the real sender beside them
 * (the receipt's `from`, the pool entry's `sender`). When such a transaction runs, the VM must see
 * that sender instead of the one the signature recovers to: `withSender` gives the VM a view of the
 * transaction that answers `getSenderAddress()` with it. The transaction itself, as stored in the
 * block and the pool, is not changed.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import type { Address } from "@ethereumjs/util";

export function withSender<T extends TypedTransaction>(tx: T, sender: Address): T {
  // `hash` answers from the transaction itself: EthereumJS caches a hash only on a frozen
  // transaction, and this view is not one (it would serialize and hash a deploy's bytes again)
  return Object.create(tx, { getSenderAddress: { value: () => sender }, hash: { value: () => tx.hash() } }) as T;
}
