/**
 * The remote's state at one pinned block, read lazily and remembered: accounts (balance, nonce,
 * code), code by hash, storage slots. Reads of the same key share one request; what was read is kept
 * in memory and, for a pinned block, in the on-disk cache.
 */
import { KECCAK256_NULL, bytesToHex, hexToBytes } from "@ethereumjs/util";
import { keccak256 } from "../../utils/keccak";
import type { CacheRecord, ForkCacheFile } from "./cache";
import { ForkError, type RemoteClient } from "./remote";

interface RemoteAccount {
  nonce: bigint;
  balance: bigint;
  codeHash: Uint8Array;
}

export class RemoteState {
  private readonly _accounts = new Map<string, RemoteAccount>();
  private readonly _code = new Map<string, Uint8Array>();
  private readonly _storage = new Map<string, Uint8Array>();
  private readonly _inflight = new Map<string, Promise<unknown>>();
  private readonly _tag: string;

  constructor(
    readonly client: RemoteClient,
    readonly blockNumber: bigint,
    private readonly _cache?: ForkCacheFile,
  ) {
    this._tag = `0x${blockNumber.toString(16)}`;
    for (const r of _cache?.records ?? []) this._load(r);
  }

  /** Remote requests sent for this state (each batch counts once). */
  get requests(): number {
    return this.client.requests;
  }

  /** The account at the pinned block; an account the remote does not have reads as all zero. */
  account(address: Uint8Array): Promise<RemoteAccount> {
    const key = bytesToHex(address);
    const known = this._accounts.get(key);
    if (known !== undefined) return Promise.resolve(known);
    return this._once(`a${key}`, async () => {
      const [balance, nonce, code] = await this.client.batch([
        { method: "eth_getBalance", params: [key, this._tag] },
        { method: "eth_getTransactionCount", params: [key, this._tag] },
        { method: "eth_getCode", params: [key, this._tag] },
      ]);
      const codeBytes = this._data(code, "eth_getCode");
      const codeHash = codeBytes.length === 0 ? KECCAK256_NULL : keccak256(codeBytes);
      const acc: RemoteAccount = { balance: this._quantity(balance, "eth_getBalance"), nonce: this._quantity(nonce, "eth_getTransactionCount"), codeHash };
      this._accounts.set(key, acc);
      if (codeBytes.length > 0) this._code.set(bytesToHex(codeHash), codeBytes);
      if (codeBytes.length > 0) this._cache?.add({ t: "c", h: bytesToHex(codeHash), v: bytesToHex(codeBytes) });
      this._cache?.add({ t: "a", a: key, b: `0x${acc.balance.toString(16)}`, n: `0x${acc.nonce.toString(16)}`, c: bytesToHex(codeHash) });
      return acc;
    });
  }

  /** Code by hash, for an account read through `account` (or from the cache). */
  code(codeHash: Uint8Array): Uint8Array | undefined {
    return this._code.get(bytesToHex(codeHash));
  }

  /** A storage slot (32-byte key) at the pinned block, as 32 bytes. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const a = bytesToHex(address);
    const k = bytesToHex(slot);
    const key = `${a}${k.slice(2)}`;
    const known = this._storage.get(key);
    if (known !== undefined) return Promise.resolve(known);
    return this._once(`s${key}`, async () => {
      const raw = await this.client.call("eth_getStorageAt", [a, k, this._tag]);
      const value = this._data(raw, "eth_getStorageAt");
      if (value.length > 32) throw new ForkError(`fork remote ${this.client.name} answered eth_getStorageAt with ${value.length} bytes`);
      const padded = new Uint8Array(32);
      padded.set(value, 32 - value.length);
      this._storage.set(key, padded);
      this._cache?.add({ t: "s", a, k, v: bytesToHex(padded) });
      return padded;
    });
  }

  private _once<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const running = this._inflight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const p = fetch().finally(() => this._inflight.delete(key));
    this._inflight.set(key, p);
    return p;
  }

  private _load(r: CacheRecord): void {
    try {
      if (r.t === "a") this._accounts.set(r.a, { balance: BigInt(r.b), nonce: BigInt(r.n), codeHash: hexToBytes(r.c as `0x${string}`) });
      else if (r.t === "c") this._code.set(r.h, hexToBytes(r.v as `0x${string}`));
      else if (r.t === "s") this._storage.set(`${r.a}${r.k.slice(2)}`, hexToBytes(r.v as `0x${string}`));
    } catch {
      // a damaged record is read again from the remote
    }
  }

  private _quantity(v: unknown, method: string): bigint {
    if (typeof v !== "string" || !/^0x[0-9a-fA-F]+$/.test(v)) throw new ForkError(`fork remote ${this.client.name} answered ${method} with ${JSON.stringify(v)}, not a quantity`);
    return BigInt(v);
  }

  private _data(v: unknown, method: string): Uint8Array {
    if (typeof v !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw new ForkError(`fork remote ${this.client.name} answered ${method} with ${JSON.stringify(v)}, not hex data`);
    return hexToBytes(v as `0x${string}`);
  }
}
