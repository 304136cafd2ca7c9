/**
 * The one storage interface every backend implements: an ordered byte-keyed store with atomic batches.
 * The chain writes each block as one batch, so a crash never leaves half a block (DESIGN: Persistence).
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

/** In-memory backend: a Map for lookups; ranges sort the matching keys on demand (they are rare and small). */
export class MemoryKV implements KVStore {
  readonly inMemory = true;
  private readonly _map = new Map<string, Uint8Array>();

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this._map.get(toKey(key));
  }

  async batch(ops: BatchOp[]): Promise<void> {
    for (const op of ops) {
      if (op.type === "put") this._map.set(toKey(op.key), op.value);
      else this._map.delete(toKey(op.key));
    }
  }

  async *range(opts: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]> {
    const lo = opts.gte !== undefined ? toKey(opts.gte) : undefined;
    const hi = opts.lt !== undefined ? toKey(opts.lt) : undefined;
    // latin1 strings compare code unit by code unit, which is bytewise order
    const keys = [...this._map.keys()].filter((k) => (lo === undefined || k >= lo) && (hi === undefined || k < hi));
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
