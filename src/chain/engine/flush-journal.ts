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
   * The keys that may differ between the state at `current` and at `target`, found by walking the
   * records back from `current` to the latest flush that started at `target`; those records are
   * dropped (the state is going back to before them). Undefined when the records do not lead from
   * `target` to `current`: the caller must then treat every cached entry as stale. Target equal to
   * current changes nothing.
   */
  rewind(current: Uint8Array, target: Uint8Array): ChangedKeys | undefined {
    const changed: ChangedKeys = { accounts: new Set(), slots: new Map(), codes: new Set() };
    if (equalsBytes(current, target)) return changed;
    const last = this._records.at(-1);
    if (last === undefined || !equalsBytes(last.after, current)) {
      this.reset();
      return undefined;
    }
    for (let i = this._records.length - 1; i >= 0; i--) {
      const r = this._records[i];
      for (const a of r.accounts) changed.accounts.add(a);
      for (const [a, k] of r.slots) {
        let keys = changed.slots.get(a);
        if (keys === undefined) changed.slots.set(a, (keys = new Set()));
        keys.add(k);
      }
      for (const a of r.codes) changed.codes.add(a);
      if (equalsBytes(r.before, target)) {
        for (const dropped of this._records.splice(i)) this._keys -= size(dropped);
        return changed;
      }
    }
    this.reset();
    return undefined;
  }
}
