/**
 * What the last flushes of a state manager changed, so that moving back to an older state root
 * (evm_revert, loadFixture, debug_setHead) corrects only the cached entries those flushes wrote
 * and leaves every other cached account and slot warm. EthereumJS's `setStateRoot` empties all its
 * caches instead, and the next transaction then reads everything it touches again.
 *
 * Each record is one flush: the state root before and after it and the keys it wrote (accounts,
 * slots, codes, as the caches name them: unprefixed hex). The records form a chain (each starts
 * where the last ended); anything that moved the root otherwise breaks the chain and the journal
 * starts over, so a root it cannot reach through its own records is never trusted. The journal keeps
 * at most `maxKeys` keys; the oldest records go first.
 */
import { equalsBytes } from "@ethereumjs/util";

/** The keys one or more flushes wrote, as the caches name them. */
export interface ChangedKeys {
  accounts: Set<string>;
  /** Address → slots. */
  slots: Map<string, Set<string>>;
  codes: Set<string>;
}

export interface FlushRecord {
  before: Uint8Array;
  after: Uint8Array;
  accounts: string[];
  /** [address, slot] pairs. */
  slots: [string, string][];
  codes: string[];
}

function size(r: FlushRecord): number {
  return r.accounts.length + r.slots.length + r.codes.length;
}

export class FlushJournal {
  private _records: FlushRecord[] = [];
  private _keys = 0;

  constructor(readonly maxKeys = 16_384) {}

  /** Records one flush that moved the root from `before` to `after`. */
  record(r: FlushRecord): void {
    if (equalsBytes(r.before, r.after)) return;
    const last = this._records.at(-1);
    if (last !== undefined && !equalsBytes(last.after, r.before)) this.reset();
    if (size(r) > this.maxKeys) return this.reset();
    this._records.push(r);
    this._keys += size(r);
    while (this._keys > this.maxKeys) this._keys -= size(this._records.shift() as FlushRecord);
  }

  /** Forgets every record: no older root can be reached warm until the next flushes. */
  reset(): void {
    this._records = [];
    this._keys = 0;
  }

  /**
   * The keys that may differ between the states at roots `a` and `b` (either may be the older), or
   * undefined when the records do not lead from one to the other. Changes nothing.
   */
  between(a: Uint8Array, b: Uint8Array): ChangedKeys | undefined {
    const span = this._span(a, b);
    return span === undefined ? undefined : this._union(span.from, span.to);
  }

  /**
   * Moving the recording state manager back from `current` (where its records end) to `target`:
   * `between(current, target)`, and the records after `target` are dropped (the state is going
   * back to before them). Undefined, and every record forgotten, when the records do not lead back
   * to `target`: the caller must then treat every cached entry as stale.
   */
  rewind(current: Uint8Array, target: Uint8Array): ChangedKeys | undefined {
    if (equalsBytes(current, target)) return this._union(0, 0);
    const last = this._records.at(-1);
    const span = last !== undefined && equalsBytes(last.after, current) ? this._span(current, target) : undefined;
    if (span === undefined || span.to !== this._records.length) {
      this.reset();
      return undefined;
    }
    const changed = this._union(span.from, span.to);
    for (const dropped of this._records.splice(span.from)) this._keys -= size(dropped);
    return changed;
  }

  /**
   * Records [from, to) lead from one root to the other: the latest record starting at the older
   * root, the latest ending at the newer one after it. Any run of records between two states names
   * every key that differs between them.
   */
  private _span(a: Uint8Array, b: Uint8Array): { from: number; to: number } | undefined {
    if (equalsBytes(a, b)) return { from: 0, to: 0 };
    const r = this._records;
    for (let end = r.length - 1; end >= 0; end--) {
      const older = equalsBytes(r[end].after, a) ? b : equalsBytes(r[end].after, b) ? a : undefined;
      if (older === undefined) continue;
      for (let start = end; start >= 0; start--) if (equalsBytes(r[start].before, older)) return { from: start, to: end + 1 };
      return undefined;
    }
    return undefined;
  }

  private _union(from: number, to: number): ChangedKeys {
    const changed: ChangedKeys = { accounts: new Set(), slots: new Map(), codes: new Set() };
    for (const r of this._records.slice(from, to)) {
      for (const a of r.accounts) changed.accounts.add(a);
      for (const [a, k] of r.slots) {
        let keys = changed.slots.get(a);
        if (keys === undefined) changed.slots.set(a, (keys = new Set()));
        keys.add(k);
      }
      for (const a of r.codes) changed.codes.add(a);
    }
    return changed;
  }
}
