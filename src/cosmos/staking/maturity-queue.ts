/**
 * x/staking's unbonding and redelegation queues (the SDK's UBDQueue and RedelegationQueue, keyed by
 * completion time): every pending entry's maturity in one index (src/cosmos/common/record-heap.ts) by
 * completion time, then entry id, so the end block reads the entries that mature and one more.
 * A store written before the index kept them in one list (record "queue"); `carryLegacy` moves it
 * in, and reads fall back to it until then.
 */
import { getAddress } from "ethers/address";
import type { MeteredRecords } from "../common/records";
import { RecordHeap } from "../common/record-heap";

/** A pending maturity as a store written before the index kept it. */
interface LegacyQueueItem {
  time: bigint;
  delegator: string;
  validator: string;
  dst?: string;
}

/** An entry's pair: an unbonding's delegator and validator, or a redelegation's with its destination. */
interface Maturity {
  delegator: string;
  validator: string;
  dst?: string;
}

export class MaturityQueue {
  private readonly _heap: RecordHeap;

  constructor(private readonly _r: MeteredRecords) {
    this._heap = new RecordHeap(_r, "ubdQueue");
  }

  /** Queues an entry's maturity (its id is unique: the entry's unbonding id). */
  push(time: bigint, id: bigint, m: Maturity): Promise<void> {
    return this._heap.push(member(m, id), [time, id]);
  }

  /** The earliest completion time; `legacy`: the store still has the old list. */
  async next(legacy: boolean): Promise<bigint | undefined> {
    if (legacy) return (await this._r.get<LegacyQueueItem[]>("queue"))?.[0]?.time;
    return (await this._heap.peek())?.key[0];
  }

  /** Takes the first maturity due at `time`, if one is. */
  async popDue(time: bigint): Promise<Maturity | undefined> {
    const next = await this._heap.peek();
    if (next === undefined || next.key[0] > time) return undefined;
    await this._heap.pop();
    const [delegator, validator, dst] = next.member.split("/");
    return { delegator: getAddress(delegator), validator: getAddress(validator), ...(dst !== "" ? { dst: getAddress(dst) } : {}) };
  }

  /** Moves the old list's maturities into the index, in their order. */
  async carryLegacy(): Promise<void> {
    const legacy = (await this._r.get<LegacyQueueItem[]>("queue")) ?? [];
    for (const [i, item] of legacy.entries()) await this._heap.push(member(item, BigInt(i)), [item.time, BigInt(i)]);
    if (legacy.length > 0) await this._r.put("queue", undefined);
  }
}

/** A maturity's member in the index: delegator/validator/destination/entry id, lowercase. */
const member = (m: Maturity, id: bigint): string => [m.delegator, m.validator, m.dst ?? "", id.toString()].map((p) => p.toLowerCase()).join("/");
