/**
 * The JSON-RPC server: one Node http.Server for HTTP POST (single and batch), REST GETs and WebSocket
 * upgrades, plus an optional WebSocket-only listener (`--json-rpc.ws-address`). Every transport
 * feeds the same Dispatcher; nothing a client sends can stop the server.
 *
 * Limits (DESIGN "Transports and configuration"): body/message size, batch size, `http-timeout`,
 * `http-idle-timeout`, and `max-open-connections` on the HTTP listener. When that listener is full,
 * new TCP connections are closed at once (Node's `maxConnections`), so a client fails fast and can
 * retry instead of hanging until a timeout; WebSockets upgraded on the HTTP port count too.
 */
import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Dispatcher } from "../types";
import { bearerMatches } from "./auth";
import { type HttpHandler, createHttpHandler } from "./http";
import { DEFAULT_BATCH_LIMIT, DEFAULT_BODY_LIMIT, DEFAULT_HTTP_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WS_PING_INTERVAL_MS } from "./limits";
import { RestRouter } from "./rest-router";
import { WsHandler } from "./ws";

export interface HostPort {
  host: string;
  port: number;
}

export interface ServerOptions extends HostPort {
  /** A second listener that serves WebSocket only (Evmos's ws-address); absent = none. */
  ws?: HostPort;
  /** Bearer token of the private methods; absent = nobody is authenticated on the network. */
  token?: string;
  /** Request body and WebSocket message limit, bytes (default 5 MiB, as geth). */
  bodyLimit?: number;
  /** Requests in one batch (default 1000, as geth). */
  batchLimit?: number;
  /** `http-timeout`, ms: to receive a request, and for the dispatcher to answer it (0 = none). */
  httpTimeoutMs?: number;
  /** `http-idle-timeout`, ms: keep-alive idle time (0 = the http timeout, as Go's server). */
  idleTimeoutMs?: number;
  /** `max-open-connections` on the HTTP listener (0 = unlimited). */
  maxConnections?: number;
  /** WebSocket ping interval, ms (0 = none). */
  wsPingIntervalMs?: number;
  rest?: RestRouter;
  /** Warnings (a ws address beyond loopback, refused connections). */
  log?: (line: string) => void;
}

export interface ListenResult {
  httpAddress: HostPort;
  wsAddress?: HostPort;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|localhost)$/i;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host.replace(/^\[(.*)\]$/, "$1"));
}

export class JsonRpcServer {
  readonly rest: RestRouter;
  private readonly _http: Server;
  private readonly _wsOnly: Server | undefined;
  private readonly _ws: WsHandler;
  private readonly _sockets = new Set<Socket>();
  private _closing: Promise<void> | undefined;
  private _closed!: () => void;
  private readonly _closedPromise = new Promise<void>((r) => (this._closed = r));

  constructor(
    dispatcher: Dispatcher,
    private readonly _opts: ServerOptions,
  ) {
    this.rest = _opts.rest ?? new RestRouter();
    const bodyLimit = _opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const batchLimit = _opts.batchLimit ?? DEFAULT_BATCH_LIMIT;
    const timeoutMs = _opts.httpTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    this._ws = new WsHandler({ dispatcher, bodyLimit, batchLimit, pingIntervalMs: _opts.wsPingIntervalMs ?? DEFAULT_WS_PING_INTERVAL_MS, log: _opts.log });
    const handler = createHttpHandler({ dispatcher, rest: this.rest, bodyLimit, batchLimit, timeoutMs, authenticated: (req) => this._authenticated(req) });
    this._http = this._createServer(handler, timeoutMs);
    const max = _opts.maxConnections ?? 0;
    if (max > 0) {
      this._http.maxConnections = max;
      let warned = false;
      this._http.on("drop", () => {
        if (!warned) _opts.log?.(`max-open-connections (${max}) reached: new connections are closed until some end`);
        warned = true;
      });
    }
    if (_opts.ws !== undefined) {
      this._wsOnly = this._createServer(async (_req, res) => {
        res.writeHead(400, { "content-type": "text/plain" }).end("this address serves WebSocket only\n");
      }, timeoutMs);
    }
  }

  async listen(): Promise<ListenResult> {
    const httpAddress = await listenOn(this._http, this._opts.host, this._opts.port);
    if (this._wsOnly === undefined || this._opts.ws === undefined) return { httpAddress };
    let wsAddress: HostPort;
    try {
      wsAddress = await listenOn(this._wsOnly, this._opts.ws.host, this._opts.ws.port);
    } catch (err) {
      await new Promise<void>((r) => this._http.close(() => r()));
      throw err;
    }
    if (!isLoopback(this._opts.ws.host)) {
      this._opts.log?.(`WARNING: the WebSocket server listens on ${this._opts.ws.host}:${wsAddress.port}, beyond loopback: anyone who can reach it can use the public namespaces`);
    }
    return { httpAddress, wsAddress };
  }

  /** Ends every connection at once (in-flight answers are dropped) and stops listening. */
  close(): Promise<void> {
    this._closing ??= (async () => {
      this._ws.closeAll();
      for (const s of this._sockets) s.destroy();
      const servers = [this._http, this._wsOnly].filter((s): s is Server => s !== undefined);
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      this._closed();
    })();
    return this._closing;
  }

  /** Resolves once `close()` has finished. */
  waitUntilClosed(): Promise<void> {
    return this._closedPromise;
  }

  private _createServer(handler: HttpHandler, timeoutMs: number): Server {
    const server = createServer(
      // timeouts are checked this often (Node's default, 30 s, would blur short timeouts)
      { connectionsCheckingInterval: Math.max(100, Math.min(timeoutMs || 30_000, 30_000) / 4) },
      (req, res) => {
        // whatever goes wrong with one request (a socket gone mid-answer) must not reach the process
        handler(req, res).catch(() => res.destroy());
      },
    );
    server.requestTimeout = timeoutMs;
    server.headersTimeout = timeoutMs > 0 ? Math.min(timeoutMs, 60_000) : 60_000;
    server.keepAliveTimeout = (this._opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) || timeoutMs;
    server.on("connection", (s: Socket) => {
      this._sockets.add(s);
      s.on("close", () => this._sockets.delete(s));
      s.on("error", () => undefined);
    });
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this._ws.handleUpgrade(req, socket, head, this._authenticated(req));
    });
    return server;
  }

  private _authenticated(req: IncomingMessage): boolean {
    return this._opts.token !== undefined && bearerMatches(req.headers.authorization, this._opts.token);
  }
}

function listenOn(server: Server, host: string, port: number): Promise<HostPort> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({ host, port: (server.address() as AddressInfo).port });
    });
  });
}
