import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { MerkleStateManager } from "@ethereumjs/statemanager";
import { Account, Address, ValueEncoding, bytesToHex, hexToBytes, setLengthLeft } from "@ethereumjs/util";
import { MemoryKV } from "../../src/storage/memory-kv";
import { LevelKV } from "../../src/storage/level-kv";
import { TrieDB } from "../../src/storage/trie-db";
import { b, collect, str, tempDirs } from "./helpers";

const keyOf = (i: number): Uint8Array => b(`key-${i}`);
const valOf = (i: number): Uint8Array => b(`value-${i}-${"x".repeat(i % 40)}`);

describe("TrieDB", function () {
  this.timeout(30_000);
  const tmp = tempDirs();
  after(() => tmp.cleanup());

  for (const valueEncoding of [undefined, ValueEncoding.Bytes]) {
    it(`persists a trie through LevelKV and reads it back at its root (valueEncoding ${valueEncoding ?? "default"})`, async () => {
      const dir = tmp.make();
      let kv = await LevelKV.open(dir);
      let db = new TrieDB(kv);
      const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding });
      for (let i = 0; i < 500; i++) await trie.put(keyOf(i), valOf(i));
      const root1 = trie.root();
      // nothing reaches the store before the drain
      expect(await collect(kv.range({}))).to.have.length(0);
      expect(db.pendingCount).to.be.greaterThan(0);
      const ops = db.drainOps();
      expect(ops.length).to.be.greaterThan(0);
      expect(db.pendingCount).to.equal(0);
      for (const op of ops) expect(str(op.key.subarray(0, 1))).to.equal("n");
      // still readable from memory before the batch is written
      expect(str((await trie.get(keyOf(7))) as Uint8Array)).to.equal(str(valOf(7)));
      await kv.batch(ops);

      // a second block: overwrite and delete; the old root must stay readable (no pruning)
      for (let i = 0; i < 50; i++) await trie.put(keyOf(i), b(`new-${i}`));
      await trie.del(keyOf(99));
      const root2 = trie.root();
      await kv.batch(db.drainOps());
      await kv.close();

      kv = await LevelKV.open(dir);
      try {
        db = new TrieDB(kv);
        const t1 = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding, root: root1 });
        for (let i = 0; i < 500; i++) expect(str((await t1.get(keyOf(i))) as Uint8Array)).to.equal(str(valOf(i)));
        const t2 = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding });
        t2.root(root2);
        expect(str((await t2.get(keyOf(3))) as Uint8Array)).to.equal("new-3");
        expect(await t2.get(keyOf(99))).to.equal(null);
        expect(str((await t2.get(keyOf(100))) as Uint8Array)).to.equal(str(valOf(100)));
        expect(await t2.checkRoot(root1)).to.equal(true);
      } finally {
        await kv.close();
      }
    });
  }

  it("does not write again nodes that are already stored", async () => {
    const kv = new MemoryKV();
    const db = new TrieDB(kv);
    const trie = new MerklePatriciaTrie({ db, useKeyHashing: true });
    for (let i = 0; i < 100; i++) await trie.put(keyOf(i), valOf(i));
    await kv.batch(db.drainOps());
    // a checkpoint that only reads: mpt's commit re-puts every node it read
    trie.checkpoint();
    for (let i = 0; i < 100; i++) await trie.get(keyOf(i));
    await trie.commit();
    expect(db.drainOps()).to.deep.equal([]);
    // one change writes only the nodes on its path
    await trie.put(keyOf(1), b("changed"));
    expect(db.drainOps().length).to.be.lessThan(10);
  });

  it("shares pending writes and caches with shallow copies", async () => {
    const kv = new MemoryKV();
    const db = new TrieDB(kv);
    const trie = new MerklePatriciaTrie({ db, useKeyHashing: true });
    await trie.put(b("a"), b("1"));
    const copy = trie.shallowCopy(false);
    // the copy writes through the same pending map
    await copy.put(b("b"), b("2"));
    const view = trie.shallowCopy(false);
    view.root(copy.root());
    expect(str((await view.get(b("b"))) as Uint8Array)).to.equal("2");
    const ops = db.drainOps();
    await kv.batch(ops);
    expect(db.shallowCopy().pendingCount).to.equal(0);
    const reopened = new MerklePatriciaTrie({ db: new TrieDB(kv), useKeyHashing: true, root: copy.root() });
    expect(str((await reopened.get(b("a"))) as Uint8Array)).to.equal("1");
  });

  it("ignores deletes and drops undrained writes on discard", async () => {
    const kv = new MemoryKV();
    const db = new TrieDB(kv);
    await db.put("aa", hexToBytes("0x0102"));
    await db.del("aa");
    expect(await db.get("aa", { valueEncoding: "view" })).to.deep.equal(Uint8Array.of(1, 2));
    expect(await db.get("aa", { valueEncoding: "string" })).to.equal("0102");
    await db.put("bb", "0304");
    db.discardPending();
    expect(await db.get("bb")).to.equal(undefined);
    expect(db.drainOps()).to.deep.equal([]);
  });

  it("keeps at most cacheSize nodes in its read cache, evicting the least recently read", async () => {
    const kv = new MemoryKV();
    let reads = 0;
    const counting = Object.assign(Object.create(kv) as MemoryKV, {
      get: (key: Uint8Array) => {
        reads++;
        return kv.get(key);
      },
    });
    const db = new TrieDB(counting, { cacheSize: 3 });
    const node = (i: number): string => `0${i}`;
    for (let i = 0; i < 5; i++) await db.put(node(i), Uint8Array.of(i));
    await kv.batch(db.drainOps());
    db.drainOps(); // the written batch's nodes move into the cache: the newest 3 stay
    expect(db.cacheCount).to.equal(3);
    expect(await db.get(node(2), { valueEncoding: "view" })).to.deep.equal(Uint8Array.of(2));
    expect(reads, "node 2 is cached").to.equal(0);
    // a miss loads node 0 and evicts the least recently read (3: node 2 was just read)
    expect(await db.get(node(0), { valueEncoding: "view" })).to.deep.equal(Uint8Array.of(0));
    expect(reads).to.equal(1);
    expect(db.cacheCount).to.equal(3);
    await db.get(node(2));
    await db.get(node(4));
    expect(reads, "nodes 2 and 4 stayed").to.equal(1);
    expect(await db.get(node(3), { valueEncoding: "view" })).to.deep.equal(Uint8Array.of(3));
    expect(reads, "node 3 was evicted").to.equal(2);
    expect(db.cacheCount).to.equal(3);
  });

  it("lets a MerkleStateManager write an account, drain, reopen and read it at that root", async () => {
    const dir = tmp.make();
    let kv = await LevelKV.open(dir);
    const addr = new Address(hexToBytes("0x00000000000000000000000000000000000000aa"));
    const other = new Address(hexToBytes("0x00000000000000000000000000000000000000bb"));
    const slot = setLengthLeft(Uint8Array.of(1), 32);
    let db = new TrieDB(kv);
    let sm = new MerkleStateManager({ trie: new MerklePatriciaTrie({ db, useKeyHashing: true }) });
    await sm.checkpoint();
    await sm.putAccount(addr, new Account(5n, 1000n));
    await sm.putCode(addr, hexToBytes("0x6001600055"));
    await sm.putStorage(addr, slot, hexToBytes("0x2a"));
    await sm.commit();
    const root1 = await sm.getStateRoot();
    await kv.batch(db.drainOps());

    await sm.checkpoint();
    await sm.modifyAccountFields(addr, { nonce: 6n, balance: 1n }); // keeps code and storage
    await sm.putAccount(other, new Account(0n, 7n));
    await sm.commit();
    const root2 = await sm.getStateRoot();
    await kv.batch(db.drainOps());
    await kv.close();

    kv = await LevelKV.open(dir);
    try {
      db = new TrieDB(kv);
      sm = new MerkleStateManager({ trie: new MerklePatriciaTrie({ db, useKeyHashing: true }) });
      await sm.setStateRoot(root1);
      const acc = await sm.getAccount(addr);
      expect(acc?.nonce).to.equal(5n);
      expect(acc?.balance).to.equal(1000n);
      expect(bytesToHex(await sm.getCode(addr))).to.equal("0x6001600055");
      expect(bytesToHex(await sm.getStorage(addr, slot))).to.equal("0x2a");
      expect(await sm.getAccount(other)).to.equal(undefined);
      await sm.setStateRoot(root2);
      expect((await sm.getAccount(addr))?.nonce).to.equal(6n);
      expect((await sm.getAccount(other))?.balance).to.equal(7n);
      expect(bytesToHex(await sm.getStorage(addr, slot))).to.equal("0x2a");
      // a historical read through a copy, as eth_getBalance at an old block does
      const old = sm.shallowCopy();
      await old.setStateRoot(root1);
      expect((await old.getAccount(addr))?.balance).to.equal(1000n);
    } finally {
      await kv.close();
    }
  });
});
