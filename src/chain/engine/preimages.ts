/**
 * Preimages of the state trie's keys: the address behind each account key and the slot behind each
 * storage key. The tries hash their keys (keccak256), so without these a state cannot be listed by
 * address and slot — what a state dump (src/chain/dev/state-dump.ts) and Anvil's format need.
 *
 * The live state manager reports every address and slot it writes (src/chain/engine/state-manager.ts);
 * the preimages are written with the next block's batch (or at once after a change between blocks).
 * A preimage is true forever, so nothing is rewound with the chain.
 *
 * Layout in the KVStore: "pre/" ‖ keccak256(preimage) → preimage.
 */
import { countBoundedLRU } from "../../utils/lru";
import type { BatchOp, KVStore } from "../../storage/kv";
import { keccak256 } from "../../utils/keccak";

const PREFIX = new TextEncoder().encode("pre/");
/** Hashes recently written, so an account written in every block is hashed and written once. */
const RECENT = 4096;

function key(hash: Uint8Array): Uint8Array {
  const out = new Uint8Array(PREFIX.length + hash.length);
  out.set(PREFIX);
  out.set(hash, PREFIX.length);
  return out;
}

export class Preimages {
  /** Not written yet, by hash (hex). */
  private readonly _pending = new Map<string, Uint8Array>();
  /** The last drained operations, until their batch is known written. */
  private _drained = new Map<string, Uint8Array>();
  /** Preimages already written (or pending), by the preimage itself: no hash needed to skip them. */
  private readonly _recent = countBoundedLRU<string, true>(RECENT);

  constructor(private readonly _kv: KVStore) {}

  /** Records an address (20 bytes) or a storage slot (32 bytes) the state wrote. */
  record(preimage: Uint8Array): void {
    const id = Buffer.from(preimage).toString("hex");
    if (this._recent.has(id)) return;
    this._recent.set(id, true);
    this._pending.set(Buffer.from(keccak256(preimage)).toString("hex"), Uint8Array.from(preimage));
  }

  /** The pending preimages as batch operations; `undrain()` takes them back if the batch failed. */
  drainOps(): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const [hash, preimage] of this._pending) ops.push({ type: "put", key: key(Buffer.from(hash, "hex")), value: preimage });
    this._drained = new Map(this._pending);
    this._pending.clear();
    return ops;
  }

  /** The last drained preimages were not written: they are pending again. */
  undrain(): void {
    for (const [hash, preimage] of this._drained) this._pending.set(hash, preimage);
    this._drained.clear();
  }

  /** Writes the pending preimages now (after a change between blocks). */
  async flush(): Promise<void> {
    const ops = this.drainOps();
    if (ops.length === 0) return;
    try {
      await this._kv.batch(ops);
    } catch (err) {
      this.undrain();
      throw err;
    }
  }

  /** The address or slot whose keccak256 is `hash`, if the chain ever wrote it. */
  async lookup(hash: Uint8Array): Promise<Uint8Array | undefined> {
    return this._pending.get(Buffer.from(hash).toString("hex")) ?? this._kv.get(key(hash));
  }
}
