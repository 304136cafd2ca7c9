/**
 * Begin-block and end-block events as the RPC layer shows them (epochs_blockEvents, the `epochs`
 * subscription). Logs of hook calls get their block fields here; they have no transaction.
 */
import type { Block } from "@ethereumjs/block";
import type { BlockPhase, ModuleEvent } from "../chain";
import { type Json, hex, q } from "./format";

/** The SDK's typed epoch events' type prefix (cosmos.epochs.v1beta1.EventEpochStart, …End). */
const TYPED_EPOCH_EVENT = "cosmos.epochs.";

function formatModuleEvent(e: ModuleEvent, block: Block, firstLogIndex: number): { json: Json; logs: number } {
  const out: Record<string, Json> = { type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value })) };
  let n = 0;
  if (e.logs !== undefined) {
    out.logs = e.logs.map((l) => ({
      address: hex(l.address),
      topics: l.topics.map(hex),
      data: hex(l.data),
      blockNumber: q(block.header.number),
      blockHash: hex(block.hash()),
      logIndex: q(firstLogIndex + n++),
      transactionHash: null,
      transactionIndex: null,
      removed: false,
    }));
  }
  return { json: out, logs: n };
}

/** `epochs_blockEvents` shape: {height, hash, begin_block_events, end_block_events}. */
export function formatBlockEvents(block: Block, events: { begin: ModuleEvent[]; end: ModuleEvent[] }, typedTimers: readonly string[] = []): Json {
  let logIndex = 0;
  let typed = 0;
  const list = (es: ModuleEvent[]) =>
    es.map((e) => {
      const { json, logs } = formatModuleEvent(e, block, logIndex);
      logIndex += logs;
      // the SDK's typed epoch events carry no identifier: the node names the timer beside the attributes
      if (e.type.startsWith(TYPED_EPOCH_EVENT) && typed < typedTimers.length) (json as Record<string, Json>).timer = typedTimers[typed++];
      return json;
    });
  return { height: q(block.header.number), hash: hex(block.hash()), begin_block_events: list(events.begin), end_block_events: list(events.end) };
}

/** One `epochs` subscription notification per event. */
export function eventNotifications(block: Block, events: { begin: ModuleEvent[]; end: ModuleEvent[] }, typedTimers: readonly string[] = []): Json[] {
  const body = formatBlockEvents(block, events, typedTimers) as { begin_block_events: Json[]; end_block_events: Json[] };
  const wrap = (phase: BlockPhase) => (e: Json) => {
    const { type, attributes, timer } = e as { type: string; attributes: Json; timer?: string };
    return { blockNumber: q(block.header.number), blockHash: hex(block.hash()), phase, type, attributes, ...(timer !== undefined ? { timer } : {}) };
  };
  return [...body.begin_block_events.map(wrap("begin_block")), ...body.end_block_events.map(wrap("end_block"))];
}
