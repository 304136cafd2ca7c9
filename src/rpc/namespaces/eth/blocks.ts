/** eth_* methods that read blocks and the transactions inside them. Unknown blocks answer null. */
import type { Block } from "@ethereumjs/block";
import type { RpcDeps } from "../../deps";
import { formatBlock, formatReceipt, formatTransaction, q } from "../../format";
import { method } from "../../method";
import { blockId, blockNumberOrTag, bool, hash, quantity, type BlockSpec } from "../../params";
import { resolveBlock } from "../../resolve";

export function blockMethods({ node }: RpcDeps) {
  const full = async (block: Block | undefined, withTxs: boolean | undefined) => (block === undefined ? null : formatBlock(block, withTxs === true, await node.store.getReceipts(block.header.number)));
  const txAt = async (block: Block | undefined, index: bigint) => {
    if (block === undefined || index >= BigInt(block.transactions.length)) return null;
    const i = Number(index);
    const receipts = await node.store.getReceipts(block.header.number);
    const tx = block.transactions[i];
    return formatTransaction(tx, receipts?.[i]?.from ?? tx.getSenderAddress().bytes, { block, index: i });
  };
  const byHash = (h: Uint8Array): BlockSpec => ({ hash: h, requireCanonical: false });
  return [
    method({
      name: "eth_blockNumber",
      access: "read",
      params: [],
      doc: "Height of the latest block.",
      handler: () => q(node.headNumber),
    }),
    method({
      name: "eth_getBlockByNumber",
      access: "read",
      params: [blockNumberOrTag, bool.opt()],
      doc: "Block at a height or tag; full transaction objects when the second parameter is true; null when there is no such block.",
      handler: async ([b, withTxs]) => full(await resolveBlock(node, b), withTxs),
    }),
    method({
      name: "eth_getBlockByHash",
      access: "read",
      params: [hash, bool.opt()],
      doc: "Block with a hash; null when unknown.",
      handler: async ([h, withTxs]) => full(await resolveBlock(node, byHash(h)), withTxs),
    }),
    method({
      name: "eth_getBlockTransactionCountByNumber",
      access: "read",
      params: [blockNumberOrTag],
      doc: "Number of transactions in a block (a quantity); null when there is no such block.",
      handler: async ([b]) => {
        const block = await resolveBlock(node, b);
        return block === undefined ? null : q(block.transactions.length);
      },
    }),
    method({
      name: "eth_getBlockTransactionCountByHash",
      access: "read",
      params: [hash],
      doc: "Number of transactions in the block with a hash; null when unknown.",
      handler: async ([h]) => {
        const block = await resolveBlock(node, byHash(h));
        return block === undefined ? null : q(block.transactions.length);
      },
    }),
    method({
      name: "eth_getTransactionByBlockHashAndIndex",
      access: "read",
      params: [hash, quantity],
      doc: "Transaction at an index of the block with a hash; null when either is unknown.",
      handler: async ([h, i]) => txAt(await resolveBlock(node, byHash(h)), i),
    }),
    method({
      name: "eth_getTransactionByBlockNumberAndIndex",
      access: "read",
      params: [blockNumberOrTag, quantity],
      doc: "Transaction at an index of a block at a height; null when either is unknown.",
      handler: async ([b, i]) => txAt(await resolveBlock(node, b), i),
    }),
    method({
      name: "eth_getBlockReceipts",
      access: "read",
      params: [blockId],
      doc: "Receipts of every transaction of a block; null when there is no such block.",
      handler: async ([b]) => {
        const block = await resolveBlock(node, b);
        if (block === undefined) return null;
        const receipts = (await node.store.getReceipts(block.header.number)) ?? [];
        return block.transactions.map((_, i) => formatReceipt(block, receipts, i));
      },
    }),
    method({
      name: "eth_getUncleCountByBlockHash",
      access: "read",
      params: [hash],
      doc: "Always 0x0 for a known block (this chain has no uncles); null when unknown.",
      handler: async ([h]) => ((await resolveBlock(node, byHash(h))) === undefined ? null : "0x0"),
    }),
    method({
      name: "eth_getUncleCountByBlockNumber",
      access: "read",
      params: [blockNumberOrTag],
      doc: "Always 0x0 for an existing block (this chain has no uncles); null otherwise.",
      handler: async ([b]) => ((await resolveBlock(node, b)) === undefined ? null : "0x0"),
    }),
    method({
      name: "eth_getUncleByBlockHashAndIndex",
      access: "read",
      params: [hash, quantity],
      doc: "Always null: this chain has no uncles (they exist only under proof of work).",
      handler: () => null,
    }),
    method({
      name: "eth_getUncleByBlockNumberAndIndex",
      access: "read",
      params: [blockNumberOrTag, quantity],
      doc: "Always null: this chain has no uncles (they exist only under proof of work).",
      handler: () => null,
    }),
  ];
}
