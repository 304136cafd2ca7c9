import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const enc = new TextEncoder();
export const b = (s: string): Uint8Array => enc.encode(s);
export const str = (u: Uint8Array): string => Buffer.from(u).toString("latin1");

/** A fresh temp directory and its removal, for a mocha suite. */
export function tempDirs(): { make(): string; cleanup(): void } {
  const made: string[] = [];
  return {
    make(): string {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), "hhe-storage-"));
      made.push(d);
      return d;
    },
    cleanup(): void {
      for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
