/**
 * The module-store change log that versions up to 0.1.0 wrote beside the chain, read-only. Module
 * stores are EVM state now (src/chain/base/module-state.ts); a data directory written before that keeps
 * its log, and the chain reads it only for heights whose state holds no store record: the head once,
 * when it is opened (the store is then written into the live state), and older heights for calls and
 * replays there. Nothing writes the log any more.
 *
 * Layout: "m/" ‖ module ‖ "/" ‖ height (8 bytes, big-endian) ‖ key → 0x01 ‖ value, or 0x00 (deleted).
 */
import { type KVStore, prefixEnd } from "./kv";

const enc = new TextEncoder();

function logPrefix(module: string): Uint8Array {
  return enc.encode(`m/${module}/`);
}

/** True when `kv` holds a change log of module `module`. */
export async function hasLegacyModuleLog(kv: KVStore, module: string): Promise<boolean> {
  const prefix = logPrefix(module);
  for await (const _ of kv.range({ gte: prefix, lt: prefixEnd(prefix), limit: 1 })) return true;
  return false;
}

/** The module's entries as of block `height` (the latest change at or below it per key), in key order. */
export async function readLegacyModuleSet(kv: KVStore, module: string, height: bigint): Promise<Array<[Uint8Array, Uint8Array]>> {
  const prefix = logPrefix(module);
  const end = new Uint8Array(prefix.length + 8);
  end.set(prefix);
  new DataView(end.buffer).setBigUint64(prefix.length, height + 1n);
  const set = new Map<string, [Uint8Array, Uint8Array]>();
  for await (const [key, value] of kv.range({ gte: prefix, lt: end })) {
    const k = key.subarray(prefix.length + 8);
    const id = Buffer.from(k).toString("hex");
    if (value[0] === 1) set.set(id, [Uint8Array.from(k), Uint8Array.from(value.subarray(1))]);
    else set.delete(id);
  }
  return [...set.values()];
}
