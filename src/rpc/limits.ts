/**
 * The JSON-RPC server's default limits (app.toml's [json-rpc] keys and geth's): what a request, a
 * batch and a socket may take. The dispatcher's batch budgets and the transports read them here.
 */

/** Request body and WebSocket message limit (geth's 5 MiB). */
export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;
/** Requests in one batch (geth's BatchRequestLimit default). */
export const DEFAULT_BATCH_LIMIT = 1000;
/** Why a batch of `size` requests is refused (geth's words), or undefined when it may run: the dispatcher and the transports ask this one rule. */
export function batchRefusal(size: number, limit: number): string | undefined {
  if (size === 0) return "empty batch";
  if (size > limit) return `batch too large: ${size} requests, the limit is ${limit}`;
  return undefined;
}
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
