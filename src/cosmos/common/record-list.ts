/**
 * A list of strings kept as module records (src/chain/base/records.ts), one record per item plus its
 * length: appending writes two records whatever the length, where a list in one record would be
 * read and rewritten whole. Reading or clearing it reads every item (for the work that is due on
 * all of them: a tally reads every vote, a refund every deposit).
 */
import type { MeteredRecords } from "./records";

export class RecordList {
  constructor(
    private readonly _r: MeteredRecords,
    private readonly _name: string,
  ) {}

  async length(): Promise<number> {
    return (await this._r.get<number>(`${this._name}/n`)) ?? 0;
  }

  async append(item: string): Promise<void> {
    const n = await this.length();
    await this._r.put(`${this._name}/${n}`, item);
    await this._r.put(`${this._name}/n`, n + 1);
  }

  async items(): Promise<string[]> {
    const out: string[] = [];
    const n = await this.length();
    for (let i = 0; i < n; i++) {
      const item = await this._r.get<string>(`${this._name}/${i}`);
      if (item !== undefined) out.push(item);
    }
    return out;
  }

  /** Removes every item; returns them. */
  async clear(): Promise<string[]> {
    const out = await this.items();
    for (let i = 0; i < out.length; i++) await this._r.put(`${this._name}/${i}`, undefined);
    if (out.length > 0) await this._r.put(`${this._name}/n`, undefined);
    return out;
  }
}
