/**
 * One spec object per RPC method: wire name, positional parameter codecs, docs, access, handler.
 * Namespace files export lists of these; the dispatcher builds its table from them.
 */
import type { Codec, Infer } from "./params";
import type { RequestContext } from "./types";

export type InferParams<C extends ReadonlyArray<Codec<unknown>>> = { [K in keyof C]: Infer<C[K]> };

export interface MethodSpec<C extends ReadonlyArray<Codec<unknown>> = ReadonlyArray<Codec<unknown>>> {
  /** The exact wire name, e.g. "eth_getBalance". */
  name: string;
  params: C;
  /** One or two sentences: what it does on this chain, and what it answers. */
  doc: string;
  /** Needs the bearer token on network transports (docs/json-rpc.md, "Authentication"). */
  private?: boolean;
  /** Runs outside the node mutex (pure or connection-local methods). Default false. */
  concurrent?: boolean;
  handler(params: InferParams<C>, ctx: RequestContext): unknown;
}

/** Declares a method with its parameter types inferred from the codecs. */
export function method<const C extends ReadonlyArray<Codec<unknown>>>(spec: MethodSpec<C>): MethodSpec {
  return spec as unknown as MethodSpec;
}
