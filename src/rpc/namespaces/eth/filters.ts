/** Polled filters and WebSocket subscriptions of the eth namespace. */
import type { RpcDeps } from "../../deps";
import { InvalidParamsError, RpcError, ServerError } from "../../errors";
import { FilterManager } from "../../filters/filter-manager";
import { SubscriptionLimitError, SubscriptionManager } from "../../filters/subscription-manager";
import { collectLogs } from "../../log-matcher";
import { method } from "../../method";
import { logFilter } from "../../objects";
import { ParamError, any, string } from "../../params";
import { resolveHeight } from "../../resolve";
import { filterRange } from "./logs";

export interface FilterServices {
  filters: FilterManager;
  subscriptions: SubscriptionManager;
}

export function createFilterServices(deps: RpcDeps, now?: () => number): FilterServices {
  return {
    filters: new FilterManager(deps.node, () => deps.settings.filterCap, now),
    subscriptions: new SubscriptionManager(deps.node, (arg) => logFilter.parse(arg)),
  };
}

export function filterMethods(deps: RpcDeps, { filters, subscriptions }: FilterServices) {
  const { node, settings } = deps;
  return [
    method({
      name: "eth_newFilter",
      access: "read",
      params: [logFilter],
      doc: "Installs a log filter; eth_getFilterChanges then answers the matching logs of blocks mined since the last poll.",
      async handler([f], ctx) {
        if (f.blockHash !== undefined) return filters.install("logs", f, undefined, undefined, ctx.origin);
        const num = (spec: typeof f.fromBlock) => (spec !== undefined && "number" in spec ? spec.number : undefined);
        const from = num(f.fromBlock);
        const to = num(f.toBlock);
        if (from !== undefined && to !== undefined && from > to) {
          throw new ServerError(`invalid from and to block combination: from > to (${from} > ${to})`);
        }
        if (f.fromBlock !== undefined) await resolveHeight(node, f.fromBlock);
        return filters.install("logs", f, from, to, ctx.origin);
      },
    }),
    method({
      name: "eth_newBlockFilter",
      access: "read",
      params: [],
      doc: "Installs a filter of new block hashes.",
      handler: (_params, ctx) => filters.install("blocks", undefined, undefined, undefined, ctx.origin),
    }),
    method({
      name: "eth_newPendingTransactionFilter",
      access: "read",
      params: [],
      doc: "Installs a filter of hashes of transactions entering the pool.",
      handler: (_params, ctx) => filters.install("pending", undefined, undefined, undefined, ctx.origin),
    }),
    method({
      name: "eth_getFilterChanges",
      access: "read",
      params: [string],
      doc: "What the filter collected since the previous poll: block hashes, transaction hashes or logs; never null.",
      handler: ([id]) => filters.changes(id),
    }),
    method({
      name: "eth_getFilterLogs",
      access: "read",
      params: [string],
      doc: "Every log matching a log filter's criteria (with the eth_getLogs caps).",
      async handler([id]) {
        const f = filters.logCriteria(id);
        const range = await filterRange(node, f, settings.blockRangeCap);
        return range === undefined ? [] : collectLogs(node, f, range[0], range[1], settings.logsCap);
      },
    }),
    method({
      name: "eth_uninstallFilter",
      access: "read",
      params: [string],
      doc: "Removes a filter; false when there was none with that id.",
      handler: ([id]) => filters.uninstall(id),
    }),
    method({
      name: "eth_subscribe",
      access: "read",
      params: [string, any.opt()],
      doc: "WebSocket only: newHeads ({includeTransactions}), logs ({address, topics}), newPendingTransactions, syncing, epochs. Notifications carry the returned id.",
      handler([name, arg], ctx) {
        if (ctx.connection === undefined) throw new ServerError("notifications not supported");
        if (!subscriptions.has(name)) throw new InvalidParamsError(`invalid argument 0: no "${name}" subscription (known: ${subscriptions.kinds().join(", ")})`);
        try {
          return subscriptions.subscribe(ctx.connection, name, arg, ctx.origin);
        } catch (err) {
          if (err instanceof RpcError) throw err;
          if (err instanceof SubscriptionLimitError) throw new ServerError(err.message);
          if (err instanceof ParamError) throw new InvalidParamsError(`invalid argument 1: ${err.message}`);
          throw new InvalidParamsError((err as Error).message);
        }
      },
    }),
    method({
      name: "eth_unsubscribe",
      access: "read",
      params: [string],
      doc: "Ends a subscription of this connection; false when it was not one.",
      handler([id], ctx) {
        if (ctx.connection === undefined) throw new ServerError("notifications not supported");
        return subscriptions.unsubscribe(ctx.connection, id);
      },
    }),
  ];
}
