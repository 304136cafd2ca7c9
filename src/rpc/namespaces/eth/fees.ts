/** Fee suggestions and history (EIP-1559). */
import type { RpcDeps } from "../../deps";
import { InvalidParamsError, ServerError } from "../../errors";
import { q } from "../../format";
import { method } from "../../method";
import { ParamError, arrayOf, blockNumberOrTag, codec, numberOrQuantity } from "../../params";
import { resolveHeight } from "../../resolve";

/** The most reward percentiles one eth_feeHistory may ask for (geth's maxQueryLimit). */
const MAX_PERCENTILES = 100;

const percentileList = arrayOf((v) => {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 100) throw new ParamError(`invalid reward percentile ${JSON.stringify(v)}`);
  return v;
}, "rewardPercentiles");

/**
 * eth_feeHistory's reward percentiles: each from 0 to 100, ascending, and at most MAX_PERCENTILES of
 * them (geth's maxQueryLimit, in geth's words: the answer grows with blocks × percentiles).
 */
const percentiles = codec((v) => {
  if (Array.isArray(v) && v.length > MAX_PERCENTILES) throw new InvalidParamsError(`invalid reward percentile: over the query limit ${MAX_PERCENTILES}`);
  const list = percentileList(v);
  for (let i = 1; i < list.length; i++) {
    if (list[i] < list[i - 1]) throw new ParamError("reward percentiles must be ascending");
  }
  return list;
});

export function feeMethods({ node, settings }: RpcDeps) {
  return [
    method({
      name: "eth_gasPrice",
      access: "read",
      params: [],
      doc: "Suggested legacy gas price: the next block's base fee plus the default tip, and at least the node's minimum gas price.",
      handler: () => {
        const p = node.nextBaseFee() + node.calls.defaultTip;
        return q(p > node.settings.minGasPrice ? p : node.settings.minGasPrice);
      },
    }),
    method({
      name: "eth_maxPriorityFeePerGas",
      access: "read",
      params: [],
      doc: "Suggested tip per gas for EIP-1559 transactions (1 gwei).",
      handler: () => q(node.calls.defaultTip),
    }),
    method({
      name: "eth_feeHistory",
      access: "read",
      params: [numberOrQuantity, blockNumberOrTag, percentiles.opt()],
      doc: "Base fees, gas-used ratios and (with percentiles) effective tips of up to feehistory-cap blocks ending at newestBlock.",
      async handler([count, newest, pcts]) {
        if (count < 1n) throw new InvalidParamsError("invalid argument 0: blockCount must be at least 1");
        if (count > BigInt(settings.feeHistoryCap)) throw new ServerError(`FeeHistory user block count ${count} higher than ${settings.feeHistoryCap}`);
        const last = await resolveHeight(node, newest);
        if (last === undefined) throw new ServerError(`newest block ${"number" in newest ? newest.number : "?"} is above the head ${node.headNumber}`);
        const history = await node.feeHistory(count, last, pcts);
        return {
          oldestBlock: q(history.oldestBlock),
          baseFeePerGas: history.baseFeePerGas.map(q),
          gasUsedRatio: history.gasUsedRatio,
          ...(history.reward === undefined ? {} : { reward: history.reward.map((r) => r.map(q)) }),
        };
      },
    }),
  ];
}
