/**
 * LegacyDec arithmetic as the Cosmos SDK does it (math.LegacyDec: integers scaled by 10^18): Mul and
 * Quo round the 18th digit half to even (`chopPrecisionAndRound`). Used by x/mint and x/gov; kept out
 * of src/cosmos/common/decimal.ts, which the Hardhat config's checks load with the plugin.
 */

const DEC = 10n ** 18n;

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
