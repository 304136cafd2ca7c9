/**
 * The one dispatcher behind every transport (in-process provider, HTTP, WebSocket): request
 * validation, method lookup, namespace selection, authentication, parameter parsing, serialisation
 * through the node mutex, and the mapping of every failure to a JSON-RPC error.
 */
import { ChainError } from "../chain/node";
import type { Mutex } from "../utils/mutex";
import {
  InternalError,
  InvalidRequestError,
  MethodNotFoundError,
  RpcError,
  ServerError,
  UnauthorizedError,
} from "./errors";
import type { MethodSpec } from "./method";
import { parseParams } from "./params";
import type { Dispatcher, JsonRpcId, JsonRpcResponse, RequestContext } from "./types";

/** Names the spec spells differently; they answer as the correctly spelled methods do. */
const ALIASES: Record<string, string> = {
  eth_getUncleCountByBlockHashEthN: "eth_getUncleCountByBlockHash",
  eth_getTransactionbyBlockNumberAndIndex: "eth_getTransactionByBlockNumberAndIndex",
};

/**
 * The dev methods that change the chain without a signed transaction. Open from this machine, as on
 * Hardhat's node; from beyond loopback (a listener on 0.0.0.0) they need the bearer token.
 */
export function changesChainUnsigned(name: string): boolean {
  return name.startsWith("hardhat_set") || name === "hardhat_impersonateAccount" || name === "hardhat_mine" || name === "hardhat_reset" || (name.startsWith("evm_") && name !== "evm_snapshot");
}

export interface DispatcherOptions {
  mutex: Mutex;
  /** Namespaces served; undefined = all. A disabled namespace answers like an unknown method. */
  enabledNamespaces?: ReadonlySet<string>;
  maxBatch?: number;
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

  async handle(body: unknown, ctx: RequestContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (!Array.isArray(body)) return this._handleOne(body, ctx);
    if (body.length === 0) return errorResponse(null, new InvalidRequestError("empty batch"));
    const max = this._opts.maxBatch ?? 1000;
    if (body.length > max) return errorResponse(null, new InvalidRequestError(`batch too large: ${body.length} requests, the limit is ${max}`));
    const out: JsonRpcResponse[] = [];
    for (const item of body) {
      const r = await this._handleOne(item, ctx);
      if (r !== undefined) out.push(r);
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
    if (!ctx.authenticated && (spec.private === true || (ctx.fromLoopback === false && changesChainUnsigned(name)))) throw new UnauthorizedError(method);
    this._opts.onRequest?.(method, ctx, params);
    const run = async (): Promise<unknown> => {
      const args = parseParams(spec.params, params);
      try {
        return await spec.handler(args as never, ctx);
      } catch (err) {
        throw this._toRpcError(method, err);
      }
    };
    const running = spec.concurrent === true ? run() : this._opts.mutex.exclusive(run);
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
    if (err instanceof ChainError) {
      const e = new ServerError(err.message);
      if (err.hardhatMessage !== undefined) e.hardhat = { message: err.hardhatMessage };
      return e;
    }
    this._opts.onInternalError?.(method, err);
    const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return new InternalError(`internal error: ${msg}`);
  }
}

function validId(id: unknown): boolean {
  return id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

export function errorResponse(id: JsonRpcId, err: RpcError): JsonRpcResponse {
  const error: { code: number; message: string; data?: unknown } = { code: err.code, message: err.message };
  if (err.data !== undefined) error.data = err.data;
  return { jsonrpc: "2.0", id, error };
}
