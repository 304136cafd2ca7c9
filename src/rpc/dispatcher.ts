/**
 * The one dispatcher behind every transport (in-process provider, HTTP, WebSocket): request
 * validation, method lookup, namespace selection, access (./access.ts), parameter parsing, and the
 * mapping of every failure to a JSON-RPC error. It takes no lock: the node's changing methods take
 * the node's own (src/chain/node.ts), and reads answer from committed state.
 */
import { ChainError } from "../chain";
import { InternalError, InvalidRequestError, MethodNotFoundError, RpcError, ServerError, UnauthorizedError, errorResponse } from "./errors";
import { isAccess, mayCall } from "./access";
import type { Access, MethodSpec } from "./method";
import { parseParams } from "./params";
import { DEFAULT_BATCH_LIMIT, DEFAULT_BATCH_RESPONSE_BYTES, DEFAULT_HTTP_TIMEOUT_MS as DEFAULT_BATCH_TIMEOUT_MS, batchRefusal } from "./limits";
import type { Dispatcher, JsonRpcId, JsonRpcResponse, RequestContext } from "./types";

/** Names the spec spells differently; they answer as the correctly spelled methods do. */
const ALIASES: Record<string, string> = {
  eth_getUncleCountByBlockHashEthN: "eth_getUncleCountByBlockHash",
  eth_getTransactionbyBlockNumberAndIndex: "eth_getTransactionByBlockNumberAndIndex",
};

export interface DispatcherOptions {
  /** Namespaces served; undefined = all. A disabled namespace answers like an unknown method. */
  enabledNamespaces?: ReadonlySet<string>;
  maxBatch?: number;
  /** Bytes the answers of one batch may take (`batch-response-max-size`); later members answer -32003 `response too large`. */
  maxBatchResponseBytes?: number;
  /** Milliseconds one batch may run (`http-timeout`); members not started by then answer -32002 `request timed out`. 0 = none. */
  batchTimeoutMs?: number;
  /** Called with each method name (and its raw params) before it runs (the node's request log). */
  onRequest?: (method: string, ctx: RequestContext, params: unknown) => void;
  /** Called when a method that `onRequest` saw has finished: its result, or the error it answers (the node's log). */
  onResponse?: (method: string, outcome: { result: unknown } | { error: RpcError }) => void;
  /** Called with errors that were not RpcErrors (bugs), for the node's log. */
  onInternalError?: (method: string, err: unknown) => void;
}

export class RpcDispatcher implements Dispatcher {
  private readonly _methods = new Map<string, MethodSpec>();

  constructor(
    methods: MethodSpec[],
    private readonly _opts: DispatcherOptions,
  ) {
    for (const m of methods) {
      if (this._methods.has(m.name)) throw new Error(`RPC method ${m.name} declared twice`);
      // a spec from plain JavaScript (or a cast) could miss its class: refuse it rather than guess
      if (!isAccess(m.access)) throw new Error(`RPC method ${m.name} declares no access class (read, send, dev, private or code)`);
      if ((m.accessFor === undefined) !== (m.raisesTo === undefined) || (m.raisesTo !== undefined && !isAccess(m.raisesTo))) {
        throw new Error(`RPC method ${m.name}: accessFor and raisesTo go together`);
      }
      this._methods.set(m.name, m);
    }
  }

  /** Every namespace that has at least one method. */
  namespaces(): string[] {
    return [...new Set([...this._methods.keys()].map((n) => n.split("_")[0]))].sort();
  }

  methodNames(): string[] {
    return [...this._methods.keys()].sort();
  }

  /** The declared access class of a method (docs/security.md); undefined for an unknown name. */
  accessOf(name: string): Access | undefined {
    return this._methods.get(ALIASES[name] ?? name)?.access;
  }

  /** Every method's declared class, and the class some parameters raise a method to (see MethodSpec.accessFor). */
  accessClasses(): { declared: Map<string, Access>; raised: Map<string, Access> } {
    const declared = new Map<string, Access>();
    const raised = new Map<string, Access>();
    for (const [name, spec] of this._methods) {
      declared.set(name, spec.access);
      if (spec.raisesTo !== undefined) raised.set(name, spec.raisesTo);
    }
    return { declared, raised };
  }

  async handle(body: unknown, ctx: RequestContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (!Array.isArray(body)) return this._handleOne(body, ctx);
    const refused = batchRefusal(body.length, this._opts.maxBatch ?? DEFAULT_BATCH_LIMIT);
    if (refused !== undefined) return errorResponse(null, new InvalidRequestError(refused));
    // a batch is one caller's: its members share one budget of time and of answer bytes (geth's
    // batch-response-max-size and timeouts), so a batch cannot hold the node or its memory longer
    // than one request could
    const maxBytes = this._opts.maxBatchResponseBytes ?? DEFAULT_BATCH_RESPONSE_BYTES;
    const timeoutMs = this._opts.batchTimeoutMs ?? DEFAULT_BATCH_TIMEOUT_MS;
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
    let bytes = 0;
    const out: JsonRpcResponse[] = [];
    for (const item of body) {
      const id = idOf(item);
      if (maxBytes > 0 && bytes > maxBytes) {
        out.push(errorResponse(id, new RpcError(-32003, "response too large")));
        continue;
      }
      if (Date.now() > deadline) {
        out.push(errorResponse(id, new RpcError(-32002, "request timed out")));
        continue;
      }
      const r = await this._handleOne(item, ctx);
      if (r === undefined) continue;
      if (maxBytes > 0) bytes += answerBytes(r);
      out.push(r);
    }
    return out.length > 0 ? out : undefined;
  }

  /** Runs one call and returns its result or throws an RpcError (the in-process provider's path). */
  async call(method: string, params: unknown, ctx: RequestContext): Promise<unknown> {
    const name = ALIASES[method] ?? method;
    const spec = this._methods.get(name);
    const ns = name.split("_")[0];
    const served = (set: ReadonlySet<string> | undefined) => set === undefined || set.has(ns);
    if (spec === undefined || !served(this._opts.enabledNamespaces) || !served(ctx.namespaces)) {
      throw new MethodNotFoundError(method);
    }
    if (!mayCall(spec.access, ctx)) throw new UnauthorizedError(method);
    this._opts.onRequest?.(method, ctx, spec.secretParams === undefined ? params : redacted(params, spec.secretParams));
    const run = async (): Promise<unknown> => {
      const args = parseParams(spec.params, params);
      // some parameter forms raise the class (a JavaScript tracer): checked before anything runs
      if (spec.accessFor !== undefined && !mayCall(spec.accessFor(args as never), ctx)) throw new UnauthorizedError(method);
      try {
        return await spec.handler(args as never, ctx);
      } catch (err) {
        throw this._toRpcError(method, err);
      }
    };
    const running = run();
    const onResponse = this._opts.onResponse;
    if (onResponse === undefined) return running;
    return running.then(
      (result) => {
        onResponse(method, { result });
        return result;
      },
      (err: unknown) => {
        // not _toRpcError: the caller converts (and reports) a non-RPC error once
        onResponse(method, { error: err instanceof RpcError ? err : new InternalError(`internal error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`) });
        throw err;
      },
    );
  }

  private async _handleOne(req: unknown, ctx: RequestContext): Promise<JsonRpcResponse | undefined> {
    if (req === null || typeof req !== "object" || Array.isArray(req)) return errorResponse(null, new InvalidRequestError());
    const r = req as Record<string, unknown>;
    const id = validId(r.id) ? (r.id as JsonRpcId) : null;
    if (!validId(r.id) && r.id !== undefined) return errorResponse(null, new InvalidRequestError("invalid request: id must be a string, a number or null"));
    if (r.jsonrpc !== "2.0") return errorResponse(id, new InvalidRequestError('invalid request: jsonrpc must be "2.0"'));
    if (typeof r.method !== "string") return errorResponse(id, new InvalidRequestError("invalid request: method must be a string"));
    const isNotification = !("id" in r);
    try {
      const result = await this.call(r.method, r.params, ctx);
      if (isNotification) return undefined;
      return { jsonrpc: "2.0", id, result: result === undefined ? null : result };
    } catch (err) {
      if (isNotification) return undefined;
      return errorResponse(id, err instanceof RpcError ? err : this._toRpcError(r.method, err));
    }
  }

  private _toRpcError(method: string, err: unknown): RpcError {
    if (err instanceof RpcError) return err;
    // what the chain refuses or cannot do, with its own code (-32000 unless it says otherwise)
    if (err instanceof ChainError) {
      const e = err.code === -32000 ? new ServerError(err.message) : new RpcError(err.code, err.message);
      if (err.hardhatMessage !== undefined) e.hardhat = { message: err.hardhatMessage };
      return e;
    }
    this._opts.onInternalError?.(method, err);
    const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return new InternalError(`internal error: ${msg}`);
  }
}

/** What a log may show of a call's parameters: the secret positions replaced (all of them when not a list). */
const REDACTED = "<redacted>";
function redacted(params: unknown, secret: readonly number[]): unknown {
  if (!Array.isArray(params)) return params === undefined ? params : REDACTED;
  return params.map((p: unknown, i) => (secret.includes(i) && p !== undefined ? REDACTED : p));
}

/** The id a batch member's answer carries (null when it has none that is valid). */
function idOf(item: unknown): JsonRpcId {
  const id = item !== null && typeof item === "object" ? (item as { id?: unknown }).id : undefined;
  return validId(id) ? (id as JsonRpcId) : null;
}

/** About the bytes an answer takes on the wire (its JSON; a result that is no JSON counts as small). */
function answerBytes(r: JsonRpcResponse): number {
  try {
    return JSON.stringify(r, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))?.length ?? 0;
  } catch {
    return 0;
  }
}

function validId(id: unknown): boolean {
  return id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}
