/**
 * The one storage interface every backend implements: an ordered byte-keyed store with atomic batches.
 * The chain writes each block as one batch, so a crash never leaves half a block (docs/json-rpc.md, "Persistence").
 */
export type BatchOp =
  | { type: "put"; key: Uint8Array; value: Uint8Array }
  | { type: "del"; key: Uint8Array };

export interface RangeOptions {
  /** inclusive lower bound */
  gte?: Uint8Array;
  /** exclusive upper bound */
  lt?: Uint8Array;
  reverse?: boolean;
  limit?: number;
}

export interface KVStore {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Applies every operation or none. */
  batch(ops: BatchOp[]): Promise<void>;
  /** Entries in ascending key-byte order (descending with `reverse`). */
  range(opts: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]>;
  close(): Promise<void>;
  /** True when nothing is written to disk (the default without `--home`). */
  readonly inMemory: boolean;
}

/** Bytewise comparison, the order LevelDB uses. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

/** The end of the key range that starts with `prefix` (exclusive), for prefix scans. */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = Uint8Array.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
}

const toKey = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
const fromKey = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));

/**
 * In-memory backend: a Map for lookups, plus the keys grouped by their first byte. Ranges sort the
 * matching keys on demand; they only look at the groups their bounds reach. Range scans are prefix
 * scans of small families (a module's change log, the log blooms) while nearly all keys are trie
 * nodes ("n…"), which no range reaches: without the groups every snapshot revert (loadFixture)
 * walked every trie node the chain ever wrote, slower with each block (CPU profile of bench/tests).
 */
export class MemoryKV implements KVStore {
  readonly inMemory = true;
  private readonly _map = new Map<string, Uint8Array>();
  private readonly _groups = new Map<number, Set<string>>();

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this._map.get(toKey(key));
  }

  async batch(ops: BatchOp[]): Promise<void> {
    for (const op of ops) {
      const k = toKey(op.key);
      const first = k.length > 0 ? k.charCodeAt(0) : -1;
      if (op.type === "put") {
        this._map.set(k, op.value);
        let group = this._groups.get(first);
        if (group === undefined) this._groups.set(first, (group = new Set()));
        group.add(k);
      } else {
        this._map.delete(k);
        this._groups.get(first)?.delete(k);
      }
    }
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
      for (const k of group) if ((lo === undefined || k >= lo) && (hi === undefined || k < hi)) keys.push(k);
    }
    keys.sort();
    if (opts.reverse === true) keys.reverse();
    const limited = opts.limit !== undefined && opts.limit >= 0 ? keys.slice(0, opts.limit) : keys;
    for (const k of limited) {
      const v = this._map.get(k);
      if (v !== undefined) yield [fromKey(k), v];
    }
  }

  async close(): Promise<void> {}

  get size(): number {
    return this._map.size;
  }
}
