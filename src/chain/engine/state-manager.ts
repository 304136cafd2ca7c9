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
 * It also reports the addresses and storage slots it writes to `preimages` (the live state manager
 * only; copies for calls and replays report nothing): the tries hash their keys, and a state dump
 * lists accounts by address and slot (src/chain/engine/preimages.ts).
 */
import { MerkleStateManager } from "@ethereumjs/statemanager";
import { type Account, type Address, KECCAK256_NULL, createAccount, equalsBytes } from "@ethereumjs/util";
import type { Preimages } from "./preimages";

export class ChainStateManager extends MerkleStateManager {
  private _allow: string | undefined;
  private _restore: { address: string; codeHash: Uint8Array } | undefined;
  /** Set on the live state manager only (shallow copies start without it). */
  preimages: Preimages | undefined;

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
    this.preimages?.record(address.bytes);
    return super.putAccount(address, account);
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (this.preimages !== undefined) {
      this.preimages.record(address.bytes);
      this.preimages.record(key);
    }
    return super.putStorage(address, key, value);
  }

  override async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.preimages?.record(address.bytes);
    return super.putCode(address, value);
  }

  /**
   * Forgets that what the caches hold was read, without writing it. EthereumJS's caches log every
   * read that missed as a change, and the state manager writes those "changes" back to the trie at
   * its next flush (when its last checkpoint ends, or before it moves to another root). Only for a
   * copy whose base level holds nothing but reads: the warmed caches of an execution context
   * (`warmCaches` in src/chain/engine/execution.ts). A real change there would be lost.
   */
  forgetReads(): void {
    this._caches?.account?.flush();
    this._caches?.storage?.flush();
    this._caches?.code?.flush();
  }

  /** Accounts + storage slots + codes in the read-through caches. */
  cacheEntries(): number {
    const c = this._caches;
    return (c?.account?.size() ?? 0) + (c?.storage?.size() ?? 0) + (c?.code?.size() ?? 0);
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
