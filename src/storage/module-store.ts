/**
 * A module's key-value store (Cosmos KVStore analogue), versioned per block height.
 *
 * The working set lives in memory (module stores are small: epochs holds one record per timer).
 * Each committed block writes only the keys that changed, as a change log keyed by height, inside
 * the block's own batch; `loadAt(h)` rebuilds the set as of block h (snapshots, debug_setHead,
 * restarts) and `rewindOps(h)` deletes the log above h.
 *
 * Layout in the KVStore: "m/" ‖ module ‖ "/" ‖ height (8 bytes, big-endian) ‖ key → 0x01 ‖ value, or 0x00 (deleted).
 *
 * The sets of past heights are also kept in memory (`versions`, bounded): calls at an older block
 * (the chai matchers' balance checks) and snapshot reverts (loadFixture) read them there instead of
 * replaying the whole change log each time.
 */
import { type BatchOp, type KVStore, compareBytes, prefixEnd } from "./kv";
import { MemoryKV } from "./memory-kv";

const enc = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "hex"));

function heightBytes(h: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, h);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Read/write view of one module's store, as begin/end-block code and keepers see it. */
export interface ModuleStore {
  get(key: Uint8Array): Uint8Array | undefined;
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
  /**
   * Entries whose key starts with `prefix`, in ascending key-byte order (descending with reverse).
   * The array and its byte arrays may be the store's own (the same array again while the store is
   * unchanged): read them, never change them.
   */
  entries(prefix?: Uint8Array, reverse?: boolean): Array<[Uint8Array, Uint8Array]>;
}

type Row = [hexKey: string, key: Uint8Array, value: Uint8Array];

/** The committed set as of `height` (until the next version's height). */
interface Version {
  height: bigint;
  set: Map<string, Uint8Array>;
}

/** Versions kept in memory per store; older heights are rebuilt from the change log. */
const MAX_VERSIONS = 1024;

/**
 * A committed set's entries in key order, built once per set: a committed set is never changed (a
 * commit makes a new one), and begin/end-block list every record twice a block (the epochs
 * module's timers), which otherwise copied, decoded and sorted the whole set each time.
 */
const sortedSets = new WeakMap<ReadonlyMap<string, Uint8Array>, Row[]>();

function sortedRows(set: ReadonlyMap<string, Uint8Array>): Row[] {
  let rows = sortedSets.get(set);
  if (rows === undefined) {
    // lowercase hex strings sort as their bytes do (a prefix first)
    rows = [...set].map(([k, v]): Row => [k, unhex(k), v]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    sortedSets.set(set, rows);
  }
  return rows;
}

/** Selections from a set's sorted rows, by prefix and direction: an unchanged set answers with the same (frozen) array. */
const selections = new WeakMap<Row[], Map<string, Array<[Uint8Array, Uint8Array]>>>();

function selectRows(rows: Row[], prefix: Uint8Array, reverse: boolean): Array<[Uint8Array, Uint8Array]> {
  const p = hex(prefix);
  let byPrefix = selections.get(rows);
  if (byPrefix === undefined) selections.set(rows, (byPrefix = new Map()));
  let out = byPrefix.get(reverse ? `r${p}` : p);
  if (out === undefined) {
    out = [];
    for (const [k, key, v] of rows) if (k.startsWith(p)) out.push([key, v]);
    if (reverse) out.reverse();
    Object.freeze(out);
    byPrefix.set(reverse ? `r${p}` : p, out);
  }
  return out;
}

export class VersionedModuleStore implements ModuleStore {
  private _committed = new Map<string, Uint8Array>();
  /** Uncommitted changes of the block being built; `undefined` marks a deletion. */
  private _dirty = new Map<string, Uint8Array | undefined>();
  /** Branches for isolated work (a hook): each records the previous dirty values it overwrote. */
  private _branches: Array<Map<string, Uint8Array | undefined | typeof ABSENT>> = [];
  private readonly _prefix: Uint8Array;
  /**
   * The committed set after each height that changed it, oldest first; covers every height from
   * `_versions[0].height` up. Undefined until first needed (then built from the change log).
   */
  private _versions: Version[] | undefined;
  /** The height `commitOps` was last given: `didCommit` records the new version there. */
  private _pendingHeight: bigint | undefined;
  /** Set by `rewindOps`: the height whose later versions the next `loadAt` drops. */
  private _rewoundTo: bigint | undefined;
  /** Moves on every commit and load: a build of `_versions` that overlapped one is not kept. */
  private _generation = 0;

  constructor(
    private readonly _kv: KVStore,
    readonly moduleName: string,
  ) {
    this._prefix = enc.encode(`m/${moduleName}/`);
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const k = hex(key);
    if (this._dirty.has(k)) return this._dirty.get(k);
    return this._committed.get(k);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this._write(hex(key), Uint8Array.from(value));
  }

  delete(key: Uint8Array): void {
    this._write(hex(key), undefined);
  }

  entries(prefix: Uint8Array = new Uint8Array(), reverse = false): Array<[Uint8Array, Uint8Array]> {
    if (this._dirty.size === 0) return selectRows(sortedRows(this._committed), prefix, reverse);
    const p = hex(prefix);
    const merged = new Map(this._committed);
    for (const [k, v] of this._dirty) {
      if (v === undefined) merged.delete(k);
      else merged.set(k, v);
    }
    const out: Array<[Uint8Array, Uint8Array]> = [];
    for (const [k, v] of merged) if (k.startsWith(p)) out.push([unhex(k), v]);
    out.sort((a, b) => compareBytes(a[0], b[0]));
    if (reverse) out.reverse();
    return out;
  }

  /** Starts an isolated branch: writes after this can be undone alone with `revertBranch`. */
  branch(): void {
    this._branches.push(new Map());
  }

  commitBranch(): void {
    const top = this._branches.pop();
    if (top === undefined) throw new Error("no open branch");
    const parent = this._branches[this._branches.length - 1];
    if (parent !== undefined) for (const [k, prev] of top) if (!parent.has(k)) parent.set(k, prev);
  }

  revertBranch(): void {
    const top = this._branches.pop();
    if (top === undefined) throw new Error("no open branch");
    for (const [k, prev] of top) {
      if (prev === ABSENT) this._dirty.delete(k);
      else this._dirty.set(k, prev);
    }
  }

  /**
   * Batch operations that record this block's changes at `height`. Memory is not touched: call
   * `didCommit()` once the batch is written, or `discard()` when it was not.
   */
  commitOps(height: bigint): BatchOp[] {
    if (this._branches.length > 0) throw new Error(`module store ${this.moduleName}: branch left open`);
    this._pendingHeight = height;
    const ops: BatchOp[] = [];
    const h = heightBytes(height);
    for (const [k, v] of this._dirty) {
      const key = concat(this._prefix, h, unhex(k));
      ops.push({ type: "put", key, value: v === undefined ? new Uint8Array([0]) : concat(new Uint8Array([1]), v) });
    }
    return ops;
  }

  /**
   * Makes the uncommitted changes the committed set (after their batch was written). The committed
   * map is replaced, never changed in place, so views taken earlier keep their version.
   */
  didCommit(): void {
    const height = this._pendingHeight;
    this._pendingHeight = undefined;
    if (this._dirty.size === 0) return;
    const next = new Map(this._committed);
    for (const [k, v] of this._dirty) {
      if (v === undefined) next.delete(k);
      else next.set(k, v);
    }
    this._committed = next;
    this._dirty.clear();
    this._generation++;
    const versions = this._versions;
    if (versions === undefined) return;
    const last = versions[versions.length - 1];
    if (height === undefined || (last !== undefined && height < last.height)) {
      this._versions = undefined; // not a commit on top of the known ones: rebuild when needed
      return;
    }
    if (last !== undefined && height === last.height) versions.pop();
    versions.push({ height, set: next });
    if (versions.length > MAX_VERSIONS) versions.splice(0, versions.length - MAX_VERSIONS);
  }

  /** A read-only view of the committed set as it is now (the head's version); later commits do not change it. */
  view(): ModuleStore {
    return new ModuleStoreView(this.moduleName, this._committed);
  }

  /** A read-only view of the set as of block `height` (from memory, or rebuilt from the change log). */
  async viewAt(height: bigint): Promise<ModuleStore> {
    return new ModuleStoreView(this.moduleName, (await this._setAt(height)) ?? (await this._readAt(height)));
  }

  /**
   * A writable store of its own that starts from `base`'s entries and writes nowhere: re-execution
   * of a block (tracing) runs begin/end-block on it. Branches work as on the chain's stores.
   */
  static scratch(moduleName: string, base: ModuleStore): VersionedModuleStore {
    const s = new VersionedModuleStore(new MemoryKV(), moduleName);
    s._committed = new Map(base.entries().map(([k, v]) => [hex(k), v]));
    return s;
  }

  /** Drops uncommitted changes (a block that failed to build). */
  discard(): void {
    this._dirty.clear();
    this._branches = [];
  }

  /** Makes the set as of block `height` the committed one (the latest change at or below it per key). */
  async loadAt(height: bigint): Promise<void> {
    const rewound = this._rewoundTo;
    this._rewoundTo = undefined;
    if (rewound !== undefined && this._versions !== undefined) {
      // the log above the rewind height is gone (its batch was written): so are its versions
      const versions = this._versions;
      while (versions.length > 0 && versions[versions.length - 1].height > rewound) versions.pop();
      if (versions.length === 0) this._versions = undefined;
    }
    const known = await this._setAt(height);
    this._generation++;
    if (known !== undefined) {
      this._committed = known;
    } else {
      // below the versions kept (they stay right for their heights)
      this._committed = await this._readAt(height);
    }
    this.discard();
  }

  /** The committed set as of `height` from the versions in memory (built first if needed); undefined below them. */
  private async _setAt(height: bigint): Promise<Map<string, Uint8Array> | undefined> {
    let versions = this._versions;
    if (versions === undefined) {
      const generation = this._generation;
      versions = await this._readVersions();
      if (generation === this._generation) this._versions = versions;
    }
    if (versions.length === 0 || height < versions[0].height) return undefined;
    // the last version at or below `height`
    let lo = 0;
    let hi = versions.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (versions[mid].height <= height) lo = mid;
      else hi = mid - 1;
    }
    return versions[lo].set;
  }

  /** Every version in the change log (the newest MAX_VERSIONS), from an empty set before the first height. */
  private async _readVersions(): Promise<Version[]> {
    const versions: Version[] = [{ height: -1n, set: new Map() }];
    let cur = versions[0];
    const at = this._prefix.length;
    for await (const [key, value] of this._kv.range({ gte: this._prefix, lt: prefixEnd(this._prefix) })) {
      const height = new DataView(key.buffer, key.byteOffset + at, 8).getBigUint64(0);
      if (height !== cur.height) {
        cur = { height, set: new Map(cur.set) };
        versions.push(cur);
        if (versions.length > MAX_VERSIONS) versions.shift();
      }
      const k = hex(key.subarray(at + 8));
      if (value[0] === 1) cur.set.set(k, value.subarray(1));
      else cur.set.delete(k);
    }
    return versions;
  }

  private async _readAt(height: bigint): Promise<Map<string, Uint8Array>> {
    const set = new Map<string, Uint8Array>();
    const lt = concat(this._prefix, heightBytes(height + 1n));
    for await (const [key, value] of this._kv.range({ gte: this._prefix, lt })) {
      const k = hex(key.subarray(this._prefix.length + 8));
      if (value[0] === 1) set.set(k, value.subarray(1));
      else set.delete(k);
    }
    return set;
  }

  /** Batch operations that delete every change recorded above `height` (write them, then call `loadAt`). */
  async rewindOps(height: bigint): Promise<BatchOp[]> {
    // the next loadAt (after the batch was written) drops the versions above it
    this._rewoundTo = height;
    const ops: BatchOp[] = [];
    const gte = concat(this._prefix, heightBytes(height + 1n));
    for await (const [key] of this._kv.range({ gte, lt: prefixEnd(this._prefix) })) ops.push({ type: "del", key });
    return ops;
  }

  private _write(k: string, v: Uint8Array | undefined): void {
    const top = this._branches[this._branches.length - 1];
    if (top !== undefined && !top.has(k)) top.set(k, this._dirty.has(k) ? this._dirty.get(k) : ABSENT);
    this._dirty.set(k, v);
  }
}

const ABSENT: unique symbol = Symbol("absent");

/** A read-only version of a module's committed set (what calls and historical reads see). */
class ModuleStoreView implements ModuleStore {
  constructor(
    private readonly _name: string,
    private readonly _set: ReadonlyMap<string, Uint8Array>,
  ) {}

  get(key: Uint8Array): Uint8Array | undefined {
    return this._set.get(hex(key));
  }

  set(): void {
    throw new Error(`module store ${this._name} is read-only here (a call or a historical read)`);
  }

  delete(): void {
    this.set();
  }

  entries(prefix: Uint8Array = new Uint8Array(), reverse = false): Array<[Uint8Array, Uint8Array]> {
    return selectRows(sortedRows(this._set), prefix, reverse);
  }
}
