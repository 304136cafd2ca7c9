/**
 * The epochs keeper (x/epochs keeper): records under 0x01 ‖ identifier bytes, protobuf-encoded;
 * the spec rule's "ended" mark beside each record under 0x02 ‖ identifier (field 7 stays unused).
 */
import type { ModuleStore } from "../storage/module-store";
import { type EpochInfo, decodeEpochInfo, encodeEpochInfo } from "./epoch-info";

const RECORD = 0x01;
const ENDED = 0x02;
const enc = new TextEncoder();
const dec = new TextDecoder();

function key(prefix: number, identifier: string): Uint8Array {
  const id = enc.encode(identifier);
  const out = new Uint8Array(id.length + 1);
  out[0] = prefix;
  out.set(id, 1);
  return out;
}

/** Decoded records by their stored bytes: unchanged records keep their byte arrays, so each block reuses them. */
const decoded = new WeakMap<Uint8Array, EpochInfo>();

function decode(raw: Uint8Array): EpochInfo {
  let info = decoded.get(raw);
  if (info === undefined) {
    info = decodeEpochInfo(raw);
    decoded.set(raw, info);
  }
  // a copy: callers may change what they get
  return { ...info };
}

export class EpochsKeeper {
  constructor(private readonly _store: () => ModuleStore) {}

  getEpochInfo(identifier: string): { info: EpochInfo | undefined; found: boolean } {
    const raw = this._store().get(key(RECORD, identifier));
    return raw === undefined ? { info: undefined, found: false } : { info: decode(raw), found: true };
  }

  setEpochInfo(info: EpochInfo): void {
    this._store().set(key(RECORD, info.identifier), encodeEpochInfo(info));
  }

  deleteEpochInfo(identifier: string): void {
    this._store().delete(key(RECORD, identifier));
    this._store().delete(key(ENDED, identifier));
  }

  /** Visits records in ascending identifier-byte order; stops when `cb` returns true. */
  iterateEpochInfo(cb: (index: number, info: EpochInfo) => boolean): void {
    const entries = this._store().entries(new Uint8Array([RECORD]));
    for (let i = 0; i < entries.length; i++) if (cb(i, decode(entries[i][1]))) return;
  }

  allEpochInfos(): EpochInfo[] {
    return this._store()
      .entries(new Uint8Array([RECORD]))
      .map(([, v]) => decode(v));
  }

  /** Identifiers in store order (bytewise). */
  identifiers(): string[] {
    return this._store()
      .entries(new Uint8Array([RECORD]))
      .map(([k]) => dec.decode(k.subarray(1)));
  }

  isEnded(identifier: string): boolean {
    return this._store().get(key(ENDED, identifier)) !== undefined;
  }

  setEnded(identifier: string, ended: boolean): void {
    if (ended) this._store().set(key(ENDED, identifier), new Uint8Array([1]));
    else this._store().delete(key(ENDED, identifier));
  }
}
