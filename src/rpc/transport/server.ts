/**
 * The JSON-RPC server: one Node http.Server for HTTP POST (single and batch) and WebSocket upgrades,
 * an optional second listener for the WebSocket address (`--json-rpc.ws-address`), GET routes for REST,
 * and the limits of DESIGN (body size, batch size, timeouts, open connections). Every transport feeds
 * the same Dispatcher; nothing a client sends can stop the server.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { InternalError, InvalidRequestError, ParseError } from "../errors";
import { errorResponse } from "../dispatcher";
import type { Connection, Dispatcher, JsonRpcNotification, RequestContext } from "../types";
import { bearerMatches } from "./auth";
import { RestRouter } from "./rest-router";

export interface ServerOptions {
  host: string;
  port: number;
  /** A second listener that serves WebSocket only (Evmos's ws-address); absent = none. */
  ws?: { host: string; port: number };
  /** Bearer token of the private methods; absent = nobody is authenticated on the network. */
  token?: string;
  /** Request body and WebSocket message limit, bytes (default 5 MiB, as geth). */
  bodyLimit?: number;
  /** `http-timeout`: time to receive a request and answer it, ms (0 = none). */
  httpTimeoutMs?: number;
  /** `http-idle-timeout`: keep-alive idle time, ms. */
  idleTimeoutMs?: number;
  /** `max-open-connections` on the HTTP listener (0 = unlimited). */
  maxConnections?: number;
  rest?: RestRouter;
  log?: (line: string) => void;
}

export interface ListenResult {
  httpAddress: { host: string; port: number };
  wsAddress?: { host: string; port: number };
}

const JSON_TYPES = ["application/json", "application/json-rpc", "application/jsonrequest"];
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** JSON with a guard: a bigint that escaped the dispatcher becomes an internal error, not a crash. */
function stringify(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    return JSON.stringify(errorResponse(null, new InternalError("internal error: result could not be encoded")));
  }
}

export class JsonRpcServer {
  readonly rest: RestRouter;
  private readonly _http: Server;
  private _wsOnly: Server | undefined;
  private readonly _wss = new WebSocketServer({ noServer: true });
  private readonly _sockets = new Set<Socket>();
  private _nextConnection = 1;
  private _closed!: () => void;
  private readonly _closedPromise = new Promise<void>((r) => (this._closed = r));

  constructor(
    private readonly _dispatcher: Dispatcher,
    private readonly _opts: ServerOptions,
  ) {
    this.rest = _opts.rest ?? new RestRouter();
    this._http = createServer((req, res) => {
      // whatever goes wrong with one request (a socket gone mid-answer) must not reach the process
      this._onHttp(req, res).catch(() => res.destroy());
    });
    this._setup(this._http, true);
  }

  async listen(): Promise<ListenResult> {
    const httpAddress = await listenOn(this._http, this._opts.host, this._opts.port);
    let wsAddress: ListenResult["wsAddress"];
    if (this._opts.ws !== undefined) {
      this._wsOnly = createServer((_req, res) => {
        res.writeHead(400, { "content-type": "text/plain" }).end("this address serves WebSocket only");
      });
      this._setup(this._wsOnly, false);
      wsAddress = await listenOn(this._wsOnly, this._opts.ws.host, this._opts.ws.port);
      if (!LOOPBACK.test(this._opts.ws.host)) {
        this._opts.log?.(`WARNING: the WebSocket server listens on ${this._opts.ws.host}:${wsAddress.port}, beyond loopback: anyone who can reach it can use the public namespaces`);
      }
    }
    return { httpAddress, wsAddress };
  }

  async close(): Promise<void> {
    for (const ws of this._wss.clients) ws.terminate();
    for (const s of this._sockets) s.destroy();
    await Promise.all([this._http, this._wsOnly].filter((s): s is Server => s !== undefined).map((s) => new Promise<void>((r) => s.close(() => r()))));
    this._closed();
  }

  /** Resolves once `close()` has finished. */
  waitUntilClosed(): Promise<void> {
    return this._closedPromise;
  }

  private _setup(server: Server, isHttp: boolean): void {
    const o = this._opts;
    server.requestTimeout = o.httpTimeoutMs ?? 30_000;
    server.headersTimeout = Math.min(server.requestTimeout || 60_000, 60_000);
    server.keepAliveTimeout = o.idleTimeoutMs ?? 120_000;
    if (isHttp && (o.maxConnections ?? 0) > 0) server.maxConnections = o.maxConnections as number;
    server.on("connection", (s: Socket) => {
      this._sockets.add(s);
      s.on("close", () => this._sockets.delete(s));
      s.on("error", () => undefined);
    });
    server.on("clientError", (_err, socket) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      else socket.destroy();
    });
    server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
      this._wss.handleUpgrade(req, socket, head, (ws) => this._onWs(ws, this._authenticated(req)));
    });
  }

  private _authenticated(req: IncomingMessage): boolean {
    return this._opts.token !== undefined && bearerMatches(req.headers.authorization, this._opts.token);
  }

  private async _onHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.on("error", () => undefined);
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type, Authorization",
        "Access-Control-Max-Age": "600",
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" || req.method === "HEAD") {
      const routed = await this.rest.handle(url.pathname, url.searchParams);
      res.writeHead(routed.status, { "content-type": "application/json" }).end(stringify(routed.body));
      return;
    }
    if (url.pathname !== "/") {
      res.writeHead(404, { "content-type": "text/plain" }).end("404 page not found\n");
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { "content-type": "text/plain", allow: "POST, GET, OPTIONS" }).end("method not allowed\n");
      return;
    }
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "" && !JSON_TYPES.includes(type)) {
      res.writeHead(415, { "content-type": "text/plain" }).end("invalid content type, only application/json is supported\n");
      return;
    }
    const limit = this._opts.bodyLimit ?? 5 * 1024 * 1024;
    const body = await readBody(req, limit);
    if (body === "aborted") return;
    if (body === "too-large") {
      const err = errorResponse(null, new InvalidRequestError(`request body too large: over ${limit} bytes`));
      res.writeHead(413, { "content-type": "application/json", connection: "close" }).end(stringify(err));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      res.writeHead(200, { "content-type": "application/json" }).end(stringify(errorResponse(null, new ParseError())));
      return;
    }
    const ctx: RequestContext = { transport: "http", authenticated: this._authenticated(req) };
    const out = await this._dispatcher.handle(parsed, ctx);
    if (res.destroyed) return;
    if (out === undefined) res.writeHead(204).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(stringify(out));
  }

  private _onWs(ws: WebSocket, authenticated: boolean): void {
    const closeListeners: Array<() => void> = [];
    const connection: Connection = {
      id: this._nextConnection++,
      notify: (m: JsonRpcNotification) => {
        if (ws.readyState === ws.OPEN) ws.send(stringify(m));
      },
      onClose: (l) => closeListeners.push(l),
    };
    const ctx: RequestContext = { transport: "ws", authenticated, connection };
    const limit = this._opts.bodyLimit ?? 5 * 1024 * 1024;
    ws.on("error", () => undefined);
    ws.on("close", () => {
      for (const l of closeListeners.splice(0)) l();
    });
    ws.on("message", (data, isBinary) => {
      (async () => {
        const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
        let out: unknown;
        if (isBinary) out = errorResponse(null, new InvalidRequestError("invalid request: binary frames are not JSON-RPC"));
        else if (size > limit) out = errorResponse(null, new InvalidRequestError(`request too large: over ${limit} bytes`));
        else {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));
          } catch {
            out = errorResponse(null, new ParseError());
          }
          if (out === undefined) out = await this._dispatcher.handle(parsed, ctx);
        }
        if (out !== undefined && ws.readyState === ws.OPEN) ws.send(stringify(out));
      })().catch(() => ws.terminate());
    });
  }
}

function listenOn(server: Server, host: string, port: number): Promise<{ host: string; port: number }> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const a = server.address() as AddressInfo;
      resolve({ host, port: a.port });
    });
  });
}

/** The body as text, or why it could not be read. */
function readBody(req: IncomingMessage, limit: number): Promise<string | "too-large" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (v: string | "too-large" | "aborted") => {
      if (!done) {
        done = true;
        resolve(v);
      }
    };
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      req.resume();
      finish("too-large");
      return;
    }
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.resume();
        finish("too-large");
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => finish(Buffer.concat(chunks).toString("utf8")));
    req.on("aborted", () => finish("aborted"));
    req.on("error", () => finish("aborted"));
  });
}
