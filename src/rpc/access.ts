/**
 * The access policy (docs/security.md): which callers may use which access class, and which browser
 * origins count as "allowed" for the `dev` class. Transports describe the caller (token, loopback,
 * Origin) in the RequestContext; the dispatcher asks `mayCall` once per call.
 */
import { ACCESS_CLASSES, type Access } from "./method";
import type { RequestContext } from "./types";
import { isLoopbackHost } from "./loopback";

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

/**
 * Method names grouped by class, each namespace written `ns_*` where every one of its methods has
 * that class (the banner and docs/security.md are made from it).
 */
function accessSummary(classes: ReadonlyMap<string, Access>): Record<Access, string[]> {
  const byNs = new Map<string, string[]>();
  for (const name of [...classes.keys()].sort()) {
    const ns = name.split("_")[0];
    byNs.set(ns, [...(byNs.get(ns) ?? []), name]);
  }
  const out: Record<Access, string[]> = { read: [], send: [], dev: [], private: [], code: [] };
  for (const [ns, names] of byNs) {
    const first = classes.get(names[0]) as Access;
    if (names.every((n) => classes.get(n) === first)) out[first].push(`${ns}_*`);
    else for (const n of names) out[classes.get(n) as Access].push(n);
  }
  return out;
}

const CLASS_TEXT: Record<Access, string> = {
  read: "anyone, from any origin",
  send: "anyone, from any origin",
  dev: "this machine without an `Origin`, pages from an allowed origin, or the token",
  private: "the token",
  code: "the token",
};

/**
 * The table of docs/security.md: one row per class, with who may call it and its methods. `code` is
 * a class a call takes from its parameters (JavaScript tracers), so it names those methods too.
 */
export function accessTable(classes: ReadonlyMap<string, Access>, raised: ReadonlyMap<string, Access>): string {
  const summary = accessSummary(classes);
  const rows = ["| class | who may call | methods |", "|---|---|---|"];
  for (const cls of ACCESS_CLASSES) {
    const declared = summary[cls].map((n) => `\`${n}\``);
    const byParams = [...raised]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .filter(([, c]) => c === cls)
      .map(([n]) => `\`${n}\` (some parameters)`);
    rows.push(`| \`${cls}\` | ${CLASS_TEXT[cls]} | ${[...declared, ...byParams].join(", ") || "—"} |`);
  }
  return rows.join("\n");
}

/** Names for a line of text: the whole-namespace groups first, then "and N more". */
function shortList(names: string[], max = 4): string {
  const sorted = [...names].sort((a, b) => Number(b.endsWith("_*")) - Number(a.endsWith("_*")) || (a < b ? -1 : 1));
  const shown = sorted.slice(0, max);
  return sorted.length > max ? `${shown.join(", ")} and ${sorted.length - max} more` : shown.join(", ");
}

/** True when a bound listener accepts connections from other machines (the banner then says dev methods need the token there). */
export function beyondLoopback(bound: { httpAddress: { host: string }; wsAddress?: { host: string } }): boolean {
  return !isLoopbackHost(bound.httpAddress.host) || (bound.wsAddress !== undefined && !isLoopbackHost(bound.wsAddress.host));
}

/** The node banner's lines on access, from the same classes as the dispatcher. */
export function accessBanner(classes: ReadonlyMap<string, Access>, raised: ReadonlyMap<string, Access>, allowedOrigins: readonly string[], beyondLoopback: boolean): string[] {
  const s = accessSummary(classes);
  const code = [...raised].filter(([, c]) => c === "code").length;
  // the signing methods a key-store sender raises to dev (src/rpc/accounts.ts, signerAccess)
  const keyStore = [...raised].some(([, c]) => c === "dev");
  return [
    `Access (docs/security.md): read and send methods are open to every caller and origin;`,
    `  dev methods (${shortList(s.dev)})${keyStore ? " and signing with a key-store account" : ""} are open from this machine to callers without an Origin and to pages from ${allowedOrigins.join(", ") || "no origin"}${beyondLoopback ? "; from other machines they need the token" : ""};`,
    `  private methods (${shortList(s.private)})${code > 0 ? " and JavaScript tracers" : ""} always need the token.`,
  ];
}
