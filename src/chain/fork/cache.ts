/**
 * The on-disk cache of a fork's remote reads, so a second run against the same pinned block reads
 * nothing remote.
 *
 * Layout under the cache folder (Hardhat's `paths.cache`/hardhat-epochs-fork by default):
 *   `remote-<sha256(url)[0..16]>-<block>.json`  what the remote said about the block: its chain id and
 *                                               header fields (read instead of asking the remote again)
 *   `chain-<chainId>/block-<n>-<hash>.jsonl`    one JSON record per line: accounts, code, storage slots
 *                                               (`-at-<m>` added for reads of an older block m)
 *
 * The block hash is part of the key, not only the number: two dev chains with the same chain id
 * (every local Evmos chain is 9000) share numbers, never hashes.
 *
 * The record file is append-only: each record is written by one `appendFile` (one write on Linux, so
 * two processes filling the same cache do not interleave inside a line); a torn last line after a
 * crash is skipped when the file is read. Values at a pinned block never change, so records are
 * never updated. Only pinned blocks are cached (as Hardhat does): "latest" moves.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** One line of the record file. */
export type CacheRecord = { t: "a"; a: string; b: string; n: string; c: string } | { t: "c"; h: string; v: string } | { t: "s"; a: string; k: string; v: string };

/** The remote block a fork starts from, as the cache keeps it. */
export interface RemoteBlockJson {
  chainId: string;
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  gasLimit: string;
  baseFeePerGas?: string;
}

export class ForkCacheFile {
  private _queue: string[] = [];
  private _writing: Promise<void> | undefined;
  private _failed = false;

  private constructor(
    readonly file: string,
    readonly records: CacheRecord[],
  ) {}

  /**
   * Opens and reads the records of chain `chainId` at fork block `n` (hash `hash`), or at the older
   * block `at` of that chain's history.
   */
  static open(dir: string, chainId: bigint, n: bigint, hash: string, at?: bigint): ForkCacheFile {
    const file = path.join(dir, `chain-${chainId}`, `block-${n}-${hash.replace(/^0x/, "").slice(0, 16)}${at !== undefined && at !== n ? `-at-${at}` : ""}.jsonl`);
    const records: CacheRecord[] = [];
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      // none yet
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      try {
        records.push(JSON.parse(line) as CacheRecord);
      } catch {
        // a torn line (a crash during a write): the value is read again when needed
      }
    }
    return new ForkCacheFile(file, records);
  }

  /** Queues a record; writes happen in the background, in order. A cache that cannot be written is left alone. */
  add(record: CacheRecord): void {
    if (this._failed) return;
    this._queue.push(JSON.stringify(record));
    this._writing ??= this._drain();
  }

  /** Waits for the queued records to be written. */
  async flush(): Promise<void> {
    for (let i = 0; i < 1000 && this._writing !== undefined; i++) await this._writing;
  }

  private async _drain(): Promise<void> {
    try {
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      for (let i = 0; i < 1_000_000 && this._queue.length > 0; i++) {
        const lines = this._queue.splice(0, 512);
        // one appendFile per record keeps each record inside a single write
        for (const line of lines) await fs.promises.appendFile(this.file, `${line}\n`);
      }
    } catch {
      this._failed = true;
      this._queue = [];
    } finally {
      this._writing = undefined;
    }
  }
}

function remoteKey(dir: string, url: string, n: bigint): string {
  const h = createHash("sha256").update(url).digest("hex").slice(0, 16);
  return path.join(dir, `remote-${h}-${n}.json`);
}

/** The cached description of block `n` of the remote at `url`, if a run has fetched it. */
export function readRemoteBlock(dir: string, url: string, n: bigint): RemoteBlockJson | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(remoteKey(dir, url, n), "utf8")) as RemoteBlockJson;
    return typeof parsed.hash === "string" && typeof parsed.chainId === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Records block `n` of the remote at `url` (written to a temporary file, then renamed). */
export function writeRemoteBlock(dir: string, url: string, n: bigint, block: RemoteBlockJson): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const file = remoteKey(dir, url, n);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(block));
    fs.renameSync(tmp, file);
  } catch {
    // a cache that cannot be written costs a request next time, nothing more
  }
}
