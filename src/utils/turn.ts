/**
 * Fair turns on one thread: the node serves every client from one event loop, so long work (EVM code,
 * a long hardhat_mine, a trace over many blocks) asks here whether it has run long enough without
 * giving the loop a turn, and waits for one when it has (docs/security.md, "Bounded work").
 */

/**
 * How long EVM code may run before it gives the event loop a turn. The node serves every client on
 * one thread: without turns one long call (a loop until its gas runs out) would hold every other
 * request, and the HTTP timeout, until it ended (docs/security.md, "Bounded work").
 */
const TURN_MS = 20;
/** When the current stretch of work began: the first check after the event loop last turned. */
let workStart = 0;
/** True while a stretch of work is being timed; a callback that runs once the loop turns clears it. */
let timing = false;
const loopTurned = (): void => {
  timing = false;
};

/**
 * A turn for the event loop when the node has worked TURN_MS without one; undefined when none is due.
 * A stretch starts at the first check after the loop last turned (a request's execution), so short
 * work that the loop interleaves anyway never waits for a turn of its own.
 */
export function turnIfDue(): Promise<void> | undefined {
  const now = Date.now();
  if (!timing) {
    timing = true;
    workStart = now;
    setImmediate(loopTurned);
    return undefined;
  }
  if (now - workStart <= TURN_MS) return undefined;
  return new Promise<void>((resolve) =>
    setImmediate(() => {
      timing = false;
      resolve();
    }),
  );
}
