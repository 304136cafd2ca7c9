/**
 * The in-memory backend (the node's default without `--home`).
 *
 * A dev node in memory keeps every block, receipt and trie node it ever wrote, so what each entry
 * costs beyond its bytes is what memory grows by per transaction (about 14 entries per one-transfer
 * block, most of them trie nodes of 100–500 bytes). Values are therefore copied into large shared
 * chunks and each key maps to a small slot number: no Uint8Array, ArrayBuffer and backing store per
 * entry (about 300 bytes each in V8), and one hash entry per key (docs/execution-and-commit.md, "Memory").
 *
 * Chunks are append-only, so a Uint8Array returned by `get` stays valid after the key is overwritten
 * or deleted (callers cache them). The space of overwritten values is reclaimed by compaction once
 * it outweighs what is live: live values move to fresh chunks; old chunks are freed by the garbage
 * collector when no returned view holds them.
 *
 * Keys are grouped by their first byte. Ranges sort the matching keys on demand and only look at the
 * groups their bounds reach: range scans are prefix scans of small families (a module's change log,
 * the log blooms) while nearly all keys are trie nodes ("n…"), which no range reaches.
 */
import type { BatchOp, KVStore, RangeOptions } from "./kv";

/** Size of a shared chunk. */
const CHUNK = 256 * 1024;
/** Values at least this long get a chunk of their own (contract code, large blocks). */
const LARGE = 16 * 1024;
/** Overwritten bytes that may wait before a compaction is considered. */
const COMPACT_MIN_DEAD = 32 * 1024 * 1024;

const toKey = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
const fromKey = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));

export class MemoryKV implements KVStore {
  readonly inMemory = true;
  /** first byte of the key (-1 for the empty key) → key → slot */
  private readonly _groups = new Map<number, Map<string, number>>();
  private _chunks: Uint8Array[] = [];
  /** Free space of the current shared chunk starts here. */
  private _fill = CHUNK;
  private _shared = -1;
  /** Slot i's value: chunk _slotChunk[i], bytes [_slotOff[i], _slotOff[i] + _slotLen[i]). */
  private _slotChunk = new Uint32Array(1024);
  private _slotOff = new Uint32Array(1024);
  private _slotLen = new Uint32Array(1024);
  private _slotCount = 0;
  private _freeSlots: number[] = [];
  private _size = 0;
  private _liveBytes = 0;
  private _deadBytes = 0;

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.getSync(key);
  }

  /** `get` without the promise (the store is in memory). */
  getSync(key: Uint8Array): Uint8Array | undefined {
    const k = toKey(key);
    const slot = this._groups.get(groupOf(k))?.get(k);
    return slot === undefined ? undefined : this._value(slot);
  }

  async batch(ops: BatchOp[]): Promise<void> {
    // all or nothing: a malformed operation is refused before any is applied
    for (const op of ops) {
      if (!(op.key instanceof Uint8Array) || (op.type === "put" ? !(op.value instanceof Uint8Array) : op.type !== "del")) {
        throw new TypeError("MemoryKV.batch: each operation is a put of a Uint8Array key and value, or a del of a key");
      }
    }
    for (const op of ops) {
      const k = toKey(op.key);
      const g = groupOf(k);
      let group = this._groups.get(g);
      const old = group?.get(k);
      if (op.type === "put") {
        // rewriting the same bytes (trie nodes are content-addressed and often re-put) costs nothing
        if (old !== undefined && this._equals(old, op.value)) continue;
        if (group === undefined) this._groups.set(g, (group = new Map()));
        group.set(k, this._store(op.value));
        if (old === undefined) this._size++;
        else this._release(old);
      } else if (old !== undefined) {
        group?.delete(k);
        this._release(old);
        this._size--;
      }
    }
    if (this._deadBytes > COMPACT_MIN_DEAD && this._deadBytes > this._liveBytes) this._compact();
  }

  async *range(opts: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]> {
    const lo = opts.gte !== undefined ? toKey(opts.gte) : undefined;
    const hi = opts.lt !== undefined ? toKey(opts.lt) : undefined;
    // the first bytes a key in [lo, hi) can have (the empty key's group is -1)
    const firstLo = lo === undefined || lo.length === 0 ? -1 : lo.charCodeAt(0);
    const firstHi = hi === undefined || hi.length === 0 ? 0xff : hi.charCodeAt(0);
    const keys: string[] = [];
    for (const [first, group] of this._groups) {
      if (first < firstLo || first > firstHi) continue;
      // latin1 strings compare code unit by code unit, which is bytewise order
      for (const k of group.keys()) if ((lo === undefined || k >= lo) && (hi === undefined || k < hi)) keys.push(k);
    }
    keys.sort();
    if (opts.reverse === true) keys.reverse();
    const limited = opts.limit !== undefined && opts.limit >= 0 ? keys.slice(0, opts.limit) : keys;
    for (const k of limited) {
      // read at yield time: the consumer may have written between two entries
      const slot = this._groups.get(groupOf(k))?.get(k);
      if (slot !== undefined) yield [fromKey(k), this._value(slot)];
    }
  }

  async close(): Promise<void> {}

  /** Entries stored. */
  get size(): number {
    return this._size;
  }

  /** Bytes of the values stored, and of overwritten values not yet reclaimed. */
  get bytes(): { live: number; dead: number } {
    return { live: this._liveBytes, dead: this._deadBytes };
  }

  private _value(slot: number): Uint8Array {
    const off = this._slotOff[slot];
    return this._chunks[this._slotChunk[slot]].subarray(off, off + this._slotLen[slot]);
  }

  private _equals(slot: number, v: Uint8Array): boolean {
    const len = this._slotLen[slot];
    if (len !== v.length) return false;
    const chunk = this._chunks[this._slotChunk[slot]];
    const off = this._slotOff[slot];
    for (let i = 0; i < len; i++) if (chunk[off + i] !== v[i]) return false;
    return true;
  }

  /** Copies `v` into a chunk and returns its new slot. */
  private _store(v: Uint8Array): number {
    const len = v.length;
    let chunk: number;
    let off = 0;
    if (len >= LARGE) {
      // slice: a copy of the bytes (Uint8Array.from walks them one by one through the iterator, ~20× slower)
      chunk = this._chunks.push(v.slice()) - 1;
    } else {
      // `_shared` is -1 until the first small value (an empty one included) opens a chunk
      if (this._shared < 0 || this._fill + len > CHUNK) {
        this._shared = this._chunks.push(new Uint8Array(CHUNK)) - 1;
        this._fill = 0;
      }
      chunk = this._shared;
      off = this._fill;
      this._chunks[chunk].set(v, off);
      this._fill += len;
    }
    const slot = this._freeSlots.pop() ?? this._newSlot();
    this._slotChunk[slot] = chunk;
    this._slotOff[slot] = off;
    this._slotLen[slot] = len;
    this._liveBytes += len;
    return slot;
  }

  private _newSlot(): number {
    if (this._slotCount === this._slotLen.length) {
      const grow = (a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this._slotChunk = grow(this._slotChunk);
      this._slotOff = grow(this._slotOff);
      this._slotLen = grow(this._slotLen);
    }
    return this._slotCount++;
  }

  private _release(slot: number): void {
    const len = this._slotLen[slot];
    this._liveBytes -= len;
    this._deadBytes += len;
    this._freeSlots.push(slot);
  }

  /** Moves every live value to fresh chunks (views handed out keep the old chunks alive). */
  private _compact(): void {
    const old = this._chunks;
    const oldChunk = this._slotChunk;
    const oldOff = this._slotOff;
    const oldLen = this._slotLen;
    this._chunks = [];
    this._shared = -1;
    this._fill = CHUNK;
    this._slotChunk = new Uint32Array(oldChunk.length);
    this._slotOff = new Uint32Array(oldOff.length);
    this._slotLen = new Uint32Array(oldLen.length);
    this._slotCount = 0;
    this._freeSlots = [];
    this._liveBytes = 0;
    this._deadBytes = 0;
    for (const group of this._groups.values()) {
      for (const [k, slot] of group) {
        const off = oldOff[slot];
        group.set(k, this._store(old[oldChunk[slot]].subarray(off, off + oldLen[slot])));
      }
    }
  }
}

function groupOf(k: string): number {
  return k.length > 0 ? k.charCodeAt(0) : -1;
}
