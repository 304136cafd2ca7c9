import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import { Address, KECCAK256_RLP, ValueEncoding, createAccount } from "@ethereumjs/util";
import { ChainStateManager } from "../../../src/chain/state-manager";
import { MemoryKV } from "../../../src/storage/kv";
import { TrieDB } from "../../../src/storage/trie-db";

function make<T extends MerkleStateManager>(Kind: new (opts: ConstructorParameters<typeof MerkleStateManager>[0]) => T): T {
  const trie = new MerklePatriciaTrie({ db: new TrieDB(new MemoryKV()), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
  return new Kind({ trie, caches: new Caches() });
}

const slot = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0));
const A = new Address(Uint8Array.from({ length: 20 }, (_, i) => i + 1));
const B = new Address(Uint8Array.from({ length: 20 }, (_, i) => 0xf0 - i));

describe("ChainStateManager storage writes", function () {
  it("stay in the cache until the flush and give the state root EthereumJS's state manager gives", async () => {
    const ours = make(ChainStateManager);
    const theirs = make(MerkleStateManager);
    for (const sm of [ours, theirs]) {
      await sm.checkpoint();
      await sm.putAccount(A, createAccount({ nonce: 1n, balance: 5n }));
      await sm.putAccount(B, createAccount({ nonce: 1n }));
      await sm.putStorage(A, slot(1), Uint8Array.from([7]));
      await sm.putStorage(A, slot(2), Uint8Array.from([0, 0, 9])); // leading zeros are stripped
      await sm.putStorage(B, slot(1), Uint8Array.from([1]));
      await sm.checkpoint();
      await sm.putStorage(A, slot(1), new Uint8Array()); // a deletion, then reverted
      await sm.putStorage(A, slot(3), Uint8Array.from([3]));
      await sm.revert();
      await sm.putStorage(B, slot(1), new Uint8Array()); // a deletion that stays
      await sm.commit();
    }
    expect(await ours.getStorage(A, slot(1))).to.deep.equal(Uint8Array.from([7]));
    expect(await ours.getStorage(A, slot(2))).to.deep.equal(Uint8Array.from([9]));
    expect(await ours.getStorage(A, slot(3))).to.deep.equal(new Uint8Array());
    expect(await ours.getStorage(B, slot(1))).to.deep.equal(new Uint8Array());
    expect(Buffer.from(await ours.getStateRoot()).toString("hex")).to.equal(Buffer.from(await theirs.getStateRoot()).toString("hex"));
    expect((await ours.getAccount(A))?.storageRoot).to.deep.equal((await theirs.getAccount(A))?.storageRoot);

    // a write inside a checkpoint leaves the storage trie (the account's storage root) alone
    await ours.checkpoint();
    const before = (await ours.getAccount(A))?.storageRoot;
    await ours.putStorage(A, slot(4), Uint8Array.from([4]));
    expect((await ours.getAccount(A))?.storageRoot).to.deep.equal(before);
    expect(await ours.getStorage(A, slot(4))).to.deep.equal(Uint8Array.from([4]));
    await ours.revert();
    expect(await ours.getStorage(A, slot(4))).to.deep.equal(new Uint8Array());
    expect(before).to.not.deep.equal(KECCAK256_RLP);
  });

  it("refuses what EthereumJS refuses", async () => {
    const ours = make(ChainStateManager);
    await ours.putAccount(A, createAccount({ nonce: 1n }));
    const refusal = (p: Promise<unknown>) => p.then(() => "", (e: Error) => e.message);
    expect(await refusal(ours.putStorage(A, new Uint8Array(31), Uint8Array.from([1])))).to.match(/Storage key must be 32 bytes long/);
    expect(await refusal(ours.putStorage(A, slot(1), new Uint8Array(33)))).to.match(/cannot be longer than 32 bytes/);
    expect(await refusal(ours.putStorage(B, slot(1), Uint8Array.from([1])))).to.match(/non-existing account/);
  });
});
