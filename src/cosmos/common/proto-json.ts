/**
 * The fields of a Cosmos message in its proto JSON form (as a proposal's `messages` carry it): coins,
 * bech32 addresses, integers, LegacyDecs and durations, each failing as the SDK's unmarshalling or the
 * message's ValidateBasic does. The Msg router (src/cosmos/msg-router.ts) and x/gov's params
 * (src/cosmos/gov/messages.ts) read messages with these.
 */
import { decOf, hexOf, secondsOf } from "./genesis-values";
import { ModuleError, invalidCoins } from "./errors";

export interface JsonCoin {
  denom: string;
  amount: bigint;
}

/** A `repeated Coin` field. */
export function coinsOf(v: unknown, field: string): JsonCoin[] {
  if (!Array.isArray(v)) throw new ModuleError(`${field}: expected coins`);
  return v.map((c) => {
    const coin = c as { denom?: unknown; amount?: unknown };
    if (typeof coin?.denom !== "string" || typeof coin.amount !== "string" || !/^\d+$/.test(coin.amount)) throw invalidCoins(field);
    return { denom: coin.denom, amount: BigInt(coin.amount) };
  });
}

/** A staking message's single coin (its denom checked by the Msg server: src/cosmos/staking/msg-server.ts). */
export function coinOf(v: unknown): JsonCoin {
  const c = v as { denom?: unknown; amount?: unknown } | null;
  if (typeof c?.denom !== "string" || typeof c.amount !== "string" || !/^\d+$/.test(c.amount)) throw new ModuleError("invalid delegation amount");
  return { denom: c.denom, amount: BigInt(c.amount) };
}

/** A bech32 address under `prefix` (the account or the validator prefix), as 0x hex. */
export function bech32Field(v: unknown, prefix: string, field: string): string {
  return hexOf(String(v), prefix, `invalid ${field} address`);
}

/** A protobuf uint64 / uint32 as its JSON carries it (a string or a number); anything else fails as the SDK's unmarshalling does. */
const unsigned =
  (bits: number) =>
  (v: unknown, field: string): bigint => {
    const n = (typeof v === "string" && /^\d+$/.test(v)) || (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) ? BigInt(v) : undefined;
    if (n === undefined || n >= 2n ** BigInt(bits)) throw new ModuleError(`${field}: invalid uint${bits} ${JSON.stringify(v)}`);
    return n;
  };
export const uint64 = unsigned(64);
export const uint32 = unsigned(32);

/** A LegacyDec field, `fallback` when absent. */
export const decField = (v: unknown, field: string, fallback: bigint): bigint => (v === undefined ? fallback : decOf(v, field, true));
/** A duration field ("1814400s"), `fallback` when absent. */
export const secondsField = (v: unknown, field: string, fallback: bigint): bigint => (v === undefined ? fallback : secondsOf(v, field));
