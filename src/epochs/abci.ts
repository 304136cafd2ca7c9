/**
 * BeginBlocker / EndBlocker under the two tick rules (docs/epochs.md, "Tick rules"):
 *
 * - "spec" (default), the two-phase rule: an epoch ends in the end-block of the first
 *   block at or after its end time that is later than its start block (ended mark set, `epoch_end`,
 *   AfterEpochEnd with the ending number); the next starts in the begin-block of a later block, at
 *   that block's time and height. Hooks see the store already written.
 * - "evmos", Evmos's begin-block code: everything in begin-block, strict
 *   `>`, start times on the grid, AfterEpochEnd gets n+1 and still sees the old record.
 * - "sdk", the Cosmos SDK's x/epochs BeginBlocker (x/epochs/keeper/abci.go): Evmos's timing, but the
 *   end event and AfterEpochEnd carry the ending number.
 *
 * Records are visited in identifier-byte order over a copy taken when the phase starts, so changes
 * hooks make are seen from the next phase on. A block moves each timer at most one step per phase.
 * Events are the profile's (EpochEvents): Evmos's plain `epoch_start`/`epoch_end` with the rule's
 * attributes plus `identifier` last, or the SDK's typed events.
 */
import type { BlockContext, ModuleEvent } from "../chain/base/module";
import type { EpochsKeeper } from "./keeper";
import { type EpochHooks, type EpochInfo, type TickRule, NANOS, floorSeconds, fromNanos, seconds, toNanos } from "./types";

export const EVENT_EPOCH_START = "epoch_start";
export const EVENT_EPOCH_END = "epoch_end";

function epochStartEvent(identifier: string, epochNumber: bigint, startSeconds: bigint): ModuleEvent {
  return {
    type: EVENT_EPOCH_START,
    attributes: [
      { key: "epoch_number", value: epochNumber.toString() },
      { key: "start_time", value: startSeconds.toString() },
      { key: "identifier", value: identifier },
    ],
  };
}

function epochEndEvent(identifier: string, epochNumber: bigint): ModuleEvent {
  return {
    type: EVENT_EPOCH_END,
    attributes: [
      { key: "epoch_number", value: epochNumber.toString() },
      { key: "identifier", value: identifier },
    ],
  };
}

/** The Cosmos SDK's typed events (x/epochs/types/events.pb.go), emitted through its event service. */
export const SDK_EVENT_EPOCH_START = "cosmos.epochs.v1beta1.EventEpochStart";
export const SDK_EVENT_EPOCH_END = "cosmos.epochs.v1beta1.EventEpochEnd";

/**
 * A typed event as the SDK's event service writes it: one attribute per field, sorted by key, each
 * value the field's proto3 JSON (an int64 is a quoted decimal: `"5"` with the quotes). The SDK's
 * messages carry no identifier.
 */
function typedEvent(type: string, fields: Record<string, bigint>): ModuleEvent {
  return {
    type,
    attributes: Object.keys(fields)
      .sort()
      .map((key) => ({ key, value: JSON.stringify(fields[key].toString()) })),
  };
}

/** How a profile writes the start and end of an epoch into the block's events. */
export interface EpochEvents {
  start(identifier: string, epochNumber: bigint, startSeconds: bigint): ModuleEvent;
  end(identifier: string, epochNumber: bigint): ModuleEvent;
}

export const EVMOS_EVENTS: EpochEvents = { start: epochStartEvent, end: epochEndEvent };
/**
 * The timers behind a block's typed epoch events (the SDK's carry no identifier), in the order the
 * module emits them: from the epoch infos after the block, each timer whose current epoch started at
 * `height` (in the store's order) ends its last epoch first unless this is its first, then starts the
 * next.
 */
export function typedEventTimers(infosAfter: readonly EpochInfo[], height: bigint): string[] {
  return infosAfter.filter((e) => e.epochCountingStarted && e.currentEpochStartHeight === height).flatMap((e) => (e.currentEpoch > 1n ? [e.identifier, e.identifier] : [e.identifier]));
}

export const SDK_EVENTS: EpochEvents = {
  start: (_identifier, epochNumber, startSeconds) => typedEvent(SDK_EVENT_EPOCH_START, { epoch_number: epochNumber, epoch_start_time: startSeconds }),
  end: (_identifier, epochNumber) => typedEvent(SDK_EVENT_EPOCH_END, { epoch_number: epochNumber }),
};

/**
 * The earliest block times (nanoseconds) at which a list of records can do anything: most blocks
 * fall before all of them, and then a phase skips the records (and their store lookups) entirely.
 * Computed once per list: an unchanged store hands back the same list (`readEpochInfos`).
 */
interface DueTimes {
  /** "spec" begin-block: the first start time of a timer not yet started (its ended marks aside). */
  specBegin: bigint;
  /** "spec" end-block: the first end time of a started epoch. */
  specEnd: bigint;
  /** "evmos" and "sdk" begin-block: the first time any record starts or ticks (the strict `>`: end + 1 ns). */
  evmosBegin: bigint;
}

const NEVER = 2n ** 127n;
const dueTimes = new WeakMap<object, DueTimes>();

function dueOf(infos: ReadonlyArray<Readonly<EpochInfo>>): DueTimes {
  let due = dueTimes.get(infos);
  if (due === undefined) {
    due = { specBegin: NEVER, specEnd: NEVER, evmosBegin: NEVER };
    for (const info of infos) {
      const start = toNanos(info.startTime);
      const end = toNanos(info.currentEpochStartTime) + toNanos(info.duration);
      const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
      if (!info.epochCountingStarted) {
        due.specBegin = min(due.specBegin, start);
        due.evmosBegin = min(due.evmosBegin, start);
      } else {
        due.specEnd = min(due.specEnd, end);
        due.evmosBegin = min(due.evmosBegin, end + 1n > start ? end + 1n : start);
      }
    }
    dueTimes.set(infos, due);
  }
  return due;
}

/**
 * The first block time (whole seconds) at which either phase has work under `rule`: a timer starts
 * or reaches its end. Blocks before it skip both phases (the early returns below), so a reserved run
 * skips them too (src/epochs/steady.ts). Under "spec" an ended mark means the next block starts an
 * epoch: now.
 */
export function quietBefore(keeper: EpochsKeeper, rule: TickRule = "spec"): bigint {
  const snapshot = keeper.readEpochInfos();
  const due = dueOf(snapshot);
  let ns: bigint;
  if (rule === "spec") {
    if (keeper.anyEnded()) return 0n;
    ns = due.specBegin < due.specEnd ? due.specBegin : due.specEnd;
  } else {
    ns = due.evmosBegin;
  }
  // a block at t seconds is quiet when t·10⁹ < ns, that is t < ⌈ns / 10⁹⌉
  return (ns + NANOS - 1n) / NANOS;
}

export async function beginBlocker(ctx: BlockContext, keeper: EpochsKeeper, hooks: EpochHooks, rule: TickRule = "spec", events: EpochEvents = EVMOS_EVENTS): Promise<void> {
  const snapshot = keeper.readEpochInfos();
  const tn = ctx.timestamp * NANOS;
  // nothing can start (or, for evmos and sdk, tick) before its due time; "spec" starts also follow an ended mark
  if (rule === "spec" ? tn < dueOf(snapshot).specBegin && !keeper.anyEnded() : tn < dueOf(snapshot).evmosBegin) return;
  for (const info of snapshot) {
    if (rule === "spec") await specBegin(ctx, keeper, hooks, info, events);
    else await gridBegin(ctx, keeper, hooks, info, rule, events);
  }
}

export async function endBlocker(ctx: BlockContext, keeper: EpochsKeeper, hooks: EpochHooks, rule: TickRule = "spec", events: EpochEvents = EVMOS_EVENTS): Promise<void> {
  if (rule !== "spec") return; // Evmos's and the SDK's modules have no end-block work
  const snapshot = keeper.readEpochInfos();
  const tn = ctx.timestamp * NANOS;
  if (tn < dueOf(snapshot).specEnd) return; // no started epoch has reached its end
  for (const info of snapshot) {
    if (!info.epochCountingStarted) continue;
    // the end block differs from the start block: an epoch spans at least two blocks
    if (ctx.height <= info.currentEpochStartHeight) continue;
    if (tn < toNanos(info.currentEpochStartTime) + toNanos(info.duration)) continue;
    // last: the store lookup (the time checks above skip it in blocks where nothing ends)
    if (keeper.isEnded(info.identifier)) continue;
    keeper.setEnded(info.identifier, true);
    ctx.emit(events.end(info.identifier, info.currentEpoch));
    await hooks.afterEpochEnd(ctx, info.identifier, info.currentEpoch);
  }
}

/** "spec" begin-block: the initial start once start_time is reached, or the next start after an end. */
async function specBegin(ctx: BlockContext, keeper: EpochsKeeper, hooks: EpochHooks, info: Readonly<EpochInfo>, events: EpochEvents): Promise<void> {
  const t = ctx.timestamp;
  const initial = !info.epochCountingStarted && t * NANOS >= toNanos(info.startTime);
  const next = info.epochCountingStarted && keeper.isEnded(info.identifier);
  if (!initial && !next) return;
  const started: EpochInfo = {
    ...info,
    epochCountingStarted: true,
    currentEpoch: initial ? 1n : info.currentEpoch + 1n,
    currentEpochStartTime: seconds(t),
    currentEpochStartHeight: ctx.height,
  };
  keeper.setEpochInfo(started);
  keeper.clearEnded(info.identifier);
  ctx.emit(events.start(info.identifier, started.currentEpoch, t));
  await hooks.beforeEpochStart(ctx, info.identifier, started.currentEpoch);
}

/**
 * Evmos's and the SDK's BeginBlocker body for one record (both x/epochs/keeper/abci.go): the same
 * timing; at a tick Evmos passes the new number to the end event and AfterEpochEnd, the SDK the
 * ending one. Both run AfterEpochEnd before the record is written, BeforeEpochStart after.
 */
async function gridBegin(ctx: BlockContext, keeper: EpochsKeeper, hooks: EpochHooks, info: Readonly<EpochInfo>, rule: "evmos" | "sdk", events: EpochEvents): Promise<void> {
  const tn = ctx.timestamp * NANOS;
  const start = toNanos(info.startTime);
  const initial = !info.epochCountingStarted && start <= tn;
  const tick = !initial && tn > toNanos(info.currentEpochStartTime) + toNanos(info.duration) && start <= tn;
  if (!initial && !tick) return;
  const updated: EpochInfo = { ...info, currentEpochStartHeight: ctx.height };
  if (initial) {
    updated.epochCountingStarted = true;
    updated.currentEpoch = 1n;
    updated.currentEpochStartTime = { ...info.startTime };
  } else {
    updated.currentEpoch = info.currentEpoch + 1n;
    updated.currentEpochStartTime = fromNanos(toNanos(info.currentEpochStartTime) + toNanos(info.duration));
    const ended = rule === "evmos" ? updated.currentEpoch : info.currentEpoch;
    ctx.emit(events.end(info.identifier, ended));
    await hooks.afterEpochEnd(ctx, info.identifier, ended);
  }
  keeper.setEpochInfo(updated);
  ctx.emit(events.start(info.identifier, updated.currentEpoch, floorSeconds(updated.currentEpochStartTime)));
  await hooks.beforeEpochStart(ctx, info.identifier, updated.currentEpoch);
}
