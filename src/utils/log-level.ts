/**
 * The node's log verbosity, in geth's levels (0 silent, 1 error, 2 warn, 3 info, 4 debug, 5 trace),
 * with a per-module override list in geth's vmodule form (`rpc=4,chain=2`). debug_verbosity and
 * debug_vmodule change it; the node's output asks `logEnabled` before printing.
 */
let verbosity = 3;
let modules: Array<{ pattern: RegExp; level: number }> = [];

export function setVerbosity(level: number): void {
  verbosity = level;
}

export function getVerbosity(): number {
  return verbosity;
}

/** Parses and sets a vmodule list; "" clears it. Throws with the offending entry. */
export function setVmodule(spec: string): void {
  const out: Array<{ pattern: RegExp; level: number }> = [];
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const m = /^([^=]+)=(\d+)$/.exec(part);
    if (m === null) throw new Error(`invalid vmodule pattern: expect pattern=level, got ${JSON.stringify(part)}`);
    const glob = m[1].replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
    out.push({ pattern: new RegExp(`^${glob}$`), level: Number(m[2]) });
  }
  modules = out;
}

export function logEnabled(module: string, level: number): boolean {
  for (const m of modules) if (m.pattern.test(module)) return level <= m.level;
  return level <= verbosity;
}
