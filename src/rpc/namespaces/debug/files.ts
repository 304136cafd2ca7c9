/**
 * Where the debug methods read and write files: only under the node's home directory or its
 * working directory. A relative path is taken from the home (or the working directory without
 * one); `~/` is the user's home, which must itself be under one of them. Written files are always
 * new: an existing file is never overwritten. Links are followed before the check: a symbolic link
 * under a root that points elsewhere (a file, or a folder on the way) does not take a read or a
 * write out of the roots.
 */
import { open, readFile, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export interface FileRoots {
  /** The node's --home, when it has one. */
  home?: string;
  cwd: string;
}

export class FilePathError extends Error {}

function resolveUnder(roots: FileRoots, file: string): string {
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

/**
 * `resolveUnder`, then the same check on where the path really leads once links are followed: the
 * file itself for a read, its folder for a write (the file is new). The roots are compared as their
 * own real paths.
 */
async function resolveReal(roots: FileRoots, file: string, forWrite: boolean): Promise<string> {
  const full = resolveUnder(roots, file);
  const real = async (p: string): Promise<string> => {
    try {
      return await realpath(p);
    } catch (err) {
      throw new FilePathError(`${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or folder" : (err as Error).message}`);
    }
  };
  const target = forWrite ? join(await real(dirname(full)), basename(full)) : await real(full);
  const realRoots: FileRoots = { cwd: await realpath(roots.cwd).catch(() => roots.cwd) };
  if (roots.home !== undefined) realRoots.home = await realpath(roots.home).catch(() => roots.home);
  try {
    resolveUnder(realRoots, target);
  } catch {
    throw new FilePathError(`${file}: leads to ${target} through a link; files are read and written only under ${[roots.home, roots.cwd].filter((r) => r !== undefined).join(" or ")}`);
  }
  return target;
}

/** Writes a new file (never replacing one); answers its absolute path. */
export async function writeNew(roots: FileRoots, file: string, body: string | Uint8Array): Promise<string> {
  const full = await resolveReal(roots, file, true);
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
  return readFile(await resolveReal(roots, file, false));
}
