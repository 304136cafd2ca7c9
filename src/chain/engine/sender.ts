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
import { addressOfPublicKey } from "../base/crypto";

/**
 * A view of `tx` (already frozen, as stored) whose sender is `sender`. Costly beyond its creation: V8
 * turns an object used as a prototype into a slow (dictionary) one, and each view has a shape of its
 * own, so runTx's accesses to it and every later access to `tx` go the slow way (about 10–20 % of a
 * transfer's runTx in scratch measurements). For impersonated transactions and replays only; a
 * transaction built for a call gets its sender with `sentBy`.
 */
export function withSender<T extends TypedTransaction>(tx: T, sender: Address): T {
  // `hash` answers from the transaction itself: EthereumJS caches a hash only on a frozen
  // transaction, and this view is not one (it would serialize and hash a deploy's bytes again)
  return Object.create(tx, { getSenderAddress: { value: () => sender }, hash: { value: () => tx.hash() } }) as T;
}

/**
 * `tx`, made with `freeze: false` and not used yet, told its sender as its own property and then
 * frozen (EthereumJS keeps its computed costs on frozen transactions only). All such transactions
 * share V8 shapes, and none becomes a prototype.
 */
export function sentBy<T extends TypedTransaction>(tx: T, sender: Address): T {
  if (Object.isFrozen(tx)) throw new Error("sentBy: the transaction is frozen already (create it with freeze: false)");
  Object.defineProperty(tx, "getSenderAddress", { value: () => sender });
  return Object.freeze(tx);
}

/**
 * `tx`, signed, made with `freeze: false` and not used yet, with its sender worked out once: the
 * public key recovered from the signature (or given, when the signer's key is known), the address
 * hashed from it with the native Keccak, told as its own property (`sentBy`), and the key kept in
 * EthereumJS's cache once frozen. A frozen transaction from EthereumJS keeps the key but hashes the
 * address again (in pure JS, ~20 µs) at every `getSenderAddress()`: the RPC handler, the pool, block
 * production and runTx each asked.
 */
export function signedBy<T extends TypedTransaction>(tx: T, publicKey: Uint8Array = tx.getSenderPublicKey()): T {
  const signed = sentBy(tx, addressOfPublicKey(publicKey));
  signed.cache.senderPubKey = publicKey;
  return signed;
}
