/**
 * The access policy (docs/security.md): which callers may use which access class, and which browser
 * origins count as "allowed" for the `dev` class. Transports describe the caller (token, loopback,
 * Origin) in the RequestContext; the dispatcher asks `mayCall` once per call.
 */
import { ACCESS_CLASSES, type Access } from "./method";
import type { RequestContext } from "./types";

/** Origins a page may call `dev` methods from without the token: these hosts, on any port and scheme. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

export function isAccess(v: unknown): v is Access {
  return typeof v === "string" && (ACCESS_CLASSES as readonly string[]).includes(v);
}

export function mayCall(access: Access, ctx: RequestContext): boolean {
  switch (access) {
    case "read":
    case "send":
      return true;
    case "dev":
      return ctx.authenticated || ctx.devOpen !== false;
    case "private":
    case "code":
      return ctx.authenticated;
  }
}

/**
 * Whether a browser's `Origin` is one of `allowed`. An entry with a scheme (`http://app.test:3000`)
 * must match the origin exactly; a bare host (`localhost`, `[::1]`, `app.test`) matches that host on
 * any port and scheme; `*` matches every origin. The opaque origin `null` (sandboxed frames, files)
 * matches only `*`.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes("*")) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === "null") return false;
  const host = url.hostname.toLowerCase();
  return allowed.some((entry) => {
    const e = entry.trim().toLowerCase();
    return e.includes("://") ? e.replace(/\/+$/, "") === url.origin : e === host;
  });
}

/**
 * Whether this caller may use `dev` methods without the token: from this machine, and either no
 * `Origin` (a script, a CLI, Hardhat) or an allowed one (a page under development on localhost).
 * Beyond loopback the Origin proves nothing (any client can write one), so only the token counts.
 */
export function devOpen(fromLoopback: boolean, origin: string | undefined, allowed: readonly string[]): boolean {
  return fromLoopback && (origin === undefined || originAllowed(origin, allowed));
}
