/**
 * One spec object per RPC method: wire name, positional parameter codecs, docs, access class, handler.
 * Namespace files export lists of these; the dispatcher builds its table from them.
 */
import { type Codec, type Infer, any } from "./params";
import { NotSupportedError } from "./errors";
import type { RequestContext } from "./types";

export type InferParams<C extends ReadonlyArray<Codec<unknown>>> = { [K in keyof C]: Infer<C[K]> };

/**
 * Who may call a method (docs/security.md). The dispatcher, the browser policy, the node's banner
 * and the docs' table all derive from it.
 * - `read`: anyone, from any origin; reads the chain or runs calls on a copy of it.
 * - `send`: anyone, from any origin; submits a signed transaction (or one a node key signs).
 * - `dev`: changes the chain without a signature (time, balances, mining, hooks); from this machine
 *   without an `Origin` or from an allowed origin, else with the token.
 * - `private`: keys, miner, admin, db writes, files and heavy diagnostics; the token, always.
 * - `code`: runs code the client sent (a JavaScript tracer); the token, always.
 */
export type Access = "read" | "send" | "dev" | "private" | "code";

export const ACCESS_CLASSES: readonly Access[] = ["read", "send", "dev", "private", "code"];

export interface MethodSpec<C extends ReadonlyArray<Codec<unknown>> = ReadonlyArray<Codec<unknown>>> {
  /** The exact wire name, e.g. "eth_getBalance". */
  name: string;
  params: C;
  /** One or two sentences: what it does on this chain, and what it answers. */
  doc: string;
  /** The class of the method; required (the dispatcher refuses a spec without a known one). */
  access: Access;
  /**
   * The class of one call when its parameters raise it above `access` (a JavaScript tracer string
   * makes a trace `code`). Checked after the parameters parse; `access` is checked before.
   */
  accessFor?(params: InferParams<C>): Access;
  /** The highest class `accessFor` answers (for the docs' table and the banner). */
  raisesTo?: Access;
  /**
   * Positions of parameters that are secrets (keys, passphrases, PINs): the dispatcher hands
   * `onRequest` (the node's log) the parameters with these replaced, so no secret reaches a log.
   */
  secretParams?: readonly number[];
  handler(params: InferParams<C>, ctx: RequestContext): unknown;
}

/** Declares a method with its parameter types inferred from the codecs. */
export function method<const C extends ReadonlyArray<Codec<unknown>>>(spec: MethodSpec<C>): MethodSpec {
  return spec as unknown as MethodSpec;
}

/** A method the spec names that cannot work here: -32000 with the reason, never "method not found". */
export function unsupported(name: string, why: string, access: Access = "read"): MethodSpec {
  return method({
    name,
    params: [any.opt(), any.opt(), any.opt(), any.opt()],
    access,
    doc: `Not available: ${why}.`,
    handler: () => {
      throw new NotSupportedError(`${name} is not available: ${why}`);
    },
  });
}
