/**
 * WebSocket subscriptions (eth_subscribe). Each belongs to the connection that made it and ends with
 * it. Kinds: newHeads (the real header: its hash is eth_getBlockByNumber's), logs (one log per
 * notification), newPendingTransactions (on entry into the pool), syncing (a dev node never syncs,
 * so it never notifies); modules add their own kinds (epochs) through `registerKind`.
 */
import { randomBytes } from "node:crypto";
import { type MinedBlock, type Node } from "../../chain";
import type { LogFilter } from "../objects";
import type { Json } from "../format";
import { formatHeader, formatTransaction } from "../format";
import { blockLogs } from "../log-matcher";
import type { Connection } from "../types";
import { pageShare } from "./page-share";

/** The node's events, fanned out: one listener on the node however many subscriptions there are. */
interface NodeFeed {
  onBlock(fn: (b: MinedBlock) => void): () => void;
  onPendingTransaction(fn: (hash: string) => void): () => void;
}

interface SubscriptionKind {
  /** Parses the kind's optional argument (throws a ParamError-like Error for a bad one). */
  parse(arg: unknown): unknown;
  /** Starts delivering to `send`; returns the function that stops it. */
  start(arg: unknown, send: (result: Json) => void, feed: NodeFeed): () => void;
}

function fanOut<A>(): { add(fn: (a: A) => void): () => void; emit(a: A): void; readonly size: number } {
  const fns = new Set<(a: A) => void>();
  return {
    get size() {
      return fns.size;
    },
    add(fn) {
      fns.add(fn);
      return () => fns.delete(fn);
    },
    emit(a) {
      for (const fn of fns) fn(a);
    },
  };
}

interface Sub {
  connection: Connection;
  stop: () => void;
  /** Made by a caller with an Origin. */
  page: boolean;
}

/** Subscriptions one WebSocket may hold, and the node in all (each is fed every block: the fan-out is bounded by them). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;
const MAX_SUBSCRIPTIONS = 10_000;

export class SubscriptionManager {
  private readonly _subs = new Map<string, Sub>();
  /** Each connection's subscription ids: a closing socket ends its own without scanning the others. */
  private readonly _byConnection = new Map<Connection, Set<string>>();
  private readonly _kinds = new Map<string, SubscriptionKind>();
  private readonly _watched = new WeakSet<Connection>();
  private readonly _feed: NodeFeed;

  constructor(
    node: Node,
    parseLogCriteria: (arg: unknown) => LogFilter,
    private readonly _perConnection = MAX_SUBSCRIPTIONS_PER_CONNECTION,
    private readonly _total = MAX_SUBSCRIPTIONS,
  ) {
    const blocks = fanOut<MinedBlock>();
    const pending = fanOut<string>();
    node.on("block", (b) => blocks.emit(b));
    // a subscription fed block by block (newHeads, logs, epochs) sees every block: hardhat_mine reserves none meanwhile
    node.wantsEveryBlock(() => blocks.size > 0);
    node.on("pendingTransaction", (h) => pending.emit(h));
    this._feed = { onBlock: blocks.add, onPendingTransaction: pending.add };
    this.registerKind("newHeads", {
      parse: (arg) => {
        if (arg !== undefined && (arg === null || typeof arg !== "object")) throw new Error("invalid argument 1: want {includeTransactions: bool}");
        return (arg as { includeTransactions?: unknown } | undefined)?.includeTransactions === true;
      },
      start: (full, send, feed) =>
        feed.onBlock(({ block, receipts }) => {
          const header = formatHeader(block) as Record<string, Json>;
          if (full === true) header.transactions = block.transactions.map((tx, i) => formatTransaction(tx, receipts[i].from, { block, index: i }));
          send(header);
        }),
    });
    this.registerKind("logs", {
      parse: (arg) => parseLogCriteria(arg ?? {}),
      start: (criteria, send, feed) =>
        feed.onBlock(({ block, receipts }) => {
          for (const log of blockLogs(block, receipts, criteria as LogFilter)) send(log);
        }),
    });
    this.registerKind("newPendingTransactions", {
      parse: (arg) => arg === true,
      start: (full, send, feed) =>
        feed.onPendingTransaction((hash) => {
          const p = node.pool.get(hash);
          send(full === true && p !== undefined ? formatTransaction(p.tx, p.sender) : hash);
        }),
    });
    this.registerKind("syncing", { parse: () => undefined, start: () => () => undefined });
  }

  registerKind(name: string, kind: SubscriptionKind): void {
    this._kinds.set(name, kind);
  }

  kinds(): string[] {
    return [...this._kinds.keys()];
  }

  has(name: string): boolean {
    return this._kinds.has(name);
  }

  /** Subscriptions of pages (callers with an Origin): together at most half of the node's (page-share.ts). */
  private _pages = 0;

  /** `origin`: the Origin the caller sent, if any (a page). */
  subscribe(connection: Connection, name: string, arg: unknown, origin?: string): string {
    const kind = this._kinds.get(name);
    if (kind === undefined) throw new Error(`no "${name}" subscription in eth namespace`);
    const parsed = kind.parse(arg);
    const own = this._byConnection.get(connection) ?? new Set<string>();
    if (own.size >= this._perConnection) throw new SubscriptionLimitError(`too many subscriptions on this connection: at most ${this._perConnection} (unsubscribe some first)`);
    if (this._subs.size >= this._total) throw new SubscriptionLimitError(`too many subscriptions on this node: at most ${this._total}`);
    const page = origin !== undefined;
    if (page && this._pages >= pageShare(this._total))
      throw new SubscriptionLimitError(`too many subscriptions of pages on this node: callers with an Origin hold at most ${pageShare(this._total)} together`);
    const id = `0x${randomBytes(16).toString("hex")}`;
    const stop = kind.start(parsed, (result) => connection.notify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: id, result } }), this._feed);
    this._subs.set(id, { connection, stop, page });
    if (page) this._pages++;
    own.add(id);
    this._byConnection.set(connection, own);
    if (!this._watched.has(connection)) {
      this._watched.add(connection);
      connection.onClose(() => this.closeConnection(connection));
    }
    return id;
  }

  /** True when `id` was a subscription of this connection (it is then ended). */
  unsubscribe(connection: Connection, id: string): boolean {
    const sub = this._subs.get(id.toLowerCase());
    if (sub === undefined || sub.connection !== connection) return false;
    this._end(id.toLowerCase());
    this._byConnection.get(connection)?.delete(id.toLowerCase());
    return true;
  }

  closeConnection(connection: Connection): void {
    for (const id of this._byConnection.get(connection) ?? []) this._end(id);
    this._byConnection.delete(connection);
  }

  private _end(id: string): void {
    const sub = this._subs.get(id);
    if (sub === undefined) return;
    sub.stop();
    this._subs.delete(id);
    if (sub.page) this._pages--;
  }

  get size(): number {
    return this._subs.size;
  }
}

/** A subscription refused because a cap is reached (answered as -32000 with its text). */
export class SubscriptionLimitError extends Error {}
