/** eth_getLogs with Evmos's caps (block-range-cap, logs-cap) and texts. */
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { collectLogs } from "../../log-matcher";
import { method } from "../../method";
import { logFilter, type LogFilter } from "../../objects";
import { resolveHeight } from "../../resolve";
import type { Node } from "../../../chain";

/** The inclusive block range of a filter, clamped to the head; undefined when it selects nothing yet. */
export async function filterRange(node: Node, f: LogFilter, rangeCap: number): Promise<[bigint, bigint] | undefined> {
  if (f.blockHash !== undefined) {
    const n = await node.store.getBlockNumber(f.blockHash);
    if (n === undefined) throw new ServerError("unknown block");
    return [n, n];
  }
  const head = node.headNumber;
  const from = f.fromBlock === undefined ? head : ((await resolveHeight(node, f.fromBlock)) ?? ("number" in f.fromBlock ? f.fromBlock.number : head));
  const to = f.toBlock === undefined ? head : ((await resolveHeight(node, f.toBlock)) ?? ("number" in f.toBlock ? f.toBlock.number : head));
  if (from > to) throw new ServerError("invalid block range params");
  if (rangeCap > 0 && to - from > BigInt(rangeCap)) throw new ServerError(`maximum [from, to] blocks distance: ${rangeCap}`);
  if (from > head) return undefined;
  return [from, to > head ? head : to];
}

export function logMethods({ node, settings }: RpcDeps) {
  return [
    method({
      name: "eth_getLogs",
      access: "read",
      params: [logFilter],
      doc: "Logs matching a filter over a block range (default latest) or one block by hash; at most logs-cap results over at most block-range-cap blocks.",
      async handler([f]) {
        const range = await filterRange(node, f, settings.blockRangeCap);
        if (range === undefined) return [];
        return collectLogs(node, f, range[0], range[1], settings.logsCap);
      },
    }),
  ];
}
