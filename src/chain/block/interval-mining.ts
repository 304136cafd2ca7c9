/**
 * Interval mining: a block every `intervalMs` (or a random time within a range), mined as the node's
 * other changes are, inside its lock. A failed block is reported and the next interval tries again.
 */

interface IntervalMinerDeps {
  /** The interval now (settings change at runtime: evm_setIntervalMining); 0 = off. */
  interval(): number | [number, number];
  /** Mines one block unless mining is paused; takes the node's lock itself. */
  mine(): Promise<void>;
  onError(err: Error): void;
}

export class IntervalMiner {
  private _timer: NodeJS.Timeout | undefined;

  constructor(private readonly _deps: IntervalMinerDeps) {}

  /** (Re)arms the timer from the current interval; 0 turns it off. */
  arm(): void {
    this.stop();
    const iv = this._deps.interval();
    const ms = Array.isArray(iv) ? iv[0] + Math.floor(Math.random() * (iv[1] - iv[0] + 1)) : iv;
    if (ms <= 0) return;
    this._timer = setTimeout(() => {
      void this._deps
        .mine()
        // reported, not swallowed; the next interval tries again (a failed block leaves nothing behind)
        .catch((err: unknown) => this._deps.onError(err instanceof Error ? err : new Error(String(err))))
        .finally(() => {
          if (this._timer !== undefined) this.arm();
        });
    }, ms);
    this._timer.unref();
  }

  stop(): void {
    if (this._timer !== undefined) clearTimeout(this._timer);
    this._timer = undefined;
  }
}
