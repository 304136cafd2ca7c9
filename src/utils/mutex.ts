/** A FIFO async mutex: requests and mining run one at a time, as on Hardhat's node. */
export class Mutex {
  private _tail: Promise<unknown> = Promise.resolve();

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this._tail.then(fn, fn);
    this._tail = run.catch(() => undefined);
    return run;
  }
}
