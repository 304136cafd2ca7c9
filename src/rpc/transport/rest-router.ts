/**
 * GET routes on the JSON-RPC port, answered in the Cosmos gRPC-gateway style (the epochs module
 * mounts `/evmos/epochs/v1/epochs` and `/evmos/epochs/v1/current_epoch`).
 */
import { errorText } from "../../utils/error-text";
export interface RestResult {
  status: number;
  body: unknown;
  /** A page or script sent as is (`body` a string) with this type, instead of JSON. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** A route's handler: the query string, and the path's `{name}` segments by name (URL-decoded). */
type RestHandler = (query: URLSearchParams, params: Record<string, string>) => Promise<RestResult> | RestResult;

/** The gateway's answer for a path nobody serves (gRPC code 5, NotFound). */
const REST_NOT_FOUND: RestResult = { status: 404, body: { code: 5, message: "Not Found", details: [] } };

export class RestRouter {
  private readonly _routes = new Map<string, RestHandler>();
  /** Routes with `{name}` segments (`/cosmos/bank/v1beta1/balances/{address}`), tried after the fixed ones. */
  private readonly _patterns: Array<{ segments: string[]; handler: RestHandler }> = [];

  get(pathname: string, handler: RestHandler): void {
    const path = normalise(pathname);
    if (path.includes("{")) this._patterns.push({ segments: path.split("/"), handler });
    else this._routes.set(path, handler);
  }

  has(pathname: string): boolean {
    return this._route(pathname) !== undefined;
  }

  /** Never throws: a failing handler answers 500 with gRPC code 13 (Internal) and its message. */
  async handle(pathname: string, query: URLSearchParams): Promise<RestResult> {
    const route = this._route(pathname);
    if (route === undefined) return { status: REST_NOT_FOUND.status, body: { code: 5, message: "Not Found", details: [] } };
    try {
      return await route.handler(query, route.params);
    } catch (err) {
      return { status: 500, body: { code: 13, message: errorText(err), details: [] } };
    }
  }

  private _route(pathname: string): { handler: RestHandler; params: Record<string, string> } | undefined {
    const path = normalise(pathname);
    const fixed = this._routes.get(path);
    if (fixed !== undefined) return { handler: fixed, params: {} };
    const segments = path.split("/");
    for (const { segments: pattern, handler } of this._patterns) {
      const params = matchSegments(pattern, segments);
      if (params !== undefined) return { handler, params };
    }
    return undefined;
  }
}

/** A `{name}` segment matches one non-empty path segment. */
function matchSegments(pattern: string[], path: string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.startsWith("{") && p.endsWith("}")) {
      if (path[i] === "") return undefined;
      try {
        params[p.slice(1, -1)] = decodeURIComponent(path[i]);
      } catch {
        return undefined;
      }
    } else if (p !== path[i]) {
      return undefined;
    }
  }
  return params;
}

/** `/a/b/` and `/a/b` are the same route, as on the gateway. */
function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}
