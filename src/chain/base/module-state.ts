/**
 * A module's key-value store (the Cosmos KVStore analogue: the epochs module's timers), kept as EVM
 * state: one record (src/chain/base/records.ts) in the storage of the module's account. Being EVM state,
 * the store reverts with its block, an isolated hook or evm_revert, persists and rewinds with the
 * state trie, reads at any height through that height's state root, and travels in state dumps and
 * forks like any contract's storage: no code of its own does any of that.
 *
 * Code that runs a module (keepers, begin/end-block) works on a synchronous in-memory copy,
 * `MemoryModuleStore`: the chain loads it from the state when a phase starts and writes it back when
 * it changed (src/chain/block/block-producer.ts).
 *
 * The record's bytes are the store's entries in ascending key-byte order, each the RLP list
 * [key, value] padded with zeros to a whole number of 32-byte words: a changed entry then rewrites
 * the storage words it spans (a write-back writes only words that differ), not every word after it,
 * unless its encoding needs another word. (An RLP list starts with a byte ≥ 0xc0, so padding is
 * never mistaken for an entry.)
 */
import { RLP } from "@ethereumjs/rlp";
import type { StateManagerInterface } from "@ethereumjs/common";
import { Address, createAccount, equalsBytes, hexToBytes, setLengthLeft } from "@ethereumjs/util";
import { createHash } from "node:crypto";
import { type StateReader, StorageRecords, accountStorage } from "./records";

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

/** The name of the record that holds a module's store in its account's storage. */
const MODULE_STORE_RECORD = "module-store";

type Entries = ReadonlyArray<readonly [key: string, value: Uint8Array]>;

/**
 * The account whose storage holds module `name`'s store when the module names none: the Cosmos
 * SDK's module account address, the first 20 bytes of sha256(name).
 */
export function moduleAddress(name: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(name).digest().subarray(0, 20));
}

/**
 * A module store in memory. Read-only ones (what calls and queries see) are shared: the same record
 * bytes give the same store, so its entry lists — and what keepers derive from them — are built once.
 * A writable one starts from a read-only base and copies it on its first write.
 */
export class MemoryModuleStore implements ModuleStore {
  /** Hex key → value; shared with `_base` until the first write. */
  private _map: Map<string, Uint8Array>;
  private _owned: boolean;
  /** Sorted rows of `_map`, built when first listed after a change. */
  private _rows: Entries | undefined;
  /**
   * Each entry's encoding (RLP [key, value] padded to whole words) by key, for the value it was made
   * of: a write-back encodes only the entries that changed. Shared along a store's copies.
   */
  private _chunks: Map<string, { value: Uint8Array; chunk: Uint8Array }>;
  /** Selections of `_rows` by prefix and direction, frozen. */
  private _selections = new Map<string, Array<[Uint8Array, Uint8Array]>>();
  /** True when the store holds writes not yet written back to the state. */
  changed = false;
  /**
   * The record's bytes as the state holds them (undefined: no record there), when this store was
   * read from or written to a state: a write-back then writes only the words that differ.
   */
  stateBytes: { bytes: Uint8Array | undefined } | undefined;

  private constructor(
    map: Map<string, Uint8Array>,
    owned: boolean,
    private readonly _readOnly: string | undefined,
    base?: MemoryModuleStore,
  ) {
    this._map = map;
    this._owned = owned;
    this._chunks = base?._chunks ?? new Map();
    if (base !== undefined) {
      this._rows = base._rows;
      this._selections = base._selections;
      this.stateBytes = base.stateBytes;
    }
  }

  /** A read-only store of `entries`; `why` says where writes are refused. */
  static readOnly(entries: Iterable<readonly [Uint8Array, Uint8Array]>, why = "a call or a query"): MemoryModuleStore {
    const map = new Map<string, Uint8Array>();
    for (const [k, v] of entries) map.set(hex(k), v);
    return new MemoryModuleStore(map, true, why);
  }

  /** A read-only store of this store's entries now (they are not copied: this store copies them on its next write). */
  snapshot(): MemoryModuleStore {
    this._owned = false;
    return new MemoryModuleStore(this._map, false, "a call or a query", this);
  }

  /** A writable store that starts as `base` (copied on the first write). */
  static writable(base: MemoryModuleStore = EMPTY_MODULE_STORE): MemoryModuleStore {
    return new MemoryModuleStore(base._map, false, undefined, base);
  }

  /** The store a record's bytes hold, read-only. Throws when they are not word-aligned RLP [key, value] pairs. */
  static decode(bytes: Uint8Array): MemoryModuleStore {
    const entries: Array<[Uint8Array, Uint8Array]> = [];
    for (let at = 0; at < bytes.length;) {
      if (bytes[at] < 0xc0) throw new Error(`a module store record holds RLP [key, value] lists (byte ${at} is not one)`);
      const { data: pair, remainder } = RLP.decode(bytes.subarray(at), true);
      if (!Array.isArray(pair) || pair.length !== 2 || !(pair[0] instanceof Uint8Array) || !(pair[1] instanceof Uint8Array)) {
        throw new Error("a module store record lists [key, value] pairs of bytes");
      }
      entries.push([pair[0], pair[1]]);
      const end = bytes.length - remainder.length;
      at = Math.ceil(end / 32) * 32;
      if (bytes.subarray(end, at).some((b) => b !== 0)) throw new Error("a module store record pads its entries with zeros");
    }
    return MemoryModuleStore.readOnly(entries);
  }

  /** The record's bytes: each entry in ascending key order, RLP [key, value] padded to whole words. */
  encode(): Uint8Array {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for (const [k, v] of this._sorted()) {
      let known = this._chunks.get(k);
      if (known === undefined || known.value !== v) {
        const item = RLP.encode([hexToBytes(`0x${k}`), v]);
        const chunk = new Uint8Array(Math.ceil(item.length / 32) * 32);
        chunk.set(item);
        known = { value: v, chunk };
        // bounded: a store that churns through keys only starts this cache over
        if (this._chunks.size >= 4 * (this._map.size + 16)) this._chunks.clear();
        this._chunks.set(k, known);
      }
      chunks.push(known.chunk);
      length += known.chunk.length;
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  get size(): number {
    return this._map.size;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this._map.get(hex(key));
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this._own().set(hex(key), Uint8Array.from(value));
  }

  delete(key: Uint8Array): void {
    const k = hex(key);
    if (this._map.has(k)) this._own().delete(k);
  }

  entries(prefix: Uint8Array = new Uint8Array(), reverse = false): Array<[Uint8Array, Uint8Array]> {
    const p = hex(prefix);
    const id = reverse ? `r${p}` : p;
    let out = this._selections.get(id);
    if (out === undefined) {
      out = [];
      for (const [k, v] of this._sorted()) if (k.startsWith(p)) out.push([hexToBytes(`0x${k}`), v]);
      if (reverse) out.reverse();
      Object.freeze(out);
      this._selections.set(id, out);
    }
    return out;
  }

  /** What `restore` brings back: the entries now, whether they were written back, and the state's bytes. */
  mark(): StoreMark {
    // the next write copies the map, so this one stays as it is
    this._owned = false;
    return { map: this._map, changed: this.changed, stateBytes: this.stateBytes };
  }

  restore(mark: StoreMark): void {
    this._map = mark.map;
    this._owned = false;
    this.changed = mark.changed;
    this.stateBytes = mark.stateBytes;
    this._rows = undefined;
    this._selections = new Map();
  }

  private _own(): Map<string, Uint8Array> {
    if (this._readOnly !== undefined) throw new Error(`a module store is read-only in ${this._readOnly}`);
    if (!this._owned) {
      this._map = new Map(this._map);
      this._owned = true;
    }
    this.changed = true;
    this._rows = undefined;
    this._selections = new Map();
    return this._map;
  }

  private _sorted(): Entries {
    if (this._rows === undefined) {
      // lowercase hex strings sort as their bytes do (a prefix first)
      this._rows = [...this._map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    }
    return this._rows;
  }
}

interface StoreMark {
  map: Map<string, Uint8Array>;
  changed: boolean;
  stateBytes: MemoryModuleStore["stateBytes"];
}

/** The store of a state that holds no record of it. */
export const EMPTY_MODULE_STORE = MemoryModuleStore.readOnly([]);

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/**
 * The last record decoded, by its bytes: an unchanged store (most blocks) is decoded once, and its
 * entry lists stay the same arrays, which the epochs keeper's caches key on.
 */
let lastDecoded: { bytes: Uint8Array; store: MemoryModuleStore } | undefined;

/**
 * The store held in `account`'s storage in `state` (read-only), or undefined when the account holds
 * no store record. Throws when the record is not a store's.
 */
export async function readModuleStore(state: StateReader, account: Uint8Array): Promise<MemoryModuleStore | undefined> {
  const records = new StorageRecords({ get: (k) => state.getStorage(account, k), put: () => Promise.reject(new Error("read-only")) });
  const bytes = await records.getBytes(MODULE_STORE_RECORD);
  if (bytes === undefined) return undefined;
  const last = lastDecoded;
  if (last !== undefined && equalsBytes(last.bytes, bytes)) return last.store;
  const store = MemoryModuleStore.decode(bytes);
  store.stateBytes = { bytes };
  lastDecoded = { bytes, store };
  return store;
}

/**
 * Writes `store` into `account`'s storage in state `sm` and clears its `changed` mark. When the
 * store knows the bytes the state holds (`stateBytes`), only the words that differ are written: a
 * changed timer rewrites the words its record spans, not the whole store (each written slot is a
 * trie update at commit). An account that does not exist yet is made with nonce 1, so EIP-161 never
 * clears it as empty.
 */
export async function writeModuleStore(sm: StateManagerInterface, account: Uint8Array, store: MemoryModuleStore): Promise<void> {
  const address = new Address(account);
  const bytes = store.encode();
  const known = store.stateBytes;
  if (known?.bytes !== undefined && equalsBytes(known.bytes, bytes)) {
    store.changed = false;
    return;
  }
  if (known?.bytes === undefined && (await sm.getAccount(address)) === undefined) await sm.putAccount(address, createAccount({ nonce: 1n, balance: 0n }));
  const records = new StorageRecords(accountStorage(sm, account));
  await records.putBytes(MODULE_STORE_RECORD, bytes, known);
  store.stateBytes = { bytes };
  store.changed = false;
}

/** A state manager as a StateReader (values left-padded to 32 bytes). */
export function slotReader(sm: StateManagerInterface): StateReader {
  return { getStorage: async (address, key) => setLengthLeft(await sm.getStorage(new Address(address), key), 32) };
}
