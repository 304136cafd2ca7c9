/**
 * WebSocket connections (on the HTTP port and on the ws address): each text message is a request or
 * a batch for the same dispatcher; each socket is a Connection that receives its own subscriptions'
 * notifications and tells the dispatcher when it closes. Pings drop peers that stopped answering.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { Caller, Connection, Dispatcher, JsonRpcNotification, JsonRpcResponse, RequestContext } from "../types";
import { WS_MAX_BUFFERED } from "../limits";
import { checkBatch } from "./limits";
import { encodeResponse, errorBody, invalidRequestBody, parseErrorBody, tryEncode } from "./wire";

interface WsHandlerOptions {
  dispatcher: Dispatcher;
  bodyLimit: number;
  batchLimit: number;
  /** 0 = no pings. */
  pingIntervalMs: number;
  log?: (line: string) => void;
  /** Namespaces served on WebSocket (admin_startWS's `apis`); undefined = every enabled one. */
  namespaces?: () => ReadonlySet<string> | undefined;
}

interface Peer {
  ws: WebSocket;
  alive: boolean;
}

export class WsHandler {
  private readonly _wss: WebSocketServer;
  private readonly _peers = new Set<Peer>();
  private readonly _pinger: NodeJS.Timeout | undefined;
  private _nextId = 1;

  constructor(private readonly _o: WsHandlerOptions) {
    // Messages a little over the limit get a JSON-RPC error; ws closes (1009) on those over twice the
    // limit, which it would otherwise have to buffer whole.
    this._wss = new WebSocketServer({ noServer: true, maxPayload: 2 * _o.bodyLimit });
    if (_o.pingIntervalMs > 0) {
      this._pinger = setInterval(() => this._pingAll(), _o.pingIntervalMs);
      this._pinger.unref();
    }
  }

  /** Number of open WebSocket connections. */
  get size(): number {
    return this._peers.size;
  }

  /** `caller` is decided once, at the upgrade: the token and Origin of the upgrade request hold for every message. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, caller: Caller): void {
    socket.on("error", () => undefined);
    this._wss.handleUpgrade(req, socket, head, (ws) => this._attach(ws, caller));
  }

  /** Ends every connection at once and keeps accepting new ones (admin_stopWS). */
  terminateAll(): void {
    for (const p of this._peers) p.ws.terminate();
  }

  /** Ends every connection at once (their onClose listeners fire). */
  closeAll(): void {
    if (this._pinger !== undefined) clearInterval(this._pinger);
    for (const p of this._peers) p.ws.terminate();
    this._wss.close();
  }

  private _pingAll(): void {
    for (const p of this._peers) {
      if (!p.alive) {
        p.ws.terminate();
        continue;
      }
      p.alive = false;
      p.ws.ping();
    }
  }

  private _attach(ws: WebSocket, caller: Caller): void {
    const peer: Peer = { ws, alive: true };
    this._peers.add(peer);
    let closed = false;
    const closeListeners: Array<() => void> = [];
    const connection: Connection = {
      id: this._nextId++,
      notify: (m: JsonRpcNotification) => this._notify(ws, m),
      onClose: (listener) => {
        // registered after the close (a subscribe that finished late): run it now, nothing leaks
        if (closed) runListener(listener);
        else closeListeners.push(listener);
      },
    };
    const ctx: RequestContext = { transport: "ws", ...caller, connection };
    ws.on("error", () => undefined);
    ws.on("pong", () => (peer.alive = true));
    ws.on("close", () => {
      closed = true;
      this._peers.delete(peer);
      for (const l of closeListeners.splice(0)) runListener(l);
    });
    ws.on("message", (data: RawData, isBinary: boolean) => {
      peer.alive = true;
      this._onMessage(data, isBinary, ctx)
        .then((out) => {
          if (out !== undefined) this._send(ws, encodeResponse(out));
        })
        .catch(() => this._send(ws, encodeResponse(errorBody(null, -32603, "internal error"))));
    });
  }

  private async _onMessage(data: RawData, isBinary: boolean, ctx: RequestContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (isBinary) return errorBody(null, -32700, "parse error: binary frames are not JSON-RPC, send text frames");
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (buf.length > this._o.bodyLimit) return invalidRequestBody(`request too large: over ${this._o.bodyLimit} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(buf.toString("utf8"));
    } catch {
      return parseErrorBody();
    }
    const namespaces = this._o.namespaces?.();
    return checkBatch(parsed, this._o.batchLimit) ?? this._o.dispatcher.handle(parsed, namespaces === undefined ? ctx : { ...ctx, namespaces });
  }

  private _notify(ws: WebSocket, m: JsonRpcNotification): void {
    const text = tryEncode(m);
    if (text === undefined) this._o.log?.(`dropped a ${m.method} notification that could not be encoded as JSON`);
    else this._send(ws, text);
  }

  /**
   * Sends an answer or a notification, unless the peer has stopped reading: past WS_MAX_BUFFERED
   * unsent bytes the connection is closed (as geth and Anvil do), whatever it asked for, so a client
   * that pauses its socket cannot make the node hold its answers without bound.
   */
  private _send(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > WS_MAX_BUFFERED) {
      this._o.log?.(`WebSocket peer stopped reading (${ws.bufferedAmount} bytes queued); closing it`);
      ws.terminate();
      return;
    }
    ws.send(text);
  }
}

function runListener(l: () => void): void {
  try {
    l();
  } catch {
    // one failing cleanup must not stop the others
  }
}
