/**
 * The one storage interface every backend implements: an ordered byte-keyed store with atomic batches.
 * The chain writes each block as one batch, so a crash never leaves half a block (docs/json-rpc.md, "Persistence").
 */
export type BatchOp = { type: "put"; key: Uint8Array; value: Uint8Array } | { type: "del"; key: Uint8Array };

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
