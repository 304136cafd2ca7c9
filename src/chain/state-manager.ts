/**
 * The chain's state manager: EthereumJS's MerkleStateManager plus one narrow exception to
 * EIP-3607.
 *
 * EIP-3607 makes a transaction whose sender holds code invalid, and EthereumJS's `runTx` enforces it
 * with no option to skip it. It applies to signed transactions only: geth and Hardhat's network run
 * `eth_call` / `eth_estimateGas` from any address, and Hardhat lets impersonated accounts that hold
 * code (a contract acting as admin, proxy owner, governor) send transactions. For those, the chain
 * calls `allowContractSender(address)` before `runTx`: the sender check then sees the account without
 * code, once, and the first write of that account puts its real code hash back, so the transaction
 * runs against the contract as it is.
 *
 * It also keeps a storage write in the storage cache only, as EthereumJS means to: v10.1.3's
 * `putStorage` writes the cache and then the storage trie as well (its `cache.put(…) ?? write(…)`
 * always takes the second branch, `put` returning nothing), so every SSTORE of every execution — a
 * block's transactions, each eth_call and estimate run — paid a trie insert, trie hashing and an
 * account update that the cache's flush does again with the final value at commit.
 */
import { RLP } from "@ethereumjs/rlp";
import { MerkleStateManager } from "@ethereumjs/statemanager";
import { type Account, type Address, EthereumJSErrorWithoutCode, KECCAK256_NULL, createAccount, equalsBytes, unpadBytes } from "@ethereumjs/util";

export class ChainStateManager extends MerkleStateManager {
  private _allow: string | undefined;
  private _restore: { address: string; codeHash: Uint8Array } | undefined;

  /** The next read of `address` (runTx's sender check) sees it without code. */
  allowContractSender(address: Address): void {
    this._allow = address.toString();
  }

  /** Ends an exception that the transaction did not use (call after `runTx`, whatever happened). */
  endContractSender(): void {
    this._allow = undefined;
    this._restore = undefined;
  }

  /** Reads an account as the state holds it (a forked chain's state reads through to its remote here). */
  protected _readAccount(address: Address): Promise<Account | undefined> {
    return super.getAccount(address);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const account = await this._readAccount(address);
    if (this._allow === undefined || this._allow !== address.toString()) return account;
    this._allow = undefined;
    if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return account;
    this._restore = { address: address.toString(), codeHash: account.codeHash };
    return createAccount({ nonce: account.nonce, balance: account.balance, storageRoot: account.storageRoot, codeHash: KECCAK256_NULL });
  }

  override async putAccount(address: Address, account?: Account): Promise<void> {
    if (this._restore !== undefined && account !== undefined && this._restore.address === address.toString()) {
      account.codeHash = this._restore.codeHash;
      this._restore = undefined;
    }
    return super.putAccount(address, account);
  }

  /** Writes a slot into the storage cache only (the trie gets it at flush); without a storage cache, as EthereumJS does. */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    // EthereumJS's checks and messages
    if (key.length !== 32) throw EthereumJSErrorWithoutCode("Storage key must be 32 bytes long");
    if (value.length > 32) throw EthereumJSErrorWithoutCode("Storage value cannot be longer than 32 bytes");
    if ((await this.getAccount(address)) === undefined) throw EthereumJSErrorWithoutCode("putStorage() called on non-existing account");
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /** Copies stay ChainStateManagers (contexts run calls from contracts too). */
  override shallowCopy(downlevelCaches = true): ChainStateManager {
    const copy = super.shallowCopy(downlevelCaches);
    return Object.setPrototypeOf(copy, ChainStateManager.prototype) as ChainStateManager;
  }
}

/** Runs `fn` (a runTx) with `sender` allowed to hold code when `allow` is true. */
export async function withContractSender<T>(sm: unknown, sender: Address, allow: boolean, fn: () => Promise<T>): Promise<T> {
  if (!allow || !(sm instanceof ChainStateManager)) return fn();
  sm.allowContractSender(sender);
  try {
    return await fn();
  } finally {
    sm.endContractSender();
  }
}
