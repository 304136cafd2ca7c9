/**
 * The chain's address codec (the Cosmos SDK's bech32 address codec): bytes to bech32 and back under
 * the chain's prefixes, each failure an `AddressError` in the SDK's words. Every module reads and
 * writes `…1…` addresses through it; the bech32 precompile (src/cosmos/bech32/precompile.ts) serves it
 * to contracts.
 */
import { bech32 } from "bech32";

/** The chain's human-readable prefixes (the Cosmos SDK's config), named in the empty-prefix error. */
export interface Bech32Prefixes {
  account: string;
  validator: string;
  consensus: string;
}

/** The prefixes of a chain whose account prefix is `account` ("cosmos" → cosmosvaloper, cosmosvalcons). */
export function bech32Prefixes(account: string): Bech32Prefixes {
  return { account, validator: `${account}valoper`, consensus: `${account}valcons` };
}

/** The Cosmos SDK reads bech32 strings up to 1023 characters (`bech32.DecodeNoLimit`'s bound). */
const DECODE_LIMIT = 1023;
/** The Cosmos SDK's `VerifyAddressFormat`: at most 255 bytes. */
const MAX_ADDRESS_BYTES = 255;

/** An address or encoding failure, in the Cosmos SDK's words. */
export class AddressError extends Error {}

/** Bytes as a bech32 string (the SDK's `Bech32ifyAddressBytes`): empty bytes give an empty string. */
export function toBech32(prefix: string, bytes: Uint8Array): string {
  if (bytes.length === 0) return "";
  try {
    return bech32.encode(prefix, bech32.toWords(bytes), DECODE_LIMIT);
  } catch (err) {
    throw new AddressError(`encoding bech32 failed: ${(err as Error).message}`);
  }
}

/**
 * The bytes of a bech32 string that must carry `prefix`, checked as the Cosmos SDK checks an address
 * (`VerifyAddressFormat`); `mismatch` words a wrong prefix, which the SDK's two readers say differently.
 */
function decodeAddress(text: string, prefix: string, mismatch: (got: string) => string): Uint8Array {
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(text, DECODE_LIMIT);
  } catch (err) {
    throw new AddressError(`decoding bech32 failed: ${(err as Error).message}`);
  }
  if (decoded.prefix !== prefix) throw new AddressError(mismatch(decoded.prefix));
  const bytes = new Uint8Array(bech32.fromWords(decoded.words));
  if (bytes.length === 0) throw new AddressError("addresses cannot be empty: unknown address");
  if (bytes.length > MAX_ADDRESS_BYTES) throw new AddressError(`address max length is ${MAX_ADDRESS_BYTES}, got ${bytes.length}: unknown address`);
  return bytes;
}

/** The SDK's `GetFromBech32`: any prefix the caller names. */
export function fromBech32(text: string, prefix: string): Uint8Array {
  return decodeAddress(text, prefix, (got) => `invalid Bech32 prefix; expected ${prefix}, got ${got}`);
}

/**
 * An account address from its bech32 form, as the chain's address codec reads it (the Cosmos SDK's
 * `Bech32Codec.StringToBytes`: the chain's own prefix only); throws with the SDK's text.
 */
export function accountFromBech32(text: string, prefix: string): Uint8Array {
  if (text.trim() === "") throw new AddressError("empty address string is not allowed");
  return decodeAddress(text, prefix, (got) => `hrp does not match bech32 prefix: expected '${prefix}' got '${got}': internal logic error`);
}
