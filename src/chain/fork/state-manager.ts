/**
 * The state of a forked chain: a MerkleStateManager whose trie holds what the local chain wrote (and
 * what it read, once a block or a hardhat_set* change flushed it), and whose misses read the remote
 * at the fork block.
 *
 * The local trie is an overlay, so "absent" must mean "never touched here", never "deleted here":
 *   - a deleted account (EIP-161 cleanup, a pre-Cancun SELFDESTRUCT) is written as a tombstone leaf
 *     (the empty RLP list, which no account encodes to) instead of being removed;
 *   - a storage slot set to zero is written as the RLP of the empty string (0x80, which reads back as
 *     zero) instead of being removed;
 *   - storage that was cleared here (CREATE over an old address, `clearStorage`) gets a marker slot,
 *     and a missing slot of such an account is zero, not the remote's.
 * Every value stays where the VM expects it, so checkpoints, snapshots, contexts (shallow copies) and
 * old state roots work as on a local chain. The roots of a forked chain's blocks are roots of this
 * overlay, not of the remote's full state.
 */
import type { MerkleStateManagerOpts } from "@ethereumjs/statemanager";
import { RLP } from "@ethereumjs/rlp";
import { type Account, type Address, KECCAK256_NULL, KECCAK256_RLP, concatBytes, createAccount, createAccountFromRLP, equalsBytes, unpadBytes, utf8ToBytes } from "@ethereumjs/util";
import type { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { keccak256 } from "../../utils/keccak";
import { ChainStateManager } from "../engine/state-manager";
import { ForkError } from "./remote";
import type { RemoteState } from "./remote-state";

/** The leaf of an account deleted on the local chain (an RLP empty list: no account encodes to it). */
const TOMBSTONE = new Uint8Array([0xc0]);
/** A slot set to zero on the local chain (RLP of the empty string). */
const ZERO_SLOT = new Uint8Array([0x80]);
/** The slot that marks an account's storage as local only (a 32-byte key nobody's layout uses). */
const LOCAL_STORAGE_SLOT = keccak256(utf8ToBytes("hardhat-epochs fork: this account's storage is local"));
const CODEHASH_PREFIX = utf8ToBytes("c");

/** A ChainStateManager (impersonated contract senders work on a fork too) whose misses read the remote. */
export class ForkStateManager extends ChainStateManager {
  constructor(
    opts: MerkleStateManagerOpts,
    /** The remote at the fork block (or at an older block, for historical reads). */
    readonly remote: RemoteState,
  ) {
    super(opts);
    // Flushing a deleted account removes its leaf; here it must stay, as a tombstone.
    const trie = this._trie;
    const put = trie.put.bind(trie);
    trie.del = (key: Uint8Array) => put(key, TOMBSTONE);
  }

  protected override async _readAccount(address: Address): Promise<Account | undefined> {
    const elem = this._caches?.account?.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? createAccountFromRLP(elem.accountRLP) : undefined;
    const rlp = await this._trie.get(address.bytes);
    let account: Account | undefined;
    if (rlp !== null) {
      account = equalsBytes(rlp, TOMBSTONE) ? undefined : createAccountFromRLP(rlp);
    } else {
      const r = await this.remote.account(address.bytes);
      const empty = r.nonce === 0n && r.balance === 0n && equalsBytes(r.codeHash, KECCAK256_NULL);
      account = empty ? undefined : createAccount({ nonce: r.nonce, balance: r.balance, codeHash: r.codeHash, storageRoot: KECCAK256_RLP });
    }
    this._caches?.account?.put(address, account);
    return account;
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const elem = this._caches?.code?.get(address);
    if (elem !== undefined) return elem.code ?? new Uint8Array(0);
    const account = await this.getAccount(address);
    if (account === undefined || !account.isContract()) return new Uint8Array(0);
    const key = this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, account.codeHash) : account.codeHash;
    let code = ((await this._trie.database().get(key as never)) as Uint8Array | undefined) ?? undefined;
    if (code === undefined) {
      code = this.remote.code(account.codeHash);
      if (code === undefined) {
        await this.remote.account(address.bytes);
        code = this.remote.code(account.codeHash);
      }
      if (code === undefined) throw new ForkError(`the code of ${address.toString()} is neither local nor at the fork block of ${this.remote.client.name}`);
    }
    this._caches?.code?.put(address, code);
    return code;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error("Storage key must be 32 bytes long");
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = await this.getAccount(address);
    if (account === undefined) return new Uint8Array();
    const trie = this._getStorageTrie(address, account);
    let value = await trie.get(key);
    if (value === null && !(await this._storageIsLocal(address, trie))) {
      value = RLP.encode(unpadBytes(await this.remote.storage(address.bytes, key)));
    }
    this._caches?.storage?.put(address, key, value ?? ZERO_SLOT);
    return RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
  }

  override async clearStorage(address: Address): Promise<void> {
    await super.clearStorage(address);
    const account = await this.getAccount(address);
    if (account !== undefined) await super._writeContractStorage(address, account, LOCAL_STORAGE_SLOT, new Uint8Array([1]));
  }

  protected override async _writeContractStorage(address: Address, account: Account, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (value.length > 0) return super._writeContractStorage(address, account, key, value);
    // a zero is written, not removed: removing would let the remote's value show through again
    await this._modifyContractStorage(address, account, async (storageTrie, done) => {
      await storageTrie.put(key, ZERO_SLOT);
      done();
    });
  }

  /** A missing entry reads the remote, which the warm rewind's re-reads do not: a rewind empties the caches here. */
  protected override _keepsCachesOnRewind(): boolean {
    return false;
  }

  /** A deleted account stays as a tombstone when the flush writes the state trie in one batch too. */
  protected override _storedAccount(rlp: Uint8Array | undefined): Uint8Array {
    return rlp ?? TOMBSTONE;
  }

  /** A zero is written, not removed, for the same reason (the flush's batch writes slots through this). */
  protected override _storedSlot(value: Uint8Array): Uint8Array {
    return value.length > 0 ? RLP.encode(value) : ZERO_SLOT;
  }

  override shallowCopy(downlevelCaches = true): ForkStateManager {
    const common = this.common.copy();
    common.setHardfork(this.common.hardfork());
    const cacheSize = !downlevelCaches ? (this._trie as unknown as { _opts: { cacheSize: number } })._opts.cacheSize : 0;
    const trie = this._trie.shallowCopy(false, { cacheSize });
    return new ForkStateManager(
      { common, trie, prefixStorageTrieKeys: this._prefixStorageTrieKeys, prefixCodeHashes: this._prefixCodeHashes, caches: this._caches?.shallowCopy(downlevelCaches) },
      this.remote,
    );
  }

  /** Whether a slot missing from the local trie is zero (storage cleared here, or no code at the remote) rather than the remote's. */
  private async _storageIsLocal(address: Address, trie: MerklePatriciaTrie): Promise<boolean> {
    if ((await trie.get(LOCAL_STORAGE_SLOT)) !== null) return true;
    const r = await this.remote.account(address.bytes);
    return equalsBytes(r.codeHash, KECCAK256_NULL);
  }
}
