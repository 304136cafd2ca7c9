/**
 * Module state kept as EVM state: named records in the storage of a module's account (the Cosmos
 * modules' precompiles; the epochs module's store, src/chain/base/module-state.ts). Being EVM storage, a
 * record reverts with its transaction or call frame, with evm_revert, persists with the chain, reads
 * at any height, and shows in state dumps and traces like any contract's storage.
 *
 * Layout of record `name` (a UTF-8 string): slot keccak256(name) holds the value's byte length + 1
 * (0 = no record); the value's bytes follow in 32-byte words from slot keccak256(name) + 1. The
 * Cosmos modules' values are JSON (`encodeRecord`: bigints as `{ "$n": "<decimal>" }`).
 */
import { Address, setLengthLeft } from "@ethereumjs/util";
import { toUtf8Bytes, toUtf8String } from "ethers/utils";
import { keccak256 } from "../../utils/keccak";

/**
 * One account's storage: 32-byte keys, values as the state manager returns them (leading zeros
 * trimmed or not); an empty value deletes a slot. The one shape every module's state goes through:
 * records here, the epochs module's store (src/chain/base/module-state.ts), the epochs hook registry's
 * Solidity-laid slots (src/epochs/precompile.ts).
 */
export interface StorageIO {
  get(key: Uint8Array): Promise<Uint8Array>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
}

/** Reads a storage slot (32-byte key) of any account; 32 bytes, zero when unset (a block's state as modules read it). */
export interface StateReader {
  getStorage(address: Uint8Array, key: Uint8Array): Promise<Uint8Array>;
}

/** What `accountStorage` reads and writes through: a state manager, or the EVM's journal over one. */
interface SlotAccess {
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
  putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void>;
}

/** `account`'s storage in a state (a precompile's EVM, the live state between blocks, a state at a height). */
export function accountStorage(sm: SlotAccess, account: Uint8Array): StorageIO {
  const address = new Address(account);
  return { get: (k) => sm.getStorage(address, k), put: (k, v) => sm.putStorage(address, k, v) };
}

const EMPTY = new Uint8Array();

/** The most bytes a record holds (4 MiB: 131,072 storage words). */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;
/** A 32-byte big-endian storage word (slot keys and headers are never negative nor past 2^256). */
const word = (n: bigint): Uint8Array => Buffer.from(n.toString(16).padStart(64, "0"), "hex");
const toBig = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString("hex")}`));

/**
 * keccak256(name), the first slot of record `name`, remembered: a block's module work reads the same
 * few dozen records every block (x/mint's minter and params, the bonded set's heap, …), and hashing
 * their names was a fifth of a minting chain's block (CPU profile of `hardhat_mine` on a local_node.sh
 * genesis). Bounded: the oldest name goes first.
 */
const BASES_MAX = 8192;
const bases = new Map<string, bigint>();
function baseOf(name: string): bigint {
  let base = bases.get(name);
  if (base === undefined) {
    base = BigInt(`0x${Buffer.from(keccak256(toUtf8Bytes(name))).toString("hex")}`);
    if (bases.size >= BASES_MAX) bases.delete(bases.keys().next().value as string);
    bases.set(name, base);
  }
  return base;
}

/** Named byte records over one account's storage. */
export class StorageRecords {
  constructor(private readonly _io: StorageIO) {}

  async getBytes(name: string): Promise<Uint8Array | undefined> {
    const base = baseOf(name);
    const header = toBig(await this._io.get(word(base)));
    if (header === 0n) return undefined;
    const length = recordLength(name, header);
    if (length === 0) return EMPTY;
    const out = new Uint8Array(Math.ceil(length / 32) * 32);
    for (let i = 0; i * 32 < length; i++) out.set(setLengthLeft(await this._io.get(word(base + 1n + BigInt(i))), 32), i * 32);
    return out.subarray(0, length);
  }

  /**
   * Writes (or, with undefined, deletes) a record; words the old value used beyond the new one are
   * cleared. `previous`: the record's bytes as the storage holds them, when the caller knows them
   * (undefined: no record); then only the words that differ are written.
   */
  async putBytes(name: string, value: Uint8Array | undefined, previous?: { bytes: Uint8Array | undefined }): Promise<void> {
    const base = baseOf(name);
    const old = previous === undefined ? toBig(await this._io.get(word(base))) : previous.bytes === undefined ? 0n : BigInt(previous.bytes.length) + 1n;
    const oldWords = old === 0n ? 0 : Math.ceil(recordLength(name, old) / 32);
    const newWords = value === undefined ? 0 : Math.ceil(value.length / 32);
    for (let i = 0; i < newWords; i++) {
      const chunk = new Uint8Array(32);
      chunk.set((value as Uint8Array).subarray(i * 32, i * 32 + 32));
      if (previous?.bytes !== undefined && i < oldWords && sameWord(previous.bytes, value as Uint8Array, i)) continue;
      await this._io.put(word(base + 1n + BigInt(i)), chunk.some((b) => b !== 0) ? chunk : EMPTY);
    }
    for (let i = newWords; i < oldWords; i++) await this._io.put(word(base + 1n + BigInt(i)), EMPTY);
    const header = value === undefined ? 0n : BigInt(value.length) + 1n;
    if (previous === undefined || header !== old) await this._io.put(word(base), header === 0n ? EMPTY : word(header));
  }

  async get<T>(name: string): Promise<T | undefined> {
    const bytes = await this.getBytes(name);
    return bytes === undefined ? undefined : decodeRecord<T>(bytes);
  }

  async put(name: string, value: unknown): Promise<void> {
    await this.putBytes(name, value === undefined ? undefined : encodeRecord(value));
  }
}

/**
 * The byte length a record's header (length + 1, not 0) says. The header is storage anyone can set
 * (hardhat_setStorageAt, a loaded dump): a length past the bound is refused before anything reads on.
 */
function recordLength(name: string, header: bigint): number {
  if (header - 1n > BigInt(MAX_RECORD_BYTES)) throw new Error(`record ${JSON.stringify(name)} claims ${header - 1n} bytes, more than a record holds (${MAX_RECORD_BYTES})`);
  return Number(header - 1n);
}

/** True when word `i` (32 bytes, zero-padded past the end) of `a` and `b` is the same. */
function sameWord(a: Uint8Array, b: Uint8Array, i: number): boolean {
  for (let j = i * 32; j < i * 32 + 32; j++) if ((a[j] ?? 0) !== (b[j] ?? 0)) return false;
  return true;
}

/** A record's bytes: its JSON. */
export function encodeRecord(value: unknown): Uint8Array {
  return toUtf8Bytes(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? { $n: v.toString() } : v)));
}

export function decodeRecord<T>(bytes: Uint8Array): T {
  return JSON.parse(toUtf8String(bytes), reviveBigints) as T;
}

/** Bigints travel as `{ "$n": "123" }` (JSON has no big integers; strings stay strings). */
function reviveBigints(_key: string, v: unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === "$n" ? BigInt((v as { $n: string }).$n) : v;
}
