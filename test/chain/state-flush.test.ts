/**
 * The chain's state manager (slots kept in its storage cache until a flush writes each trie's changes
 * in one batch) against EthereumJS's MerkleStateManager without caches, which writes every change
 * straight to the tries: the same random account, storage and code changes, deletions, cleared
 * storage, checkpoints, commits and reverts; every state root and every read must agree, and
 * EthereumJS must read the chain's state from the nodes it wrote (a copy set to the root reads the
 * tries), and after moving back to an earlier root. The reference has no caches because EthereumJS's caches lose slots in two cases the chain's
 * state manager mends (src/chain/engine/state-manager.ts): a reverted deleteAccount or clearStorage.
 */
import { expect } from "chai";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import { type Address, createAccount, createAddressFromPrivateKey } from "@ethereumjs/util";
import { ChainStateManager } from "../../src/chain/engine/state-manager";
import { mulberry32 } from "../helpers/prng";

const hex = (b: Uint8Array | undefined): string => (b === undefined ? "none" : Buffer.from(b).toString("hex"));

async function run(seed: number, rounds: number): Promise<void> {
  const random = mulberry32(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const addresses: Address[] = Array.from({ length: 10 }, (_, i) => createAddressFromPrivateKey(Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? i + 1 : 0))));
  const slots = Array.from({ length: 8 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? i : j === 0 ? i * 3 : 0)));
  const ours = new ChainStateManager({ caches: new Caches() });
  const theirs = new MerkleStateManager();
  const both = async (f: (sm: MerkleStateManager) => Promise<unknown>): Promise<void> => {
    await f(ours);
    await f(theirs);
  };
  // EthereumJS keeps a storage trie object per account across deleteAccount, so a deleted account
  // made again reads and extends its old storage there (the chain's state manager forgets it, as geth
  // would): deleted accounts are not changed again here
  const deleted = new Set<string>();
  // `flushed`: the tries have been written (a state root was taken). Before that the chain's state
  // manager has its slots only in the storage cache, so an account's storage root is the last flush's
  const reads = async (a: MerkleStateManager, b: MerkleStateManager, where: string, flushed: boolean): Promise<void> => {
    for (const address of addresses) {
      const [x, y] = [await a.getAccount(address), await b.getAccount(address)];
      const fields = (acc: typeof x): string => (acc === undefined ? "none" : flushed ? hex(acc.serialize()) : `${acc.nonce} ${acc.balance} ${hex(acc.codeHash)}`);
      expect(fields(x), `${where}: account ${address}`).to.equal(fields(y));
      if (x === undefined) continue;
      expect(hex(await a.getCode(address)), `${where}: code of ${address}`).to.equal(hex(await b.getCode(address)));
      for (const slot of slots) expect(hex(await a.getStorage(address, slot)), `${where}: ${address} slot ${hex(slot)}`).to.equal(hex(await b.getStorage(address, slot)));
    }
  };
  let depth = 0;
  const history: Uint8Array[] = [];
  for (let r = 0; r < rounds; r++) {
    const where = `seed ${seed}, round ${r}`;
    for (let i = 2 + int(25); i > 0; i--) {
      const address = addresses[int(addresses.length)];
      if (deleted.has(address.toString())) continue;
      const exists = (await theirs.getAccount(address)) !== undefined;
      const roll = random();
      if (roll < 0.3 || !exists) {
        const nonce = BigInt(int(5));
        const balance = BigInt(int(1_000_000));
        await both((sm) => sm.modifyAccountFields(address, { nonce, balance }));
      } else if (roll < 0.65) {
        const slot = slots[int(slots.length)];
        const value = random() < 0.25 ? new Uint8Array(32) : Uint8Array.from({ length: 1 + int(32) }, () => int(256));
        await both((sm) => sm.putStorage(address, slot, value));
      } else if (roll < 0.72) {
        const code = Uint8Array.from({ length: 1 + int(80) }, () => int(256));
        await both((sm) => sm.putCode(address, code));
      } else if (roll < 0.77) {
        await both((sm) => sm.deleteAccount(address));
        deleted.add(address.toString());
      } else if (roll < 0.8) {
        await both((sm) => sm.clearStorage(address));
      } else if (roll < 0.88 && depth < 4) {
        await both((sm) => sm.checkpoint());
        depth++;
      } else if (depth > 0) {
        const revert = random() < 0.4;
        await both((sm) => (revert ? sm.revert() : sm.commit()));
        depth--;
      }
    }
    await reads(ours, theirs, where, false);
    if (depth > 0) continue;
    const root = await ours.getStateRoot();
    expect(hex(root), `${where}: state root`).to.equal(hex(await theirs.getStateRoot()));
    await reads(ours, theirs, `${where} (flushed)`, true);
    // EthereumJS reads the root from the tries alone
    const copy = ours.shallowCopy(false);
    await copy.setStateRoot(root);
    const reference = theirs.shallowCopy(false);
    await reference.setStateRoot(root);
    await reads(copy, reference, `${where} (tries)`, true);
    // back to an earlier root (evm_revert): the chain's state manager keeps what the flushes since then
    // did not write and corrects the rest (src/chain/engine/flush-journal.ts); a root the journal does
    // not lead back to (one left by an earlier rewind) empties its caches
    history.push(root);
    if (random() < 0.3) {
      const target = history[int(history.length)];
      await both((sm) => sm.setStateRoot(target));
      expect(hex(await ours.getStateRoot()), `${where}: root after going back`).to.equal(hex(target));
      await reads(ours, theirs, `${where} (back at root ${history.indexOf(target)})`, true);
    }
  }
}

describe("the chain's state manager against EthereumJS's MerkleStateManager", function () {
  this.timeout(120_000);
  const seed = Number(process.env.STATE_SEED ?? Math.floor(Math.random() * 2 ** 31));

  it(`same roots and reads over random changes, checkpoints and reverts (seed ${seed}; replay with STATE_SEED)`, async () => {
    for (let s = 0; s < 5; s++) await run(seed + s, 40);
  });

  it("accounts it hands out are the caller's own: changing one changes nothing until it is put", async () => {
    const sm = new ChainStateManager({ caches: new Caches() });
    const address = createAddressFromPrivateKey(Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? 7 : 0)));
    const put = createAccount({ nonce: 1n, balance: 100n });
    await sm.putAccount(address, put);
    put.balance = 5n; // after the put: not what the state holds
    const read = await sm.getAccount(address);
    expect(read?.balance).to.equal(100n);
    (read as NonNullable<typeof read>).nonce = 9n; // a read changed without a put
    expect((await sm.getAccount(address))?.nonce).to.equal(1n);
    await sm.checkpoint();
    await sm.modifyAccountFields(address, { balance: 200n });
    expect((await sm.getAccount(address))?.balance).to.equal(200n);
    await sm.revert();
    const back = await sm.getAccount(address);
    expect([back?.nonce, back?.balance]).to.deep.equal([1n, 100n]);
    // a copy reads the same through its own cache
    const copy = sm.shallowCopy();
    expect((await copy.getAccount(address))?.balance).to.equal(100n);
  });
});
