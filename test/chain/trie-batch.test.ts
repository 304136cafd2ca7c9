import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { TrieBatch, type TrieChange } from "../../src/chain/engine/trie-batch";
import { keccak256 } from "../../src/utils/keccak";
import { mulberry32 } from "../helpers/prng";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** A node database in a Map, as the chain's node store is read: by hash. */
class MapSource {
  readonly nodes = new Map<string, Uint8Array>();
  async get(hash: Uint8Array): Promise<Uint8Array | undefined> {
    return this.nodes.get(hex(hash));
  }
}

/**
 * Random batches of puts and deletes applied to TrieBatch and to @ethereumjs/mpt, comparing the root
 * after every batch, then reading every key back with @ethereumjs/mpt from the nodes TrieBatch wrote.
 * `keys`: 32-byte keys (a secure trie's) or short ones of 1-4 bytes, which make keys that are prefixes
 * of others (branch values), long shared paths (extensions) and inline nodes.
 */
async function differential(seed: number, keys: "hashed" | "short", batches: number, keep: number): Promise<void> {
  const random = mulberry32(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => int(keys === "short" ? 4 : 256));
  const pool = Array.from({ length: keys === "hashed" ? 60 : 40 }, () => bytes(keys === "hashed" ? 32 : 1 + int(4)));
  const value = (): Uint8Array => Uint8Array.from({ length: [1, 2, 5, 20, 31, 33, 100][int(7)] }, () => int(256));
  const source = new MapSource();
  const batch = new TrieBatch(keccak256, keep);
  const reference = new MerklePatriciaTrie();
  const expected = new Map<string, Uint8Array>();
  let root = reference.root();
  for (let b = 0; b < batches; b++) {
    const changes: TrieChange[] = [];
    for (let i = 1 + int(20); i > 0; i--) {
      const key = random() < 0.9 ? pool[int(pool.length)] : bytes(keys === "hashed" ? 32 : 1 + int(4));
      const old = expected.get(hex(key));
      const roll = random();
      const v = roll < 0.3 ? undefined : roll < 0.4 && old !== undefined ? old : value();
      changes.push({ key, value: v });
      if (v === undefined) {
        expected.delete(hex(key));
        await reference.del(key);
      } else {
        expected.set(hex(key), v);
        await reference.put(key, v);
      }
    }
    const out = await batch.apply(source, root, changes);
    for (const w of out.writes) {
      expect(hex(keccak256(w.encoded)), "a node is written under its hash").to.equal(hex(w.hash));
      source.nodes.set(hex(w.hash), w.encoded);
    }
    root = out.root;
    expect(hex(root), `seed ${seed} (${keys}), batch ${b}: ${changes.length} changes`).to.equal(hex(reference.root()));
    expect(batch.size).to.be.at.most(keep);
  }
  // what TrieBatch reads: through the nodes it kept, and from the database alone
  const cold = new TrieBatch(keccak256, 4);
  for (const key of pool) {
    const want = expected.get(hex(key));
    const w = want === undefined ? undefined : hex(want);
    expect(await batch.get(source, root, key).then((v) => v && hex(v)), `seed ${seed}: get ${hex(key)}`).to.equal(w);
    expect(await cold.get(source, root, key).then((v) => v && hex(v)), `seed ${seed}: cold get ${hex(key)}`).to.equal(w);
  }
  // what EthereumJS reads from the written nodes alone
  const reader = new MerklePatriciaTrie({ root });
  for (const [k, v] of source.nodes) await reader.database().put(Buffer.from(k, "hex"), v);
  for (const key of pool) {
    const want = expected.get(hex(key));
    const got = await reader.get(key);
    expect(got === null ? undefined : hex(got), `seed ${seed}: key ${hex(key)}`).to.equal(want === undefined ? undefined : hex(want));
  }
}

describe("TrieBatch (the state manager's batched trie writes and its reads)", function () {
  this.timeout(120_000);
  const seed = Number(process.env.TRIE_SEED ?? Math.floor(Math.random() * 2 ** 31));

  it(`gives @ethereumjs/mpt's root after every batch, secure-trie keys (seed ${seed}; replay with TRIE_SEED)`, async () => {
    for (let s = 0; s < 4; s++) await differential(seed + s, "hashed", 60, 10_000);
  });

  it(`gives @ethereumjs/mpt's root after every batch, short keys: prefixes, extensions, inline nodes (seed ${seed})`, async () => {
    for (let s = 0; s < 6; s++) await differential(seed + s, "short", 60, 10_000);
  });

  it("keeps at most the nodes it is given room for and still reads the rest from the database", async () => {
    await differential(seed, "hashed", 40, 8);
    await differential(seed + 1, "short", 40, 3);
  });

  it("the empty trie: its root, no writes; deleting what is absent changes nothing", async () => {
    const batch = new TrieBatch(keccak256);
    const source = new MapSource();
    const empty = new MerklePatriciaTrie().root();
    const none = await batch.apply(source, empty, [{ key: keccak256(Uint8Array.of(1)), value: undefined }]);
    expect(hex(none.root)).to.equal(hex(empty));
    expect(none.writes).to.deep.equal([]);
    const one = await batch.apply(source, empty, [{ key: keccak256(Uint8Array.of(1)), value: Uint8Array.of(7) }]);
    // a root smaller than 32 bytes is still stored under its hash, as @ethereumjs/mpt stores it
    expect(one.writes.length).to.equal(1);
    for (const w of one.writes) source.nodes.set(hex(w.hash), w.encoded);
    const again = await batch.apply(source, one.root, [{ key: keccak256(Uint8Array.of(2)), value: undefined }]);
    expect(hex(again.root)).to.equal(hex(one.root));
    expect(again.writes).to.deep.equal([]);
    const back = await batch.apply(source, one.root, [{ key: keccak256(Uint8Array.of(1)), value: undefined }]);
    expect(hex(back.root)).to.equal(hex(empty));
  });

  it("names a node the database does not have", async () => {
    const batch = new TrieBatch(keccak256);
    let err: Error | undefined;
    await batch.apply(new MapSource(), keccak256(Uint8Array.of(9)), [{ key: keccak256(Uint8Array.of(1)), value: Uint8Array.of(1) }]).catch((e: Error) => (err = e));
    expect(err?.message).to.match(/^missing trie node [0-9a-f]{64}$/);
  });
});
