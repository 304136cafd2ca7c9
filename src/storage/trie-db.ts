/**
 * The state trie's node database (`DB` of @ethereumjs/util) over a KVStore.
 *
 * How @ethereumjs/mpt calls it (through its CheckpointDB): keys are node hashes (or keyPrefix ‖ hash
 * for prefixed storage tries) as unprefixed hex strings; values are unprefixed hex strings when the
 * trie's `valueEncoding` is "string" (its default when a db is given) and bytes when it is "view".
 * Both are accepted; nodes are stored as raw bytes under "n" ‖ key bytes.
 *
 * Writes never reach the KVStore directly: they collect in a pending map that the chain takes with
 * `drainOps()` and writes inside the block's single atomic batch (docs/json-rpc.md, "Persistence").
 *
 * Deletes are ignored on purpose: we never prune, because historical queries and snapshots read old
 * state roots, and nodes are content-addressed, so a node shared by many roots must outlive any one.
 */
import type { BatchDBOp, DB, EncodingOpts } from "@ethereumjs/util";
import type { LRUCache } from "lru-cache";
import { countBoundedLRU } from "../utils/lru";
import type { BatchOp, KVStore } from "./kv";

interface TrieDBOptions {
  /** Entries kept in the read cache (default 50,000). */
  cacheSize?: number;
  /** Key prefix of trie nodes in the KVStore (default "n"). */
  prefix?: Uint8Array;
}

type TrieValue = string | Uint8Array;

/** State shared by a TrieDB and all its shallow copies. */
interface Shared {
  readonly kv: KVStore;
  readonly prefix: Uint8Array;
  readonly cacheSize: number;
  /** Written since the last drain. */
  pending: Map<string, Uint8Array>;
  /** Drained last time: the batch holding them may still be in flight, so they stay readable here. */
  inflight: Map<string, Uint8Array>;
  /**
   * Nodes known to be in the KVStore, least recently used evicted first (none when the size is 0).
   * Not a Map evicting its first key: V8 leaves deleted entries at a Map's front until it rehashes,
   * so finding the first key costs more the more were evicted (it made funding 100k accounts quadratic).
   */
  readonly cache: LRUCache<string, Uint8Array> | undefined;
}

const HEX = /^[0-9a-f]*$/;

function normKey(key: string | Uint8Array): string {
  if (typeof key !== "string") return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("hex");
  const k = key.startsWith("0x") ? key.slice(2).toLowerCase() : key.toLowerCase();
  if (k.length % 2 !== 0 || !HEX.test(k)) throw new Error(`trie db: key is not hex: ${key}`);
  return k;
}

function toBytes(v: TrieValue): Uint8Array {
  if (typeof v !== "string") return v;
  return new Uint8Array(Buffer.from(v.startsWith("0x") ? v.slice(2) : v, "hex"));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

export class TrieDB implements DB<string, TrieValue> {
  private _s: Shared;

  constructor(kv: KVStore, opts: TrieDBOptions = {}) {
    const cacheSize = Math.max(0, opts.cacheSize ?? 50_000);
    this._s = {
      kv,
      prefix: opts.prefix ?? new Uint8Array([0x6e]), // "n"
      cacheSize,
      pending: new Map(),
      inflight: new Map(),
      cache: cacheSize > 0 ? countBoundedLRU<string, Uint8Array>(cacheSize) : undefined,
    };
  }

  async get(key: string, opts?: EncodingOpts): Promise<TrieValue | undefined> {
    const k = normKey(key);
    const v = await this._getBytes(k);
    if (v === undefined) return undefined;
    return opts?.valueEncoding === "string" ? Buffer.from(v).toString("hex") : v;
  }

  async put(key: string, val: TrieValue): Promise<void> {
    this._put(normKey(key), toBytes(val));
  }

  /** Ignored: nodes are never pruned (see the file comment). */
  async del(_key: string): Promise<void> {}

  async batch(opStack: BatchDBOp<string, TrieValue>[]): Promise<void> {
    for (const op of opStack) if (op.type === "put") this._put(normKey(op.key), toBytes(op.value));
  }

  /** A view sharing pending writes, caches and the KVStore (mpt copies its db for storage tries and historical reads). */
  shallowCopy(): TrieDB {
    const copy = new TrieDB(this._s.kv, { cacheSize: 0 });
    copy._s = this._s;
    return copy;
  }

  async open(): Promise<void> {}

  /**
   * Takes the nodes written since the last call, as put operations for the block's batch.
   * Write that batch before the next call: the nodes stay readable from memory until then.
   */
  drainOps(): BatchOp[] {
    const s = this._s;
    for (const [k, v] of s.inflight) this._cacheSet(k, v);
    s.inflight = s.pending;
    s.pending = new Map();
    const ops: BatchOp[] = [];
    for (const [k, v] of s.inflight) ops.push({ type: "put", key: this._dbKey(k), value: v });
    return ops;
  }

  /**
   * The batch holding the last `drainOps()` failed: its nodes go back to waiting for the next drain
   * (they may be needed by roots the node still uses, such as hardhat_set* changes made before it).
   */
  undrain(): void {
    const s = this._s;
    for (const [k, v] of s.pending) s.inflight.set(k, v);
    s.pending = s.inflight;
    s.inflight = new Map();
  }

  /**
   * Drops writes not yet drained (a block that failed to build). Only safe once the state manager
   * is back on a root written before them.
   */
  discardPending(): void {
    this._s.pending = new Map();
  }

  /**
   * Whether node `hash` is kept: in the KVStore, or in the operations the last `drainOps()` handed out
   * (stored once their batch is written). A node only in memory (pending, or in a trie checkpoint
   * that never reached this database) is not.
   */
  async persists(hash: Uint8Array): Promise<boolean> {
    const s = this._s;
    const k = normKey(hash);
    if (s.inflight.has(k) || s.cache?.has(k) === true) return true;
    return (await s.kv.get(this._dbKey(k))) !== undefined;
  }

  /** Nodes in the read cache (at most `cacheSize`). */
  get cacheCount(): number {
    return this._s.cache?.size ?? 0;
  }

  /** Nodes waiting for the next `drainOps`. */
  get pendingCount(): number {
    return this._s.pending.size;
  }

  private async _getBytes(k: string): Promise<Uint8Array | undefined> {
    const s = this._s;
    const p = s.pending.get(k) ?? s.inflight.get(k);
    if (p !== undefined) return p;
    const c = s.cache?.get(k);
    if (c !== undefined) return c;
    const v = await s.kv.get(this._dbKey(k));
    if (v !== undefined) this._cacheSet(k, v);
    return v;
  }

  private _put(k: string, v: Uint8Array): void {
    const s = this._s;
    // mpt's checkpoint commit re-puts every node it read; skip those already stored or on their way
    const known = s.inflight.get(k) ?? s.cache?.peek(k);
    if (known !== undefined && !s.pending.has(k) && equalBytes(known, v)) return;
    s.pending.set(k, v);
  }

  private _cacheSet(k: string, v: Uint8Array): void {
    this._s.cache?.set(k, v);
  }

  private _dbKey(k: string): Uint8Array {
    const prefix = this._s.prefix;
    const out = new Uint8Array(prefix.length + k.length / 2);
    out.set(prefix, 0);
    out.set(Buffer.from(k, "hex"), prefix.length);
    return out;
  }
}
