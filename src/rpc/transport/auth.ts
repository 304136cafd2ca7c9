/** The bearer token of the private namespaces: generated or configured, kept in an owner-only file. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** 32 random bytes, hex. */
export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/** A token must fit in one `Authorization: Bearer <token>` header value. */
function checkToken(token: string, where: string): string {
  if (!/^[\x21-\x7e]+$/.test(token)) throw new Error(`${where}: the bearer token must be non-empty printable ASCII without spaces`);
  return token;
}

/**
 * Constant-time check of an `Authorization: Bearer <token>` header. Both sides are hashed first, so
 * timingSafeEqual always compares equal-length buffers and the token's length does not leak either.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m === null) return false;
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * The token to use: the configured one, else the one already in `file`, else a new one. The file
 * ends up holding it with mode 0600; an existing file with a wider mode is narrowed first, before
 * anything is written into it.
 */
export function readOrCreateTokenFile(file: string, configured?: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const exists = existsSync(file);
  if (exists && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const stored = exists ? readFileSync(file, "utf8").trim() : "";
  const token = configured !== undefined ? checkToken(configured, "configured token") : stored !== "" ? checkToken(stored, file) : generateToken();
  if (token !== stored) writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
