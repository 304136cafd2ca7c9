/**
 * The transaction pool: per sender, `pending` holds the transactions whose nonces follow the
 * account's nonce without a gap; `queued` holds those behind a gap (geth's model; Evmos refuses gaps).
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex } from "@ethereumjs/util";

export interface PooledTx {
  tx: TypedTransaction;
  hash: string;
  sender: string;
  /** Arrival order, for FIFO mining and stable ordering. */
  seq: number;
}

export class TxPoolError extends Error {}

/** The recorded sender of a pooled transaction (for an impersonated account, not what its signature recovers to). */
export function pooledSender(e: PooledTx): Uint8Array {
  return new Uint8Array(Buffer.from(e.sender.slice(2), "hex"));
}

/** Pool limits, with geth's defaults: 4096 + 1024 executable slots, 1024 future ones, 64 future per account. */
export interface TxPoolLimits {
  globalPending: number;
  globalQueued: number;
  accountQueued: number;
}

export const DEFAULT_POOL_LIMITS: TxPoolLimits = { globalPending: 5120, globalQueued: 1024, accountQueued: 64 };

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

  constructor(readonly limits: TxPoolLimits = DEFAULT_POOL_LIMITS) {}

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
   * Adds a transaction. Replaces one with the same sender and nonce when it pays more
   * (both fee fields strictly higher), like Hardhat. Returns "pending" or "queued".
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
    const idx = pending.findIndex((p) => p.tx.nonce === tx.nonce);
    if (idx >= 0) {
      this._replace(pending[idx], entry);
      pending[idx] = entry;
      return "pending";
    }
    const queued = this._queued.get(sender) ?? new Map<bigint, PooledTx>();
    const old = queued.get(tx.nonce);
    if (old !== undefined) {
      this._replace(old, entry);
      queued.set(tx.nonce, entry);
      return "queued";
    }
    const expected = pending.length === 0 ? accountNonce : pending[pending.length - 1].tx.nonce + 1n;
    this._checkRoom(sender, tx.nonce === expected, queued.size);
    this._byHash.set(hash, entry);
    if (tx.nonce === expected) {
      pending.push(entry);
      this._pending.set(sender, pending);
      this._promote(sender);
      return "pending";
    }
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

  private _remove(e: PooledTx): void {
    const hash = e.hash;
    const list = this._pending.get(e.sender);
    const base = list !== undefined && list.length > 0 ? list[0].tx.nonce : e.tx.nonce;
    this._byHash.delete(hash);
    this._pending.set(e.sender, (list ?? []).filter((p) => p !== e));
    this._queued.get(e.sender)?.delete(e.tx.nonce);
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

  /** geth's "txpool is full" when a new (not replacing) transaction finds no room. */
  private _checkRoom(sender: string, executable: boolean, senderQueued: number): void {
    const size = this.size;
    if (executable ? size.pending >= this.limits.globalPending : size.queued >= this.limits.globalQueued) throw new TxPoolError("txpool is full");
    if (!executable && senderQueued >= this.limits.accountQueued) {
      throw new TxPoolError(`txpool is full: account ${sender} already has ${senderQueued} transactions waiting behind a nonce gap (the limit is ${this.limits.accountQueued})`);
    }
  }

  private _replace(old: PooledTx, entry: PooledTx): void {
    const oldFee = maxFeeOf(old.tx);
    const newFee = maxFeeOf(entry.tx);
    const oldTip = "maxPriorityFeePerGas" in old.tx ? old.tx.maxPriorityFeePerGas : oldFee;
    const newTip = "maxPriorityFeePerGas" in entry.tx ? entry.tx.maxPriorityFeePerGas : newFee;
    if (newFee <= oldFee || newTip <= oldTip) {
      throw new TxPoolError(
        `replacement transaction underpriced: new transaction must pay more than ${oldFee} per gas (max fee) and ${oldTip} (tip)`,
      );
    }
    this._byHash.delete(old.hash);
    this._byHash.set(entry.hash, entry);
  }
}

/** A binary heap: `first(a, b)` when a comes out before b. */
class Heap<T> {
  private _items: T[] = [];

  constructor(private readonly _first: (a: T, b: T) => boolean) {}

  push(item: T): void {
    const a = this._items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
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
    for (let i = 0; ; ) {
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
