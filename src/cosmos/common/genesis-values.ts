/**
 * The values of a Cosmos genesis.json (and of the JSON messages x/gov carries) as the readers take
 * them: bech32 addresses, integer and LegacyDec strings, durations. Each error names the field. One
 * place for src/cosmos/staking/genesis.ts, src/cosmos/coins-genesis.ts and src/cosmos/gov/messages.ts.
 */
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { fromBech32 } from "../common/address-codec";
import { parseDec } from "./legacy-dec";
import { wholeNumber } from "../../utils/values";

/** The 20-byte hex address of a bech32 `text` under `prefix`; errors name `field`. */
export function hexOf(text: string, prefix: string, field: string): string {
  try {
    const bytes = fromBech32(text, prefix);
    if (bytes.length !== 20) throw new Error(`${bytes.length} bytes, expected 20`);
    return getAddress(hexlify(bytes));
  } catch (err) {
    throw new Error(`${field}: ${(err as Error).message}`);
  }
}

/** An integer string ("1000"); errors name `field`. */
export const uint = (v: unknown, field: string): bigint => {
  const n = typeof v === "string" ? wholeNumber(v) : undefined;
  if (n === undefined) throw new Error(`${field}: expected an integer string, got ${JSON.stringify(v)}`);
  return n;
};

/**
 * "1000.000000000000000000" → 1000 × 10^18 (a LegacyDec); errors name `field`. `signed`: a leading
 * "-" taken as LegacyNewDecFromStr takes it, for params, whose validation says in the SDK's words
 * whether a negative value is allowed.
 */
export function decOf(v: unknown, field: string, signed = false): bigint {
  const negative = signed && typeof v === "string" && v.startsWith("-");
  const d = typeof v === "string" ? parseDec(negative ? v.slice(1) : v) : undefined;
  if (d === undefined) throw new Error(`${field}: expected a decimal string, got ${JSON.stringify(v)}`);
  return negative ? -d : d;
}

/** Whole seconds as a genesis.json writes a duration ("1814400s"); errors name `field`. */
export function secondsOf(v: unknown, field: string): bigint {
  const m = typeof v === "string" ? /^(\d+)s$/.exec(v) : null;
  if (m === null) throw new Error(`${field}: expected seconds such as "1814400s", got ${JSON.stringify(v)}`);
  return BigInt(m[1]);
}

/** A genesis field that holds a list (absent: none); errors name `field`. */
export function arrayAt(v: unknown, field: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Error(`${field}: expected an array`);
  return v;
}
