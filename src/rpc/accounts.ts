/**
 * The accounts the node signs for, shared by the eth and personal namespaces: its dev accounts
 * (funded at genesis; their keys are public, they always sign) and the key store's accounts (they
 * sign while unlocked, or with their passphrase on the personal methods that take one).
 */
import { Address } from "@ethereumjs/util";
import { KeyStoreError, LockedError } from "../keystore";
import type { RpcDeps } from "./deps";
import { ServerError } from "./errors";
import type { Access } from "./method";

const INSECURE_UNLOCK_FORBIDDEN = "account unlock with HTTP access is forbidden";

/**
 * `allow-insecure-unlock = false` refuses the methods Evmos gates (eth_accounts, eth_sendTransaction,
 * personal_listAccounts, personal_sendTransaction) and geth's personal_unlockAccount, with their text.
 */
export function assertInsecureUnlockAllowed(deps: RpcDeps): void {
  if (!deps.settings.allowInsecureUnlock) throw new ServerError(INSECURE_UNLOCK_FORBIDDEN);
}

/**
 * eth_accounts: the dev accounts, then the key store's (locked or not), each once. A caller that may
 * not use key-store keys (`withKeyStore` false: a foreign page without the token) sees only the dev
 * accounts: the key store's addresses are the developer's own.
 */
export function nodeAccounts(deps: RpcDeps, withKeyStore = true): string[] {
  return [...new Set([...deps.node.keys.keys(), ...(withKeyStore ? deps.keystore.accounts() : [])])];
}

/**
 * The class of a call that signs with the node's key of `from` (eth_sign, eth_signTypedData*,
 * eth_signTransaction, eth_sendTransaction): `send` for a dev account (its key is public) or an
 * address the node holds no key for, `dev` for a key-store account. A key-store key is the
 * developer's own: a page from a foreign origin must not sign with it (docs/security.md).
 */
export function signerAccess(deps: RpcDeps, from: Uint8Array | undefined): Access {
  if (from === undefined) return "send";
  const a = new Address(from).toString();
  return !isDevAccount(deps, a) && deps.keystore.has(a) ? "dev" : "send";
}

export function isDevAccount(deps: RpcDeps, address: string): boolean {
  return deps.node.keys.has(address.toLowerCase());
}

/**
 * The key that signs for `from` on eth_sign and eth_signTypedData: a dev account's, else an unlocked
 * key-store account's. A locked key-store account answers geth's `authentication needed: password or unlock`.
 */
export function signingKey(deps: RpcDeps, from: Address): Uint8Array {
  const key = transactionKey(deps, from);
  if (key === undefined) throw new ServerError(`unknown account ${from.toString()}: the node holds no key for it`);
  return key;
}

/**
 * As signingKey, for transactions: an impersonated account (hardhat_impersonateAccount) or an
 * unknown one answers undefined, and the transaction builder signs for the first and refuses the second.
 */
export function transactionKey(deps: RpcDeps, from: Address): Uint8Array | undefined {
  const a = from.toString();
  const dev = deps.node.keys.get(a);
  if (dev !== undefined) return dev;
  const ks = deps.keystore;
  if (ks.isUnlocked(a)) return ks.unlockedKey(a);
  if (!deps.node.impersonated.has(a) && ks.has(a)) throw new ServerError(new LockedError().message);
  return undefined;
}

/** Runs a key-store operation; its failures (geth's texts) become -32000 errors. */
export async function withKeyStore<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof KeyStoreError) throw new ServerError(err.message);
    throw err;
  }
}
