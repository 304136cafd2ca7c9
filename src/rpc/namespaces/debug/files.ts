/**
 * Where the debug methods read and write files: only under the node's home directory or its
 * working directory. A relative path is taken from the home (or the working directory without
 * one); `~/` is the user's home, which must itself be under one of them. Written files are always
 * new: an existing file is never overwritten.
 */
import { open, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";

export interface FileRoots {
  /** The node's --home, when it has one. */
  home?: string;
  cwd: string;
}

export class FilePathError extends Error {}

export function resolveUnder(roots: FileRoots, file: string): string {
  if (file === "") throw new FilePathError("no file name given");
  const expanded = file === "~" || file.startsWith("~/") ? resolve(homedir(), file.slice(2)) : file;
  const base = roots.home ?? roots.cwd;
  const full = isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
  const allowed = [roots.home, roots.cwd].filter((r): r is string => r !== undefined).map((r) => resolve(r));
  const inside = allowed.some((r) => {
    const rel = relative(r, full);
    return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
  });
  if (!inside) throw new FilePathError(`${file}: files are read and written only under ${allowed.join(" or ")}`);
  return full;
}

/** Writes a new file (never replacing one); answers its absolute path. */
export async function writeNew(roots: FileRoots, file: string, body: string | Uint8Array): Promise<string> {
  const full = resolveUnder(roots, file);
  let fh;
  try {
    fh = await open(full, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new FilePathError(`${full} already exists; it is not overwritten`);
    throw new FilePathError(`cannot create ${full}: ${(err as Error).message}`);
  }
  try {
    await fh.writeFile(body);
  } finally {
    await fh.close();
  }
  return full;
}

/** Creates the file now (so a later write cannot replace something), to be filled by `fill`. */
export async function reserveNew(roots: FileRoots, file: string): Promise<string> {
  return writeNew(roots, file, "");
}

export async function readUnder(roots: FileRoots, file: string): Promise<Buffer> {
  return readFile(resolveUnder(roots, file));
}
