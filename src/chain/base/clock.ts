/**
 * Block time as Hardhat's node keeps it: wall clock plus an offset that tests move
 * (evm_increaseTime), and a one-shot timestamp for the next block (evm_setNextBlockTimestamp).
 * Epochs read block time only, so this clock is the single source of time for the chain.
 */
export class Clock {
  /** Seconds added to the wall clock. */
  offset = 0n;
  /** Timestamp the next block must have, set by evm_setNextBlockTimestamp. */
  next: bigint | undefined;

  constructor(private readonly _now: () => number = Date.now) {}

  nowSeconds(): bigint {
    return BigInt(Math.floor(this._now() / 1000)) + this.offset;
  }

  increase(seconds: bigint): bigint {
    this.offset += seconds;
    return this.offset;
  }

  /** Sets the wall-clock offset so that "now" is `seconds` (evm_setTime-like; used when a block is forced to a time). */
  jumpTo(seconds: bigint): void {
    this.offset = seconds - BigInt(Math.floor(this._now() / 1000));
  }

  /**
   * The timestamp of the next block after a parent at `parentTimestamp`: the pending one-shot value,
   * else now, kept strictly after the parent unless equal timestamps are allowed.
   */
  nextTimestamp(parentTimestamp: bigint, allowSame: boolean): bigint {
    if (this.next !== undefined) return this.next;
    const now = this.nowSeconds();
    const min = earliestTimestamp(parentTimestamp, allowSame);
    return now > min ? now : min;
  }

  /** Called once a block with `timestamp` is mined: consumes the one-shot value and keeps time moving from there. */
  didMine(timestamp: bigint): void {
    if (this.next !== undefined) {
      this.next = undefined;
      this.jumpTo(timestamp);
    }
  }

  snapshot(): { offset: bigint; next: bigint | undefined } {
    return { offset: this.offset, next: this.next };
  }

  restore(s: { offset: bigint; next: bigint | undefined }): void {
    this.offset = s.offset;
    this.next = s.next;
  }
}

/** The clock as readers see it (`Node.clock`): its time and offset, nothing that moves it. */
export interface ClockReading {
  readonly offset: bigint;
  readonly next: bigint | undefined;
  nowSeconds(): bigint;
}

/** The earliest timestamp a block after one at `previous` may have: the same only when allowed. */
function earliestTimestamp(previous: bigint, allowSame: boolean): bigint {
  return allowSame ? previous : previous + 1n;
}

/** `at`, or the earliest timestamp a block after one at `previous` may have when `at` is not later (evm_mine's `{ notBefore }`). */
export function notBefore(at: bigint, previous: bigint, allowSame: boolean): bigint {
  const earliest = earliestTimestamp(previous, allowSame);
  return at > earliest ? at : earliest;
}

/**
 * Why a block may not have timestamp `ts` after a block at `previous` (undefined: it may), in
 * Hardhat's (EDR's) words: it may not go back in time, nor stand still unless allowBlocksWithSameTimestamp is set.
 */
export function timestampRefusal(ts: bigint, previous: bigint, allowSame: boolean): string | undefined {
  if (ts < previous) return `Timestamp ${ts} is lower than the previous block's timestamp ${previous}`;
  if (ts === previous && !allowSame) return `Timestamp ${ts} is equal to the previous block's timestamp. Enable the 'allowBlocksWithSameTimestamp' option to allow this`;
  return undefined;
}
