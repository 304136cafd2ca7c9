/**
 * The remote node a forked chain reads from: JSON-RPC over HTTP(S), one request or one batch per
 * call, each with a deadline. Every failure becomes a ForkError that names the remote (its URL with
 * any password removed) and the method, so a remote that is down or slow answers a clear -32000 and
 * never takes the local node with it.
 */
import { ChainError } from "../base/errors";

/**
 * The remote of a fork failed or answered something unusable. A block that needs it is not made
 * (`abortsBlock`): the transactions in it are not at fault.
 */
export class ForkError extends ChainError {
  readonly abortsBlock = true;
}

interface RemoteOptions {
  /** Extra HTTP headers (an API key, …), as Hardhat's `forking.httpHeaders`. */
  headers?: Record<string, string>;
  /** Deadline of one request, ms (default 20 s). */
  timeoutMs?: number;
  /** Requests in flight at once (default 16): public endpoints rate-limit bursts. */
  maxInFlight?: number;
}

interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
}

/** The URL as errors show it: without user name and password. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** Checks a fork URL: http(s) only (the remote is read with plain JSON-RPC requests). */
function checkForkUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ForkError(`invalid fork URL "${url}": expected an http:// or https:// JSON-RPC endpoint`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new ForkError(`invalid fork URL "${displayUrl(url)}": expected an http:// or https:// JSON-RPC endpoint (got ${u.protocol.replace(/:$/, "")})`);
  }
}

export class RemoteClient {
  /** Requests sent (each batch counts once); tests and the bench read it. */
  requests = 0;
  private _nextId = 1;
  private _inFlight = 0;
  private readonly _waiting: Array<() => void> = [];
  readonly name: string;
  /** The URL requests go to (user and password, if any, travel as a Basic Authorization header). */
  private readonly _target: string;
  private readonly _headers: Record<string, string>;

  constructor(
    readonly url: string,
    private readonly _opts: RemoteOptions = {},
  ) {
    checkForkUrl(url);
    this.name = displayUrl(url);
    this._target = this.name;
    const u = new URL(url);
    const given = _opts.headers ?? {};
    const hasAuth = Object.keys(given).some((h) => h.toLowerCase() === "authorization");
    const basic = u.username !== "" || u.password !== "" ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}` : undefined;
    this._headers = { "content-type": "application/json", ...(basic !== undefined && !hasAuth ? { authorization: basic } : {}), ...given };
  }

  async call<T = unknown>(method: string, params: unknown[]): Promise<T> {
    const [r] = await this.batch([{ method, params }]);
    return r as T;
  }

  /** Sends the calls as one JSON-RPC batch (one when there is only one); answers in order. */
  async batch(calls: Array<{ method: string; params: unknown[] }>): Promise<unknown[]> {
    // a finished request hands its slot to the next waiting one
    if (this._inFlight >= (this._opts.maxInFlight ?? 16)) await new Promise<void>((resolve) => this._waiting.push(resolve));
    else this._inFlight++;
    try {
      return await this._send(calls);
    } finally {
      const next = this._waiting.shift();
      if (next !== undefined) next();
      else this._inFlight--;
    }
  }

  private async _send(calls: Array<{ method: string; params: unknown[] }>): Promise<unknown[]> {
    const first = this._nextId;
    this._nextId += calls.length;
    const body = calls.map((c, i) => ({ jsonrpc: "2.0", id: first + i, method: c.method, params: c.params }));
    const what = calls.map((c) => c.method).join(", ");
    this.requests++;
    let res: Response;
    try {
      res = await fetch(this._target, {
        method: "POST",
        headers: this._headers,
        body: JSON.stringify(body.length === 1 ? body[0] : body),
        signal: AbortSignal.timeout(this._opts.timeoutMs ?? 20_000),
      });
    } catch (err) {
      throw new ForkError(`fork remote ${this.name} did not answer ${what}: ${causeText(err)}`);
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) throw new ForkError(`fork remote ${this.name} answered HTTP ${res.status} to ${what}${text !== "" ? `: ${text.slice(0, 200)}` : ""}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ForkError(`fork remote ${this.name} answered ${what} with something that is not JSON: ${text.slice(0, 120)}`);
    }
    const replies = (Array.isArray(parsed) ? parsed : [parsed]) as RpcReply[];
    const byId = new Map<unknown, RpcReply>();
    for (const r of replies) if (r !== null && typeof r === "object") byId.set(r.id, r);
    return calls.map((c, i) => {
      const r = byId.get(first + i) ?? (replies.length === 1 && calls.length === 1 ? replies[0] : undefined);
      if (r === undefined) throw new ForkError(`fork remote ${this.name} left ${c.method} unanswered`);
      if (r.error !== undefined) throw new ForkError(`fork remote ${this.name} refused ${c.method}: ${r.error.message ?? "no message"} (code ${r.error.code ?? "?"})`);
      return r.result;
    });
  }
}

function causeText(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === "TimeoutError") return "timed out";
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error) return cause.message;
    return err.message;
  }
  return String(err);
}
