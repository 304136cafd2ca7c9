/**
 * The package's tarball as `npm pack` makes it (its `prepack` builds dist/ first), made once per test
 * process: the package tests (outside-in, Hardhat 3, the README's commands) all install the same file.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./processes";

export interface Packed {
  /** The tarball's absolute path. */
  file: string;
  /** Its name, as `npm pack` prints it (`hardhat-epochs-0.1.0.tgz`). */
  filename: string;
  /** The files it holds, relative to the package's root. */
  files: Array<{ path: string }>;
}

let packed: Packed | undefined;

/** The environment of a nested npm or npx: npm's own variables (set by `npm test`) would turn it into another command. */
export function npmChildEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false", HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", DO_NOT_TRACK: "1", ...extra };
}

export function packTarball(): Packed {
  if (packed !== undefined) return packed;
  const dir = mkdtempSync(path.join(tmpdir(), "epochs-tarball-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const r = spawnSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, env: npmChildEnv(), encoding: "utf8", timeout: 180_000 });
  if (r.status !== 0) throw new Error(`npm pack failed:\n${r.stdout}${r.stderr}`);
  const [out] = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = { file: path.join(dir, out.filename), filename: out.filename, files: out.files };
  return packed;
}

/**
 * The bin folder of a Node from the registry (`node@22`), found once by npx: put first on PATH, a
 * shell's `node`, `npx …` and `./node_modules/.bin/…` run on it as on a reader's machine, without an
 * npx of their own (~1 s each).
 */
export function nodeBin(spec: string): string {
  const r = spawnSync("npx", ["-y", "-p", spec, "-c", 'dirname "$(command -v node)"'], { env: npmChildEnv(), encoding: "utf8", timeout: 300_000 });
  const dir = r.stdout.trim().split("\n").pop();
  if (r.status !== 0 || dir === undefined || dir === "") throw new Error(`${spec}: no node:\n${r.stdout}${r.stderr}`);
  return dir;
}
