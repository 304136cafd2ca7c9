/** The bearer token of the private namespaces: generated or configured, kept in an owner-only file. */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/** Constant-time check of an `Authorization: Bearer <token>` header. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m === null) return false;
  const given = Buffer.from(m[1]);
  const want = Buffer.from(token);
  // compare equal-length buffers only; a length mismatch still costs one comparison
  return given.length === want.length ? timingSafeEqual(given, want) : (timingSafeEqual(want, want), false);
}

/**
 * The token to use: the configured one, else the one in `file`, else a new one. It is written to
 * `file` with mode 0600 (and an existing file's wider mode is narrowed).
 */
export function readOrCreateTokenFile(file: string, configured?: string): string {
  let token = configured;
  if (token === undefined && existsSync(file)) token = readFileSync(file, "utf8").trim() || undefined;
  token ??= generateToken();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return token;
}
