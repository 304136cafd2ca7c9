/**
 * The epochs queries (evmos.epochs.v1.Query): EpochInfos with the Cosmos SDK v0.50 `query.Paginate`
 * rules (docs/epochs.md, "Queries and pagination") and CurrentEpoch, plus their gateway JSON shapes.
 */
import { type EpochInfoJson, toJson } from "./codec";
import type { EpochsKeeper } from "./keeper";
import type { EpochInfo } from "./types";

export interface PageRequest {
  key?: Uint8Array;
  offset?: bigint;
  limit?: bigint;
  countTotal?: boolean;
  reverse?: boolean;
}

export interface PageResult {
  epochs: EpochInfo[];
  /** The key (identifier bytes) of the first record after the page; null at the end. */
  nextKey: Uint8Array | null;
  total: bigint;
}

interface EpochInfosJson {
  epochs: EpochInfoJson[];
  pagination: { next_key: string | null; total: string };
}

const DEFAULT_PAGE_LIMIT = 100n;
export const BOTH_OFFSET_AND_KEY = "invalid request, either offset or key is expected, got both";

/** NotFound (gRPC code 5) of CurrentEpoch. */
export class EpochNotFoundError extends Error {
  readonly code = 5;
  constructor(readonly identifier: string) {
    super(`epoch info not found: ${identifier}`);
    this.name = "EpochNotFoundError";
  }
}

const enc = new TextEncoder();

function compare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Index in `keys` (ascending) of the first key ≥ `k`; keys.length when there is none. */
function lowerBound(keys: Uint8Array[], k: Uint8Array): number {
  let i = 0;
  while (i < keys.length && compare(keys[i], k) < 0) i++;
  return i;
}

/** Cosmos `query.Paginate` over the records, in key order (descending with reverse). */
function paginate(all: EpochInfo[], page: PageRequest = {}): PageResult {
  const hasKey = page.key !== undefined && page.key.length > 0;
  const offset = page.offset ?? 0n;
  if (hasKey && offset > 0n) throw new Error(BOTH_OFFSET_AND_KEY);
  let limit = page.limit ?? 0n;
  let countTotal = page.countTotal === true;
  if (limit === 0n) {
    // the SDK's default page, which also forces the count
    limit = DEFAULT_PAGE_LIMIT;
    countTotal = true;
  }
  const asc = all;
  const keys = asc.map((e) => enc.encode(e.identifier));
  const reverse = page.reverse === true;
  const ordered = reverse ? [...asc].reverse() : asc;
  let start: number;
  if (hasKey) {
    // forward: from the first key ≥ key; reverse: backwards from that same key (or from the top when none)
    const lb = lowerBound(keys, page.key as Uint8Array);
    start = reverse ? (lb === keys.length ? 0 : keys.length - 1 - lb) : lb;
  } else {
    start = offset > BigInt(ordered.length) ? ordered.length : Number(offset);
  }
  const end = BigInt(start) + limit >= BigInt(ordered.length) ? ordered.length : start + Number(limit);
  const after = ordered[end];
  return {
    epochs: ordered.slice(start, end),
    nextKey: after === undefined ? null : enc.encode(after.identifier),
    // key mode never counts
    total: !hasKey && countTotal ? BigInt(ordered.length) : 0n,
  };
}

export function epochInfos(keeper: EpochsKeeper, page: PageRequest = {}): PageResult {
  return paginate(keeper.allEpochInfos(), page);
}

export function currentEpoch(keeper: EpochsKeeper, identifier: string): bigint {
  const { info } = keeper.getEpochInfo(identifier);
  if (info === undefined) throw new EpochNotFoundError(identifier);
  return info.currentEpoch;
}

/** The gateway JSON of QueryEpochsInfoResponse (next_key base64 or null, total as a string). */
export function epochInfosJson(p: PageResult): EpochInfosJson {
  return {
    epochs: p.epochs.map(toJson),
    pagination: { next_key: p.nextKey === null ? null : Buffer.from(p.nextKey).toString("base64"), total: p.total.toString() },
  };
}

/** Reads the pagination fields as the REST gateway and epochs_epochInfos take them. */
export function pageRequestFromJson(o: {
  key?: string | null;
  offset?: string | number | null;
  limit?: string | number | null;
  count_total?: boolean | string | null;
  reverse?: boolean | string | null;
}): PageRequest {
  const uint = (v: string | number | null | undefined, name: string): bigint | undefined => {
    if (v === undefined || v === null || v === "") return undefined;
    const s = String(v);
    if (!/^\d+$/.test(s) || BigInt(s) >= 2n ** 64n) throw new RangeError(`invalid pagination.${name}: ${s}`);
    return BigInt(s);
  };
  const flag = (v: boolean | string | null | undefined, name: string): boolean | undefined => {
    if (v === undefined || v === null || v === "") return undefined;
    if (v === true || v === "true") return true;
    if (v === false || v === "false") return false;
    throw new RangeError(`invalid pagination.${name}: ${String(v)}`);
  };
  let key: Uint8Array | undefined;
  if (o.key !== undefined && o.key !== null && o.key !== "") {
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(o.key)) throw new RangeError(`invalid pagination.key: ${o.key}`);
    key = new Uint8Array(Buffer.from(o.key, "base64"));
  }
  return { key, offset: uint(o.offset, "offset"), limit: uint(o.limit, "limit"), countTotal: flag(o.count_total, "count_total"), reverse: flag(o.reverse, "reverse") };
}
