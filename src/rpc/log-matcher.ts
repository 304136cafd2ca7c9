/** One log matcher for eth_getLogs, polled log filters and `logs` subscriptions. */
import type { Block } from "@ethereumjs/block";
import { Bloom } from "@ethereumjs/vm";
import type { StoredLog, StoredReceipt } from "../chain/chain-store";
import type { Node } from "../chain/node";
import { ServerError } from "./errors";
import { type Json, formatLog } from "./format";
import type { LogFilter } from "./objects";

function eq(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

export function matchLog(log: StoredLog, f: Pick<LogFilter, "addresses" | "topics">): boolean {
  if (f.addresses.length > 0 && !f.addresses.some((a) => eq(a, log.address))) return false;
  for (let i = 0; i < f.topics.length; i++) {
    const wanted = f.topics[i];
    if (wanted === null) continue;
    const t = log.topics[i];
    if (t === undefined || !wanted.some((w) => eq(w, t))) return false;
  }
  return true;
}

/** False when the block's bloom proves no log can match (the block is skipped without reading receipts). */
export function bloomMayMatch(logsBloom: Uint8Array, f: Pick<LogFilter, "addresses" | "topics">): boolean {
  const bloom = new Bloom(logsBloom);
  if (f.addresses.length > 0 && !f.addresses.some((a) => bloom.check(a))) return false;
  for (const wanted of f.topics) {
    if (wanted !== null && !wanted.some((t) => bloom.check(t))) return false;
  }
  return true;
}

/** Matching logs of one block, formatted, in log-index order. */
export function blockLogs(block: Block, receipts: StoredReceipt[], f: Pick<LogFilter, "addresses" | "topics">): Json[] {
  const out: Json[] = [];
  let logIndex = 0;
  receipts.forEach((r, txIndex) => {
    for (const log of r.logs) {
      if (matchLog(log, f)) out.push(formatLog(log, block, txIndex, logIndex));
      logIndex++;
    }
  });
  return out;
}

/**
 * Logs of blocks [from, to] (inclusive, already clamped to the head), at most `cap` (0 = no cap).
 * Only blocks in the log index are visited, and only those whose bloom may match are read.
 */
export async function collectLogs(node: Node, f: LogFilter, from: bigint, to: bigint, cap: number): Promise<Json[]> {
  const out: Json[] = [];
  for (const [n, bloom] of node.store.blocksWithLogs(from, to)) {
    if (!bloomMayMatch(bloom, f)) continue;
    const block = await node.getBlock(n);
    if (block === undefined) break;
    const receipts = (await node.store.getReceipts(n)) ?? [];
    out.push(...blockLogs(block, receipts, f));
    if (cap > 0 && out.length > cap) throw new ServerError(`query returned more than ${cap} results`);
  }
  return out;
}
