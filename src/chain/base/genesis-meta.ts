/**
 * The chain identity of a store: its chain id and genesis hash, written with the genesis block in its
 * batch and checked on every reopen, so a data directory is never resumed under another chain's
 * genesis file (the node would otherwise sign and serve with the wrong chain id).
 *
 * Key "meta/genesis" → JSON {"chainId": "<decimal>", "genesisHash": "0x…"}.
 */
import type { BatchOp, KVStore } from "../../storage/kv";

interface GenesisMeta {
  chainId: bigint;
  genesisHash: string;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const K_META = enc.encode("meta/genesis");
/** Written by the first data directories: the chain id alone, in decimal. */
const K_LEGACY_CHAIN_ID = enc.encode("chainid");

/** The batch operation that records `meta` (part of the genesis block's batch). */
export function genesisMetaOps(meta: GenesisMeta): BatchOp[] {
  const value = enc.encode(JSON.stringify({ chainId: meta.chainId.toString(), genesisHash: meta.genesisHash }));
  return [{ type: "put", key: K_META, value }];
}

/** The stored identity; a legacy chain-id-only record gives `genesisHash` undefined; none gives undefined. */
export async function readGenesisMeta(kv: KVStore): Promise<{ chainId: bigint; genesisHash?: string } | undefined> {
  const raw = await kv.get(K_META);
  if (raw !== undefined) {
    const parsed = JSON.parse(dec.decode(raw)) as { chainId: string; genesisHash: string };
    return { chainId: BigInt(parsed.chainId), genesisHash: parsed.genesisHash };
  }
  const legacy = await kv.get(K_LEGACY_CHAIN_ID);
  return legacy === undefined ? undefined : { chainId: BigInt(dec.decode(legacy)) };
}

/** How errors name the store: the data directory of a LevelDB home, or "(in memory)". */
export function storeName(kv: KVStore): string {
  const dir = (kv as { dir?: unknown }).dir;
  return typeof dir === "string" ? dir : "(in memory)";
}

/**
 * Checks a reopened store against the configured chain id and its own genesis block.
 * Returns the operations that complete a missing or legacy record (empty when it is current).
 */
export async function checkGenesisMeta(kv: KVStore, chainId: bigint, storedGenesisHash: string): Promise<BatchOp[]> {
  const meta = await readGenesisMeta(kv);
  if (meta !== undefined && meta.chainId !== chainId) {
    throw new Error(`data directory ${storeName(kv)} holds chain ${meta.chainId}, but the genesis file says chain id ${chainId}`);
  }
  if (meta?.genesisHash !== undefined && meta.genesisHash !== storedGenesisHash) {
    throw new Error(`data directory ${storeName(kv)} is damaged: its genesis block ${storedGenesisHash} is not the recorded genesis ${meta.genesisHash}`);
  }
  if (meta?.genesisHash !== undefined) return [];
  // a store from before this record (or a legacy one) gets it now, under the chain id it already had
  return [...genesisMetaOps({ chainId: meta?.chainId ?? chainId, genesisHash: storedGenesisHash }), { type: "del", key: K_LEGACY_CHAIN_ID }];
}
