import { expect } from "chai";
import { countBoundedLRU } from "../../src/utils/lru";

describe("countBoundedLRU", () => {
  it("keeps at most its number of entries, dropping the least recently used first", () => {
    const lru = countBoundedLRU<string, number>(3);
    for (const [k, v] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      lru.set(k, v);
    expect(lru.get("a")).to.equal(1); // a is now the most recent
    lru.set("d", 4);
    expect(lru.size).to.equal(3);
    expect([...lru.keys()].sort()).to.deep.equal(["a", "c", "d"]);
    for (let i = 0; i < 100; i++) lru.set(`k${i}`, i);
    expect(lru.size).to.equal(3);
    expect(lru.get("k99")).to.equal(99);
  });

  it("allocates nothing up front for its bound (lru-cache's `max` fills arrays of that length)", () => {
    const before = process.memoryUsage().heapUsed;
    const caches = Array.from({ length: 20 }, () => countBoundedLRU<string, number>(1_000_000));
    const grown = process.memoryUsage().heapUsed - before;
    expect(caches).to.have.length(20);
    // 20 caches with `max: 1_000_000` would take ~320 MB; these take a few KB
    expect(grown).to.be.lessThan(16 * 1024 * 1024);
  });
});
