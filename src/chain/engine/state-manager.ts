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
 *
 * Its flush (what a block's end, a state root or a new root writes to the tries) applies the changes
 * as one batch per trie (src/chain/engine/trie-batch.ts) instead of EthereumJS's put per key, and
 * notes what it wrote (src/chain/engine/flush-journal.ts), so that going back to an older root
 * (evm_revert) corrects only those cached entries instead of emptying the caches.
 */
import { RLP } from "@ethereumjs/rlp";
import { CODEHASH_PREFIX, MerkleStateManager } from "@ethereumjs/statemanager";
import {
  type Account,
  type Address,
  KECCAK256_NULL,
  MAX_INTEGER,
  concatBytes,
  createAccount,
  createAccountFromRLP,
  createAddressFromString,
  equalsBytes,
  unpadBytes,
  unprefixedHexToBytes,
} from "@ethereumjs/util";
import { keccak256 } from "../../utils/keccak";
import { type ChangedKeys, FlushJournal } from "./flush-journal";
import { ChainError } from "../base/errors";
import type { Preimages } from "./preimages";
import { type NodeWrite, type TrieChange, TrieBatch } from "./trie-batch";

const EMPTY = new Uint8Array();
/** A slot's zero as the storage cache holds it: RLP of no bytes. */
const ZERO_SLOT = new Uint8Array([0x80]);

export class ChainStateManager extends MerkleStateManager {
  private _allow: string | undefined;
  private _restore: { address: string; codeHash: Uint8Array } | undefined;
  /** Set on the live state manager only (shallow copies start without it). */
  preimages: Preimages | undefined;

  /** Checkpoints open on this state (the EVM's journal opens one here for each of its own). */
  get checkpointDepth(): number {
    return this._checkpointCount;
  }

  private _storageWatch: Set<string> | undefined;

  /** Runs `fn` and returns the accounts whose storage it wrote (0x-prefixed lowercase hex), as well. */
  async watchingStorage(fn: () => Promise<void>): Promise<Set<string>> {
    const watch = new Set<string>();
    this._storageWatch = watch;
    try {
      await fn();
    } finally {
      this._storageWatch = undefined;
    }
    return watch;
  }

  /** The next read of `address` (runTx's sender check) sees it without code. */
  allowContractSender(address: Address): void {
    this._allow = address.toString();
  }

  /** Ends an exception that the transaction did not use (call after `runTx`, whatever happened). */
  endContractSender(): void {
    this._allow = undefined;
    this._restore = undefined;
  }

  /**
   * Reads an account as the state holds it (a forked chain's state reads through to its remote here):
   * the cache, else the state trie through the kept decoded nodes (EthereumJS's trie would read and
   * decode each node on the path from its database, at every new root).
   */
  protected async _readAccount(address: Address): Promise<Account | undefined> {
    const cache = this._caches?.account;
    const elem = cache?.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? createAccountFromRLP(elem.accountRLP) : undefined;
    const rlp = await this._trieBatch().get(this._trie.database(), this._trie.root(), this._keccak(address.bytes));
    const account = rlp === undefined ? undefined : createAccountFromRLP(rlp);
    cache?.put(address, account);
    return account;
  }

  /** A slot: the cache, else the account's storage trie at its storage root, through the kept decoded nodes. */
  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error("Storage key must be 32 bytes long");
    const cache = this._caches?.storage;
    const cached = cache?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = await this.getAccount(address);
    if (account === undefined) return new Uint8Array();
    const value = await this._trieBatch().get(this._trie.database(), account.storageRoot, this._keccak(key));
    cache?.put(address, key, value ?? ZERO_SLOT);
    return RLP.decode(value ?? EMPTY) as Uint8Array;
  }

  private _keccak(data: Uint8Array): Uint8Array {
    return (this.common.customCrypto.keccak256 ?? keccak256)(data);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const account = await this._readAccount(address);
    if (this._allow === undefined || this._allow !== address.toString()) return account;
    this._allow = undefined;
    if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return account;
    this._restore = { address: address.toString(), codeHash: account.codeHash };
    return createAccount({ nonce: account.nonce, balance: account.balance, storageRoot: account.storageRoot, codeHash: KECCAK256_NULL });
  }

  /**
   * Every account the chain writes goes through here, so no balance passes 2^256−1 whatever wrote it
   * (a module's mint, a dev setter, genesis): the BALANCE opcode cannot read a wider one, and a dump
   * holding one would not load back.
   */
  override async putAccount(address: Address, account?: Account): Promise<void> {
    if (account !== undefined && account.balance > MAX_INTEGER) throw new ChainError(`the balance of ${address.toString()} would be ${account.balance}, past 2^256-1`);
    if (this._restore !== undefined && account !== undefined && this._restore.address === address.toString()) {
      account.codeHash = this._restore.codeHash;
      this._restore = undefined;
    }
    this.preimages?.record(address.bytes);
    return super.putAccount(address, account);
  }

  /**
   * Puts the slot in the storage cache only; the flush writes it. (EthereumJS's putStorage means to
   * do the same, but the cache's `put` returns nothing, so its `?? _writeContractStorage(...)` also
   * wrote every SSTORE through to the storage trie at once: a walk, a path hashed and the account
   * rewritten per write, which the flush then did again.)
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this._storageWatch?.add(address.toString());
    if (this.preimages !== undefined) {
      this.preimages.record(address.bytes);
      this.preimages.record(key);
    }
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    // EthereumJS's checks and texts
    if (key.length !== 32) throw new Error("Storage key must be 32 bytes long");
    if (value.length > 32) throw new Error("Storage value cannot be longer than 32 bytes");
    if ((await this.getAccount(address)) === undefined) throw new Error("putStorage() called on non-existing account");
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /**
   * Slots now live only in the storage cache until a flush, and EthereumJS empties an account's
   * cached slots without a journal entry (its trie held them too): before clearing, each cached slot
   * is written as zero through the cache, which journals it, so a revert brings the slots back.
   */
  private _zeroCachedSlots(address: Address): void {
    const cache = this._caches?.storage;
    const slots = cache?.dump(address);
    if (cache === undefined || slots === undefined) return;
    for (const key of [...slots.keys()]) cache.put(address, unprefixedHexToBytes(key), ZERO_SLOT);
  }

  /** EthereumJS keeps a storage trie object per account (by its hashed address) at the root it last knew. */
  private _forgetStorageTrie(address: Address): void {
    delete this._storageTries[Buffer.from(this._keccak(address.bytes)).toString("hex")];
  }

  override async clearStorage(address: Address): Promise<void> {
    this._zeroCachedSlots(address);
    this._forgetStorageTrie(address);
    return super.clearStorage(address);
  }

  /** Also forgets the account's storage trie object: a deleted account made again would read its old slots from it. */
  override async deleteAccount(address: Address): Promise<void> {
    this._zeroCachedSlots(address);
    this._forgetStorageTrie(address);
    return super.deleteAccount(address);
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
   * (`warmCaches` in src/chain/calls/execution.ts). A real change there would be lost.
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

  /** Copies stay ChainStateManagers (contexts run calls from contracts too) and share the decoded trie nodes. */
  override shallowCopy(downlevelCaches = true): ChainStateManager {
    const copy = Object.setPrototypeOf(super.shallowCopy(downlevelCaches), ChainStateManager.prototype) as ChainStateManager;
    copy._batch = this._trieBatch();
    copy._journal = this._flushJournal();
    copy._journalReadOnly = true;
    return copy;
  }

  private _batch: TrieBatch | undefined;

  private _trieBatch(): TrieBatch {
    this._batch ??= new TrieBatch((data) => this._keccak(data));
    return this._batch;
  }

  private _journal: FlushJournal | undefined;
  /**
   * Set on copies: the journal is the live state manager's, read only. A pooled context VM moving
   * from one of the live chain's roots to another keeps its caches warm through it; what a copy
   * flushes itself is not recorded there (its root then leaves the journal's roots, and its next
   * move empties its caches).
   */
  private _journalReadOnly: boolean | undefined;

  private _flushJournal(): FlushJournal {
    this._journal ??= new FlushJournal();
    return this._journal;
  }

  /**
   * Whether a move to another root may keep the caches warm. A forked chain's reads fall through to
   * the remote where its trie holds nothing, which the re-reads of `_rewindCaches` do not do: it
   * empties its caches as EthereumJS does (src/chain/fork/state-manager.ts).
   */
  protected _keepsCachesOnRewind(): boolean {
    return true;
  }

  /**
   * Moves to another state root. EthereumJS empties every cache here, so the next transaction reads
   * all it touches again (the cost a test paid after each `loadFixture`). When the flush journal leads
   * from the current root to `stateRoot` (the live state going back; a copy either way), only the
   * cached entries those flushes wrote are set to their values at `stateRoot`; everything else
   * cached is the same at both roots (a root is a hash of the whole state) and stays.
   */
  override async setStateRoot(stateRoot: Uint8Array, clearCache = true): Promise<void> {
    await this.flush();
    // (empty caches have nothing to keep: a new copy set to its first root)
    const warm = clearCache && this._caches !== undefined && this._checkpointCount === 0 && this.cacheEntries() > 0 && this._keepsCachesOnRewind();
    const journal = this._flushJournal();
    const changed = !warm ? undefined : this._journalReadOnly === true ? journal.between(this._trie.root(), stateRoot) : journal.rewind(this._trie.root(), stateRoot);
    await super.setStateRoot(stateRoot, clearCache && changed === undefined);
    if (changed !== undefined) await this._rewindCaches(changed);
  }

  /** Sets each cached entry named in `changed` to its value at the current root, then forgets those puts were writes. */
  private async _rewindCaches(changed: ChangedKeys): Promise<void> {
    const caches = this._caches;
    if (caches === undefined) return;
    const db = this._trie.database();
    const root = this._trie.root();
    const accounts = new Map<string, Account | undefined>();
    const accountAt = async (address: Address): Promise<Account | undefined> => {
      const hex = address.toString();
      if (accounts.has(hex)) return accounts.get(hex);
      const rlp = await this._trieBatch().get(db, root, this._keccak(address.bytes));
      const account = rlp === undefined ? undefined : createAccountFromRLP(rlp);
      accounts.set(hex, account);
      return account;
    };
    for (const hex of changed.accounts) {
      const address = createAddressFromString(`0x${hex}`);
      if (caches.account?.get(address) !== undefined) caches.account.put(address, await accountAt(address));
    }
    for (const [hex, keys] of changed.slots) {
      const address = createAddressFromString(`0x${hex}`);
      for (const keyHex of keys) {
        const key = unprefixedHexToBytes(keyHex);
        if (caches.storage?.get(address, key) === undefined) continue;
        const account = await accountAt(address);
        const value = account === undefined ? undefined : await this._trieBatch().get(db, account.storageRoot, this._keccak(key));
        caches.storage.put(address, key, value ?? ZERO_SLOT);
      }
    }
    for (const hex of changed.codes) {
      const address = createAddressFromString(`0x${hex}`);
      if (caches.code?.get(address) === undefined) continue;
      const account = await accountAt(address);
      const key = account === undefined || !account.isContract() ? undefined : this._codeKey(account.codeHash);
      const code = key === undefined ? undefined : ((await db.get(key)) as Uint8Array | undefined);
      caches.code.put(address, code ?? EMPTY);
    }
    this.forgetReads();
  }

  /** The node database's key of a code: its hash, behind EthereumJS's prefix when the trie prefixes code keys (as its getCode reads them). */
  private _codeKey(codeHash: Uint8Array): Uint8Array {
    return this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash;
  }

  /**
   * What a slot's new value puts in its storage trie: its RLP, or nothing (the key removed) for
   * zero. A forked chain writes its zero instead (src/chain/fork/state-manager.ts).
   */
  protected _storedSlot(value: Uint8Array): Uint8Array | undefined {
    return value.length > 0 ? RLP.encode(value) : undefined;
  }

  /** What an account's new state puts in the state trie: its RLP, or nothing (removed) once deleted; a forked chain's tombstone. */
  protected _storedAccount(rlp: Uint8Array | undefined): Uint8Array | undefined {
    return rlp;
  }

  /**
   * Writes what the caches hold as changed to the tries, as EthereumJS's flush does (code, then
   * storage, then accounts), but each trie's changes in one batch: every account's storage trie, then
   * the state trie.
   */
  override async flush(): Promise<void> {
    const caches = this._caches;
    if (caches === undefined || this._prefixStorageTrieKeys) {
      if (this._journalReadOnly !== true) this._flushJournal().reset();
      return super.flush();
    }
    const db = this._trie.database();
    const before = this._trie.root();
    const codes: string[] = [];
    const slotKeys: [string, string][] = [];
    for (const [addressHex, elem] of caches.code?.flush() ?? []) {
      codes.push(addressHex);
      if (elem.code === undefined) continue;
      const address = createAddressFromString(`0x${addressHex}`);
      const codeHash = this._keccak(elem.code);
      await db.put(this._codeKey(codeHash), elem.code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, createAccount({}));
      await this.modifyAccountFields(address, { codeHash });
    }
    const written = async (writes: NodeWrite[]): Promise<void> => {
      if (writes.length > 0) await db.batch(writes.map((w) => ({ type: "put" as const, key: w.hash, value: w.encoded })));
    };
    const slots = new Map<string, TrieChange[]>();
    for (const [addressHex, keyHex, value] of caches.storage?.flush() ?? []) {
      slotKeys.push([addressHex, keyHex]);
      const changes = slots.get(addressHex) ?? [];
      if (changes.length === 0) slots.set(addressHex, changes);
      changes.push({ key: this._keccak(unprefixedHexToBytes(keyHex)), value: this._storedSlot(RLP.decode(value ?? EMPTY) as Uint8Array) });
    }
    for (const [addressHex, changes] of slots) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue;
      const { root, writes } = await this._trieBatch().apply(db, account.storageRoot, changes);
      await written(writes);
      account.storageRoot = root;
      await this.putAccount(address, account);
      this._forgetStorageTrie(address);
    }
    const changedAccounts = caches.account?.flush() ?? [];
    if (changedAccounts.length === 0) return;
    const accounts = changedAccounts.map(([addressHex, elem]): TrieChange => ({ key: this._keccak(unprefixedHexToBytes(addressHex)), value: this._storedAccount(elem.accountRLP) }));
    const { root, writes } = await this._trieBatch().apply(db, before, accounts);
    await written(writes);
    this._trie.root(root);
    if (this._journalReadOnly !== true) this._flushJournal().record({ before, after: root, accounts: changedAccounts.map(([addressHex]) => addressHex), slots: slotKeys, codes });
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
