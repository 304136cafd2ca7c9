/**
 * Polled filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter): each keeps what
 * arrived since its last poll. A filter not polled for 5 minutes is removed (Evmos/geth deadline);
 * at most `filter-cap` filters live at once, at most half of them a page's (by its Origin). Texts
 * are Evmos's (docs/json-rpc.md, "Errors").
 */
import { randomBytes } from "node:crypto";
import { pageShare } from "./page-share";
import type { MinedBlock, Node } from "../../chain";
import { ServerError } from "../errors";
import { type Json, hex } from "../format";
import { blockLogs } from "../log-matcher";
import type { LogFilter } from "../objects";

export const FILTER_TIMEOUT_MS = 5 * 60 * 1000;

type Kind = "logs" | "blocks" | "pending";
/** geth's subscription type numbers, which Evmos's error texts show. */
const TYPE_NUMBER: Record<Kind, number> = { logs: 1, pending: 4, blocks: 5 };

interface Filter {
  kind: Kind;
  criteria?: LogFilter;
  /** Numeric range bounds of a log filter, when given as numbers. */
  from?: bigint;
  to?: bigint;
  queue: Json[];
  lastPoll: number;
  /** The browser origin that installed it (undefined: a caller without an Origin, a script on this machine). */
  origin?: string;
}

export class FilterManager {
  private readonly _filters = new Map<string, Filter>();

  constructor(
    private readonly _node: Node,
    private readonly _cap: () => number,
    private readonly _now: () => number = Date.now,
  ) {
    _node.on("block", (b) => this._onBlock(b));
    // a block filter gets every block's hash: hardhat_mine reserves none meanwhile (reserved blocks have no logs for log filters)
    _node.wantsEveryBlock(() => {
      this.sweep();
      return [...this._filters.values()].some((f) => f.kind === "blocks");
    });
    _node.on("pendingTransaction", (h) => this._push("pending", h));
  }

  get size(): number {
    this.sweep();
    return this._filters.size;
  }

  /**
   * Installs a filter. Pages (callers with an Origin, all sites together) hold at most half of
   * `filter-cap` (page-share.ts): the developer's own tools (scripts send no Origin) keep the rest.
   */
  install(kind: Kind, criteria?: LogFilter, from?: bigint, to?: bigint, origin?: string): string {
    this.sweep();
    const cap = this._cap();
    const what = kind === "logs" ? "filter" : kind === "blocks" ? "block filter" : "pending tx filter";
    if (cap > 0 && this._filters.size >= cap) throw new ServerError(`error creating ${what}: max limit reached`);
    if (cap > 0 && origin !== undefined) {
      const share = pageShare(cap);
      let held = 0;
      for (const f of this._filters.values()) if (f.origin !== undefined) held++;
      if (held >= share) throw new ServerError(`error creating ${what}: max limit reached for pages (callers with an Origin hold at most ${share} together, half of filter-cap)`);
    }
    const id = `0x${randomBytes(16).toString("hex")}`;
    this._filters.set(id, { kind, criteria, from, to, queue: [], lastPoll: this._now(), origin });
    return id;
  }

  uninstall(id: string): boolean {
    this.sweep();
    return this._filters.delete(id.toLowerCase());
  }

  /** What arrived since the last poll; resets the filter's deadline. */
  changes(id: string): Json[] {
    const f = this._get(id);
    f.lastPoll = this._now();
    const out = f.queue;
    f.queue = [];
    return out;
  }

  /** The criteria of a log filter (eth_getFilterLogs re-runs them), without touching the deadline. */
  logCriteria(id: string): LogFilter {
    const f = this._get(id);
    if (f.kind !== "logs" || f.criteria === undefined) {
      throw new ServerError(`filter ${id} doesn't have a LogsSubscription type: got ${TYPE_NUMBER[f.kind]}`);
    }
    return f.criteria;
  }

  /** Removes filters whose deadline passed. */
  sweep(): void {
    const now = this._now();
    for (const [id, f] of this._filters) if (now - f.lastPoll > FILTER_TIMEOUT_MS) this._filters.delete(id);
  }

  private _get(id: string): Filter {
    this.sweep();
    const f = this._filters.get(id.toLowerCase());
    if (f === undefined) throw new ServerError(`filter ${id} not found`);
    return f;
  }

  private _push(kind: Kind, item: Json): void {
    for (const f of this._filters.values()) if (f.kind === kind) f.queue.push(item);
  }

  private _onBlock({ block, receipts }: MinedBlock): void {
    this.sweep();
    this._push("blocks", hex(block.hash()));
    const n = block.header.number;
    for (const f of this._filters.values()) {
      if (f.kind !== "logs" || f.criteria === undefined) continue;
      if ((f.from !== undefined && n < f.from) || (f.to !== undefined && n > f.to)) continue;
      f.queue.push(...blockLogs(block, receipts, f.criteria));
    }
  }
}
