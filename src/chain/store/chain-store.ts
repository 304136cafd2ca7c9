/**
 * Blocks, receipts, the transaction index and per-block module events over one KVStore.
 * A block and everything derived from it are written by `commitBlockOps` into the caller's single
 * batch, so a block is either fully stored or not at all. Decoded blocks are cached.
 *
 * Keys and encodings: src/chain/store/store-layout.ts.
 */
import { type Block, createBlockFromRLP } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex } from "@ethereumjs/util";
import { type BatchOp, type KVStore, prefixEnd } from "../../storage/kv";
import type { BlockEvents } from "../base/module";
import { type Reservation, type SteadyRun, decodeReservation, encodeReservation, reservedBlock } from "./reserved-blocks";
import type { SteadyRuns } from "./steady-runs";
import {
  K_HEAD,
  P_BLOCK,
  P_EVENTS,
  P_HASH,
  P_LOGS,
  P_PRESTATE,
  P_RECEIPTS,
  P_RESERVED,
  P_TX,
  RESERVED_HASHES,
  type StoredReceipt,
  dec,
  enc,
  decodeReceipts,
  encodeReceipts,
  eventReplacer,
  eventReviver,
  key,
  logKeyNumber,
  num8,
} from "./store-layout";

export type { StoredLog, StoredReceipt } from "./store-layout";

interface TxLocation {
  blockNumber: bigint;
  index: number;
}

export class ChainStore {
  private readonly _blocks = new Map<bigint, Block>();
  private readonly _receipts = new Map<bigint, StoredReceipt[]>();
  private readonly _hashToNumber = new Map<string, bigint>();
  private _head = -1n;
  /**
   * In-memory stores only: heights of blocks with logs, ascending, and their blooms. MemoryKV's
   * range sorts every key on each call, so there the index is this array; on disk it is a LevelDB
   * range scan over "L" and nothing grows in memory.
   */
  private _logBlocks: bigint[] = [];
  private readonly _blooms = new Map<bigint, Uint8Array>();
  /** Reserved ranges, ascending, never overlapping (few: one per hardhat_mine that reserved). */
  private _reservations: Reservation[] = [];
  private readonly _reservedHashes = new Map<string, bigint>();
  /** Plays the modules' work in ranges that have it (set by the chain state, which has the modules and the state). */
  steadyRuns: SteadyRuns | undefined;

  constructor(
    readonly kv: KVStore,
    private readonly _common: Common,
    /**
     * How many decoded blocks (and their receipts) to keep. In memory too: the store holds every
     * block's bytes already, and a decoded block with its receipts costs several times them (about
     * 6 KiB for a one-transfer block, scripts/profile-memory.ts), so keeping all made memory grow
     * twice per block.
     */
    private readonly _cacheSize = 4096,
  ) {}

  get head(): bigint {
    return this._head;
  }

  /** Decoded blocks held now (at most the cache size). */
  get cachedBlocks(): number {
    return this._blocks.size;
  }

  /** Loads the head pointer; returns it, or -1n for an empty store. */
  async open(): Promise<bigint> {
    const h = await this.kv.get(K_HEAD);
    this._head = h === undefined ? -1n : new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0);
    this._logBlocks = [];
    this._blooms.clear();
    this._reservations = [];
    this._reservedHashes.clear();
    for await (const [, v] of this.kv.range({ gte: P_RESERVED, lt: prefixEnd(P_RESERVED) })) {
      const r = decodeReservation(v);
      if (r.first <= this._head) this._reservations.push(r.last > this._head ? { ...r, last: this._head } : r);
    }
    if (this.kv.inMemory) {
      for await (const [k, v] of this.kv.range({ gte: P_LOGS, lt: prefixEnd(P_LOGS) })) {
        const n = logKeyNumber(k);
        if (n === undefined || n > this._head) continue;
        this._logBlocks.push(n);
        this._blooms.set(n, v);
      }
    }
    return this._head;
  }

  /** Batch operations storing `block` as the new head, with its receipts and events. */
  commitBlockOps(block: Block, receipts: StoredReceipt[], events: BlockEvents, preStateRoot?: Uint8Array): BatchOp[] {
    const n = block.header.number;
    const hash = block.hash();
    const ops: BatchOp[] = [
      { type: "put", key: key(P_HASH, num8(n)), value: hash },
      { type: "put", key: key(P_BLOCK, hash), value: block.serialize() },
      { type: "put", key: key(P_RECEIPTS, num8(n)), value: encodeReceipts(receipts) },
      { type: "put", key: K_HEAD, value: num8(n) },
    ];
    block.transactions.forEach((tx, i) => {
      ops.push({ type: "put", key: key(P_TX, tx.hash()), value: RLP.encode([bigIntToUnpaddedBytes(n), bigIntToUnpaddedBytes(BigInt(i))]) });
    });
    if (receipts.some((r) => r.logs.length > 0)) ops.push({ type: "put", key: key(P_LOGS, num8(n)), value: block.header.logsBloom });
    if (preStateRoot !== undefined) ops.push({ type: "put", key: key(P_PRESTATE, num8(n)), value: preStateRoot });
    if (events.begin.length > 0 || events.end.length > 0) {
      ops.push({ type: "put", key: key(P_EVENTS, num8(n)), value: enc.encode(JSON.stringify(events, eventReplacer)) });
    }
    return ops;
  }

  /** Batch operations storing the reserved range `r` (right above the head) as the new head's range. */
  reserveOps(r: Reservation): BatchOp[] {
    if (r.first !== this._head + 1n || r.last < r.first) throw new RangeError(`a reserved range starts right above the head ${this._head}`);
    return [
      { type: "put", key: key(P_RESERVED, num8(r.first)), value: encodeReservation(r) },
      { type: "put", key: K_HEAD, value: num8(r.last) },
    ];
  }

  /** Call after the batch from `reserveOps` was written; returns the range's last block (the new head). */
  didReserve(r: Reservation): Block {
    this._reservations.push(r);
    this._head = r.last;
    return this._reserved(r, r.last, r.steady?.endRoot ?? r.stateRoot);
  }

  /** The reserved range holding block `n`, if any. */
  reservationOf(n: bigint): Reservation | undefined {
    const rs = this._reservations;
    let lo = 0;
    let hi = rs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (rs[mid].last < n) lo = mid + 1;
      else if (rs[mid].first > n) hi = mid - 1;
      else return rs[mid];
    }
    return undefined;
  }

  /** Heights from `from` down to `to` + 1 that were made (not reserved): the ones that have keys. */
  *madeHeights(from: bigint, to: bigint): Iterable<bigint> {
    for (let i = from; i > to; i--) {
      const r = this.reservationOf(i);
      if (r !== undefined) {
        i = r.first; // the loop's i-- steps below the range
        continue;
      }
      yield i;
    }
  }

  /** Call after the batch from `commitBlockOps` was written. */
  didCommit(block: Block, receipts: StoredReceipt[]): void {
    const n = block.header.number;
    this._blocks.set(n, block);
    this._receipts.set(n, receipts);
    this._hashToNumber.set(bytesToHex(block.hash()), n);
    this._head = n;
    if (this.kv.inMemory && receipts.some((r) => r.logs.length > 0)) {
      this._logBlocks.push(n);
      this._blooms.set(n, block.header.logsBloom);
    }
    this._evict();
  }

  /** Blocks in [from, to] that have logs, with their blooms, ascending (the log index). */
  async *logBlooms(from: bigint, to: bigint): AsyncIterable<[bigint, Uint8Array]> {
    if (to > this._head) to = this._head;
    if (from < 0n) from = 0n;
    if (from > to) return;
    if (!this.kv.inMemory) {
      // one ordered scan of "L"‖from … "L"‖to: cost follows the blocks with logs in the range
      for await (const [k, bloom] of this.kv.range({ gte: key(P_LOGS, num8(from)), lt: key(P_LOGS, num8(to + 1n)) })) {
        const n = logKeyNumber(k);
        if (n !== undefined) yield [n, bloom];
      }
      return;
    }
    let lo = 0;
    let hi = this._logBlocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this._logBlocks[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this._logBlocks.length && this._logBlocks[i] <= to; i++) {
      const n = this._logBlocks[i];
      const bloom = this._blooms.get(n);
      if (bloom !== undefined) yield [n, bloom];
    }
  }

  /** Batch operations removing blocks above `n` (evm_revert, debug_setHead); head becomes `n`. */
  async rewindOps(n: bigint): Promise<BatchOp[]> {
    const ops: BatchOp[] = [];
    for (const r of this._reservations) {
      if (r.first > n) ops.push({ type: "del", key: key(P_RESERVED, num8(r.first)) });
      else if (r.last > n) ops.push({ type: "put", key: key(P_RESERVED, num8(r.first)), value: encodeReservation({ ...r, last: n }) });
    }
    for (const i of this.madeHeights(this._head, n)) {
      const block = await this.getBlock(i);
      if (block === undefined) continue;
      ops.push({ type: "del", key: key(P_HASH, num8(i)) });
      ops.push({ type: "del", key: key(P_BLOCK, block.hash()) });
      ops.push({ type: "del", key: key(P_RECEIPTS, num8(i)) });
      ops.push({ type: "del", key: key(P_EVENTS, num8(i)) });
      ops.push({ type: "del", key: key(P_PRESTATE, num8(i)) });
      ops.push({ type: "del", key: key(P_LOGS, num8(i)) });
      for (const tx of block.transactions) ops.push({ type: "del", key: key(P_TX, tx.hash()) });
    }
    ops.push({ type: "put", key: K_HEAD, value: num8(n) });
    return ops;
  }

  didRewind(n: bigint): void {
    // the in-memory log index (always empty on disk stores)
    while (this._logBlocks.length > 0 && this._logBlocks[this._logBlocks.length - 1] > n) this._blooms.delete(this._logBlocks.pop() as bigint);
    for (const [i, b] of this._blocks) {
      if (i <= n) continue;
      this._hashToNumber.delete(bytesToHex(b.hash()));
      this._blocks.delete(i);
      this._receipts.delete(i);
    }
    this._reservations = this._reservations.filter((r) => r.first <= n).map((r) => (r.last > n ? { ...r, last: n } : r));
    for (const [h, i] of this._reservedHashes) if (i > n) this._reservedHashes.delete(h);
    this._head = n;
  }

  async getBlock(n: bigint): Promise<Block | undefined> {
    if (n < 0n || n > this._head) return undefined;
    const cached = this._blocks.get(n);
    if (cached !== undefined) return cached;
    const r = this.reservationOf(n);
    if (r !== undefined) return this._reserved(r, n, played(r) ? await this._steady().root(r, n) : r.stateRoot);
    const hash = await this.kv.get(key(P_HASH, num8(n)));
    if (hash === undefined) return undefined;
    return this._loadBlock(hash, n);
  }

  async getBlockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const n = await this.getBlockNumber(hash);
    return n === undefined ? undefined : this.getBlock(n);
  }

  async getBlockNumber(hash: Uint8Array): Promise<bigint | undefined> {
    const known = this._hashToNumber.get(bytesToHex(hash)) ?? this._reservedHashes.get(bytesToHex(hash));
    if (known !== undefined) return known <= this._head ? known : undefined;
    const raw = await this.kv.get(key(P_BLOCK, hash));
    if (raw === undefined) return undefined;
    const block = adoptBlockHash(createBlockFromRLP(raw, { common: this._common, setHardfork: false }), hash);
    const n = block.header.number;
    if (n > this._head) return undefined;
    this._cache(n, block);
    return n;
  }

  async getReceipts(n: bigint): Promise<StoredReceipt[] | undefined> {
    if (n < 0n || n > this._head) return undefined;
    const cached = this._receipts.get(n);
    if (cached !== undefined) return cached;
    if (this.reservationOf(n) !== undefined) return [];
    const raw = await this.kv.get(key(P_RECEIPTS, num8(n)));
    if (raw === undefined) return undefined;
    const receipts = decodeReceipts(raw);
    if (this._blocks.has(n)) this._receipts.set(n, receipts);
    return receipts;
  }

  async getTxLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    const raw = await this.kv.get(key(P_TX, txHash));
    if (raw === undefined) return undefined;
    const [n, i] = RLP.decode(raw) as Uint8Array[];
    const blockNumber = bytesToBigInt(n);
    if (blockNumber > this._head) return undefined;
    return { blockNumber, index: Number(bytesToBigInt(i)) };
  }

  /** The state root block `n` started from when it was not its parent's state root (see the key list). */
  async getPreStateRoot(n: bigint): Promise<Uint8Array | undefined> {
    return n >= 0n && n <= this._head ? this.kv.get(key(P_PRESTATE, num8(n))) : undefined;
  }

  async getEvents(n: bigint): Promise<BlockEvents> {
    const r = this.reservationOf(n);
    if (r !== undefined && played(r)) return this._steady().events(r, n);
    const raw = n >= 0n && n <= this._head ? await this.kv.get(key(P_EVENTS, num8(n))) : undefined;
    if (raw === undefined) return { begin: [], end: [] };
    return JSON.parse(dec.decode(raw), eventReviver) as BlockEvents;
  }

  private async _loadBlock(hash: Uint8Array, n: bigint): Promise<Block | undefined> {
    const raw = await this.kv.get(key(P_BLOCK, hash));
    if (raw === undefined) return undefined;
    const block = adoptBlockHash(createBlockFromRLP(raw, { common: this._common, setHardfork: false }), hash);
    this._cache(n, block);
    return block;
  }

  private _steady(): SteadyRuns {
    if (this.steadyRuns === undefined) throw new Error("a reserved range plays module work, and this store cannot play it");
    return this.steadyRuns;
  }

  /** Makes reserved block `n` with state `root` (deterministic: the same block on every read) and remembers its hash. */
  private _reserved(r: Reservation, n: bigint, root: Uint8Array): Block {
    const block = reservedBlock(this._common, r, n, root);
    const h = bytesToHex(block.hash());
    this._reservedHashes.delete(h);
    this._reservedHashes.set(h, n);
    if (this._reservedHashes.size > RESERVED_HASHES) this._reservedHashes.delete(this._reservedHashes.keys().next().value as string);
    this._cache(n, block);
    return block;
  }

  private _cache(n: bigint, block: Block): void {
    this._blocks.set(n, block);
    this._hashToNumber.set(bytesToHex(block.hash()), n);
    this._evict();
  }

  private _evict(): void {
    while (this._blocks.size > this._cacheSize) {
      const oldest = this._blocks.keys().next().value as bigint;
      const b = this._blocks.get(oldest);
      if (b !== undefined) this._hashToNumber.delete(bytesToHex(b.hash()));
      this._blocks.delete(oldest);
      this._receipts.delete(oldest);
    }
  }
}

/**
 * Gives a block the hash it is stored under when that is not the hash of its own header: the first
 * block of a forked chain is the remote's fork block, known by the remote's hash, which cannot be
 * recomputed from our header (an Evmos block hash is a Tendermint header hash). Its children name
 * that hash as their parent. A frozen header keeps its hash in `cache.hash`.
 */
export function adoptBlockHash(block: Block, hash: Uint8Array): Block {
  const header = block.header as unknown as { cache: { hash?: Uint8Array } };
  if (Object.isFrozen(block.header) && header.cache !== undefined && Buffer.compare(block.hash(), hash) !== 0) header.cache.hash = hash;
  return block;
}

const played = (r: Reservation): r is Reservation & { steady: SteadyRun } => r.steady !== undefined;
