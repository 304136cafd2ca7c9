/** One log matcher for eth_getLogs, polled log filters and `logs` subscriptions. */
import type { Block } from "@ethereumjs/block";
import type { Node, StoredLog, StoredReceipt } from "../chain";
import { keccak256 } from "../utils/keccak";
import { ServerError } from "./errors";
import { type Json, LogFormatter } from "./format";
import type { LogFilter } from "./objects";

function eq(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function matchLog(log: StoredLog, f: Pick<LogFilter, "addresses" | "topics">): boolean {
  if (f.addresses.length > 0 && !f.addresses.some((a) => eq(a, log.address))) return false;
  for (let i = 0; i < f.topics.length; i++) {
    const wanted = f.topics[i];
    if (wanted === null) continue;
    const t = log.topics[i];
    if (t === undefined || !wanted.some((w) => eq(w, t))) return false;
  }
  return true;
}

/** The three bloom bits of one address or topic: [byte index, bit mask] (yellow paper, M3:2048). */
type BloomBits = Array<[number, number]>;

function bloomBits(e: Uint8Array): BloomBits {
  const h = keccak256(e);
  const out: BloomBits = [];
  for (let i = 0; i < 6; i += 2) {
    const loc = ((h[i] << 8) | h[i + 1]) & 2047;
    out.push([255 - (loc >> 3), 1 << (loc & 7)]);
  }
  return out;
}

const hasBits = (bloom: Uint8Array, bits: BloomBits): boolean => bits.every(([i, m]) => (bloom[i] & m) !== 0);

/**
 * A test of block blooms for `f`, with each wanted address and topic hashed once per query, not once
 * per block. False when the bloom proves no log can match (the block is skipped unread).
 */
function bloomTester(f: Pick<LogFilter, "addresses" | "topics">): (logsBloom: Uint8Array) => boolean {
  // every group needs one member in the bloom (as matchLog needs one per position); no groups: any bloom
  const groups: BloomBits[][] = [];
  if (f.addresses.length > 0) groups.push(f.addresses.map(bloomBits));
  for (const wanted of f.topics) if (wanted !== null) groups.push(wanted.map(bloomBits));
  return (logsBloom) => groups.every((g) => g.some((bits) => hasBits(logsBloom, bits)));
}

/** Matching logs of one block, formatted, in log-index order. */
export function blockLogs(block: Block, receipts: StoredReceipt[], f: Pick<LogFilter, "addresses" | "topics">): Json[] {
  const out: Json[] = [];
  let formatter: LogFormatter | undefined;
  let logIndex = 0;
  receipts.forEach((r, txIndex) => {
    for (const log of r.logs) {
      if (matchLog(log, f)) out.push((formatter ??= new LogFormatter(block)).format(log, txIndex, logIndex));
      logIndex++;
    }
  });
  return out;
}

/**
 * Logs of blocks [from, to] (inclusive, already clamped to the head), at most `cap` (0 = no cap).
 * Only blocks in the log index are visited, and only those whose bloom may match are read, so the
 * cost follows the blocks with (matching) logs, not the length of the range.
 */
export async function collectLogs(node: Node, f: LogFilter, from: bigint, to: bigint, cap: number): Promise<Json[]> {
  const out: Json[] = [];
  const mayMatch = bloomTester(f);
  for await (const [n, bloom] of node.store.logBlooms(from, to)) {
    if (!mayMatch(bloom)) continue;
    const block = await node.getBlock(n);
    if (block === undefined) break;
    const receipts = (await node.store.getReceipts(n)) ?? [];
    out.push(...blockLogs(block, receipts, f));
    if (cap > 0 && out.length > cap) throw new ServerError(`query returned more than ${cap} results`);
  }
  return out;
}
