/**
 * BeginBlocker / EndBlocker under the two tick rules of DESIGN:
 *
 * - "spec" (default): the two-phase design of spec §3.1 — an epoch ends in the end-block of the
 *   first block at or after its end time (and after its start block), the next starts in the
 *   begin-block of a later block at that block's time; AfterEpochEnd gets the ending number.
 * - "evmos": Evmos's code exactly (refs/epochs-reference.md §2, §6, §8) — everything in begin-block,
 *   strict `>`, start times on the grid, n+1 passed to AfterEpochEnd, which still sees the old record.
 *
 * Records are visited in identifier-byte order over a copy taken when the phase starts, so changes
 * made by hooks are seen from the next phase on. Events carry the rule's attributes plus `identifier`.
 */
import type { BlockContext } from "../chain/module";
import { type EpochInfo, NANOS, fromNanos, seconds, toNanos } from "./epoch-info";
import type { EpochsKeeper } from "./epochs-keeper";

export type TickRule = "spec" | "evmos";

/** The hook interface of x/epochs; implementations are isolated by the caller (MultiEpochHooks). */
export interface EpochHooks {
  afterEpochEnd(ctx: BlockContext, identifier: string, epochNumber: bigint): Promise<void> | void;
  beforeEpochStart(ctx: BlockContext, identifier: string, epochNumber: bigint): Promise<void> | void;
}

function startEvent(info: EpochInfo, startSeconds: bigint) {
  return {
    type: "epoch_start",
    attributes: [
      { key: "epoch_number", value: info.currentEpoch.toString() },
      { key: "start_time", value: startSeconds.toString() },
      { key: "identifier", value: info.identifier },
    ],
  };
}

function endEvent(identifier: string, epochNumber: bigint) {
  return {
    type: "epoch_end",
    attributes: [
      { key: "epoch_number", value: epochNumber.toString() },
      { key: "identifier", value: identifier },
    ],
  };
}

/** Unix seconds of a time, rounded toward −∞ (Evmos's `start_time` attribute). */
function floorSeconds(nanos: bigint): bigint {
  return fromNanos(nanos).seconds;
}

export async function beginBlocker(ctx: BlockContext, keeper: EpochsKeeper, hooks: EpochHooks, rule: TickRule): Promise<void> {
  const snapshot = keeper.allEpochInfos();
  const t = ctx.timestamp;
  const tn = t * NANOS;
  for (const info of snapshot) {
    const start = toNanos(info.startTime);
    if (rule === "spec") {
      const initial = !info.epochCountingStarted && tn >= start;
      const next = info.epochCountingStarted && keeper.isEnded(info.identifier);
      if (!initial && !next) continue;
      const updated: EpochInfo = {
        ...info,
        epochCountingStarted: true,
        currentEpoch: initial ? 1n : info.currentEpoch + 1n,
        currentEpochStartTime: seconds(t),
        currentEpochStartHeight: ctx.height,
      };
      keeper.setEpochInfo(updated);
      keeper.setEnded(info.identifier, false);
      ctx.emit(startEvent(updated, t));
      await hooks.beforeEpochStart(ctx, info.identifier, updated.currentEpoch);
      continue;
    }
    // Evmos: an initial start, or a tick strictly after the current epoch's nominal end
    const initial = !info.epochCountingStarted && start <= tn;
    const tick = !initial && tn > toNanos(info.currentEpochStartTime) + toNanos(info.duration) && start <= tn;
    if (!initial && !tick) continue;
    const updated: EpochInfo = { ...info, currentEpochStartHeight: ctx.height };
    if (initial) {
      updated.epochCountingStarted = true;
      updated.currentEpoch = 1n;
      updated.currentEpochStartTime = info.startTime;
    } else {
      updated.currentEpoch = info.currentEpoch + 1n;
      updated.currentEpochStartTime = fromNanos(toNanos(info.currentEpochStartTime) + toNanos(info.duration));
      ctx.emit(endEvent(info.identifier, updated.currentEpoch));
      // Evmos passes the new number and runs the hook before the store write
      await hooks.afterEpochEnd(ctx, info.identifier, updated.currentEpoch);
    }
    keeper.setEpochInfo(updated);
    ctx.emit(startEvent(updated, floorSeconds(toNanos(updated.currentEpochStartTime))));
    await hooks.beforeEpochStart(ctx, info.identifier, updated.currentEpoch);
  }
}

export async function endBlocker(ctx: BlockContext, keeper: EpochsKeeper, hooks: EpochHooks, rule: TickRule): Promise<void> {
  if (rule === "evmos") return; // Evmos's module has no end-block work
  const snapshot = keeper.allEpochInfos();
  const tn = ctx.timestamp * NANOS;
  for (const info of snapshot) {
    if (!info.epochCountingStarted || keeper.isEnded(info.identifier)) continue;
    if (ctx.height <= info.currentEpochStartHeight) continue; // an epoch spans at least two blocks
    if (tn < toNanos(info.currentEpochStartTime) + toNanos(info.duration)) continue;
    keeper.setEnded(info.identifier, true);
    ctx.emit(endEvent(info.identifier, info.currentEpoch));
    await hooks.afterEpochEnd(ctx, info.identifier, info.currentEpoch);
  }
}
