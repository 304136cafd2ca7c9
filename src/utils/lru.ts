/**
 * An LRU cache bounded by its number of entries, that grows as it fills. lru-cache's `max` option
 * allocates and fills arrays for all `max` entries when the cache is made (a 50,000-entry bound:
 * ~1 MB at once); every chain has several such caches, and a test suite that builds a chain per test
 * (Hardhat 3's `network.create()`) paid for them each time, mostly empty. Counting each entry as
 * size 1 under `maxSize` bounds the same number of entries without the up-front arrays.
 */
import { LRUCache } from "lru-cache";

export function countBoundedLRU<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(maxEntries: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: Math.max(1, maxEntries), sizeCalculation: () => 1 });
}
