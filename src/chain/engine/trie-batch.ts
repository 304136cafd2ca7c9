/**
 * Changes to a Merkle-Patricia trie applied as one batch: what a flush of the state manager wrote
 * (a block's accounts, or one account's storage slots) is applied in memory to the nodes it touches,
 * each new node is hashed once at the end, and only the new nodes are handed back for the node
 * database. The state manager's reads of accounts and slots go through the same kept nodes (`get`).
 *
 * Why: @ethereumjs/mpt walks from the root for every put, reading and decoding each node from its
 * database, and hashes and writes the whole path again for each key; the keys of one block share
 * their upper nodes, so most of that work was done again and again (the trie writes were the largest
 * part of sealing a block after the transactions themselves: CPU profile of `npm run bench:ops`).
 *
 * Same tries, same bytes: node encoding as @ethereumjs/mpt's (inline nodes under 32 bytes, the root
 * stored whatever its size), so EthereumJS reads what this writes and every root is the one
 * @ethereumjs/mpt computes for the same changes (test/chain/trie-batch.test.ts compares them
 * over seeded random changes). Decoded nodes are kept by hash, least recently used dropped first:
 * a node's hash fixes its content, so a kept node is valid at any root that reaches it, and the next
 * block starts from the nodes the last one made.
 */
import { compactBytesToNibbles, nibblesToCompactBytes } from "@ethereumjs/mpt";
import { type Input, type NestedUint8Array, RLP } from "@ethereumjs/rlp";
import { KECCAK256_RLP, concatBytes, equalsBytes } from "@ethereumjs/util";
import type { LRUCache } from "lru-cache";
import { countBoundedLRU } from "../../utils/lru";

const LEAF = 0;
const EXTENSION = 1;
const BRANCH = 2;
/** Nibble 16 ends a leaf's path in the compact encoding. */
const END = 16;
const EMPTY = new Uint8Array();

/** A child: a node in memory, or the hash of one not read yet. */
type Ref = TrieNode | Uint8Array;

interface Encoded {
  /** The node's RLP, once computed (or as read). */
  enc?: Uint8Array;
  /** Its hash, once it has one: read by it, or hashed because its RLP has 32 bytes or more. */
  hash?: Uint8Array;
  /** Its RLP structure, kept for a node small enough to sit inside its parent. */
  raw?: Input;
}
interface Leaf extends Encoded {
  kind: typeof LEAF;
  path: Uint8Array;
  value: Uint8Array;
}
interface Extension extends Encoded {
  kind: typeof EXTENSION;
  path: Uint8Array;
  child: Ref;
}
interface Branch extends Encoded {
  kind: typeof BRANCH;
  children: Array<Ref | undefined>;
  value: Uint8Array | undefined;
}
type TrieNode = Leaf | Extension | Branch;

/** Where nodes are read: by hash (a trie's node database). */
interface NodeSource {
  get(hash: Uint8Array): Promise<Uint8Array | undefined>;
}

/** One change: `key` as the trie holds it (already hashed for a secure trie); no value deletes it. */
export interface TrieChange {
  key: Uint8Array;
  value: Uint8Array | undefined;
}

export interface NodeWrite {
  hash: Uint8Array;
  encoded: Uint8Array;
}

const leaf = (path: Uint8Array, value: Uint8Array): Leaf => ({ kind: LEAF, path, value });
const extension = (path: Uint8Array, child: Ref): Extension => ({ kind: EXTENSION, path, child });

function keyNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i] >> 4;
    out[2 * i + 1] = key[i] & 15;
  }
  return out;
}

/** How many nibbles `path` and `key` (from `at`) share at their start. */
function shared(path: Uint8Array, key: Uint8Array, at: number): number {
  const max = Math.min(path.length, key.length - at);
  let n = 0;
  while (n < max && path[n] === key[at + n]) n++;
  return n;
}

/** A node from its RLP structure (a child that is a list sits inline, a 32-byte string is a hash). */
function decodeRaw(raw: NestedUint8Array): TrieNode {
  if (raw.length === 17) {
    const children: Array<Ref | undefined> = new Array(16);
    for (let i = 0; i < 16; i++) {
      const c = raw[i];
      children[i] = c instanceof Uint8Array ? (c.length === 0 ? undefined : c) : decodeRaw(c);
    }
    const v = raw[16] as Uint8Array;
    return { kind: BRANCH, children, value: v.length === 0 ? undefined : v };
  }
  if (raw.length !== 2) throw new Error(`trie node with ${raw.length} items`);
  const nibbles = compactBytesToNibbles(raw[0] as Uint8Array);
  if (nibbles.length > 0 && nibbles[nibbles.length - 1] === END) return leaf(nibbles.subarray(0, nibbles.length - 1), raw[1] as Uint8Array);
  const c = raw[1];
  return extension(nibbles, c instanceof Uint8Array ? c : decodeRaw(c));
}

export class TrieBatch {
  private readonly _nodes: LRUCache<string, TrieNode>;

  /** `keccak`: the chain's hash; `keep`: decoded nodes kept between batches. */
  constructor(
    private readonly _keccak: (data: Uint8Array) => Uint8Array,
    keep = 10_000,
  ) {
    this._nodes = countBoundedLRU(keep);
  }

  /** Nodes kept decoded. */
  get size(): number {
    return this._nodes.size;
  }

  /**
   * Applies `changes` in order to the trie at `root` (read from `source`): the new root and the
   * nodes to write for it (those it did not have before; the root always, as @ethereumjs/mpt stores it).
   */
  async apply(source: NodeSource, root: Uint8Array, changes: readonly TrieChange[]): Promise<{ root: Uint8Array; writes: NodeWrite[] }> {
    let top: TrieNode | undefined = equalsBytes(root, KECCAK256_RLP) ? undefined : await this._load(source, root);
    for (const c of changes) {
      const key = keyNibbles(c.key);
      top = c.value === undefined || c.value.length === 0 ? await this._del(source, top, key, 0) : await this._put(source, top, key, 0, c.value);
    }
    if (top === undefined) return { root: KECCAK256_RLP, writes: [] };
    const writes: NodeWrite[] = [];
    const enc = this._encode(top, writes);
    if (top.hash === undefined) {
      top.hash = this._keccak(enc);
      writes.push({ hash: top.hash, encoded: enc });
      this._keep(top);
    }
    return { root: top.hash, writes };
  }

  /** The value at `key` in the trie at `root` (read through the kept nodes), or undefined. */
  async get(source: NodeSource, root: Uint8Array, key: Uint8Array): Promise<Uint8Array | undefined> {
    if (equalsBytes(root, KECCAK256_RLP)) return undefined;
    const path = keyNibbles(key);
    let node = await this._load(source, root);
    let at = 0;
    for (;;) {
      if (node.kind === LEAF) return node.path.length === path.length - at && shared(node.path, path, at) === node.path.length ? node.value : undefined;
      let next: Ref | undefined;
      if (node.kind === EXTENSION) {
        if (shared(node.path, path, at) !== node.path.length) return undefined;
        at += node.path.length;
        next = node.child;
      } else {
        if (at === path.length) return node.value;
        next = node.children[path[at]];
        if (next === undefined) return undefined;
        at++;
      }
      node = next instanceof Uint8Array ? await this._load(source, next) : next;
    }
  }

  private async _load(source: NodeSource, hash: Uint8Array): Promise<TrieNode> {
    const id = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString("hex");
    const kept = this._nodes.get(id);
    if (kept !== undefined) return kept;
    const bytes = await source.get(hash);
    if (bytes === undefined) throw new Error(`missing trie node ${id}`);
    const node = decodeRaw(RLP.decode(bytes) as NestedUint8Array);
    node.enc = bytes;
    node.hash = hash;
    this._nodes.set(id, node);
    return node;
  }

  private _keep(node: TrieNode): void {
    const h = node.hash as Uint8Array;
    this._nodes.set(Buffer.from(h.buffer, h.byteOffset, h.byteLength).toString("hex"), node);
  }

  private _resolve(source: NodeSource, ref: Ref): Promise<TrieNode> | TrieNode {
    return ref instanceof Uint8Array ? this._load(source, ref) : ref;
  }

  /** The node holding `node`'s keys plus key[at..] = value. Nodes are never changed in place: they may be kept and shared. */
  private async _put(source: NodeSource, node: TrieNode | undefined, key: Uint8Array, at: number, value: Uint8Array): Promise<TrieNode> {
    if (node === undefined) return leaf(key.slice(at), value);
    if (node.kind === BRANCH) {
      if (at === key.length) return node.value !== undefined && equalsBytes(node.value, value) ? node : { kind: BRANCH, children: node.children.slice(), value };
      const i = key[at];
      const before = node.children[i];
      const child = before === undefined ? undefined : await this._resolve(source, before);
      const after = await this._put(source, child, key, at + 1, value);
      if (after === child) return node;
      const children = node.children.slice();
      children[i] = after;
      return { kind: BRANCH, children, value: node.value };
    }
    const n = shared(node.path, key, at);
    if (node.kind === LEAF && n === node.path.length && at + n === key.length) return equalsBytes(node.value, value) ? node : leaf(node.path, value);
    if (node.kind === EXTENSION && n === node.path.length) {
      const child = await this._resolve(source, node.child);
      const after = await this._put(source, child, key, at + n, value);
      return after === child ? node : extension(node.path, after);
    }
    // the paths part at nibble n: a branch there, under an extension for what they share
    const branch: Branch = { kind: BRANCH, children: new Array(16), value: undefined };
    if (node.kind === LEAF) {
      if (n === node.path.length) branch.value = node.value;
      else branch.children[node.path[n]] = leaf(node.path.slice(n + 1), node.value);
    } else {
      const rest = node.path.subarray(n + 1);
      branch.children[node.path[n]] = rest.length === 0 ? node.child : extension(rest.slice(), node.child);
    }
    if (at + n === key.length) branch.value = value;
    else branch.children[key[at + n]] = leaf(key.slice(at + n + 1), value);
    return n > 0 ? extension(node.path.slice(0, n), branch) : branch;
  }

  /** The node holding `node`'s keys without key[at..]; the same node when it did not hold it. */
  private async _del(source: NodeSource, node: TrieNode | undefined, key: Uint8Array, at: number): Promise<TrieNode | undefined> {
    if (node === undefined) return undefined;
    if (node.kind === LEAF) return node.path.length === key.length - at && shared(node.path, key, at) === node.path.length ? undefined : node;
    if (node.kind === EXTENSION) {
      if (shared(node.path, key, at) !== node.path.length) return node;
      const child = await this._resolve(source, node.child);
      const after = await this._del(source, child, key, at + node.path.length);
      if (after === child) return node;
      return after === undefined ? undefined : this._under(node.path, after);
    }
    const children = node.children.slice();
    let value = node.value;
    if (at === key.length) {
      if (value === undefined) return node;
      value = undefined;
    } else {
      const i = key[at];
      const before = children[i];
      if (before === undefined) return node;
      const child = await this._resolve(source, before);
      const after = await this._del(source, child, key, at + 1);
      if (after === child) return node;
      children[i] = after;
    }
    // a branch must hold two things: with one left it becomes that one under a longer path
    let count = value === undefined ? 0 : 1;
    let only = -1;
    for (let i = 0; i < 16; i++) {
      if (children[i] === undefined) continue;
      count++;
      only = i;
    }
    if (count >= 2) return { kind: BRANCH, children, value };
    if (only < 0) return value === undefined ? undefined : leaf(EMPTY, value);
    return this._under(Uint8Array.of(only), await this._resolve(source, children[only] as Ref));
  }

  /** `node` reached through `path` more: paths of leaves and extensions join, a branch gets an extension. */
  private _under(path: Uint8Array, node: TrieNode): TrieNode {
    if (node.kind === LEAF) return leaf(concatBytes(path, node.path), node.value);
    if (node.kind === EXTENSION) return extension(concatBytes(path, node.path), node.child);
    return extension(path.slice(), node);
  }

  /** The node's RLP (computed once: a node with an encoding is never changed). */
  private _encode(node: TrieNode, writes: NodeWrite[]): Uint8Array {
    if (node.enc !== undefined) return node.enc;
    let raw: Input;
    if (node.kind === LEAF) {
      const path = new Uint8Array(node.path.length + 1);
      path.set(node.path);
      path[node.path.length] = END;
      raw = [nibblesToCompactBytes(path), node.value];
    } else if (node.kind === EXTENSION) {
      raw = [nibblesToCompactBytes(node.path), this._ref(node.child, writes)];
    } else {
      const items: Input[] = new Array(17);
      for (let i = 0; i < 16; i++) {
        const c = node.children[i];
        items[i] = c === undefined ? EMPTY : this._ref(c, writes);
      }
      items[16] = node.value ?? EMPTY;
      raw = items;
    }
    const enc = RLP.encode(raw);
    node.enc = enc;
    if (enc.length < 32) node.raw = raw;
    return enc;
  }

  /** How a parent holds a child: inline when its RLP is under 32 bytes, else its hash (a new node is written). */
  private _ref(child: Ref, writes: NodeWrite[]): Input {
    if (child instanceof Uint8Array) return child;
    const enc = this._encode(child, writes);
    if (enc.length < 32) return child.raw ?? RLP.decode(enc);
    if (child.hash === undefined) {
      child.hash = this._keccak(enc);
      writes.push({ hash: child.hash, encoded: enc });
      this._keep(child);
    }
    return child.hash;
  }
}
