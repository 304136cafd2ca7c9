/**
 * The Cosmos SDK's LegacyDec as this project writes it: an integer scaled by 10^18. No imports, so
 * the Hardhat config's checks can use it without loading the chain (src/host/lazy.ts).
 */

const DEC = 10n ** 18n;

/** A LegacyDec as the SDK prints it: "1000.000000000000000000". */
export function decString(d: bigint): string {
  const sign = d < 0n ? "-" : "";
  const a = d < 0n ? -d : d;
  return `${sign}${a / DEC}.${(a % DEC).toString().padStart(18, "0")}`;
}

/** A decimal from 0 to 1 ("0.1", "1", 0.05) as a LegacyDec, or undefined when it is not one. */
export function parseFraction(v: string | number): bigint | undefined {
  const m = /^(0|1)(?:\.(\d{1,18}))?$/.exec(typeof v === "number" ? v.toString() : v);
  const dec = m === null ? undefined : BigInt(m[1]) * DEC + BigInt((m[2] ?? "").padEnd(18, "0"));
  return dec !== undefined && dec <= DEC ? dec : undefined;
}

/** LegacyNewDecFromStr for a non-negative decimal ("0.6", "12", "1.000000000000000000"): a LegacyDec, or undefined when it is not one. */
export function parseDec(v: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(v);
  return m === null ? undefined : BigInt(m[1]) * DEC + BigInt((m[2] ?? "").padEnd(18, "0"));
}

/** Drops 18 digits of a product scaled by 10^36, rounding half to even (LegacyDec's chopPrecisionAndRound). */
function chopRound(x: bigint): bigint {
  const negative = x < 0n;
  const a = negative ? -x : x;
  const q = a / DEC;
  const r = a % DEC;
  const up = r > DEC / 2n || (r === DEC / 2n && q % 2n === 1n);
  const out = up ? q + 1n : q;
  return negative ? -out : out;
}

/** LegacyDec Mul (rounds half to even). */
export const decMul = (a: bigint, b: bigint): bigint => chopRound(a * b);

/** LegacyDec Quo (rounds half to even); `b` must not be 0. */
export function decQuo(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError("division by zero");
  return chopRound((a * DEC * DEC) / b);
}
