/** The transport limits: defaults, batch checks and a body reader that stops at the limit. */
import type { IncomingMessage } from "node:http";
import type { JsonRpcResponse } from "../types";
import { invalidRequestBody } from "./wire";

/** Request body and WebSocket message limit (geth's 5 MiB). */
export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;
/** Requests in one batch (geth's BatchRequestLimit default). */
export const DEFAULT_BATCH_LIMIT = 1000;
/** Bytes the answers of one batch may take (geth's BatchResponseMaxSize, cosmos/evm's `batch-response-max-size`). */
export const DEFAULT_BATCH_RESPONSE_BYTES = 25_000_000;
/** `http-timeout` (Evmos: 30s); also the longest one batch may run. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/** `http-idle-timeout` (Evmos: 120s). */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** How often a WebSocket is pinged; a socket that missed the previous pong is dropped. */
export const DEFAULT_WS_PING_INTERVAL_MS = 30_000;
/** Unsent bytes a WebSocket may queue before it counts as a stalled reader and is dropped. */
export const WS_MAX_BUFFERED = 64 * 1024 * 1024;

/** The transport's own answer to a batch it will not pass on, or undefined when the body may go on. */
export function checkBatch(body: unknown, limit: number): JsonRpcResponse | undefined {
  if (!Array.isArray(body)) return undefined;
  if (body.length === 0) return invalidRequestBody("empty batch");
  if (body.length > limit) return invalidRequestBody(`batch too large: ${body.length} requests, the limit is ${limit}`);
  return undefined;
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: "too-large" | "aborted" };

/** Reads the body up to `limit` bytes; beyond it, the rest is drained and discarded. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      if (!r.ok) chunks.length = 0;
      resolve(r);
    };
    const declared = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      finish({ ok: false, reason: "too-large" });
      return;
    }
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) finish({ ok: false, reason: "too-large" });
      else chunks.push(c);
    });
    req.on("end", () => finish({ ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    // a client gone mid-body: 'close' before 'end' (req.complete stays false)
    req.on("close", () => {
      if (!req.complete) finish({ ok: false, reason: "aborted" });
    });
    req.on("error", () => finish({ ok: false, reason: "aborted" }));
  });
}
