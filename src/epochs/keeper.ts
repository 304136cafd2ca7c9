/**
 * The epochs keeper (x/epochs keeper). Store layout (docs/epochs.md, "Store layout"):
 *   0x01 ‖ identifier bytes → EpochInfo, protobuf-encoded (docs/epochs.md, "Data model")
 *   0x02 ‖ identifier bytes → 0x01 while the current epoch has ended and the next has not started
 *                             (the "spec" rule's ended mark; field 7 of the record stays unused)
 */
import type { ModuleStore } from "../chain/base/module-state";
import { decodeEpochInfo, encodeEpochInfo } from "./codec";
import { type EpochInfo, cloneEpochInfo } from "./types";

export const EPOCH_INFO_PREFIX = 0x01;
export const ENDED_MARK_PREFIX = 0x02;

const INFO_PREFIX_BYTES = new Uint8Array([EPOCH_INFO_PREFIX]);
const ENDED_PREFIX_BYTES = new Uint8Array([ENDED_MARK_PREFIX]);
const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * Store keys by prefix and identifier, encoded once: begin/end-block look up every timer's ended
 * mark each block. Bounded (timers are few; a flood of identifiers only empties it).
 */
const keys = new Map<number, Map<string, Uint8Array>>();

function key(prefix: number, identifier: string): Uint8Array {
  let byId = keys.get(prefix);
  if (byId === undefined) keys.set(prefix, (byId = new Map()));
  let out = byId.get(identifier);
  if (out === undefined) {
    const id = enc.encode(identifier);
    out = new Uint8Array(id.length + 1);
    out[0] = prefix;
    out.set(id, 1);
    if (byId.size >= 4096) byId.clear();
    byId.set(identifier, out);
  }
  return out;
}

/**
 * Decoded records by their stored byte arrays: an unchanged record is decoded once, not every block.
 * Frozen: `readEpochInfos` hands them out as they are.
 */
const decoded = new WeakMap<Uint8Array, Readonly<EpochInfo>>();

function decodeShared(raw: Uint8Array): Readonly<EpochInfo> {
  let info = decoded.get(raw);
  if (info === undefined) {
    const d = decodeEpochInfo(raw);
    for (const t of [d.startTime, d.duration, d.currentEpochStartTime]) Object.freeze(t);
    info = Object.freeze(d);
    decoded.set(raw, info);
  }
  return info;
}

/** Decoded lists by the store's entries array they came from. */
const lists = new WeakMap<object, ReadonlyArray<Readonly<EpochInfo>>>();

function decode(raw: Uint8Array): EpochInfo {
  // a copy: callers may change what they get
  return cloneEpochInfo(decodeShared(raw));
}

export class EpochsKeeper {
  private readonly _store: () => ModuleStore;

  /** `store` may be a getter. The chain makes one keeper per use, over the store the block (or query) brings. */
  constructor(store: ModuleStore | (() => ModuleStore)) {
    this._store = typeof store === "function" ? store : () => store;
  }

  /** The record and whether it exists (exact identifier bytes, no trimming). */
  getEpochInfo(identifier: string): { info: EpochInfo | undefined; found: boolean } {
    const raw = this._store().get(key(EPOCH_INFO_PREFIX, identifier));
    return raw === undefined ? { info: undefined, found: false } : { info: decode(raw), found: true };
  }

  /** Unconditional upsert; no validation, no defaults (as Evmos's SetEpochInfo). */
  setEpochInfo(info: EpochInfo): void {
    this._store().set(key(EPOCH_INFO_PREFIX, info.identifier), encodeEpochInfo(info));
  }

  /** Deletes the record and its ended mark; a no-op when absent. */
  deleteEpochInfo(identifier: string): void {
    this._store().delete(key(EPOCH_INFO_PREFIX, identifier));
    this._store().delete(key(ENDED_MARK_PREFIX, identifier));
  }

  /** Visits records in ascending identifier-byte order with indexes from 0; stops when `cb` returns true. */
  iterateEpochInfo(cb: (index: number, info: EpochInfo) => boolean): void {
    const entries = this._store().entries(new Uint8Array([EPOCH_INFO_PREFIX]));
    for (let i = 0; i < entries.length; i++) if (cb(i, decode(entries[i][1]))) return;
  }

  /** All records in identifier-byte order (descending with `reverse`). */
  allEpochInfos(reverse = false): EpochInfo[] {
    return this._store()
      .entries(new Uint8Array([EPOCH_INFO_PREFIX]), reverse)
      .map(([, v]) => decode(v));
  }

  /**
   * All records in identifier-byte order, shared and frozen (no copy): for begin/end-block, which
   * read every record twice a block and change records only through `setEpochInfo`.
   */
  readEpochInfos(): ReadonlyArray<Readonly<EpochInfo>> {
    // an unchanged store lists the same entries array: the same list comes back (begin/end-block key summaries on it)
    const entries = this._store().entries(INFO_PREFIX_BYTES);
    let list = lists.get(entries);
    if (list === undefined) {
      list = Object.freeze(entries.map(([, v]) => decodeShared(v)));
      lists.set(entries, list);
    }
    return list;
  }

  /** True when some timer's current epoch has ended and its next has not started ("spec" rule). */
  anyEnded(): boolean {
    return this._store().entries(ENDED_PREFIX_BYTES).length > 0;
  }

  /** Identifiers in store order. */
  identifiers(): string[] {
    return this._store()
      .entries(new Uint8Array([EPOCH_INFO_PREFIX]))
      .map(([k]) => dec.decode(k.subarray(1)));
  }

  isEnded(identifier: string): boolean {
    return this._store().get(key(ENDED_MARK_PREFIX, identifier)) !== undefined;
  }

  setEnded(identifier: string, ended: boolean): void {
    if (ended) this._store().set(key(ENDED_MARK_PREFIX, identifier), new Uint8Array([1]));
    else this.clearEnded(identifier);
  }

  clearEnded(identifier: string): void {
    this._store().delete(key(ENDED_MARK_PREFIX, identifier));
  }
}
