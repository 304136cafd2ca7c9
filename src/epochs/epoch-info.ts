/**
 * EpochInfo and GenesisState (spec §2.1, §2.2): types, exact time arithmetic, the protobuf encoding
 * through protobufjs with the spec's field numbers (7 reserved, current_epoch_start_height = 8), and
 * the Cosmos proto-JSON form (durations "604800s", int64 as strings, RFC 3339 times).
 */
import protobuf from "protobufjs";

/** A protobuf Timestamp/Duration: whole seconds plus nanoseconds (0 ≤ nanos < 1e9). */
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

/** 0001-01-01T00:00:00Z, Go's zero time (what an unset Cosmos timestamp means). */
export const ZERO_TIME: Time = { seconds: -62135596800n, nanos: 0 };

export const NANOS = 1_000_000_000n;

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

export function isZeroTime(t: Time): boolean {
  return t.seconds === ZERO_TIME.seconds && t.nanos === 0;
}

export function newEpochInfo(identifier: string, durationSeconds: bigint, startTime: Time = ZERO_TIME): EpochInfo {
  return {
    identifier,
    startTime,
    duration: seconds(durationSeconds),
    currentEpoch: 0n,
    currentEpochStartTime: ZERO_TIME,
    epochCountingStarted: false,
    currentEpochStartHeight: 0n,
  };
}

// ------------------------------------------------------------------------------------- protobuf

const root = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Timestamp: { fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } } },
            Duration: { fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } } },
          },
        },
      },
    },
    evmos: {
      nested: {
        epochs: {
          nested: {
            v1: {
              nested: {
                EpochInfo: {
                  fields: {
                    identifier: { type: "string", id: 1 },
                    startTime: { type: "google.protobuf.Timestamp", id: 2 },
                    duration: { type: "google.protobuf.Duration", id: 3 },
                    currentEpoch: { type: "int64", id: 4 },
                    currentEpochStartTime: { type: "google.protobuf.Timestamp", id: 5 },
                    epochCountingStarted: { type: "bool", id: 6 },
                    currentEpochStartHeight: { type: "int64", id: 8 },
                  },
                  reserved: [[7, 7]],
                },
                GenesisState: { fields: { epochs: { rule: "repeated", type: "EpochInfo", id: 1 } } },
              },
            },
          },
        },
      },
    },
  },
});

const EpochInfoType = root.lookupType("evmos.epochs.v1.EpochInfo");
const GenesisType = root.lookupType("evmos.epochs.v1.GenesisState");

interface WireTime {
  seconds?: string;
  nanos?: number;
}
interface WireInfo {
  identifier?: string;
  startTime?: WireTime;
  duration?: WireTime;
  currentEpoch?: string;
  currentEpochStartTime?: WireTime;
  epochCountingStarted?: boolean;
  currentEpochStartHeight?: string;
}

// proto3: zero scalars are not written (protobufjs writes any field that is present, so leave them out)
const wireTime = (t: Time): WireTime => ({
  ...(t.seconds !== 0n ? { seconds: t.seconds.toString() } : {}),
  ...(t.nanos !== 0 ? { nanos: t.nanos } : {}),
});
const fromWireTime = (t: WireTime | undefined): Time => ({ seconds: BigInt(t?.seconds ?? "0"), nanos: t?.nanos ?? 0 });

function toWire(info: EpochInfo): WireInfo {
  return {
    ...(info.identifier !== "" ? { identifier: info.identifier } : {}),
    // gogoproto non-nullable: the three embedded messages are always written, even when zero
    startTime: wireTime(info.startTime),
    duration: wireTime(info.duration),
    ...(info.currentEpoch !== 0n ? { currentEpoch: info.currentEpoch.toString() } : {}),
    currentEpochStartTime: wireTime(info.currentEpochStartTime),
    ...(info.epochCountingStarted ? { epochCountingStarted: true } : {}),
    ...(info.currentEpochStartHeight !== 0n ? { currentEpochStartHeight: info.currentEpochStartHeight.toString() } : {}),
  };
}

function fromWire(w: WireInfo): EpochInfo {
  return {
    identifier: w.identifier ?? "",
    startTime: fromWireTime(w.startTime),
    duration: fromWireTime(w.duration),
    currentEpoch: BigInt(w.currentEpoch ?? "0"),
    currentEpochStartTime: fromWireTime(w.currentEpochStartTime),
    epochCountingStarted: w.epochCountingStarted ?? false,
    currentEpochStartHeight: BigInt(w.currentEpochStartHeight ?? "0"),
  };
}

const TO_OBJECT = { longs: String, defaults: false } as const;

export function encodeEpochInfo(info: EpochInfo): Uint8Array {
  return EpochInfoType.encode(EpochInfoType.fromObject(toWire(info))).finish();
}

export function decodeEpochInfo(bytes: Uint8Array): EpochInfo {
  return fromWire(EpochInfoType.toObject(EpochInfoType.decode(bytes), TO_OBJECT) as WireInfo);
}

export function encodeGenesis(gs: GenesisState): Uint8Array {
  return GenesisType.encode(GenesisType.fromObject({ epochs: gs.epochs.map(toWire) })).finish();
}

export function decodeGenesis(bytes: Uint8Array): GenesisState {
  const o = GenesisType.toObject(GenesisType.decode(bytes), TO_OBJECT) as { epochs?: WireInfo[] };
  return { epochs: (o.epochs ?? []).map(fromWire) };
}

// ------------------------------------------------------------------------------------- Cosmos JSON

export interface EpochInfoJson {
  identifier: string;
  start_time: string;
  duration: string;
  current_epoch: string;
  current_epoch_start_time: string;
  epoch_counting_started: boolean;
  current_epoch_start_height: string;
}

/** RFC 3339 UTC with 0, 3, 6 or 9 fraction digits, as Go's protojson writes. */
export function formatTime(t: Time): string {
  const ms = t.seconds * 1000n;
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) throw new Error(`time out of range: ${t.seconds}s`);
  const year = d.getUTCFullYear();
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const base = `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (t.nanos === 0) return `${base}Z`;
  const frac = String(t.nanos).padStart(9, "0");
  const digits = frac.endsWith("000000") ? 3 : frac.endsWith("000") ? 6 : 9;
  return `${base}.${frac.slice(0, digits)}Z`;
}

export function parseTime(s: string): Time {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  if (m === null) throw new Error(`invalid RFC 3339 time "${s}"`);
  const [, y, mo, d, h, mi, se, frac, zone] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(se), 0);
  let secs = BigInt(Math.floor(date.getTime() / 1000));
  if (zone !== "Z") {
    const sign = zone[0] === "-" ? -1n : 1n;
    secs -= sign * (BigInt(Number(zone.slice(1, 3))) * 3600n + BigInt(Number(zone.slice(4, 6))) * 60n);
  }
  return { seconds: secs, nanos: frac === undefined ? 0 : Number(frac.padEnd(9, "0")) };
}

/** "604800s", "0.5s", "-3s" (protojson Duration). */
export function formatDuration(t: Time): string {
  const n = toNanos(t);
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const s = abs / NANOS;
  const r = abs % NANOS;
  const frac = r === 0n ? "" : `.${r.toString().padStart(9, "0").replace(/0+$/, "")}`;
  return `${neg ? "-" : ""}${s}${frac}s`;
}

export function parseDuration(s: string): Time {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
  if (m === null) throw new Error(`invalid duration "${s}": expected e.g. "86400s"`);
  const n = BigInt(m[2]) * NANOS + BigInt((m[3] ?? "").padEnd(9, "0") || "0");
  return fromNanos(m[1] === "-" ? -n : n);
}

export function toJson(info: EpochInfo): EpochInfoJson {
  return {
    identifier: info.identifier,
    start_time: formatTime(info.startTime),
    duration: formatDuration(info.duration),
    current_epoch: info.currentEpoch.toString(),
    current_epoch_start_time: formatTime(info.currentEpochStartTime),
    epoch_counting_started: info.epochCountingStarted,
    current_epoch_start_height: info.currentEpochStartHeight.toString(),
  };
}

function int64(v: unknown, field: string): bigint {
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  throw new Error(`${field}: expected an integer (as a string), got ${JSON.stringify(v)}`);
}

/** Reads one record of a Cosmos genesis (missing fields take their zero values). */
export function fromJson(o: unknown, where: string): EpochInfo {
  if (o === null || typeof o !== "object") throw new Error(`${where}: expected an object`);
  const r = o as Record<string, unknown>;
  const str = (k: string) => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (typeof v !== "string") throw new Error(`${where}.${k}: expected a string`);
    return v;
  };
  const wrap = <T>(k: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      throw new Error(`${where}.${k}: ${(err as Error).message}`);
    }
  };
  const started = r.epoch_counting_started;
  if (started !== undefined && typeof started !== "boolean") throw new Error(`${where}.epoch_counting_started: expected true or false`);
  return {
    identifier: str("identifier") ?? "",
    startTime: wrap("start_time", () => (str("start_time") === undefined ? ZERO_TIME : parseTime(str("start_time") as string))),
    duration: wrap("duration", () => (str("duration") === undefined ? seconds(0n) : parseDuration(str("duration") as string))),
    currentEpoch: r.current_epoch === undefined ? 0n : int64(r.current_epoch, `${where}.current_epoch`),
    currentEpochStartTime: wrap("current_epoch_start_time", () =>
      str("current_epoch_start_time") === undefined ? ZERO_TIME : parseTime(str("current_epoch_start_time") as string),
    ),
    epochCountingStarted: started === true,
    currentEpochStartHeight: r.current_epoch_start_height === undefined ? 0n : int64(r.current_epoch_start_height, `${where}.current_epoch_start_height`),
  };
}
