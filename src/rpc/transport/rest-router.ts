/**
 * GET routes on the JSON-RPC port, answered in the Cosmos gRPC-gateway style (the epochs module
 * mounts `/evmos/epochs/v1/epochs` and `/evmos/epochs/v1/current_epoch`).
 */
export interface RestResult {
  status: number;
  body: unknown;
  /** A page or script sent as is (`body` a string) with this type, instead of JSON. */
  contentType?: string;
  headers?: Record<string, string>;
}

export type RestHandler = (query: URLSearchParams) => Promise<RestResult> | RestResult;

/** The gateway's answer for a path nobody serves (gRPC code 5, NotFound). */
export const REST_NOT_FOUND: RestResult = { status: 404, body: { code: 5, message: "Not Found", details: [] } };

export class RestRouter {
  private readonly _routes = new Map<string, RestHandler>();

  get(pathname: string, handler: RestHandler): void {
    this._routes.set(normalise(pathname), handler);
  }

  has(pathname: string): boolean {
    return this._routes.has(normalise(pathname));
  }

  /** Never throws: a failing handler answers 500 with gRPC code 13 (Internal) and its message. */
  async handle(pathname: string, query: URLSearchParams): Promise<RestResult> {
    const h = this._routes.get(normalise(pathname));
    if (h === undefined) return { status: REST_NOT_FOUND.status, body: { code: 5, message: "Not Found", details: [] } };
    try {
      return await h(query);
    } catch (err) {
      return { status: 500, body: { code: 13, message: err instanceof Error ? err.message : String(err), details: [] } };
    }
  }
}

/** `/a/b/` and `/a/b` are the same route, as on the gateway. */
function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}
