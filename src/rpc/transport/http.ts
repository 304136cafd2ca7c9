/**
 * HTTP requests on the JSON-RPC port, in geth's order: CORS preflight, routing (POST / is JSON-RPC,
 * GET goes to the REST router), content type, body limit, JSON parse, batch limits, dispatch.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Caller, Dispatcher, JsonRpcResponse, RequestContext } from "../types";
import { checkBatch, readBody } from "./limits";
import type { RestRouter } from "./rest-router";
import { TIMEOUT_CODE, encodeResponse, encodeRest, errorBody, invalidRequestBody, owedIds, parseErrorBody } from "./wire";

/** geth's accepted media types; parameters such as `; charset=utf-8` are ignored. */
const JSON_TYPES = new Set(["application/json", "application/json-rpc", "application/jsonrequest"]);

interface HttpHandlerOptions {
  dispatcher: Dispatcher;
  rest: RestRouter;
  bodyLimit: number;
  batchLimit: number;
  /** Time the dispatcher has to answer before the client gets `request timed out` (0 = none). */
  timeoutMs: number;
  /** The caller's token and dev access (src/rpc/access.ts). */
  caller(req: IncomingMessage): Caller;
  /** Allowed CORS origins ("*" = any); default any. */
  corsOrigins?: () => readonly string[];
  /** Namespaces served on this listener; undefined = every enabled one. */
  namespaces?: () => ReadonlySet<string> | undefined;
}

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, headers).end(body);
}

const sendJson = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void => send(res, status, { "content-type": "application/json", ...extra }, text);

export function createHttpHandler(o: HttpHandlerOptions): HttpHandler {
  return async (req, res) => {
    res.on("error", () => undefined); // a client gone mid-answer is not our error
    const allowed = o.corsOrigins?.() ?? ["*"];
    const origin = req.headers.origin;
    if (allowed.includes("*")) res.setHeader("Access-Control-Allow-Origin", "*");
    else if (origin !== undefined && allowed.includes(origin)) res.setHeader("Access-Control-Allow-Origin", origin).setHeader("Vary", "Origin");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "POST, GET, HEAD, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type, Authorization",
        "Access-Control-Max-Age": "600",
      });
      res.end();
      return;
    }
    // JSON-RPC posts to "/": only other paths (REST) need the URL parsed
    if (req.url !== "/") {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== "/") return serveRest(o.rest, req, res, url);
    }
    if (req.method !== "POST") {
      // a browser opening the node's address gets what the REST router serves there (the epochs page's link), when it serves anything
      if ((req.method === "GET" || req.method === "HEAD") && o.rest.has("/")) return serveRest(o.rest, req, res, new URL("/", "http://localhost"));
      send(res, 405, { "content-type": "text/plain", allow: "POST, OPTIONS" }, "method not allowed\n");
      return;
    }
    // JSON only from a page, as geth: a page can POST text/plain or a Blob with no type without a
    // CORS preflight, so accepting those would let any web page call the node unseen; application/json
    // needs one. A browser sends an Origin with every POST: a request without one is not a page's
    // (curl -d, scripts), and is read whatever its type, as Hardhat's node does.
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (origin !== undefined && !JSON_TYPES.has(type)) {
      send(res, 415, { "content-type": "text/plain" }, "invalid content type, only application/json is supported\n");
      return;
    }
    const body = await readBody(req, o.bodyLimit);
    if (!body.ok) {
      if (body.reason === "too-large") {
        const err = invalidRequestBody(`request body too large: over ${o.bodyLimit} bytes`);
        sendJson(res, 413, encodeResponse(err), { connection: "close" });
      }
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      sendJson(res, 200, encodeResponse(parseErrorBody()));
      return;
    }
    const refused = checkBatch(parsed, o.batchLimit);
    if (refused !== undefined) {
      sendJson(res, 200, encodeResponse(refused));
      return;
    }
    const namespaces = o.namespaces?.();
    const ctx: RequestContext = {
      transport: "http",
      ...o.caller(req),
      ...(namespaces !== undefined ? { namespaces } : {}),
    };
    // the dispatcher answers its own errors; a rejection would be its bug, still answered, never a crash
    const work = o.dispatcher.handle(parsed, ctx).catch(() => errorBody(null, -32603, "internal error"));
    const out = await withTimeout(work, o.timeoutMs, parsed);
    if (out === undefined) send(res, 204, {}, "");
    else sendJson(res, 200, encodeResponse(out));
  };
}

/**
 * The dispatcher's answer, or geth's `request timed out` (-32002) for every member owed one when it
 * takes longer than the HTTP timeout. The call itself runs on; only its answer is dropped.
 */
async function withTimeout(work: Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>, ms: number, body: unknown): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>((resolve) => {
    timer = setTimeout(() => {
      const errs = owedIds(body).map((id) => errorBody(id, TIMEOUT_CODE, "request timed out"));
      // notifications only: nothing is owed, as when they complete
      resolve(errs.length === 0 ? undefined : Array.isArray(body) ? errs : errs[0]);
    }, ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function serveRest(rest: RestRouter, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (rest.has(url.pathname)) send(res, 405, { "content-type": "text/plain", allow: "GET, HEAD, OPTIONS" }, "method not allowed\n");
    else send(res, 404, { "content-type": "text/plain" }, "404 page not found\n");
    return;
  }
  const routed = await rest.handle(url.pathname, url.searchParams);
  if (routed.contentType !== undefined && typeof routed.body === "string") {
    send(res, routed.status, { ...routed.headers, "content-type": routed.contentType }, req.method === "HEAD" ? "" : routed.body);
    return;
  }
  const { status, text } = encodeRest(routed.status, routed.body);
  sendJson(res, status, text);
}
