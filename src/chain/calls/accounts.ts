/**
 * Transactions the node signs for callers: with a dev account's key, or — for an impersonated
 * account (hardhat_impersonateAccount) — with a throwaway key that only gives the transaction bytes
 * and a hash. The real sender travels beside the transaction (pool entry, receipt), never inside it:
 * see `sender.ts`.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import { keccak256 } from "../../utils/keccak";
import { type CallRequest, unsignedTransaction } from "./execution";
import { publicKeyOf } from "../base/crypto";
import { signedBy } from "../engine/sender";
import { ChainError } from "../base/errors";
import type { NodeReads } from "../reads/node-reads";

// A fixed key that only gives impersonated transactions a signature, hence a hash.
const IMPERSONATION_KEY = keccak256(new TextEncoder().encode("hardhat-epochs impersonation"));

/**
 * Builds and signs a transaction from `from` with `req`'s fields, gas and nonce already decided.
 * `key` is the sender's key when the caller holds it (a key-store account); else a dev account's.
 */
export function signAs(node: NodeReads, from: Address, req: CallRequest, gas: bigint, nonce: bigint, key: Uint8Array | undefined = node.keys.get(from.toString())): TypedTransaction {
  const a = from.toString();
  if (key === undefined && !node.impersonated.has(a)) throw new ChainError(`unknown account ${a}`);
  // unfrozen, so its signed copy (sign() keeps the options) can be told its signer before it is frozen
  const unsigned = unsignedTransaction(node, { ...req, from: from.bytes }, gas, nonce, { freeze: false });
  const signingKey = key ?? IMPERSONATION_KEY;
  // the signer is known: block production and runTx ask the transaction for it (src/chain/block/block-producer.ts)
  return signedBy(unsigned.sign(signingKey), publicKeyOf(signingKey));
}
