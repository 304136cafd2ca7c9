/**
 * The x/epochs data model (docs/epochs.md): EpochInfo, GenesisState, the hook interface, and exact
 * time arithmetic. Times are protobuf-style {seconds, nanos} so Cosmos genesis files with sub-second
 * times round-trip; comparisons go through bigint nanoseconds, never floats.
 */
import type { BlockContext } from "../chain/base/module";
import type { StateReader } from "../chain/base/records";

/** A protobuf Timestamp or Duration: whole seconds (floored) plus 0 ≤ nanos < 1e9. */
export interface Time {
  seconds: bigint;
  nanos: number;
}

export interface EpochInfo {
  identifier: string;
  startTime: Time;
  duration: Time;
  currentEpoch: bigint;
  currentEpochStartTime: Time;
  epochCountingStarted: boolean;
  currentEpochStartHeight: bigint;
}

export interface GenesisState {
  epochs: EpochInfo[];
}

/** "spec": the two-phase rule (default); "evmos": Evmos's single begin-block rule. */
/** "spec": the two-phase rule; "evmos": Evmos v20's begin-block code; "sdk": the Cosmos SDK's x/epochs (docs/epochs.md, "Tick rules"). */
export type TickRule = "spec" | "evmos" | "sdk";

/**
 * Which chain the module behaves as (docs/profiles.md): Evmos v20 (its default genesis, plain events,
 * REST at /evmos/epochs/v1) or a chain on cosmos/evm with the Cosmos SDK's own x/epochs (the SDK's
 * default genesis, typed events, REST at /cosmos/epochs/v1beta1, the SDK's tick rule by default).
 * What each one means is one record in src/epochs/profile.ts.
 */
export type EpochsProfile = "evmos" | "cosmos-evm";

export type HookName = "BeforeEpochStart" | "AfterEpochEnd";

/** x/epochs hooks. Members are isolated by MultiEpochHooks, so they may throw. */
export interface EpochHooks {
  afterEpochEnd(ctx: BlockContext, identifier: string, epochNumber: bigint): Promise<void> | void;
  beforeEpochStart(ctx: BlockContext, identifier: string, epochNumber: bigint): Promise<void> | void;
  /**
   * True when, given `state`, both hooks would do nothing at `identifier`'s ticks (no write, event or
   * call): a reserved run may then play those ticks (src/epochs/steady.ts). A member without it
   * always counts as acting.
   */
  idle?(state: StateReader, identifier: string): Promise<boolean>;
}

export const NANOS = 1_000_000_000n;

/** 0001-01-01T00:00:00Z, Go's zero time (an unset Cosmos timestamp). */
export const ZERO_TIME: Time = Object.freeze({ seconds: -62135596800n, nanos: 0 });

export function toNanos(t: Time): bigint {
  return t.seconds * NANOS + BigInt(t.nanos);
}

export function fromNanos(n: bigint): Time {
  let s = n / NANOS;
  let r = n % NANOS;
  if (r < 0n) {
    r += NANOS;
    s -= 1n;
  }
  return { seconds: s, nanos: Number(r) };
}

export function seconds(s: bigint): Time {
  return { seconds: s, nanos: 0 };
}

/** Unix seconds rounded toward −∞ (Evmos's `start_time` attribute, the precompile's int64 times). */
export function floorSeconds(t: Time): bigint {
  return t.seconds;
}

export function isZeroTime(t: Time): boolean {
  return t.seconds === ZERO_TIME.seconds && t.nanos === 0;
}

export function newEpochInfo(identifier: string, durationSeconds: bigint, startTime: Time = ZERO_TIME): EpochInfo {
  return {
    identifier,
    startTime: { ...startTime },
    duration: seconds(durationSeconds),
    currentEpoch: 0n,
    currentEpochStartTime: { ...ZERO_TIME },
    epochCountingStarted: false,
    currentEpochStartHeight: 0n,
  };
}

/** A deep copy (records are handed to hooks and callers that may change them). */
export function cloneEpochInfo(e: EpochInfo): EpochInfo {
  return { ...e, startTime: { ...e.startTime }, duration: { ...e.duration }, currentEpochStartTime: { ...e.currentEpochStartTime } };
}
