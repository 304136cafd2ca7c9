/**
 * Parameter codecs: each parses one positional JSON value into a domain value (bigint, bytes, …) or
 * throws a ParamError whose text follows geth's decoder messages. `parseParams` adds the position
 * ("invalid argument 1: …") and the arity rules (trailing optional positions; null = missing).
 * Encodings are strict (docs/json-rpc.md, "Encodings"): quantities are 0x-prefixed, compact, non-empty; data has even length.
 */
import { InvalidParamsError } from "./errors";

export class ParamError extends Error {}

export interface Codec<T> {
  /** Parses a present (non-null, non-undefined) value. */
  parse(value: unknown): T;
  readonly optional: boolean;
}

export type Infer<C> = C extends Codec<infer T> ? T : never;

export function codec<T>(parse: (value: unknown) => T): Codec<T> & { opt(): Codec<T | undefined> } {
  return {
    parse,
    optional: false,
    opt: () => ({ parse, optional: true }),
  };
}

const HEX = /^[0-9a-fA-F]*$/;

function hexBody(value: unknown, what: string): string {
  if (typeof value !== "string") throw new ParamError(`cannot unmarshal ${jsonType(value)} into ${what}`);
  if (!value.startsWith("0x") && !value.startsWith("0X")) throw new ParamError("hex string without 0x prefix");
  const body = value.slice(2);
  if (!HEX.test(body)) throw new ParamError("invalid hex string");
  return body;
}

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}

/** A hex quantity (uint256 unless `bits` says otherwise). */
export function parseQuantity(value: unknown, bits = 256): bigint {
  const body = hexBody(value, "a quantity");
  if (body.length === 0) throw new ParamError('hex string "0x"');
  if (body.length > 1 && body[0] === "0") throw new ParamError("hex number with leading zero digits");
  if (body.length > bits / 4) throw new ParamError(`hex number > ${bits} bits`);
  return BigInt(`0x${body}`);
}

export function parseData(value: unknown): Uint8Array {
  const body = hexBody(value, "hex data");
  if (body.length % 2 !== 0) throw new ParamError("hex string of odd length");
  return new Uint8Array(Buffer.from(body, "hex"));
}

function fixedData(bytes: number, name: string): (value: unknown) => Uint8Array {
  return (value) => {
    const body = hexBody(value, name);
    if (body.length !== bytes * 2) throw new ParamError(`hex string has length ${body.length}, want ${bytes * 2} for ${name}`);
    return new Uint8Array(Buffer.from(body, "hex"));
  };
}

export const parseAddress = fixedData(20, "an address");
export const parseHash = fixedData(32, "a hash");

export const quantity = codec((v) => parseQuantity(v));
export const uint64 = codec((v) => parseQuantity(v, 64));
export const data = codec(parseData);
export const address = codec(parseAddress);
export const hash = codec(parseHash);
export const bool = codec((v) => {
  if (typeof v !== "boolean") throw new ParamError(`cannot unmarshal ${jsonType(v)} into a boolean`);
  return v;
});
export const string = codec((v) => {
  if (typeof v !== "string") throw new ParamError(`cannot unmarshal ${jsonType(v)} into a string`);
  return v;
});
export const any = codec((v) => v);
/** A JSON number or hex quantity (geth accepts both for a few dev methods). */
export const numberOrQuantity = codec((v) => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return parseQuantity(v);
});

export type BlockTag = "latest" | "earliest" | "pending" | "safe" | "finalized";
export type BlockSpec = { tag: BlockTag } | { number: bigint } | { hash: Uint8Array; requireCanonical: boolean };

const TAGS = new Set<string>(["latest", "earliest", "pending", "safe", "finalized"]);

export function parseBlockNumberOrTag(value: unknown): BlockSpec {
  if (typeof value === "string" && TAGS.has(value)) return { tag: value as BlockTag };
  if (typeof value === "string" && !value.startsWith("0x")) throw new ParamError(`invalid block tag ${JSON.stringify(value)}: want latest, earliest, pending, safe, finalized or a hex number`);
  return { number: parseQuantity(value, 64) };
}

/** EIP-1898: a tag, a number, a 32-byte hash, or {blockNumber} / {blockHash, requireCanonical}. */
function parseBlockId(value: unknown): BlockSpec {
  if (typeof value === "string" && value.length === 66 && value.startsWith("0x")) return { hash: parseHash(value), requireCanonical: false };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (o.blockHash !== undefined && o.blockNumber !== undefined) {
      throw new ParamError("cannot specify both BlockHash and BlockNumber, choose one or the other");
    }
    if (o.blockHash !== undefined) {
      if (o.requireCanonical !== undefined && typeof o.requireCanonical !== "boolean") throw new ParamError("requireCanonical must be a boolean");
      return { hash: parseHash(o.blockHash), requireCanonical: o.requireCanonical === true };
    }
    if (o.blockNumber !== undefined) return parseBlockNumberOrTag(o.blockNumber);
    throw new ParamError("types BlockHash and BlockNumber cannot be both nil");
  }
  return parseBlockNumberOrTag(value);
}

export const blockNumberOrTag = codec(parseBlockNumberOrTag);
export const blockId = codec(parseBlockId);

/** Reads an object parameter field by field, naming the field in errors (geth: "… into Go struct field X"). */
export function objectOf<T>(what: string, read: (field: <F>(name: string, c: (v: unknown) => F) => F | undefined, raw: Record<string, unknown>) => T) {
  return codec((value): T => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ParamError(`cannot unmarshal ${jsonType(value)} into ${what}`);
    }
    const raw = value as Record<string, unknown>;
    const field = <F>(name: string, c: (v: unknown) => F): F | undefined => {
      const v = raw[name];
      if (v === undefined || v === null) return undefined;
      try {
        return c(v);
      } catch (err) {
        if (err instanceof ParamError) throw new ParamError(`${what}.${name}: ${err.message}`);
        throw err;
      }
    };
    return read(field, raw);
  });
}

export function arrayOf<T>(parse: (v: unknown) => T, what: string): (v: unknown) => T[] {
  return (v) => {
    if (!Array.isArray(v)) throw new ParamError(`cannot unmarshal ${jsonType(v)} into ${what}`);
    return v.map((x, i) => {
      try {
        return parse(x);
      } catch (err) {
        if (err instanceof ParamError) throw new ParamError(`${what}[${i}]: ${err.message}`);
        throw err;
      }
    });
  };
}

/**
 * Positional parsing with geth's arity rules: too many → "too many arguments, want at most N";
 * a missing or null required position → "missing value for required argument i"; a bad value →
 * "invalid argument i: …". `params` may be omitted or null for methods without arguments.
 */
export function parseParams(codecs: ReadonlyArray<Codec<unknown>>, params: unknown): unknown[] {
  if (params !== undefined && params !== null && !Array.isArray(params)) throw new InvalidParamsError("non-array args");
  const list = (params ?? []) as unknown[];
  if (list.length > codecs.length) throw new InvalidParamsError(`too many arguments, want at most ${codecs.length}`);
  return codecs.map((c, i) => {
    const v = list[i];
    if (v === undefined || v === null) {
      if (c.optional) return undefined;
      throw new InvalidParamsError(`missing value for required argument ${i}`);
    }
    try {
      return c.parse(v);
    } catch (err) {
      if (err instanceof ParamError) throw new InvalidParamsError(`invalid argument ${i}: ${err.message}`);
      throw err;
    }
  });
}
