/**
 * Which transactions touch an address: sender, recipient, created contract, and every account a call
 * inside the transaction came from or went to (Otterscan's address search, src/rpc/namespaces/ots.ts).
 *
 * The live VM reports the messages of each transaction as it runs (no replay); the block's commit
 * writes one entry per (address, block, transaction) in the block's own batch, and a rewind deletes
 * the entries of the blocks it drops, using the per-block list of addresses written beside them.
 *
 * Layout in the KVStore: "ai/" ‖ address(20) ‖ block(8) ‖ tx index(4) → 0x01;
 * "ab/" ‖ block(8) → the block's entries' keys' address ‖ tx index parts, concatenated.
 */
import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { type Address, concatBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { type BatchOp, type KVStore, prefixEnd } from "../../storage/kv";
import type { StoredReceipt } from "./chain-store";

const enc = new TextEncoder();
const P_ENTRY = enc.encode("ai/");
const P_BLOCK = enc.encode("ab/");
const ONE = new Uint8Array([1]);

function num(n: bigint, bytes: 4 | 8): Uint8Array {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  if (bytes === 8) view.setBigUint64(0, n);
  else view.setUint32(0, Number(n));
  return out;
}

/** A transaction found for an address. */
export interface IndexedTx {
  block: bigint;
  index: number;
}

export class AddressIndex {
  /** Addresses each transaction of the block being built touched, by transaction hash (hex). */
  private readonly _touched = new Map<string, Set<string>>();
  private _current: Set<string> | undefined;

  constructor(private readonly _kv: KVStore) {}

  /** Listens to the live VM: the messages of each transaction it runs. */
  attach(vm: VM): void {
    vm.events.on("beforeTx", (tx: TypedTransaction) => {
      this._current = new Set();
      this._touched.set(Buffer.from(tx.hash()).toString("hex"), this._current);
    });
    vm.events.on("afterTx", () => {
      this._current = undefined;
    });
    vm.evm.events?.on("beforeMessage", (msg: { caller: Address; to?: Address; codeAddress: Address }) => {
      const set = this._current;
      if (set === undefined) return; // begin/end-block work (epoch hooks) belongs to no transaction
      set.add(msg.caller.toString());
      if (msg.to !== undefined) {
        set.add(msg.to.toString());
        // DELEGATECALL and CALLCODE run another account's code (codeAddress; `to` otherwise)
        set.add(msg.codeAddress.toString());
      }
    });
    vm.evm.events?.on("newContract", (e: { address: Address }) => this._current?.add(e.address.toString()));
  }

  /** The block's entries as batch operations (call once per committed block; the touched sets are then dropped). */
  commitOps(block: Block, receipts: StoredReceipt[]): BatchOp[] {
    const n = block.header.number;
    const ops: BatchOp[] = [];
    const parts: Uint8Array[] = [];
    block.transactions.forEach((tx, i) => {
      const addrs = new Set(this._touched.get(Buffer.from(tx.hash()).toString("hex")) ?? []);
      const r = receipts[i];
      if (r !== undefined) addrs.add(`0x${Buffer.from(r.from).toString("hex")}`);
      if (tx.to !== undefined) addrs.add(tx.to.toString());
      if (r?.contractAddress !== undefined) addrs.add(`0x${Buffer.from(r.contractAddress).toString("hex")}`);
      for (const a of addrs) {
        const addr = Buffer.from(a.slice(2), "hex");
        const part = concatBytes(addr, num(BigInt(i), 4));
        parts.push(part);
        ops.push({ type: "put", key: concatBytes(P_ENTRY, addr, num(n, 8), num(BigInt(i), 4)), value: ONE });
      }
    });
    this._touched.clear();
    if (parts.length > 0) ops.push({ type: "put", key: concatBytes(P_BLOCK, num(n, 8)), value: concatBytes(...parts) });
    return ops;
  }

  /** Forgets what a block that was not written touched. */
  discard(): void {
    this._touched.clear();
    this._current = undefined;
  }

  /** Deletes the entries of the blocks at `heights` (a rewind: the made blocks above its target). */
  async rewindOps(heights: Iterable<bigint>): Promise<BatchOp[]> {
    const ops: BatchOp[] = [];
    for (const n of heights) {
      const key = concatBytes(P_BLOCK, num(n, 8));
      const list = await this._kv.get(key);
      if (list === undefined) continue;
      for (let o = 0; o + 24 <= list.length; o += 24) {
        ops.push({ type: "del", key: concatBytes(P_ENTRY, list.subarray(o, o + 20), num(n, 8), list.subarray(o + 20, o + 24)) });
      }
      ops.push({ type: "del", key });
    }
    return ops;
  }

  /**
   * The transactions touching `address`, newest first below block `before` (exclusive), or oldest
   * first above block `after` (exclusive), until `limit` have been read and the block of the last
   * one is complete (a block's transactions are never split across pages).
   */
  async find(address: Uint8Array, dir: { before: bigint } | { after: bigint }, limit: number): Promise<{ txs: IndexedTx[]; more: boolean }> {
    const prefix = concatBytes(P_ENTRY, address);
    const reverse = "before" in dir;
    const range = reverse ? { gte: prefix, lt: concatBytes(prefix, num(dir.before, 8)), reverse: true } : { gte: concatBytes(prefix, num(dir.after + 1n, 8)), lt: prefixEnd(prefix) };
    const txs: IndexedTx[] = [];
    for await (const [key] of this._kv.range(range)) {
      const view = new DataView(key.buffer, key.byteOffset + prefix.length, 12);
      const tx = { block: view.getBigUint64(0), index: view.getUint32(8) };
      if (txs.length >= limit && tx.block !== txs[txs.length - 1].block) return { txs, more: true };
      txs.push(tx);
    }
    return { txs, more: false };
  }
}
