/** Go's duration strings, as Evmos's app.toml and geth's trace configs write them. */

/** Go's time.ParseDuration ("5s", "1m30s", "500ms", "-1h", "0"), in milliseconds, with Go's error texts. */
export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text);
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let rest = text;
  const sign = rest.startsWith("-") ? -1 : 1;
  if (rest.startsWith("-") || rest.startsWith("+")) rest = rest.slice(1);
  if (rest === "0") return 0;
  if (rest === "") throw new Error(`time: invalid duration ${quoted}`);
  let total = 0;
  while (rest !== "") {
    const m = /^(\d*)(?:\.(\d*))?([^\d.]*)/.exec(rest) as RegExpExecArray;
    const [all, int, frac, unit] = m;
    if (int === "" && (frac ?? "") === "") throw new Error(`time: invalid duration ${quoted}`);
    if (unit === "") throw new Error(`time: missing unit in duration ${quoted}`);
    const factor = units[unit];
    if (factor === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    total += Number(`${int || "0"}.${frac || "0"}`) * factor;
    rest = rest.slice(all.length);
  }
  return sign * total;
}
