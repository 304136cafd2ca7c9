/**
 * What the transports themselves put on the wire: their own JSON-RPC errors and a JSON encoder that
 * never lets a bigint (or anything else JSON cannot hold) crash a connection.
 */
import { errorResponse } from "../errors";
import type { JsonRpcId, JsonRpcResponse } from "../types";

/** geth's code for a call that ran past the HTTP timeout. */
export const TIMEOUT_CODE = -32002;

export function errorBody(id: JsonRpcId, code: number, message: string): JsonRpcResponse {
  return errorResponse(id, { code, message, data: undefined });
}

export const parseErrorBody = (): JsonRpcResponse => errorBody(null, -32700, "parse error");
export const invalidRequestBody = (message: string): JsonRpcResponse => errorBody(null, -32600, message);

class UnencodableError extends Error {}

/**
 * Refuses bigints. It looks at the holder's own value (`this[key]`), so a `BigInt.prototype.toJSON`
 * installed by some library cannot turn a bigint into a silently wrong string either.
 */
function refuseBigint(this: unknown, key: string, value: unknown): unknown {
  const original = key === "" ? value : (this as Record<string, unknown>)[key];
  if (typeof original === "bigint" || typeof value === "bigint") throw new UnencodableError(`bigint at "${key}"`);
  return value;
}

/** The id of a request-looking value, when it has a valid one (used to address per-member errors). */
function idOf(v: unknown): JsonRpcId {
  if (typeof v !== "object" || v === null || !("id" in v)) return null;
  const id = (v as { id: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

function internalError(member: unknown): JsonRpcResponse {
  return errorBody(idOf(member), -32603, "internal error: the result could not be encoded as JSON");
}

/** True when some library taught bigints to serialise themselves (`BigInt.prototype.toJSON`). */
function bigintsSerialise(): boolean {
  return (BigInt.prototype as { toJSON?: unknown }).toJSON !== undefined;
}

/**
 * JSON text of one value; undefined when it cannot be encoded (a bigint, a cycle). Without a
 * replacer JSON.stringify takes V8's fast path (a replacer costs a JS call per key: the larger part
 * of answering 4000 logs) and throws on a bigint by itself; the replacer is needed only while a
 * `BigInt.prototype.toJSON` would turn bigints into strings.
 */
export function tryEncode(value: unknown): string | undefined {
  try {
    return bigintsSerialise() ? JSON.stringify(value, refuseBigint) : JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * Encodes a response or a batch of responses. A member that cannot be encoded becomes -32603 with
 * its id; the other members of the batch are still answered.
 */
export function encodeResponse(out: JsonRpcResponse | JsonRpcResponse[]): string {
  if (!Array.isArray(out)) return tryEncode(out) ?? JSON.stringify(internalError(out));
  // the whole batch in one call (the same text as its members joined); member by member only when it fails
  return tryEncode(out) ?? `[${out.map((m) => tryEncode(m) ?? JSON.stringify(internalError(m))).join(",")}]`;
}

/** REST bodies: an unencodable one becomes a Cosmos-style internal error (code 13). */
export function encodeRest(status: number, body: unknown): { status: number; text: string } {
  const text = tryEncode(body);
  if (text !== undefined) return { status, text };
  return { status: 500, text: JSON.stringify({ code: 13, message: "internal error: the answer could not be encoded as JSON", details: [] }) };
}

/** The ids owed an answer in a request or batch (members with an id), for timeout errors. */
export function owedIds(body: unknown): JsonRpcId[] {
  const members = Array.isArray(body) ? body : [body];
  return members.filter((m) => typeof m === "object" && m !== null && "id" in m).map(idOf);
}
