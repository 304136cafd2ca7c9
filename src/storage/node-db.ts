/**
 * The node's own key-value databases (geth's old `db_*` methods): named databases of byte keys and
 * values kept in the node's store beside the chain, so they live in LevelDB with `--home` and
 * survive a restart (in memory, a store of the node's own: `Node.nodeKv`). They are node-local data,
 * not chain state: blocks, snapshots (`evm_revert`), `debug_setHead`, `hardhat_reset` and state loads
 * leave them alone.
 *
 * Key: "db/" ‖ uint16(len(database)) ‖ database ‖ key. The length keeps ("ab", "c") apart from
 * ("a", "bc"), which geth's plain concatenation did not. Beside them, at "meta/nodekey", the node's
 * identity key (admin_nodeInfo's enode and ENR): made once, so a reset chain keeps its identity.
 */
import { randomBytes } from "node:crypto";
import type { KVStore } from "./kv";

const PREFIX = new TextEncoder().encode("db/");
const NODE_KEY = new TextEncoder().encode("meta/nodekey");

export class NodeDb {
  constructor(private readonly _kv: KVStore) {}

  async get(database: Uint8Array, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this._kv.get(dbKey(database, key));
  }

  /** One batch per value: the write is durable (with a home) when this resolves. */
  async put(database: Uint8Array, key: Uint8Array, value: Uint8Array): Promise<void> {
    await this._kv.batch([{ type: "put", key: dbKey(database, key), value }]);
  }

  /** The node's identity key (32 random bytes, a secp256k1 secret), made and kept on first use. */
  async nodeKey(): Promise<Uint8Array> {
    const kept = await this._kv.get(NODE_KEY);
    if (kept !== undefined) return kept;
    const key = new Uint8Array(randomBytes(32));
    await this._kv.batch([{ type: "put", key: NODE_KEY, value: key }]);
    return key;
  }
}

function dbKey(database: Uint8Array, key: Uint8Array): Uint8Array {
  if (database.length > 0xffff) throw new RangeError("database name longer than 65535 bytes");
  const out = new Uint8Array(PREFIX.length + 2 + database.length + key.length);
  out.set(PREFIX);
  new DataView(out.buffer).setUint16(PREFIX.length, database.length);
  out.set(database, PREFIX.length + 2);
  out.set(key, PREFIX.length + 2 + database.length);
  return out;
}
