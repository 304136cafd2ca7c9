/**
 * LevelDB backend of the KVStore interface (the data dir of `--home DIR`, docs/json-rpc.md, "Persistence").
 *
 * A failed write (a full disk) can leave a torn record at the end of LevelDB's log; LevelDB goes on
 * appending after it, and its recovery at the next open stops at the torn record: every write
 * acknowledged after the failure would be lost. So after a failed write the store reopens itself
 * (recovery then moves the log's good records into a table and starts a new log) before it writes
 * again, and refuses the write while it cannot (geth treats a failed database write as fatal).
 *
 * Locking: LevelDB takes an fcntl lock on DIR/LOCK, which stops a second process. Inside one process
 * a second open fails too, but LevelDB then closes its own handle on LOCK, and POSIX drops every
 * fcntl lock the process holds on that file: the first handle silently loses its lock and another
 * process could open the directory beside it. So this module refuses a second in-process open
 * itself, before LevelDB is asked.
 */
import fs from "node:fs";
import { ClassicLevel } from "classic-level";
import type { BatchOp, KVStore, RangeOptions } from "./kv";
import { errorText } from "../utils/error-text";

type Level = ClassicLevel<Uint8Array, Uint8Array>;

/** Directories (real paths) opened by this process and not yet closed. */
const openDirs = new Set<string>();

function inUseError(dir: string): Error {
  return new Error(`data directory ${dir} is in use by another running node`);
}

function errorCode(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null || !("code" in e)) return undefined;
  const code = (e as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** classic-level wraps the real reason in `cause` (code LEVEL_DATABASE_NOT_OPEN outside). */
function rootCause(e: unknown): unknown {
  let cur = e;
  for (let i = 0; i < 5 && cur instanceof Error && cur.cause !== undefined; i++) cur = cur.cause;
  return cur;
}

function isLockError(e: unknown): boolean {
  for (const x of [e, rootCause(e)]) {
    if (errorCode(x) === "LEVEL_LOCKED") return true;
    // LevelDB's own texts (env_posix.cc, env_win.cc), should a wrapper drop the code
    if (/IO error: (lock |LockFile )/.test(errorText(x))) return true;
  }
  return false;
}

/**
 * How many table files LevelDB may keep open. It keeps one descriptor per open table (2 MB each);
 * past its budget (1000 by default) every read of another table opens it again and reads its index
 * and filter blocks: on a 2.6 GB store random reads measured ~3× slower than with the tables open
 * (a state of 1M accounts is that big). As geth does, the store gets half the process's descriptors
 * (Node raises the soft limit to the hard one), here at most 16,384; LevelDB's 1000 when the limit is unknown.
 */
function tableFileBudget(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"));
    if (m !== null) return Math.max(1000, Math.min(16_384, Math.floor(Number(m[1]) / 2)));
  } catch {
    // not Linux: LevelDB's default
  }
  return 1000;
}

function openLevel(real: string): Level {
  return new ClassicLevel<Uint8Array, Uint8Array>(real, { keyEncoding: "view", valueEncoding: "view", maxOpenFiles: tableFileBudget() });
}

export class LevelKV implements KVStore {
  readonly inMemory = false;
  private _closed = false;
  /** Set by a failed write: the database must be reopened before the next write (see the file comment). */
  private _failed: string | undefined;
  /** Undefined while a reopen after a failed write has not succeeded yet. */
  private _db: Level | undefined;

  private constructor(
    db: Level,
    /** The resolved directory, as registered in `openDirs`. */
    readonly dir: string,
  ) {
    this._db = db;
  }

  /**
   * Opens (creating if missing) the LevelDB database in `dir`.
   * Throws "data directory … is in use by another running node" when another node holds it, and
   * "cannot open data directory …: reason" when it is unreadable or corrupt.
   */
  static async open(dir: string): Promise<LevelKV> {
    let real: string;
    try {
      fs.mkdirSync(dir, { recursive: true });
      real = fs.realpathSync(dir);
    } catch (e) {
      throw new Error(`cannot open data directory ${dir}: ${errorText(e)}`);
    }
    if (openDirs.has(real)) throw inUseError(dir);
    openDirs.add(real);
    const db = openLevel(real);
    try {
      await db.open();
    } catch (e) {
      openDirs.delete(real);
      if (isLockError(e)) throw inUseError(dir);
      throw new Error(`cannot open data directory ${dir}: ${errorText(rootCause(e))}`);
    }
    return new LevelKV(db, real);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return (await this._readable()).get(key);
  }

  async batch(ops: BatchOp[]): Promise<void> {
    if (ops.length === 0) return;
    if (this._failed !== undefined) await this._reopen();
    const db = await this._readable();
    try {
      // the array form of batch() is one LevelDB WriteBatch: all or nothing
      await db.batch(ops.map((op) => (op.type === "put" ? { type: "put" as const, key: op.key, value: op.value } : { type: "del" as const, key: op.key })));
    } catch (e) {
      this._failed = errorText(rootCause(e));
      throw new Error(`data directory ${this.dir}: the write failed (${this._failed}); the store reopens before it writes again`);
    }
  }

  /** The database to read: the open one, or, after a reopen that failed, a new try at opening it. */
  private async _readable(): Promise<Level> {
    if (this._db !== undefined) return this._db;
    await this._reopen();
    return this._db as unknown as Level;
  }

  /**
   * Closes and opens the database again after a failed write: LevelDB's recovery keeps the log's
   * records up to the torn one and starts a new log. While it cannot (the disk still full), writes
   * are refused with the reason and reads try again.
   */
  private async _reopen(): Promise<void> {
    if (this._closed) throw new Error(`data directory ${this.dir} is closed`);
    const old = this._db;
    this._db = undefined;
    await old?.close().catch(() => undefined);
    const db = openLevel(this.dir);
    try {
      await db.open();
    } catch (e) {
      throw new Error(`data directory ${this.dir} cannot be written since its last write failed (${this._failed ?? "?"}), and it cannot be reopened yet: ${errorText(rootCause(e))}`);
    }
    this._db = db;
    this._failed = undefined;
  }

  async *range(opts: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]> {
    const it = (await this._readable()).iterator({
      ...(opts.gte !== undefined ? { gte: opts.gte } : {}),
      ...(opts.lt !== undefined ? { lt: opts.lt } : {}),
      reverse: opts.reverse === true,
      limit: opts.limit !== undefined && opts.limit >= 0 ? opts.limit : -1,
    });
    try {
      for await (const [k, v] of it) yield [k, v];
    } finally {
      // also runs when the consumer breaks out early, so the iterator never pins the database
      await it.close();
    }
  }

  async close(): Promise<void> {
    if (this._closed) return;
    this._closed = true;
    try {
      await this._db?.close();
    } finally {
      openDirs.delete(this.dir);
    }
  }
}
