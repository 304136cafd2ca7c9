import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { orderedTrieRoot } from "../../src/chain/block/ordered-trie";
import { keccak256 } from "../../src/utils/keccak";

/** The root EthereumJS's trie gives the same items (what genTransactionsTrieRoot does). */
async function mptRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie();
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]);
  return trie.root();
}

// a deterministic spread of value sizes: tiny ones make inline (< 32-byte) nodes, big ones hashed nodes
function values(n: number, seed: number): Uint8Array[] {
  let x = seed;
  const next = (): number => (x = (x * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: n }, () => {
    const len = [1, 2, 5, 20, 31, 33, 120, 600][next() % 8];
    return Uint8Array.from({ length: len }, () => next() % 256);
  });
}

describe("orderedTrieRoot", function () {
  this.timeout(60_000);

  it("gives the root of EthereumJS's trie for 0 to 300 items of any size (block transactions and receipts roots)", async () => {
    const counts = [...Array.from({ length: 40 }, (_, i) => i), 127, 128, 129, 200, 255, 256, 257, 300];
    for (const n of counts) {
      for (const seed of [1, 7]) {
        const v = values(n, seed + n);
        expect(Buffer.from(orderedTrieRoot(v, keccak256)).toString("hex"), `${n} items, seed ${seed}`).to.equal(Buffer.from(await mptRoot(v)).toString("hex"));
      }
    }
  });

  it("is the empty trie's root for no items and changes with any item", async () => {
    expect(orderedTrieRoot([], keccak256)).to.deep.equal(await mptRoot([]));
    const v = values(10, 3);
    const changed = v.map((x, i) => (i === 6 ? Uint8Array.from([...x, 1]) : x));
    expect(orderedTrieRoot(changed, keccak256)).to.not.deep.equal(orderedTrieRoot(v, keccak256));
  });
});
