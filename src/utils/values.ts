/**
 * The values a setting may hold, checked one way for every reader of settings: hardhat.config.ts's
 * `epochs` section (src/host/settings/epochs-config.ts, network-settings.ts, fork-settings.ts), the
 * node's flags (chain-flags.ts), app.toml and its flags (app-config-sources.ts) and a genesis.json
 * (src/cosmos/common/genesis-values.ts). Each answers the value, or undefined when it is not one;
 * the reader words the error with its own key and source. No imports: the plugin's config checks
 * load it at every Hardhat command.
 */

/**
 * A whole number ≥ 0 as settings write one: a bigint, a safe integer, a decimal string (trimmed
 * when `trim`), a 0x string when `hex`; at most `max`.
 */
export function wholeNumber(v: unknown, opts: { hex?: boolean; trim?: boolean; max?: bigint } = {}): bigint | undefined {
  let n: bigint | undefined;
  if (typeof v === "bigint") n = v;
  else if (typeof v === "number") n = Number.isSafeInteger(v) ? BigInt(v) : undefined;
  else if (typeof v === "string") {
    const s = opts.trim === true ? v.trim() : v;
    if (/^\d+$/.test(s) || (opts.hex === true && /^0x[0-9a-fA-F]+$/.test(s))) n = BigInt(s);
  }
  if (n === undefined || n < 0n || (opts.max !== undefined && n > opts.max)) return undefined;
  return n;
}

/** A safe integer ≥ `min` (default 0) given as a number (or, when `strings`, a decimal string). */
export function safeInteger(v: unknown, opts: { min?: number; strings?: boolean } = {}): number | undefined {
  const n = typeof v === "number" ? v : opts.strings === true && typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) && n >= (opts.min ?? 0) ? n : undefined;
}

/** true or false (also as the strings "true" and "false" when `strings`). */
export function booleanValue(v: unknown, opts: { strings?: boolean } = {}): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (opts.strings === true && (v === "true" || v === "false")) return v === "true";
  return undefined;
}

/** `length` bytes written as 0x-prefixed hex. */
export function hexBytes(v: unknown, length: number): Uint8Array | undefined {
  if (typeof v !== "string" || v.length !== 2 + 2 * length || !/^0x[0-9a-fA-F]*$/.test(v)) return undefined;
  return Uint8Array.from(Buffer.from(v.slice(2), "hex"));
}

/** A value as an error message shows it: its JSON, a bigint as a string of its digits. */
export function shown(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? String(v);
}
