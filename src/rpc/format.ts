/**
 * Domain → JSON-RPC objects in geth's shapes (docs/json-rpc.md, "Encodings"). Every number leaves as a hex quantity and
 * every byte array as 0x data, so no bigint ever reaches JSON.stringify.
 */
import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex } from "@ethereumjs/util";
import { Bloom } from "@ethereumjs/vm";
import type { StoredLog, StoredReceipt } from "../chain";

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

export function q(n: bigint | number): string {
  return `0x${n.toString(16)}`;
}

/**
 * 0x-prefixed lowercase hex of `b`. Node's Buffer encoder makes one flat string; a byte-by-byte
 * concatenation (EthereumJS's bytesToHex) leaves a rope of one piece per byte until it is read, which
 * made a formatted log ~16 KiB of heap and eth_getLogs of thousands of logs mostly garbage collection.
 */
export function hex(b: Uint8Array): string {
  return `0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex")}`;
}

const EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";

/** A transaction object; `loc` absent for a pending transaction (null block fields). */
export function formatTransaction(tx: TypedTransaction, from: Uint8Array | string, loc?: { block: Block; index: number }): Json {
  const out: Record<string, Json> = {
    blockHash: loc ? hex(loc.block.hash()) : null,
    blockNumber: loc ? q(loc.block.header.number) : null,
    from: typeof from === "string" ? from : hex(from),
    gas: q(tx.gasLimit),
    gasPrice: q(gasPriceOf(tx, loc?.block.header.baseFeePerGas)),
    hash: hex(tx.hash()),
    input: hex(tx.data),
    nonce: q(tx.nonce),
    to: tx.to ? tx.to.toString() : null,
    transactionIndex: loc ? q(loc.index) : null,
    value: q(tx.value),
    type: q(tx.type),
  };
  if ("maxFeePerGas" in tx) {
    out.maxFeePerGas = q(tx.maxFeePerGas);
    out.maxPriorityFeePerGas = q(tx.maxPriorityFeePerGas);
  }
  if ("accessList" in tx) {
    out.accessList = (tx.accessList as Array<[Uint8Array, Uint8Array[]]>).map(([a, keys]) => ({
      address: hex(a),
      storageKeys: keys.map(hex),
    }));
  }
  if (tx.type !== 0 || tx.supports(155)) out.chainId = q(tx.common.chainId());
  if ("authorizationList" in tx) {
    out.authorizationList = (tx.authorizationList as Uint8Array[][]).map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: q(bytesToBig(chainId)),
      address: hex(address),
      nonce: q(bytesToBig(nonce)),
      yParity: q(bytesToBig(yParity)),
      r: q(bytesToBig(r)),
      s: q(bytesToBig(s)),
    }));
  }
  out.v = q(tx.v ?? 0n);
  out.r = q(tx.r ?? 0n);
  out.s = q(tx.s ?? 0n);
  if (tx.type !== 0) out.yParity = q(tx.v ?? 0n);
  return out;
}

function bytesToBig(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(bytesToHex(b));
}

/** Legacy gasPrice; for 1559 transactions the effective price in a mined block, the max fee while pending. */
function gasPriceOf(tx: TypedTransaction, baseFee?: bigint): bigint {
  if (!("maxFeePerGas" in tx)) return (tx as { gasPrice: bigint }).gasPrice;
  if (baseFee === undefined) return tx.maxFeePerGas;
  const tip = tx.maxFeePerGas - baseFee < tx.maxPriorityFeePerGas ? tx.maxFeePerGas - baseFee : tx.maxPriorityFeePerGas;
  return baseFee + tip;
}

/** A block object; with `full`, transactions are objects (their senders from the receipts). */
export function formatBlock(block: Block, full: boolean, receipts: StoredReceipt[] | undefined): Json {
  return blockObject(block, { full, receipts });
}

/**
 * The block object, or with `headerOnly` the header fields alone in the same order (newHeads): the
 * block's serialisation (its size) and the transactions are then not computed at all.
 */
function blockObject(block: Block, o: { full: boolean; receipts: StoredReceipt[] | undefined; headerOnly?: boolean }): Json {
  const { full, receipts } = o;
  const h = block.header;
  const out: Record<string, Json> = {
    number: q(h.number),
    hash: hex(block.hash()),
    parentHash: hex(h.parentHash),
    mixHash: hex(h.mixHash),
    nonce: hex(h.nonce),
    sha3Uncles: hex(h.uncleHash),
    logsBloom: hex(h.logsBloom),
    transactionsRoot: hex(h.transactionsTrie),
    stateRoot: hex(h.stateRoot),
    receiptsRoot: hex(h.receiptTrie),
    miner: hex(h.coinbase.bytes),
    difficulty: q(h.difficulty),
  };
  if (o.headerOnly !== true) out.totalDifficulty = "0x0";
  out.extraData = hex(h.extraData);
  if (o.headerOnly !== true) out.size = q(block.serialize().length);
  out.gasLimit = q(h.gasLimit);
  out.gasUsed = q(h.gasUsed);
  out.timestamp = q(h.timestamp);
  if (o.headerOnly !== true) {
    out.transactions = block.transactions.map((tx, i) => (full ? formatTransaction(tx, receipts?.[i]?.from ?? tx.getSenderAddress().bytes, { block, index: i }) : hex(tx.hash())));
    out.uncles = [];
  }
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = q(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) {
    out.withdrawalsRoot = hex(h.withdrawalsRoot);
    if (o.headerOnly !== true) out.withdrawals = [];
  }
  if (h.blobGasUsed !== undefined) out.blobGasUsed = q(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = q(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = hex(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) out.requestsHash = hex(h.requestsHash);
  if (out.sha3Uncles === "0x") out.sha3Uncles = EMPTY_UNCLES;
  return out;
}

/** Header fields only (newHeads), the same values as the block object. */
export function formatHeader(block: Block): Json {
  return blockObject(block, { full: false, receipts: [], headerOnly: true });
}

export function formatLog(log: StoredLog, block: Block, txIndex: number, logIndex: number): Json {
  return new LogFormatter(block).format(log, txIndex, logIndex);
}

/**
 * Formats the logs of one block: the block's number and hash and each transaction's hash are
 * encoded once, not once per log (eth_getLogs over thousands of logs: three strings fewer per log).
 */
export class LogFormatter {
  private readonly _number: string;
  private readonly _hash: string;
  private readonly _txHashes: Array<string | undefined> = [];

  constructor(private readonly _block: Block) {
    this._number = q(_block.header.number);
    this._hash = hex(_block.hash());
  }

  format(log: StoredLog, txIndex: number, logIndex: number): Json {
    let txHash = this._txHashes[txIndex];
    if (txHash === undefined) this._txHashes[txIndex] = txHash = hex(this._block.transactions[txIndex].hash());
    return {
      address: hex(log.address),
      topics: log.topics.map(hex),
      data: hex(log.data),
      blockNumber: this._number,
      transactionHash: txHash,
      transactionIndex: q(txIndex),
      blockHash: this._hash,
      logIndex: q(logIndex),
      removed: false,
    };
  }
}

/** The receipt of transaction `index` of `block`; log indexes count across the block. */
export function formatReceipt(block: Block, receipts: StoredReceipt[], index: number): Json {
  const r = receipts[index];
  const tx = block.transactions[index];
  let firstLog = 0;
  for (let i = 0; i < index; i++) firstLog += receipts[i].logs.length;
  const logs = new LogFormatter(block);
  const bloom = new Bloom(undefined, tx.common);
  for (const l of r.logs) {
    bloom.add(l.address);
    for (const t of l.topics) bloom.add(t);
  }
  return {
    transactionHash: hex(tx.hash()),
    transactionIndex: q(index),
    blockHash: hex(block.hash()),
    blockNumber: q(block.header.number),
    from: hex(r.from),
    to: tx.to ? tx.to.toString() : null,
    cumulativeGasUsed: q(r.cumulativeGasUsed),
    gasUsed: q(r.gasUsed),
    contractAddress: r.contractAddress ? hex(r.contractAddress) : null,
    logs: r.logs.map((l, i) => logs.format(l, index, firstLog + i)),
    logsBloom: hex(bloom.bitvector),
    type: q(tx.type),
    status: q(r.status),
    effectiveGasPrice: q(r.effectiveGasPrice),
  };
}
