/**
 * An index of members ordered by a key, kept as module records (src/chain/base/records.ts): a binary
 * min-heap, one record per entry plus one per member's position, so the block work reads what is
 * due (the first entry, and the next while they are due) and a change costs O(log n) records of
 * bounded size, however many members there are. It stands where the SDK's stores iterate a prefix
 * in key order (x/staking's power index and maturity queues, x/gov's proposal queues by end time):
 * this chain's records are named values with no iteration, so the order is kept here instead.
 *
 * Keys are tuples of bigints compared in order; members are unique strings (compared
 * case-insensitively, as addresses are).
 */
import type { MeteredRecords } from "./records";

export interface HeapEntry {
  member: string;
  key: bigint[];
}

/** Tuple order: the first differing element decides; a shorter prefix comes first. */
export function compareKeys(a: readonly bigint[], b: readonly bigint[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

export class RecordHeap {
  constructor(
    private readonly _r: MeteredRecords,
    private readonly _name: string,
  ) {}

  private _at = (i: number): string => `${this._name}/${i}`;
  private _pos = (member: string): string => `${this._name}/at/${member.toLowerCase()}`;

  async size(): Promise<number> {
    return (await this._r.get<number>(`${this._name}/n`)) ?? 0;
  }

  private _setSize(n: number): Promise<void> {
    return this._r.put(`${this._name}/n`, n === 0 ? undefined : n);
  }

  /** The entry with the smallest key, or undefined when the heap is empty. */
  async peek(): Promise<HeapEntry | undefined> {
    return this._r.get<HeapEntry>(this._at(0));
  }

  async has(member: string): Promise<boolean> {
    return (await this._r.get<number>(this._pos(member))) !== undefined;
  }

  /** Adds `member` at `key`, or moves it there when it is already in. */
  async push(member: string, key: bigint[]): Promise<void> {
    if (await this.has(member)) await this.remove(member);
    const n = await this.size();
    await this._setSize(n + 1);
    await this._siftUp(n, { member, key });
  }

  /** Removes and returns the smallest entry. */
  async pop(): Promise<HeapEntry | undefined> {
    const top = await this.peek();
    if (top !== undefined) await this.remove(top.member);
    return top;
  }

  /** Removes `member`; false when it was not in. */
  async remove(member: string): Promise<boolean> {
    const i = await this._r.get<number>(this._pos(member));
    if (i === undefined) return false;
    const n = (await this.size()) - 1;
    await this._r.put(this._pos(member), undefined);
    await this._setSize(n);
    if (i === n) {
      await this._r.put(this._at(n), undefined);
      return true;
    }
    const last = (await this._r.get<HeapEntry>(this._at(n))) as HeapEntry;
    await this._r.put(this._at(n), undefined);
    // the last entry fills the hole, then moves up or down to its place
    const parent = i > 0 ? await this._r.get<HeapEntry>(this._at((i - 1) >> 1)) : undefined;
    if (parent !== undefined && compareKeys(last.key, parent.key) < 0) await this._siftUp(i, last);
    else await this._siftDown(i, last, n);
    return true;
  }

  /** Every entry, in no particular order (for queries and state checks, never for block work). */
  async entries(): Promise<HeapEntry[]> {
    const out: HeapEntry[] = [];
    const n = await this.size();
    for (let i = 0; i < n; i++) {
      const e = await this._r.get<HeapEntry>(this._at(i));
      if (e !== undefined) out.push(e);
    }
    return out;
  }

  private async _place(i: number, e: HeapEntry): Promise<void> {
    await this._r.put(this._at(i), e);
    await this._r.put(this._pos(e.member), i);
  }

  private async _siftUp(i: number, e: HeapEntry): Promise<void> {
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = (await this._r.get<HeapEntry>(this._at(p))) as HeapEntry;
      if (compareKeys(parent.key, e.key) <= 0) break;
      await this._place(i, parent);
      i = p;
    }
    await this._place(i, e);
  }

  private async _siftDown(i: number, e: HeapEntry, n: number): Promise<void> {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const left = (await this._r.get<HeapEntry>(this._at(l))) as HeapEntry;
      const right = l + 1 < n ? await this._r.get<HeapEntry>(this._at(l + 1)) : undefined;
      const [c, child] = right !== undefined && compareKeys(right.key, left.key) < 0 ? [l + 1, right] : [l, left];
      if (compareKeys(e.key, child.key) <= 0) break;
      await this._place(i, child);
      i = c;
    }
    await this._place(i, e);
  }
}
