/**
 * Where key files live: a directory (`<home>/keystore`, one file per key, owner-only) or memory
 * (a node without a home). Files are written atomically (a hidden temporary file, fsync, rename) and
 * never rewritten; the store only adds files.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

export interface StoredFile {
  name: string;
  text: string;
}

export interface UnreadableFile {
  name: string;
  reason: string;
}

export interface KeyStorage {
  /** The directory, or undefined in memory. */
  readonly dir: string | undefined;
  /** Every key file candidate, in name order (geth's names sort by creation time). */
  readAll(): Promise<{ files: StoredFile[]; unreadable: UnreadableFile[] }>;
  /** Adds a file; refuses to replace one. */
  add(name: string, text: string): Promise<void>;
  /** geth's account URL of a file: `keystore://<path>`. */
  url(name: string): string;
}

/** A key file is at most a few hundred bytes; anything much larger is not one and is not read. */
const MAX_FILE_BYTES = 64 * 1024;

/** geth skips these names: editor backups (`~`) and hidden files (ours include temporary files). */
function isIgnoredName(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~");
}

export class DirectoryStorage implements KeyStorage {
  private constructor(readonly dir: string) {}

  /** Opens (creating it owner-only when missing) the key directory. */
  static async open(dir: string): Promise<DirectoryStorage> {
    const abs = path.resolve(dir);
    await fs.mkdir(abs, { recursive: true, mode: 0o700 });
    return new DirectoryStorage(abs);
  }

  async readAll(): Promise<{ files: StoredFile[]; unreadable: UnreadableFile[] }> {
    const files: StoredFile[] = [];
    const unreadable: UnreadableFile[] = [];
    const entries = await fs.readdir(this.dir, { withFileTypes: true });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (isIgnoredName(e.name) || e.isDirectory()) continue;
      const full = path.join(this.dir, e.name);
      try {
        const st = await fs.stat(full);
        if (!st.isFile()) {
          unreadable.push({ name: e.name, reason: "not a regular file" });
          continue;
        }
        if (st.size > MAX_FILE_BYTES) {
          unreadable.push({ name: e.name, reason: `${st.size} bytes: too large to be a key file` });
          continue;
        }
        files.push({ name: e.name, text: await fs.readFile(full, "utf8") });
      } catch (err) {
        unreadable.push({ name: e.name, reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
      }
    }
    return { files, unreadable };
  }

  async add(name: string, text: string): Promise<void> {
    if (path.basename(name) !== name || isIgnoredName(name)) throw new Error(`invalid key file name ${JSON.stringify(name)}`);
    const target = path.join(this.dir, name);
    const tmp = path.join(this.dir, `.${name}.tmp${randomBytes(6).toString("hex")}`);
    const handle = await fs.open(tmp, "wx", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.chmod(0o600); // whatever the umask
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      // link, unlike rename, fails when the target exists: an existing key file is never replaced
      await fs.link(tmp, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new Error(`key file ${name} exists`);
      // a file system without hard links: rename, after checking the name is free
      if (
        await fs.stat(target).then(
          () => true,
          () => false,
        )
      )
        throw new Error(`key file ${name} exists`);
      await fs.rename(tmp, target);
    } finally {
      await fs.rm(tmp, { force: true });
    }
    await syncDir(this.dir);
  }

  url(name: string): string {
    return `keystore://${path.join(this.dir, name)}`;
  }
}

/** Makes the new directory entry durable (best effort: not every platform can fsync a directory). */
async function syncDir(dir: string): Promise<void> {
  let h: fs.FileHandle | undefined;
  try {
    h = await fs.open(dir, "r");
    await h.sync();
  } catch {
    /* not supported here */
  } finally {
    await h?.close();
  }
}

export class MemoryStorage implements KeyStorage {
  readonly dir = undefined;
  private readonly _files = new Map<string, string>();

  async readAll(): Promise<{ files: StoredFile[]; unreadable: UnreadableFile[] }> {
    return { files: [...this._files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, text]) => ({ name, text })), unreadable: [] };
  }

  async add(name: string, text: string): Promise<void> {
    if (this._files.has(name)) throw new Error(`key file ${name} exists`);
    this._files.set(name, text);
  }

  url(name: string): string {
    return `keystore://memory/${name}`;
  }
}
