/**
 * The root of an ordered trie — item i under the key RLP(i) — as a block's transactions and
 * receipts roots are. Computed straight from the nodes' RLP and keccak: the same root as putting
 * every item into @ethereumjs/mpt's MerklePatriciaTrie (test/chain/ordered-trie.test.ts
 * checks that), without building a trie, its node database and an awaited put per item for every
 * block (that cost more than the rest of sealing a one-transaction block).
 */
import { bytesToNibbles, nibblesToCompactBytes } from "@ethereumjs/mpt";
import { type Input, RLP } from "@ethereumjs/rlp";
import { KECCAK256_RLP } from "@ethereumjs/util";

/** Nibble 16 ends a key (bytesToNibbles appends it): a leaf's compact path then carries the leaf flag. */
const END = 16;
const EMPTY = new Uint8Array();

interface Item {
  /** The key's nibbles, END last. */
  key: Uint8Array;
  value: Uint8Array;
}

export function orderedTrieRoot(values: readonly Uint8Array[], keccak: (data: Uint8Array) => Uint8Array): Uint8Array {
  if (values.length === 0) return KECCAK256_RLP;
  const items = values.map((value, i): Item => ({ key: bytesToNibbles(RLP.encode(i)), value }));
  // the root is the hash of the root node whatever its size
  return keccak(RLP.encode(node(items, 0, keccak)));
}

/** The node holding `items` (distinct keys that agree on their first `depth` nibbles). */
function node(items: Item[], depth: number, keccak: (data: Uint8Array) => Uint8Array): Input {
  if (items.length === 1) return [nibblesToCompactBytes(items[0].key.subarray(depth)), items[0].value];
  // a path every item shares: an extension node over the rest
  let end = depth;
  while (items.every((it) => it.key[end] !== END && it.key[end] === items[0].key[end])) end++;
  if (end > depth) return [nibblesToCompactBytes(items[0].key.subarray(depth, end)), ref(node(items, end, keccak), keccak)];
  // else a branch: one child per next nibble, and the value of a key that ends here
  const groups: Item[][] = Array.from({ length: 16 }, () => []);
  let value: Uint8Array = EMPTY;
  for (const it of items) {
    const n = it.key[depth];
    if (n === END) value = it.value;
    else groups[n].push(it);
  }
  return [...groups.map((g) => (g.length === 0 ? EMPTY : ref(node(g, depth + 1, keccak), keccak))), value];
}

/** How a parent refers to a child: inline when its RLP is shorter than 32 bytes, else by its hash. */
function ref(child: Input, keccak: (data: Uint8Array) => Uint8Array): Input {
  const encoded = RLP.encode(child);
  return encoded.length < 32 ? child : keccak(encoded);
}
