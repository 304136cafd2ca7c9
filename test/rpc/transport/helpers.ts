/** A small fake Dispatcher and real HTTP/WS clients for the transport tests. */
import { request as httpRequest } from "node:http";
import WebSocket from "ws";
import type { Connection, Dispatcher, JsonRpcResponse, RequestContext } from "../../../src/rpc/types";
import { JsonRpcServer, type ServerOptions } from "../../../src/rpc/transport/server";

export const TOKEN = "unit-test-token";

type Id = string | number | null;

/**
 * Methods: echo (params back), ctx (what the transport passed), slow [ms], bigint, private (needs
 * the token: 4100 like the real dispatcher), subscribe (WS only), emit (notifies every subscription
 * with its own id), throw (a dispatcher bug).
 */
export class FakeDispatcher implements Dispatcher {
  readonly subscriptions = new Map<string, Connection>();
  readonly closed: number[] = [];
  private _nextSub = 1;

  async handle(body: unknown, ctx: RequestContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (!Array.isArray(body)) return this._one(body, ctx);
    const out = (await Promise.all(body.map((m) => this._one(m, ctx)))).filter((r): r is JsonRpcResponse => r !== undefined);
    return out.length === 0 ? undefined : out;
  }

  private async _one(m: unknown, ctx: RequestContext): Promise<JsonRpcResponse | undefined> {
    if (typeof m !== "object" || m === null || typeof (m as { method?: unknown }).method !== "string") {
      return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } };
    }
    const req = m as { id?: Id; method: string; params?: unknown[] };
    const ok = (result: unknown): JsonRpcResponse | undefined => (req.id === undefined ? undefined : { jsonrpc: "2.0", id: req.id, result });
    const fail = (code: number, message: string): JsonRpcResponse => ({ jsonrpc: "2.0", id: req.id ?? null, error: { code, message } });
    switch (req.method) {
      case "echo":
        return ok(req.params ?? []);
      case "ctx":
        return ok({ transport: ctx.transport, authenticated: ctx.authenticated, connection: ctx.connection?.id ?? null });
      case "slow":
        await new Promise((r) => setTimeout(r, Number(req.params?.[0] ?? 500)));
        return ok("done");
      case "bigint":
        return ok({ value: 5n });
      case "private":
        return ctx.authenticated ? ok(true) : fail(4100, "unauthorized: private needs the bearer token");
      case "subscribe": {
        const conn = ctx.connection;
        if (conn === undefined) return fail(-32000, "notifications not supported");
        const id = `0x${(this._nextSub++).toString(16)}`;
        this.subscriptions.set(id, conn);
        conn.onClose(() => {
          this.subscriptions.delete(id);
          this.closed.push(conn.id);
        });
        return ok(id);
      }
      case "emit":
        for (const [subscription, conn] of this.subscriptions) conn.notify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription, result: req.params?.[0] ?? null } });
        return ok(this.subscriptions.size);
      case "throw":
        throw new Error("dispatcher bug");
      default:
        return fail(-32601, `the method ${req.method} does not exist/is not available`);
    }
  }
}

export interface Started {
  server: JsonRpcServer;
  dispatcher: FakeDispatcher;
  url: string;
  port: number;
  wsUrl?: string;
  logs: string[];
}

export async function start(opts: Partial<ServerOptions> = {}): Promise<Started> {
  const dispatcher = new FakeDispatcher();
  const logs: string[] = [];
  const server = new JsonRpcServer(dispatcher, { host: "127.0.0.1", port: 0, log: (l) => logs.push(l), ...opts });
  const { httpAddress, wsAddress } = await server.listen();
  return {
    server,
    dispatcher,
    logs,
    port: httpAddress.port,
    url: `http://127.0.0.1:${httpAddress.port}/`,
    wsUrl: wsAddress === undefined ? undefined : `ws://127.0.0.1:${wsAddress.port}/`,
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** A raw HTTP request (node:http), so headers such as Content-Type are exactly what the test says. */
export function send(url: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? "POST", headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

export const JSON_HEADERS = { "content-type": "application/json" };

/** POSTs a JSON-RPC body with Content-Type application/json. */
export function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(url, { body: typeof body === "string" ? body : JSON.stringify(body), headers: { ...JSON_HEADERS, ...headers } });
}

export function wsOpen(url: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const ws = new WebSocket(url, options);
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** The next message on the socket, parsed. */
export function wsNext(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once("message", (b: Buffer) => resolve(JSON.parse(b.toString("utf8")))));
}

export async function wsCall(ws: WebSocket, payload: unknown, binary = false): Promise<unknown> {
  const next = wsNext(ws);
  ws.send(typeof payload === "string" ? payload : JSON.stringify(payload), { binary });
  return next;
}

export function wsClosed(ws: WebSocket): Promise<number> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve(1006);
  return new Promise((resolve) => ws.once("close", (code: number) => resolve(code)));
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
