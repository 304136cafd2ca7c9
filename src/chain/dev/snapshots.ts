/**
 * Snapshots (evm_snapshot / evm_revert): one plain record of everything a revert restores. The node
 * (src/chain/node.ts) takes and applies the records; this keeps them by id.
 */
import type { Clock } from "../base/clock";
import type { NodeSettings } from "../base/config";
import type { PooledTx } from "../pool/txpool";

interface Snapshot {
  /** The chain instance it was taken on (a state load on a fresh node replaces it: src/chain/node.ts). */
  chain: object;
  head: bigint;
  stateRoot: Uint8Array;
  pool: PooledTx[];
  clock: ReturnType<Clock["snapshot"]>;
  settings: NodeSettings;
}

export class Snapshots {
  private readonly _byId = new Map<number, Snapshot>();
  private _nextId = 1;

  /** Keeps `snap`; returns its id. */
  take(snap: Snapshot): number {
    const id = this._nextId++;
    this._byId.set(id, snap);
    return id;
  }

  /** The snapshot `id`, dropped with every later one (as Hardhat: a snapshot is used once); undefined when unknown. */
  takeBack(id: number): Snapshot | undefined {
    const snap = this._byId.get(id);
    if (snap === undefined) return undefined;
    for (const k of [...this._byId.keys()]) if (k >= id) this._byId.delete(k);
    return snap;
  }

  /** Drops every snapshot; ids start over (as Hardhat's on a reset chain). */
  clear(): void {
    this._byId.clear();
    this._nextId = 1;
  }
}
