/**
 * The transaction pool: per sender, `pending` holds the transactions whose nonces follow the
 * account's nonce without a gap; `queued` holds those behind a gap (geth's model; Evmos refuses gaps).
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex } from "@ethereumjs/util";
import { DEFAULT_POOL_LIMITS, type TxPoolLimits } from "../base/config";

export interface PooledTx {
  tx: TypedTransaction;
  hash: string;
  sender: string;
  /** Arrival order, for FIFO mining and stable ordering. */
  seq: number;
}

export class TxPoolError extends Error {}

/**
 * Pool limits, geth's (core/txpool/legacypool) defaults. `globalPending` bounds the executable
 * transactions (the next nonce onward, no gap) the pool admits; `accountSlots` is each sender's
 * floor of executable slots once that bound is reached (taken from the sender holding the most);
 * `globalQueued` and `accountQueued` bound the future ones (behind a nonce gap) only; `priceBump`
 * is the percentage a replacement must raise both its max fee and its tip by.
 */
/** The pool as readers see it (`Node.pool`): nothing that changes it. */
export type TxPoolView = Pick<TxPool, "size" | "get" | "nextNonce" | "ordered" | "pending" | "queued">;

/** Max fee the sender offers per gas (legacy gasPrice or 1559 maxFeePerGas). */
export function maxFeeOf(tx: TypedTransaction): bigint {
  return "maxFeePerGas" in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
}

/** Tip the block producer gets per gas at `baseFee`. */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint): bigint {
  if ("maxFeePerGas" in tx) {
    const room = tx.maxFeePerGas - baseFee;
    return room < tx.maxPriorityFeePerGas ? room : tx.maxPriorityFeePerGas;
  }
  return (tx as { gasPrice: bigint }).gasPrice - baseFee;
}

export class TxPool {
  private _pending = new Map<string, PooledTx[]>();
  private _queued = new Map<string, Map<bigint, PooledTx>>();
  private _byHash = new Map<string, PooledTx>();
  private _seq = 0;

  readonly limits: TxPoolLimits;

  constructor(limits: Partial<TxPoolLimits> = {}) {
    this.limits = { ...DEFAULT_POOL_LIMITS, ...limits };
  }

  /** Kept as transactions come and go: every add asks for it (the pool limits), so it must not walk every sender. */
  private _count = { pending: 0, queued: 0 };

  get size(): { pending: number; queued: number } {
    return { ...this._count };
  }

  /** Runs `change` on `sender`'s transactions and moves the counts by what it changed there. */
  private _counted<T>(sender: string, change: () => T): T {
    const before = this._senderCounts(sender);
    try {
      return change();
    } finally {
      const after = this._senderCounts(sender);
      this._count.pending += after.pending - before.pending;
      this._count.queued += after.queued - before.queued;
    }
  }

  private _senderCounts(sender: string): { pending: number; queued: number } {
    return { pending: this._pending.get(sender)?.length ?? 0, queued: this._queued.get(sender)?.size ?? 0 };
  }

  get(hash: string): PooledTx | undefined {
    return this._byHash.get(hash);
  }

  /** The nonce the sender's next transaction would take, given its account nonce. */
  nextNonce(sender: string, accountNonce: bigint): bigint {
    const list = this._pending.get(sender);
    return list === undefined || list.length === 0 ? accountNonce : list[list.length - 1].tx.nonce + 1n;
  }

  /**
   * Adds a transaction; answers whether it is executable now ("pending": the sender's next nonce,
   * counting what the pool already holds) or waits behind a nonce gap ("queued"). The transaction
   * that fills a gap is admitted as any executable one is, and promotes what waited behind it. A
   * transaction with a nonce the pool holds replaces it when it raises both fees by `priceBump`%.
   * Only future transactions count against the queue limits; when the future queue is full, the
   * cheapest future transaction leaves for one that pays more.
   */
  add(tx: TypedTransaction, sender: string, accountNonce: bigint): "pending" | "queued" {
    return this._counted(sender, () => this._add(tx, sender, accountNonce));
  }

  private _add(tx: TypedTransaction, sender: string, accountNonce: bigint): "pending" | "queued" {
    if (tx.nonce < accountNonce) throw new TxPoolError(`nonce too low: address ${sender}, tx: ${tx.nonce} state: ${accountNonce}`);
    const hash = bytesToHex(tx.hash());
    if (this._byHash.has(hash)) throw new TxPoolError(`known transaction: ${hash.slice(2)}`);
    const entry: PooledTx = { tx, hash, sender, seq: this._seq++ };
    const pending = this._pending.get(sender) ?? [];
    const first = pending.length === 0 ? accountNonce : pending[0].tx.nonce;
    const expected = first + BigInt(pending.length);
    if (tx.nonce >= first && tx.nonce < expected) {
      const idx = Number(tx.nonce - first);
      this._replace(pending[idx], entry);
      pending[idx] = entry;
      return "pending";
    }
    const old = this._queued.get(sender)?.get(tx.nonce);
    if (old !== undefined) {
      this._replace(old, entry);
      this._queued.get(sender)?.set(tx.nonce, entry);
      return "queued";
    }
    if (tx.nonce === expected) {
      this._roomForExecutable(sender, pending.length);
      this._byHash.set(hash, entry);
      pending.push(entry);
      this._pending.set(sender, pending);
      this._promote(sender);
      return "pending";
    }
    this._roomForFuture(tx, sender, expected);
    this._byHash.set(hash, entry);
    const queued = this._queued.get(sender) ?? new Map<bigint, PooledTx>();
    queued.set(tx.nonce, entry);
    this._queued.set(sender, queued);
    return "queued";
  }

  /**
   * Pending transactions in mining order: by tip (priority) or arrival (fifo), each sender's in nonce
   * order. The senders' next transactions wait in a heap, so a pool of n transactions from s senders
   * is ordered in O(n log s).
   */
  ordered(baseFee: bigint, order: "priority" | "fifo"): PooledTx[] {
    const tip = new Map<PooledTx, bigint>();
    const tipOf = (p: PooledTx): bigint => {
      let t = tip.get(p);
      if (t === undefined) tip.set(p, (t = effectiveTip(p.tx, baseFee)));
      return t;
    };
    const better = (a: PooledTx, b: PooledTx): boolean => {
      if (order === "priority") {
        const ta = tipOf(a);
        const tb = tipOf(b);
        if (ta !== tb) return ta > tb;
      }
      return a.seq < b.seq;
    };
    const heap = new Heap<{ list: PooledTx[]; i: number }>((x, y) => better(x.list[x.i], y.list[y.i]));
    for (const list of this._pending.values()) if (list.length > 0) heap.push({ list, i: 0 });
    const out: PooledTx[] = [];
    for (let h = heap.pop(); h !== undefined; h = heap.pop()) {
      out.push(h.list[h.i++]);
      if (h.i < h.list.length) heap.push(h);
    }
    return out;
  }

  pending(): PooledTx[] {
    return [...this._pending.values()].flat();
  }

  queued(): PooledTx[] {
    return [...this._queued.values()].flatMap((m) => [...m.values()]);
  }

  /** Drops a transaction (one that cannot be mined); later nonces of its sender wait behind the gap. */
  remove(hash: string): void {
    const e = this._byHash.get(hash);
    if (e === undefined) return;
    this._counted(e.sender, () => this._remove(e));
  }

  /** A pending transaction takes the later ones of its sender back behind the gap it leaves; a queued one leaves alone. */
  private _remove(e: PooledTx): void {
    this._byHash.delete(e.hash);
    const queued = this._queued.get(e.sender);
    if (queued?.get(e.tx.nonce) === e) {
      queued.delete(e.tx.nonce);
      if (queued.size === 0) this._queued.delete(e.sender);
      return;
    }
    const list = this._pending.get(e.sender);
    if (list === undefined || list.length === 0) return;
    const base = list[0].tx.nonce;
    this._pending.set(
      e.sender,
      list.filter((p) => p !== e),
    );
    this._rebuild(e.sender, base);
  }

  /** After a block: drops transactions below each sender's new nonce and promotes queued ones. */
  async update(accountNonce: (sender: string) => Promise<bigint>): Promise<void> {
    const senders = new Set([...this._pending.keys(), ...this._queued.keys()]);
    for (const s of senders) {
      const nonce = await accountNonce(s);
      this._counted(s, () => this._rebuild(s, nonce));
    }
  }

  /** Re-splits a sender's transactions: the gap-free run from `nonce` is pending, the rest queued. */
  private _rebuild(sender: string, nonce: bigint): void {
    const all = new Map<bigint, PooledTx>();
    for (const p of this._pending.get(sender) ?? []) all.set(p.tx.nonce, p);
    for (const p of this._queued.get(sender)?.values() ?? []) all.set(p.tx.nonce, p);
    this._pending.delete(sender);
    this._queued.delete(sender);
    for (const [n, p] of all) {
      if (n < nonce) {
        all.delete(n);
        this._byHash.delete(p.hash);
      }
    }
    const list: PooledTx[] = [];
    for (let n = nonce; all.has(n); n++) {
      list.push(all.get(n) as PooledTx);
      all.delete(n);
    }
    if (list.length > 0) this._pending.set(sender, list);
    if (all.size > 0) this._queued.set(sender, all);
  }

  clear(): void {
    this._pending.clear();
    this._queued.clear();
    this._byHash.clear();
    this._count = { pending: 0, queued: 0 };
  }

  snapshot(): PooledTx[] {
    return [...this._byHash.values()];
  }

  restore(entries: PooledTx[], accountNonce: (sender: string) => Promise<bigint>): Promise<void> {
    this.clear();
    for (const e of entries) {
      this._byHash.set(e.hash, e);
      const q = this._queued.get(e.sender) ?? new Map<bigint, PooledTx>();
      q.set(e.tx.nonce, e);
      this._queued.set(e.sender, q);
      this._count.queued++;
    }
    return this.update(accountNonce);
  }

  private _promote(sender: string): void {
    const q = this._queued.get(sender);
    if (q === undefined) return;
    const list = this._pending.get(sender) ?? [];
    if (list.length === 0) return;
    let next = list[list.length - 1].tx.nonce + 1n;
    while (q.has(next)) {
      list.push(q.get(next) as PooledTx);
      q.delete(next);
      next++;
    }
    if (list.length > 0) this._pending.set(sender, list);
    if (q.size === 0) this._queued.delete(sender);
  }

  /**
   * Room for a new executable transaction of `sender` (which has `senderPending` of them). Past
   * `globalPending`, a sender under its `accountSlots` floor still gets in: the sender holding the
   * most executable transactions beyond the floor gives up its last one (geth's fairness rule).
   */
  private _roomForExecutable(sender: string, senderPending: number): void {
    if (this._count.pending < this.limits.globalPending) return;
    const full = `txpool is full: ${this._count.pending} executable transactions wait to be mined (the limit is ${this.limits.globalPending})`;
    if (senderPending >= this.limits.accountSlots) {
      throw new TxPoolError(`${full} and account ${sender} already has ${senderPending} of them (each account is sure of ${this.limits.accountSlots})`);
    }
    let biggest: PooledTx[] | undefined;
    for (const list of this._pending.values()) {
      if (list.length > this.limits.accountSlots && (biggest === undefined || list.length > biggest.length)) biggest = list;
    }
    if (biggest === undefined) throw new TxPoolError(full);
    const last = biggest[biggest.length - 1];
    this._counted(last.sender, () => this._remove(last));
  }

  /**
   * Room for a new future transaction of `sender`, whose next executable nonce is `gap`. The
   * sender's own limit refuses; past the pool's, the cheapest future transaction (max fee, then tip;
   * the farthest nonce among equals) leaves when the new one pays more.
   */
  private _roomForFuture(tx: TypedTransaction, sender: string, gap: bigint): void {
    const senderQueued = this._queued.get(sender)?.size ?? 0;
    if (senderQueued >= this.limits.accountQueued) {
      throw new TxPoolError(`txpool is full: account ${sender} already has ${senderQueued} transactions waiting behind a nonce gap (the limit is ${this.limits.accountQueued})`);
    }
    if (this._count.queued < this.limits.globalQueued) return;
    const cheapest = this._cheapestQueued();
    if (cheapest === undefined || !pricier(tx, cheapest.tx)) {
      throw new TxPoolError(
        `txpool is full: ${this._count.queued} transactions wait behind nonce gaps (the limit is ${this.limits.globalQueued}) and none pays less than this one; send nonce ${gap} of ${sender} first, or pay more`,
      );
    }
    // the sender's own counts are kept by add's `_counted`; another sender's by its own
    if (cheapest.sender === sender) this._remove(cheapest);
    else this._counted(cheapest.sender, () => this._remove(cheapest));
  }

  private _cheapestQueued(): PooledTx | undefined {
    let cheapest: PooledTx | undefined;
    for (const q of this._queued.values()) {
      for (const p of q.values()) {
        if (cheapest === undefined || pricier(cheapest.tx, p.tx) || (!pricier(p.tx, cheapest.tx) && p.tx.nonce > cheapest.tx.nonce)) cheapest = p;
      }
    }
    return cheapest;
  }

  /** geth's replacement rule: both the max fee and the tip rise by at least `priceBump` percent. */
  private _replace(old: PooledTx, entry: PooledTx): void {
    const bump = BigInt(100 + this.limits.priceBump);
    const oldFee = maxFeeOf(old.tx);
    const oldTip = tipCapOf(old.tx);
    const minFee = max((oldFee * bump) / 100n, oldFee + 1n);
    const minTip = max((oldTip * bump) / 100n, oldTip + 1n);
    if (maxFeeOf(entry.tx) < minFee || tipCapOf(entry.tx) < minTip) {
      throw new TxPoolError(
        `replacement transaction underpriced: nonce ${old.tx.nonce} of ${old.sender} is taken by a transaction paying ${oldFee} per gas (max fee) and ${oldTip} (tip); a replacement pays at least ${this.limits.priceBump}% more of both: ${minFee} and ${minTip}`,
      );
    }
    this._byHash.delete(old.hash);
    this._byHash.set(entry.hash, entry);
  }
}

/** The most a transaction tips per gas (a legacy one: its whole gas price). */
function tipCapOf(tx: TypedTransaction): bigint {
  return "maxPriorityFeePerGas" in tx ? tx.maxPriorityFeePerGas : maxFeeOf(tx);
}

/** Whether `a` pays more than `b`: max fee first, then tip. */
function pricier(a: TypedTransaction, b: TypedTransaction): boolean {
  const fa = maxFeeOf(a);
  const fb = maxFeeOf(b);
  return fa !== fb ? fa > fb : tipCapOf(a) > tipCapOf(b);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** A binary heap: `first(a, b)` when a comes out before b. */
class Heap<T> {
  private _items: T[] = [];

  constructor(private readonly _first: (a: T, b: T) => boolean) {}

  push(item: T): void {
    const a = this._items;
    a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (!this._first(a[i], a[up])) break;
      [a[i], a[up]] = [a[up], a[i]];
      i = up;
    }
  }

  pop(): T | undefined {
    const a = this._items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this._first(a[l], a[m])) m = l;
      if (r < a.length && this._first(a[r], a[m])) m = r;
      if (m === i) break;
      [a[i], a[m]] = [a[m], a[i]];
      i = m;
    }
    return top;
  }
}
