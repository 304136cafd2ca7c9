/**
 * The node's key store: encrypted key files (Web3 Secret Storage v3) and the lock state of each
 * account. An account is locked until `unlock` with its passphrase; the decrypted key then stays in
 * memory for the duration (0 = until the store closes) and is dropped, and zeroed, on `lock`, on
 * expiry (measured on the process's monotonic clock, never the chain's) and on `close`. Nothing about
 * unlocks is persisted: after a restart every account is locked again.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { computeAddress } from "ethers/transaction";
import { hexlify } from "ethers/utils";
import { Mutex } from "../utils/mutex";
import { AccountExistsError, DurationTooLargeError, KeyStoreError, LockedError, NoKeyError } from "./errors";
import { DirectoryStorage, type KeyStorage, MemoryStorage } from "./storage";
import { type ScryptParams, decryptKey, encryptKey, keyFileName, readKeyFileHeader, scryptParams } from "./v3";

export interface KeyStoreOptions {
  /** The key directory (`<home>/keystore`); in memory when absent. */
  dir?: string;
  /** scrypt cost of new key files: geth's standard parameters by default, geth's light ones for tests. */
  scrypt?: ScryptParams | "standard" | "light";
  /** Told about each file of the directory that is skipped at open (a corrupt or foreign file). */
  onSkipped?: (file: string, reason: string) => void;
}

interface SkippedFile {
  /** The file's path (or name in memory). */
  file: string;
  reason: string;
}

/** geth's personal.listWallets entry: one wallet per key file. */
interface WalletInfo {
  url: string;
  status: "Locked" | "Unlocked";
  accounts: Array<{ address: string; url: string }>;
}

/** The longest unlock geth accepts, in seconds: time.Duration(MaxInt64) / time.Second. */
export const MAX_UNLOCK_SECONDS = 9_223_372_036n;
export const DEFAULT_UNLOCK_SECONDS = 300n;
/** setTimeout's longest delay; longer unlocks re-arm their timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

interface StoredAccount {
  address: string;
  name: string;
  text: string;
}

interface Unlocked {
  key: Uint8Array;
  /** Monotonic ms; undefined = until close. */
  expiresAt: number | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A valid secp256k1 private key: 32 bytes, 0 < k < n.
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function isValidPrivateKey(key: Uint8Array): boolean {
  if (key.length !== 32) return false;
  const k = BigInt(hexlify(key));
  return k > 0n && k < SECP256K1_N;
}

export class KeyStore {
  private readonly _accounts = new Map<string, StoredAccount>();
  private readonly _unlocked = new Map<string, Unlocked>();
  /** Addresses being written (two concurrent imports of one key: the second is refused). */
  private readonly _adding = new Set<string>();
  private readonly _skipped: SkippedFile[] = [];
  /** One key derivation at a time: each standard scrypt run takes 256 MiB, so concurrent requests queue instead of piling up memory. */
  private readonly _kdf = new Mutex();
  private _closed = false;

  private constructor(
    private readonly _storage: KeyStorage,
    readonly scrypt: ScryptParams,
    private readonly _now: () => number = () => performance.now(),
  ) {}

  /** Opens the store, reading every key file's header (no decryption); unusable files are skipped and reported. */
  static async open(opts: KeyStoreOptions = {}): Promise<KeyStore> {
    const storage = opts.dir === undefined ? new MemoryStorage() : await DirectoryStorage.open(opts.dir);
    const ks = new KeyStore(storage, scryptParams(opts.scrypt));
    await ks._load(opts.onSkipped);
    return ks;
  }

  private async _load(onSkipped?: (file: string, reason: string) => void): Promise<void> {
    const where = (name: string) => (this._storage.dir === undefined ? name : path.join(this._storage.dir, name));
    const skip = (name: string, reason: string) => {
      this._skipped.push({ file: where(name), reason });
      onSkipped?.(where(name), reason);
    };
    const { files, unreadable } = await this._storage.readAll();
    for (const u of unreadable) skip(u.name, u.reason);
    for (const f of files) {
      let address: string;
      try {
        address = readKeyFileHeader(f.text).address;
      } catch (err) {
        skip(f.name, err instanceof KeyStoreError ? err.message : String(err));
        continue;
      }
      const first = this._accounts.get(address);
      if (first !== undefined) {
        skip(f.name, `a second key file for ${address} (the store uses ${first.name})`);
        continue;
      }
      this._accounts.set(address, { address, name: f.name, text: f.text });
    }
  }

  /** The key directory, or undefined in memory. */
  get dir(): string | undefined {
    return this._storage.dir;
  }

  /** Files skipped at open, with the reason. */
  get skipped(): readonly SkippedFile[] {
    return this._skipped;
  }

  /** Addresses (0x, lower case) in key-file order, which is creation order for geth's names. */
  accounts(): string[] {
    return [...this._accounts.keys()];
  }

  has(address: string): boolean {
    return this._accounts.has(address.toLowerCase());
  }

  /** The key file name of an account. */
  fileName(address: string): string | undefined {
    return this._accounts.get(address.toLowerCase())?.name;
  }

  /** Generates a key, stores it encrypted with the passphrase; answers its address. */
  async newAccount(passphrase: string): Promise<string> {
    let key = new Uint8Array(randomBytes(32));
    while (!isValidPrivateKey(key)) key = new Uint8Array(randomBytes(32));
    try {
      return await this.importKey(key, passphrase);
    } finally {
      key.fill(0);
    }
  }

  /** Stores a private key encrypted with the passphrase; `account already exists` when the store holds its address. */
  async importKey(key: Uint8Array, passphrase: string): Promise<string> {
    if (!isValidPrivateKey(key)) throw new KeyStoreError("invalid private key");
    this._assertOpen();
    const address = computeAddress(hexlify(key)).toLowerCase();
    if (this._accounts.has(address) || this._adding.has(address)) throw new AccountExistsError();
    this._adding.add(address);
    try {
      const text = await this._kdf.exclusive(() => encryptKey(key, passphrase, this.scrypt));
      const name = keyFileName(new Date(), address);
      await this._storage.add(name, text);
      this._accounts.set(address, { address, name, text });
      return address;
    } finally {
      this._adding.delete(address);
    }
  }

  /**
   * Unlocks for `seconds` (0 = until close). A wrong passphrase changes nothing. Unlocking again
   * restarts the timer, except for an account unlocked until close, which stays so (geth).
   */
  async unlock(address: string, passphrase: string, seconds: bigint = DEFAULT_UNLOCK_SECONDS): Promise<void> {
    if (seconds < 0n || seconds > MAX_UNLOCK_SECONDS) throw new DurationTooLargeError();
    const key = await this.decrypt(address, passphrase);
    if (this._closed) {
      key.fill(0);
      this._assertOpen();
    }
    const a = address.toLowerCase();
    const current = this._unlocked.get(a);
    if (current !== undefined && current.expiresAt === undefined && !this._expired(current)) {
      key.fill(0);
      return;
    }
    if (current !== undefined) this._drop(a, current);
    const entry: Unlocked = { key, expiresAt: seconds === 0n ? undefined : this._now() + Number(seconds) * 1000, timer: undefined };
    this._unlocked.set(a, entry);
    this._arm(a, entry);
  }

  /** Locks a key-store account (dropping its key); false for an address the store does not hold. */
  lock(address: string): boolean {
    const a = address.toLowerCase();
    if (!this._accounts.has(a)) return false;
    const entry = this._unlocked.get(a);
    if (entry !== undefined) this._drop(a, entry);
    return true;
  }

  isUnlocked(address: string): boolean {
    const a = address.toLowerCase();
    const entry = this._unlocked.get(a);
    if (entry === undefined) return false;
    if (this._expired(entry)) {
      this._drop(a, entry);
      return false;
    }
    return true;
  }

  /** A copy of an unlocked account's key; `authentication needed: password or unlock` when locked. */
  unlockedKey(address: string): Uint8Array {
    const a = address.toLowerCase();
    if (!this._accounts.has(a)) throw new NoKeyError();
    if (!this.isUnlocked(a)) throw new LockedError();
    return (this._unlocked.get(a) as Unlocked).key.slice();
  }

  /** Decrypts an account's key with its passphrase without unlocking it (the caller zeroes it after use). */
  async decrypt(address: string, passphrase: string): Promise<Uint8Array> {
    this._assertOpen();
    const account = this._accounts.get(address.toLowerCase());
    if (account === undefined) throw new NoKeyError();
    return this._kdf.exclusive(() => decryptKey(account.text, passphrase));
  }

  /** geth's wallet list: one wallet per key file, with its lock status. */
  wallets(): WalletInfo[] {
    return [...this._accounts.values()].map((acc) => {
      const url = this._storage.url(acc.name);
      return { url, status: this.isUnlocked(acc.address) ? "Unlocked" : "Locked", accounts: [{ address: acc.address, url }] };
    });
  }

  /** Drops every unlocked key; the store refuses further use. */
  close(): void {
    this._closed = true;
    for (const [a, entry] of [...this._unlocked]) this._drop(a, entry);
  }

  private _assertOpen(): void {
    if (this._closed) throw new KeyStoreError("the key store is closed");
  }

  private _expired(entry: Unlocked): boolean {
    return entry.expiresAt !== undefined && this._now() >= entry.expiresAt;
  }

  private _arm(address: string, entry: Unlocked): void {
    if (entry.expiresAt === undefined) return;
    const due = entry.expiresAt;
    const wait = Math.min(Math.max(Math.ceil(due - this._now()), 0), MAX_TIMER_MS);
    entry.timer = setTimeout(() => {
      if (this._unlocked.get(address) !== entry) return;
      if (this._now() >= due) this._drop(address, entry);
      else this._arm(address, entry);
    }, wait);
    entry.timer.unref();
  }

  private _drop(address: string, entry: Unlocked): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.key.fill(0);
    if (this._unlocked.get(address) === entry) this._unlocked.delete(address);
  }
}
