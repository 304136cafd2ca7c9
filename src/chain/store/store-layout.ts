/**
 * How the chain store (src/chain/store/chain-store.ts) lays its data out in the KVStore, and how it
 * encodes receipts and module events. Changing any of it changes what earlier data directories
 * hold: read old bytes as they were written.
 *
 * Keys: "H"‖number(8) → hash · "B"‖hash → block RLP · "R"‖number(8) → receipts RLP ·
 *       "T"‖txHash → RLP[number, index] · "E"‖number(8) → module events JSON · "head" → number(8) ·
 *       "P"‖number(8) → the state the block started from, only when it is not its parent's post-state
 *       (hardhat_set* changes made between the blocks; re-execution starts there) ·
 *       "L"‖number(8) → logs bloom, only for blocks that have logs (the log index: eth_getLogs range-scans
 *       these keys, so blocks without logs cost nothing and blooms that cannot match skip a block
 *       without reading it or its receipts) ·
 *       "V"‖first(8) → a reserved range of empty blocks (src/chain/store/reserved-blocks.ts): its blocks have
 *       no other key; they are made from the record when read
 */
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex } from "@ethereumjs/util";

export interface StoredLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface StoredReceipt {
  /** 1 success, 0 failure (docs/json-rpc.md, "Sending and receipts"). */
  status: number;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  from: Uint8Array;
  contractAddress?: Uint8Array;
  logs: StoredLog[];
}

export const enc = new TextEncoder();
export const dec = new TextDecoder();
export const P_HASH = enc.encode("H");
export const P_BLOCK = enc.encode("B");
export const P_RECEIPTS = enc.encode("R");
export const P_TX = enc.encode("T");
export const P_EVENTS = enc.encode("E");
export const P_LOGS = enc.encode("L");
export const P_PRESTATE = enc.encode("P");
export const P_RESERVED = enc.encode("V");
/** Hashes of reserved blocks read so far, for lookups by hash (a block's hash is known once it was read). */
export const RESERVED_HASHES = 65_536;
export const K_HEAD = enc.encode("head");

export function num8(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

export function key(prefix: Uint8Array, rest: Uint8Array): Uint8Array {
  const out = new Uint8Array(prefix.length + rest.length);
  out.set(prefix);
  out.set(rest, prefix.length);
  return out;
}

/** The block number of a log-index key ("L"‖number(8)), undefined for any other key. */
export function logKeyNumber(k: Uint8Array): bigint | undefined {
  if (k.length !== 1 + 8) return undefined;
  return new DataView(k.buffer, k.byteOffset + 1, 8).getBigUint64(0);
}

export function encodeReceipts(receipts: StoredReceipt[]): Uint8Array {
  return RLP.encode(
    receipts.map((r) => [
      bigIntToUnpaddedBytes(BigInt(r.status)),
      bigIntToUnpaddedBytes(r.cumulativeGasUsed),
      bigIntToUnpaddedBytes(r.gasUsed),
      bigIntToUnpaddedBytes(r.effectiveGasPrice),
      r.from,
      r.contractAddress ?? new Uint8Array(),
      r.logs.map((l) => [l.address, l.topics, l.data]),
    ]),
  );
}

export function decodeReceipts(bytes: Uint8Array): StoredReceipt[] {
  const rows = RLP.decode(bytes) as unknown as Array<[Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Array<[Uint8Array, Uint8Array[], Uint8Array]>]>;
  return rows.map(([status, cumulative, gasUsed, price, from, contract, logs]) => ({
    status: Number(bytesToBigInt(status)),
    cumulativeGasUsed: bytesToBigInt(cumulative),
    gasUsed: bytesToBigInt(gasUsed),
    effectiveGasPrice: bytesToBigInt(price),
    from,
    contractAddress: contract.length > 0 ? contract : undefined,
    logs: logs.map(([address, topics, data]) => ({ address, topics, data })),
  }));
}

// Byte arrays inside event logs travel through JSON as hex.
export function eventReplacer(_k: string, v: unknown): unknown {
  return v instanceof Uint8Array ? { $bytes: bytesToHex(v) } : v;
}
export function eventReviver(_k: string, v: unknown): unknown {
  if (v !== null && typeof v === "object" && "$bytes" in v && typeof (v as { $bytes: unknown }).$bytes === "string") {
    return new Uint8Array(Buffer.from((v as { $bytes: string }).$bytes.slice(2), "hex"));
  }
  return v;
}
