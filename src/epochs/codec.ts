/**
 * EpochInfo ↔ protobuf bytes (through protobufjs, field numbers of docs/epochs.md "Data model": 7 reserved,
 * current_epoch_start_height = 8) and ↔ Cosmos proto-JSON (durations "604800s", int64 as strings,
 * RFC 3339 UTC times with 0/3/6/9 fraction digits, as Go's protojson writes them).
 */
import protobuf from "protobufjs";
import { type EpochInfo, type GenesisState, type Time, NANOS, ZERO_TIME, fromNanos, seconds, toNanos } from "./types";

// ------------------------------------------------------------------------------------- protobuf

const TIME_FIELDS = { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } };

const root = protobuf.Root.fromJSON({
  nested: {
    google: { nested: { protobuf: { nested: { Timestamp: { fields: TIME_FIELDS }, Duration: { fields: TIME_FIELDS } } } } },
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

// proto3 omits zero scalars; protobufjs writes any field present, so leave zeros out
function wireTime(s: bigint, n: number): WireTime {
  return { ...(s !== 0n ? { seconds: s.toString() } : {}), ...(n !== 0 ? { nanos: n } : {}) };
}

/** A proto Duration's seconds and nanos share the sign (a Timestamp's nanos are always ≥ 0). */
function wireDuration(t: Time): WireTime {
  const n = toNanos(t);
  return wireTime(n / NANOS, Number(n % NANOS));
}

const fromWireTime = (t: WireTime | undefined): Time => fromNanos(BigInt(t?.seconds ?? "0") * NANOS + BigInt(t?.nanos ?? 0));

function toWire(info: EpochInfo): WireInfo {
  return {
    ...(info.identifier !== "" ? { identifier: info.identifier } : {}),
    // gogoproto non-nullable: the three embedded messages are always written, even when zero
    startTime: wireTime(info.startTime.seconds, info.startTime.nanos),
    duration: wireDuration(info.duration),
    ...(info.currentEpoch !== 0n ? { currentEpoch: info.currentEpoch.toString() } : {}),
    currentEpochStartTime: wireTime(info.currentEpochStartTime.seconds, info.currentEpochStartTime.nanos),
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

// ------------------------------------------------------------------------------------- proto-JSON

export interface EpochInfoJson {
  identifier: string;
  start_time: string;
  duration: string;
  current_epoch: string;
  current_epoch_start_time: string;
  epoch_counting_started: boolean;
  current_epoch_start_height: string;
}

/** Go's protojson: 0, 3, 6 or 9 fraction digits. */
function fraction(nanos: bigint): string {
  if (nanos === 0n) return "";
  const f = nanos.toString().padStart(9, "0");
  return `.${f.endsWith("000000") ? f.slice(0, 3) : f.endsWith("000") ? f.slice(0, 6) : f}`;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** RFC 3339 UTC, e.g. "2024-03-01T12:00:00Z", "0001-01-01T00:00:00Z", "1970-01-01T00:00:00.120Z". */
export function formatTime(t: Time): string {
  const d = new Date(Number(t.seconds * 1000n));
  if (Number.isNaN(d.getTime())) throw new Error(`time out of range: ${t.seconds}s`);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${date}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction(BigInt(t.nanos))}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Reads RFC 3339 (any offset; years 0001–9999, as protojson allows). */
export function parseTime(s: string): Time {
  const m = RFC3339.exec(s);
  if (m === null) throw new Error(`invalid RFC 3339 time "${s}"`);
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, se, 0);
  // Date normalizes 2024-02-30 to March; a real calendar date survives the round trip
  if (y === 0 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) {
    throw new Error(`invalid RFC 3339 time "${s}"`);
  }
  let secs = BigInt(date.getTime() / 1000);
  const zone = m[8];
  if (zone !== "Z") {
    const sign = zone[0] === "-" ? -1n : 1n;
    secs -= sign * (BigInt(zone.slice(1, 3)) * 3600n + BigInt(zone.slice(4, 6)) * 60n);
  }
  return { seconds: secs, nanos: m[7] === undefined ? 0 : Number(m[7].padEnd(9, "0")) };
}

/** protojson's Duration bound: ±10,000 years. */
const MAX_DURATION_SECONDS = 315_576_000_000n;

/** "604800s", "0.250s", "-3s" (protojson Duration). */
export function formatDuration(t: Time): string {
  const n = toNanos(t);
  const abs = n < 0n ? -n : n;
  return `${n < 0n ? "-" : ""}${abs / NANOS}${fraction(abs % NANOS)}s`;
}

export function parseDuration(s: string): Time {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
  if (m === null) throw new Error(`invalid duration "${s}": expected e.g. "86400s"`);
  if (BigInt(m[2]) > MAX_DURATION_SECONDS) throw new Error(`duration "${s}" out of range`);
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

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An int64 as jsonpb reads it: a decimal string or a safe JSON number. */
function int64(v: unknown, field: string): bigint {
  let n: bigint | undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  if (typeof v === "string" && /^-?\d+$/.test(v)) n = BigInt(v);
  if (n === undefined || n < INT64_MIN || n > INT64_MAX) throw new Error(`${field}: expected an int64 (as a string), got ${JSON.stringify(v)}`);
  return n;
}

/** Reads one record of a Cosmos genesis or REST answer; missing fields take their zero values. */
export function fromJson(o: unknown, where: string): EpochInfo {
  if (o === null || typeof o !== "object" || Array.isArray(o)) throw new Error(`${where}: expected an object`);
  const r = o as Record<string, unknown>;
  const field = <T>(k: string, zero: T, parse: (s: string) => T): T => {
    const v = r[k];
    if (v === undefined || v === null) return zero;
    if (typeof v !== "string") throw new Error(`${where}.${k}: expected a string`);
    try {
      return parse(v);
    } catch (err) {
      throw new Error(`${where}.${k}: ${(err as Error).message}`);
    }
  };
  const started = r.epoch_counting_started;
  if (started !== undefined && started !== null && typeof started !== "boolean") throw new Error(`${where}.epoch_counting_started: expected true or false`);
  const num = (k: string) => (r[k] === undefined || r[k] === null ? 0n : int64(r[k], `${where}.${k}`));
  return {
    identifier: field("identifier", "", (s) => s),
    startTime: field("start_time", { ...ZERO_TIME }, parseTime),
    duration: field("duration", seconds(0n), parseDuration),
    currentEpoch: num("current_epoch"),
    currentEpochStartTime: field("current_epoch_start_time", { ...ZERO_TIME }, parseTime),
    epochCountingStarted: started === true,
    currentEpochStartHeight: num("current_epoch_start_height"),
  };
}
