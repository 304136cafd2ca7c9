/**
 * The JSON-RPC server: one Node http.Server for HTTP POST (single and batch), REST GETs and WebSocket
 * upgrades, plus an optional WebSocket-only listener (`--json-rpc.ws-address`). Every transport
 * feeds the same Dispatcher; nothing a client sends can stop the server.
 *
 * Limits (docs/json-rpc.md, "Transport limits"): body/message size, batch size, `http-timeout`,
 * `http-idle-timeout`, and `max-open-connections` on the HTTP listener. When that listener is full,
 * new TCP connections are closed at once (Node's `maxConnections`), so a client fails fast and can
 * retry instead of hanging until a timeout; WebSockets upgraded on the HTTP port count too.
 *
 * `listeners` lets the node stop and reopen its listeners while it runs (geth's admin_startHTTP /
 * stopHTTP / startWS / stopWS): see `ListenerControl`.
 */
import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Caller, Dispatcher } from "../types";
import { DEFAULT_ALLOWED_ORIGINS, devOpen } from "../access";
import { bearerMatches } from "./auth";
import { isLoopback as isLoopbackAddress, isLoopbackHost } from "../loopback";
import { type HttpHandler, createHttpHandler } from "./http";
import { DEFAULT_BATCH_LIMIT, DEFAULT_BODY_LIMIT, DEFAULT_HTTP_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WS_PING_INTERVAL_MS } from "../limits";
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
  /** More browser origins whose pages may call `dev` methods without the token, besides localhost, 127.0.0.1 and [::1]. */
  allowedOrigins?: readonly string[];
  /** Origins that may open a WebSocket (cosmos/evm's ws-origins); absent = any. */
  wsOrigins?: readonly string[];
  rest?: RestRouter;
  /** Warnings (a ws address beyond loopback, refused connections). */
  log?: (line: string) => void;
}

interface ListenResult {
  httpAddress: HostPort;
  wsAddress?: HostPort;
}

/** What a listener (re)started at run time serves: CORS origins (HTTP) or allowed origins (WS), and namespaces. */
export interface ListenerSettings {
  host?: string;
  port?: number;
  /** Allowed origins; absent = as before (the HTTP listener starts with "*"). */
  origins?: string[];
  /** Namespaces served on this listener; absent = every enabled namespace. */
  apis?: string[];
}

/**
 * The run-time control of the server's listeners, handed to the RPC runtime for admin_*:
 * - HTTP is the main listener (POST, REST, and WebSocket upgrades while WS is on).
 * - WS is on while WebSocket upgrades are accepted: on the WS-only listener (`--json-rpc.ws-address`)
 *   when it listens, else on the HTTP port.
 * Stopping HTTP closes its listening socket and its HTTP connections (an answer in flight is still
 * sent); open WebSockets stay until WS is stopped. Stopping WS closes the WS-only listener, refuses
 * upgrades on the HTTP port and closes every WebSocket. Start throws if the address cannot be bound.
 */
export interface ListenerControl {
  http(): HostPort | undefined;
  ws(): HostPort | undefined;
  startHttp(s: ListenerSettings): Promise<HostPort>;
  stopHttp(): void;
  startWs(s: ListenerSettings): Promise<HostPort>;
  stopWs(): void;
}

export class JsonRpcServer {
  readonly rest: RestRouter;
  private readonly _http: Server;
  private _wsOnly: Server | undefined;
  private readonly _ws: WsHandler;
  private _httpBound: HostPort | undefined;
  private _wsBound: HostPort | undefined;
  /** WebSocket upgrades accepted (admin_stopWS turns this off). */
  private _wsEnabled = true;
  private _cors: string[] = ["*"];
  /** Origins allowed to open a WebSocket (ws-origins, admin_startWS); undefined = any. */
  private _wsOrigins: readonly string[] | undefined;
  /** Origins whose pages may call `dev` methods (src/rpc/access.ts). */
  private readonly _devOrigins: readonly string[];
  private _httpApis: ReadonlySet<string> | undefined;
  private _wsApis: ReadonlySet<string> | undefined;
  private readonly _timeoutMs: number;
  private readonly _sockets = new Set<Socket>();
  private _closing: Promise<void> | undefined;
  private _closed!: () => void;
  private readonly _closedPromise = new Promise<void>((r) => (this._closed = r));

  constructor(
    dispatcher: Dispatcher,
    private readonly _opts: ServerOptions,
  ) {
    this.rest = _opts.rest ?? new RestRouter();
    this._devOrigins = [...DEFAULT_ALLOWED_ORIGINS, ...(_opts.allowedOrigins ?? [])];
    this._wsOrigins = _opts.wsOrigins !== undefined && !_opts.wsOrigins.includes("*") ? _opts.wsOrigins : undefined;
    const bodyLimit = _opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const batchLimit = _opts.batchLimit ?? DEFAULT_BATCH_LIMIT;
    const timeoutMs = _opts.httpTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    this._timeoutMs = timeoutMs;
    this._ws = new WsHandler({
      dispatcher,
      bodyLimit,
      batchLimit,
      pingIntervalMs: _opts.wsPingIntervalMs ?? DEFAULT_WS_PING_INTERVAL_MS,
      log: _opts.log,
      namespaces: () => this._wsApis,
    });
    const handler = createHttpHandler({
      dispatcher,
      rest: this.rest,
      bodyLimit,
      batchLimit,
      timeoutMs,
      caller: (req) => this._caller(req),
      corsOrigins: () => this._cors,
      namespaces: () => this._httpApis,
    });
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
    if (_opts.ws !== undefined) this._wsOnly = this._createWsOnlyServer();
  }

  async listen(): Promise<ListenResult> {
    const httpAddress = await listenOn(this._http, this._opts.host, this._opts.port);
    this._httpBound = httpAddress;
    if (this._wsOnly === undefined || this._opts.ws === undefined) return { httpAddress };
    let wsAddress: HostPort;
    try {
      wsAddress = await this._listenWs(this._opts.ws.host, this._opts.ws.port);
    } catch (err) {
      this._httpBound = undefined;
      await new Promise<void>((r) => this._http.close(() => r()));
      throw err;
    }
    return { httpAddress, wsAddress };
  }

  /** The run-time control of the listeners (admin_startHTTP and friends). */
  readonly listeners: ListenerControl = {
    http: () => (this._http.listening ? this._httpBound : undefined),
    ws: () => {
      if (!this._wsEnabled) return undefined;
      if (this._wsOnly?.listening === true) return this._wsBound;
      return this._http.listening ? this._httpBound : undefined;
    },
    startHttp: async (s) => {
      const host = s.host ?? this._httpBound?.host ?? this._opts.host;
      const port = s.port ?? this._httpBound?.port ?? this._opts.port;
      this._httpBound = await listenOn(this._http, host, port);
      if (s.origins !== undefined) this._cors = s.origins;
      this._httpApis = s.apis === undefined ? undefined : new Set(s.apis);
      return this._httpBound;
    },
    stopHttp: () => {
      // the listening socket closes now; idle keep-alive connections at once, busy ones after their answer
      this._http.close();
      this._http.closeIdleConnections();
    },
    startWs: async (s) => {
      const last = this._wsBound ?? this._opts.ws;
      const host = s.host ?? last?.host ?? "127.0.0.1";
      const port = s.port ?? last?.port ?? 8546;
      const onHttpPort = this._http.listening && this._httpBound !== undefined && port === this._httpBound.port && host === this._httpBound.host;
      const bound = onHttpPort ? (this._httpBound as HostPort) : await this._listenWs(host, port);
      this._wsApis = s.apis === undefined ? undefined : new Set(s.apis);
      if (s.origins !== undefined) this._wsOrigins = s.origins.includes("*") ? undefined : s.origins;
      this._wsEnabled = true;
      return bound;
    },
    stopWs: () => {
      this._wsEnabled = false;
      this._wsOnly?.close();
      this._ws.terminateAll();
    },
  };

  /** Ends every connection at once (in-flight answers are dropped) and stops listening. */
  close(): Promise<void> {
    this._closing ??= (async () => {
      this._ws.closeAll();
      for (const s of this._sockets) s.destroy();
      const servers = [this._http, this._wsOnly].filter((s): s is Server => s !== undefined);
      // a listener already stopped by admin_stop* answers close() at once (ERR_SERVER_NOT_RUNNING)
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      this._closed();
    })();
    return this._closing;
  }

  /** Resolves once `close()` has finished. */
  waitUntilClosed(): Promise<void> {
    return this._closedPromise;
  }

  private _createWsOnlyServer(): Server {
    return this._createServer(async (_req, res) => {
      res.writeHead(400, { "content-type": "text/plain" }).end("this address serves WebSocket only\n");
    }, this._timeoutMs);
  }

  private async _listenWs(host: string, port: number): Promise<HostPort> {
    this._wsOnly ??= this._createWsOnlyServer();
    const bound = await listenOn(this._wsOnly, host, port);
    this._wsBound = bound;
    if (!isLoopbackHost(host)) {
      this._opts.log?.(`WARNING: the WebSocket server listens on ${host}:${bound.port}, beyond loopback: anyone who can reach it can use the public namespaces`);
    }
    return bound;
  }

  private _createServer(handler: HttpHandler, timeoutMs: number): Server {
    const server = createServer(
      // timeouts are checked this often (Node's default, 30 s, would blur short timeouts)
      { connectionsCheckingInterval: Math.max(100, Math.min(timeoutMs || 30_000, 30_000) / 4) },
      (req, res) => {
        // a listener stopped at run time (admin_stopHTTP) ends each connection after its last answer
        res.on("finish", () => {
          if (!server.listening) req.socket.end();
        });
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
      if (!this._wsEnabled) {
        socket.on("error", () => undefined);
        socket.end("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nWebSocket RPC not running\n");
        return;
      }
      const origin = req.headers.origin;
      if (this._wsOrigins !== undefined && origin !== undefined && !this._wsOrigins.includes(origin)) {
        socket.on("error", () => undefined);
        socket.end("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nwebsocket: origin not allowed\n");
        return;
      }
      this._ws.handleUpgrade(req, socket, head, this._caller(req));
    });
    return server;
  }

  /** Who is calling, for the access policy (src/rpc/access.ts): the token, and whether dev methods are open to them. */
  private _caller(req: IncomingMessage): Caller {
    const authenticated = this._opts.token !== undefined && bearerMatches(req.headers.authorization, this._opts.token);
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
    return { authenticated, devOpen: devOpen(isLoopbackAddress(req.socket.remoteAddress), origin, this._devOrigins), ...(origin === undefined ? {} : { origin }) };
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
