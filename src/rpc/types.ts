/** JSON-RPC 2.0 wire types and the dispatcher interface every transport calls. */

export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse = { jsonrpc: "2.0"; id: JsonRpcId; result: unknown } | { jsonrpc: "2.0"; id: JsonRpcId; error: JsonRpcErrorObject };

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params: { subscription: string; result: unknown };
}

/** A long-lived connection (WebSocket) that can receive subscription notifications. */
export interface Connection {
  readonly id: number;
  notify(message: JsonRpcNotification): void;
  /** Called by the transport when the socket closes; subscriptions of this connection end. */
  onClose(listener: () => void): void;
}

export interface RequestContext {
  /** Which transport the request came over; the in-process provider is trusted. */
  transport: "in-process" | "http" | "ws";
  /** True when the caller presented the bearer token (always true in-process). */
  authenticated: boolean;
  /**
   * False when `dev` methods need the token for this caller: it is beyond this machine, or a
   * browser page from an origin not allowed (src/rpc/access.ts). The network transports always
   * say; absent in-process (open).
   */
  devOpen?: boolean;
  /** The browser page's `Origin` (HTTP request or WebSocket upgrade), when it sent one: a page's share of node-wide caps (filters) is counted by it. */
  origin?: string;
  /** Present on WebSocket, where eth_subscribe works. */
  connection?: Connection;
  /** Namespaces the listener the request came on serves (admin_startHTTP/startWS `apis`); absent = all enabled. */
  namespaces?: ReadonlySet<string>;
}

/** What a network transport knows of its caller: the access policy's inputs (src/rpc/access.ts). */
export type Caller = Pick<RequestContext, "authenticated" | "devOpen" | "origin">;

export interface Dispatcher {
  /**
   * Handles one parsed JSON body: a request object or a batch array.
   * Returns the response (an array for a batch), or undefined when nothing is owed
   * (a notification request without id, or a batch of only those).
   */
  handle(body: unknown, ctx: RequestContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>;
}
