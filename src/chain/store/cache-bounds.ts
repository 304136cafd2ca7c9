/** The bounds of a chain's caches, and how full they are (test/chain/cache-bounds.test.ts). */

/** How much of the state the node keeps in memory: its memory is bounded by these, not by the chain's size. */
export interface CacheBounds {
  /** Accounts + storage slots + codes the live state's caches may hold after a block is written. */
  liveEntries: number;
  /** Trie nodes kept in the trie database's read cache. */
  trieNodes: number;
  /** Decoded blocks and their receipts kept besides the store's bytes (in memory as on disk). */
  blocks: number;
}

export const DEFAULT_CACHE_BOUNDS: CacheBounds = { liveEntries: 100_000, trieNodes: 50_000, blocks: 4096 };

/** How full the node's caches are now (`Node.cacheSizes`). */
export interface CacheSizes {
  account: number;
  storage: number;
  code: number;
  trieNodes: number;
  /** Entries cached by the read-only state serving reads at the head. */
  reader: number;
  /** Decoded blocks the block store keeps. */
  blocks: number;
}
