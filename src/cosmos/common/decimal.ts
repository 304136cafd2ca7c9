/**
 * The Cosmos SDK's LegacyDec as this project writes it: an integer scaled by 10^18. No imports, so
 * the Hardhat config's checks can use it without loading the chain (src/host/lazy.ts).
 */

/** 10^18: the scale of a LegacyDec. */
export const DEC = 10n ** 18n;

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
