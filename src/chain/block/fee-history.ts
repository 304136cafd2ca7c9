/**
 * What eth_feeHistory reports of stored blocks, as geth's gas-price oracle computes it: each block's
 * base fee and gas-used ratio, the base fee of the block after the last, and, when percentiles are
 * asked for, each block's effective tips at those percentiles of its gas used (transactions sorted by
 * tip, each weighing the gas its receipt used).
 */
import type { Block } from "@ethereumjs/block";
import { effectiveTip } from "../pool/txpool";
import type { StoredReceipt } from "../store/chain-store";

export interface FeeHistory {
  oldestBlock: bigint;
  /** One per block, then the next block's. */
  baseFeePerGas: bigint[];
  gasUsedRatio: number[];
  /** Per block, the tip at each asked percentile; only when percentiles were asked for. */
  reward?: bigint[][];
}

/** The chain's reads a fee history needs (`NodeReads`). */
interface FeeHistorySource {
  /** The head now (read when the last block is reached: a block mined meanwhile is its successor). */
  headNumber(): bigint;
  readonly firstBlock: bigint;
  getBlock(n: bigint): Promise<Block | undefined>;
  getReceipts(n: bigint): Promise<StoredReceipt[] | undefined>;
  nextBaseFee(): bigint;
}

/** The history of `count` blocks ending at stored block `last` (a forked chain's start at its fork block). */
export async function feeHistory(src: FeeHistorySource, count: bigint, last: bigint, percentiles?: readonly number[]): Promise<FeeHistory> {
  const first = last - count + 1n < src.firstBlock ? src.firstBlock : last - count + 1n;
  const out: FeeHistory = { oldestBlock: first, baseFeePerGas: [], gasUsedRatio: [] };
  if (percentiles !== undefined) out.reward = [];
  for (let n = first; n <= last; n++) {
    const block = await src.getBlock(n);
    if (block === undefined) break;
    const h = block.header;
    const baseFee = h.baseFeePerGas ?? 0n;
    out.baseFeePerGas.push(baseFee);
    out.gasUsedRatio.push(h.gasLimit === 0n ? 0 : Number(h.gasUsed) / Number(h.gasLimit));
    if (out.reward !== undefined && percentiles !== undefined) {
      const receipts = (await src.getReceipts(n)) ?? [];
      const tips = block.transactions.map((tx, i) => ({ tip: effectiveTip(tx, baseFee), gas: receipts[i]?.gasUsed ?? 0n })).sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
      out.reward.push(percentiles.map((p) => percentileTip(tips, h.gasUsed, p)));
    }
    if (n === last) {
      out.baseFeePerGas.push(n === src.headNumber() ? src.nextBaseFee() : ((await src.getBlock(n + 1n))?.header.baseFeePerGas ?? 0n));
    }
  }
  return out;
}

/** The tip of the transaction at which the block's gas used, summed in tip order, reaches `p` percent. */
function percentileTip(tips: ReadonlyArray<{ tip: bigint; gas: bigint }>, gasUsed: bigint, p: number): bigint {
  if (tips.length === 0) return 0n;
  const threshold = (Number(gasUsed) * p) / 100;
  let sum = 0;
  for (const t of tips) {
    sum += Number(t.gas);
    if (sum >= threshold) return t.tip;
  }
  return tips[tips.length - 1].tip;
}
