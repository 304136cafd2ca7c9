/** GET routes on the JSON-RPC port (the Cosmos gRPC-gateway paths of the epochs queries). */
export interface RestResult {
  status: number;
  body: unknown;
}

export type RestHandler = (query: URLSearchParams) => Promise<RestResult> | RestResult;

export class RestRouter {
  private readonly _routes = new Map<string, RestHandler>();

  get(pathname: string, handler: RestHandler): void {
    this._routes.set(pathname, handler);
  }

  async handle(pathname: string, query: URLSearchParams): Promise<RestResult> {
    const h = this._routes.get(pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);
    if (h === undefined) return { status: 404, body: { code: 5, message: "Not Found", details: [] } };
    try {
      return await h(query);
    } catch (err) {
      return { status: 500, body: { code: 13, message: err instanceof Error ? err.message : String(err), details: [] } };
    }
  }
}
