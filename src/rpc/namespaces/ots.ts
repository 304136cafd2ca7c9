/**
 * ots_*: Otterscan's API (level 8), what its block explorer calls besides the eth_* methods, with
 * the shapes of Otterscan's docs and Anvil's answers (test/rpc/ots-anvil.test.ts). Traces come from
 * the callTracer over a replay of the block; address searches from the address index the chain
 * writes with each block (src/chain/store/address-index.ts). Where Anvil departs from Otterscan's own
 * definition (internal operations at depth 0, a page's transactionCount), Otterscan's is followed.
 */
import type { Block } from "@ethereumjs/block";
import { Address, bytesToHex } from "@ethereumjs/util";
import { type CallFrame, type IndexedTx, type Node } from "../../chain";
import type { RpcDeps } from "../deps";
import { type Json, formatBlock, formatReceipt, formatTransaction, q } from "../format";
import { method } from "../method";
import { ParamError, address, codec, hash, numberOrQuantity, parseBlockNumberOrTag } from "../params";
import { resolveHeight } from "../resolve";

/** Otterscan's API level this node implements. */
const OTS_API_LEVEL = 8;

/** A block number as Otterscan sends it: a JSON number, a hex quantity or a tag. */
export const otsBlock = codec((v) => (typeof v === "number" ? parseBlockNumberOrTag(`0x${check(v).toString(16)}`) : parseBlockNumberOrTag(v)));

function check(v: number): number {
  if (!Number.isSafeInteger(v) || v < 0) throw new ParamError(`invalid block number ${v}`);
  return v;
}

const pageArg = codec((v) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new ParamError(`expected a non-negative integer, got ${JSON.stringify(v)}`);
  return v;
});

/** Page sizes above this are cut to it: a search answers in bounded time. */
const MAX_PAGE = 500;

const EMPTY_ISSUANCE = { blockReward: "0x0", uncleReward: "0x0", issuance: "0x0" };

interface FlatFrame {
  frame: CallFrame;
  depth: number;
}

function flatten(frame: CallFrame, depth = 0, out: FlatFrame[] = []): FlatFrame[] {
  out.push({ frame, depth });
  for (const c of frame.calls ?? []) flatten(c, depth + 1, out);
  return out;
}

/** The call tree of a mined transaction (callTracer over its block's replay); null when unknown. */
async function callTree(node: Node, txHash: Uint8Array): Promise<CallFrame | null> {
  if ((await node.store.getTxLocation(txHash)) === undefined) return null;
  return (await node.traces.transaction(txHash, { tracer: "callTracer" })) as CallFrame;
}

async function blockWithReceipts(node: Node, n: bigint | undefined) {
  if (n === undefined) return undefined;
  const block = await node.getBlock(n);
  if (block === undefined) return undefined;
  return { block, receipts: (await node.store.getReceipts(n)) ?? [] };
}

function details(block: Block, receipts: Awaited<ReturnType<Node["store"]["getReceipts"]>>): Json {
  const b = formatBlock(block, false, receipts) as Record<string, Json>;
  delete b.transactions;
  b.transactionCount = block.transactions.length;
  let fees = 0n;
  for (const r of receipts ?? []) fees += r.gasUsed * r.effectiveGasPrice;
  return { block: b, issuance: EMPTY_ISSUANCE, totalFees: q(fees) };
}

/** Transactions and receipts (with the block's timestamp) of search results, newest first. */
async function withReceipts(node: Node, found: IndexedTx[]): Promise<{ txs: Json[]; receipts: Json[] }> {
  const txs: Json[] = [];
  const receipts: Json[] = [];
  const sorted = [...found].sort((a, b) => (a.block === b.block ? b.index - a.index : a.block > b.block ? -1 : 1));
  for (const { block: n, index } of sorted) {
    const b = await blockWithReceipts(node, n);
    if (b === undefined || b.receipts[index] === undefined) continue;
    const tx = b.block.transactions[index];
    txs.push(formatTransaction(tx, b.receipts[index].from, { block: b.block, index }));
    receipts.push({ ...(formatReceipt(b.block, b.receipts, index) as Record<string, Json>), timestamp: q(b.block.header.timestamp) });
  }
  return { txs, receipts };
}

export function otsMethods({ node }: RpcDeps) {
  const search = async (addr: Uint8Array, dir: "before" | "after", from: bigint, pageSize: number) => {
    const limit = Math.min(Math.max(pageSize, 1), MAX_PAGE);
    const { txs: found, more } = await node.addressIndex.find(addr, dir === "before" ? { before: from === 0n ? node.headNumber + 1n : from } : { after: from }, limit);
    const page = await withReceipts(node, found);
    // newest first in both directions: "before" walks back from the newest, "after" forward from the oldest
    return dir === "before" ? { ...page, firstPage: from === 0n, lastPage: !more } : { ...page, firstPage: !more, lastPage: from === 0n };
  };
  return [
    method({
      name: "ots_getApiLevel",
      access: "read",
      params: [],
      doc: "Otterscan's API level this node implements (8).",
      handler: () => OTS_API_LEVEL,
    }),
    method({
      name: "ots_getHeaderByNumber",
      access: "read",
      params: [otsBlock],
      doc: "The block at a number or tag (transaction hashes), as erigon_getHeaderByNumber; null when there is none.",
      handler: async ([b]) => {
        const x = await blockWithReceipts(node, await resolveHeight(node, b));
        return x === undefined ? null : formatBlock(x.block, false, x.receipts);
      },
    }),
    method({
      name: "ots_getBlockDetails",
      access: "read",
      params: [otsBlock],
      doc: "A block without its transactions, with transactionCount, issuance (zero: no block reward) and totalFees; null when there is none.",
      handler: async ([b]) => {
        const x = await blockWithReceipts(node, await resolveHeight(node, b));
        return x === undefined ? null : details(x.block, x.receipts);
      },
    }),
    method({
      name: "ots_getBlockDetailsByHash",
      access: "read",
      params: [hash],
      doc: "ots_getBlockDetails by block hash.",
      handler: async ([h]) => {
        const x = await blockWithReceipts(node, await node.store.getBlockNumber(h));
        return x === undefined ? null : details(x.block, x.receipts);
      },
    }),
    method({
      name: "ots_getBlockTransactions",
      access: "read",
      params: [otsBlock, pageArg, pageArg],
      doc: "One page (pageNumber, pageSize) of a block's transactions in block order, with their receipts (and the block's timestamp); transactionCount is the block's.",
      handler: async ([b, pageNumber, pageSize]) => {
        const x = await blockWithReceipts(node, await resolveHeight(node, b));
        if (x === undefined) return null;
        const size = Math.min(Math.max(pageSize, 1), MAX_PAGE);
        const start = pageNumber * size;
        const indexes = x.block.transactions.map((_t, i) => i).slice(start, start + size);
        const full = formatBlock(x.block, true, x.receipts) as Record<string, Json>;
        full.transactions = indexes.map((i) => (full.transactions as Json[])[i]);
        full.transactionCount = x.block.transactions.length;
        const receipts = indexes.map((i) => ({ ...(formatReceipt(x.block, x.receipts, i) as Record<string, Json>), timestamp: q(x.block.header.timestamp) }));
        return { fullblock: full, receipts };
      },
    }),
    method({
      name: "ots_hasCode",
      access: "read",
      params: [address, otsBlock],
      doc: "Whether an account holds code at a block.",
      handler: async ([a, b]) => {
        const n = await resolveHeight(node, b);
        if (n === undefined) return false;
        const code = await (await node.stateAt(n)).getCode(new Address(a));
        return code.length > 0;
      },
    }),
    method({
      name: "ots_getTransactionError",
      access: "read",
      params: [hash],
      doc: "The revert data of a failed transaction (0x when it succeeded or is unknown).",
      handler: async ([h]) => {
        const m = await node.minedTransaction(h);
        if (m === undefined || m.receipts[m.index].status === 1) return "0x";
        const tree = await callTree(node, h);
        return tree?.output ?? "0x";
      },
    }),
    method({
      name: "ots_getInternalOperations",
      access: "read",
      params: [hash],
      doc: "Value transfers (type 0), self-destructs (1), creates (2) and create2s (3) inside a transaction, below its top call.",
      handler: async ([h]) => {
        const tree = await callTree(node, h);
        if (tree === null) return [];
        const ops: Json[] = [];
        for (const { frame: f, depth } of flatten(tree)) {
          if (depth === 0) continue;
          const value = f.value ?? "0x0";
          if (f.type === "CALL" && BigInt(value) > 0n) ops.push({ type: 0, from: f.from, to: f.to ?? null, value });
          else if (f.type === "SELFDESTRUCT") ops.push({ type: 1, from: f.from, to: f.to ?? null, value });
          else if (f.type === "CREATE") ops.push({ type: 2, from: f.from, to: f.to ?? null, value });
          else if (f.type === "CREATE2") ops.push({ type: 3, from: f.from, to: f.to ?? null, value });
        }
        return ops;
      },
    }),
    method({
      name: "ots_traceTransaction",
      access: "read",
      params: [hash],
      doc: "Every call frame of a transaction, depth first: type, depth, from, to, value (0x0 for STATICCALL and DELEGATECALL), input, output.",
      handler: async ([h]) => {
        const tree = await callTree(node, h);
        if (tree === null) return [];
        return flatten(tree).map(({ frame: f, depth }) => ({
          type: f.type,
          depth,
          from: f.from,
          to: f.to ?? null,
          value: f.value ?? "0x0",
          input: f.input ?? "0x",
          output: f.output ?? "0x",
        }));
      },
    }),
    method({
      name: "ots_getTransactionBySenderAndNonce",
      access: "read",
      params: [address, numberOrQuantity],
      doc: "The hash of the mined transaction an account sent with a nonce; null when there is none.",
      handler: async ([a, nonce]) => {
        const sender = bytesToHex(a);
        const account = new Address(a);
        // The account's nonce only grows: the block that took it past `nonce` holds the transaction
        // (as Erigon finds it), a binary search over the chain's states instead of a scan of the
        // account's whole history (a busy account has tens of thousands of transactions).
        const nonceAt = async (h: bigint): Promise<bigint> => (await (await node.stateAt(h)).getAccount(account))?.nonce ?? 0n;
        let lo = node.firstBlock;
        let hi = node.headNumber;
        if ((await nonceAt(hi)) <= nonce || (await nonceAt(lo)) > nonce) return null;
        while (lo + 1n < hi) {
          const mid = (lo + hi) / 2n;
          if ((await nonceAt(mid)) > nonce) hi = mid;
          else lo = mid;
        }
        const b = await blockWithReceipts(node, hi);
        if (b === undefined) return null;
        for (let i = 0; i < b.block.transactions.length; i++) {
          const tx = b.block.transactions[i];
          // a contract's nonce also grows by its CREATEs, which are no transaction of its own
          if (tx.nonce === nonce && bytesToHex(b.receipts[i].from) === sender) return bytesToHex(tx.hash());
        }
        return null;
      },
    }),
    method({
      name: "ots_getContractCreator",
      access: "read",
      params: [address],
      doc: "The transaction that created a contract and the account that created it (a sender or a contract); null for accounts without code or not created on this chain.",
      handler: async ([a]) => {
        const code = await (await node.stateAt(node.headNumber)).getCode(new Address(a));
        if (code.length === 0) return null;
        const target = bytesToHex(a);
        const { txs } = await node.addressIndex.find(a, { after: -1n }, 1);
        for (const t of txs) {
          const b = await blockWithReceipts(node, t.block);
          const tx = b?.block.transactions[t.index];
          if (tx === undefined) continue;
          const tree = await callTree(node, tx.hash());
          const created = tree === null ? undefined : flatten(tree).find(({ frame: f }) => (f.type === "CREATE" || f.type === "CREATE2") && f.to === target);
          if (created !== undefined) return { hash: bytesToHex(tx.hash()), creator: created.frame.from };
        }
        return null;
      },
    }),
    method({
      name: "ots_searchTransactionsBefore",
      access: "read",
      params: [address, numberOrQuantity, pageArg],
      doc: "Transactions touching an address (sender, recipient, created contract or inside a call) in blocks before a number (0: from the newest), newest first, whole blocks, about pageSize of them.",
      handler: async ([a, from, size]) => search(a, "before", from, size),
    }),
    method({
      name: "ots_searchTransactionsAfter",
      access: "read",
      params: [address, numberOrQuantity, pageArg],
      doc: "As ots_searchTransactionsBefore, in blocks after a number (0: from the oldest), still listed newest first.",
      handler: async ([a, from, size]) => search(a, "after", from, size),
    }),
  ];
}
