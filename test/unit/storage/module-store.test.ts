import { expect } from "chai";
import { MemoryKV } from "../../../src/storage/memory-kv";
import { LevelKV } from "../../../src/storage/level-kv";
import { VersionedModuleStore } from "../../../src/storage/module-store";
import { b, str, tempDirs } from "./helpers";

const view = (s: VersionedModuleStore): Record<string, string> =>
  Object.fromEntries(s.entries().map(([k, v]) => [str(k), str(v)]));

describe("VersionedModuleStore over LevelKV", function () {
  this.timeout(20_000);
  const tmp = tempDirs();
  after(() => tmp.cleanup());

  it("records changes per height, reloads any height after reopen, and rewinds", async () => {
    const dir = tmp.make();
    let kv = await LevelKV.open(dir);
    let store = new VersionedModuleStore(kv, "epochs");
    const other = new VersionedModuleStore(kv, "other");

    // height 1: a, b
    store.set(b("a"), b("1"));
    store.set(b("b"), b("1"));
    other.set(b("a"), b("other"));
    await kv.batch([...store.commitOps(1n), ...other.commitOps(1n)]);
    store.didCommit();
    other.didCommit();
    // height 2: change a, delete b, add c
    store.set(b("a"), b("2"));
    store.delete(b("b"));
    store.set(b("c"), b("2"));
    await kv.batch(store.commitOps(2n));
    store.didCommit();
    // height 3: nothing changes
    await kv.batch(store.commitOps(3n));
    store.didCommit();
    // height 4: b comes back, c goes
    store.set(b("b"), b("4"));
    store.delete(b("c"));
    await kv.batch(store.commitOps(4n));
    store.didCommit();
    expect(view(store)).to.deep.equal({ a: "2", b: "4" });
    await kv.close();

    kv = await LevelKV.open(dir);
    try {
      store = new VersionedModuleStore(kv, "epochs");
      const expected: Array<[bigint, Record<string, string>]> = [
        [0n, {}],
        [1n, { a: "1", b: "1" }],
        [2n, { a: "2", c: "2" }],
        [3n, { a: "2", c: "2" }],
        [4n, { a: "2", b: "4" }],
        [9n, { a: "2", b: "4" }],
      ];
      for (const [h, want] of expected) {
        await store.loadAt(h);
        expect(view(store), `height ${h}`).to.deep.equal(want);
      }

      // rewind to 2: the log above it goes, the other module's is untouched
      const ops = await store.rewindOps(2n);
      expect(ops.every((op) => op.type === "del")).to.equal(true);
      expect(ops.length).to.equal(2); // b and c at height 4
      await kv.batch(ops);
      await store.loadAt(9n);
      expect(view(store)).to.deep.equal({ a: "2", c: "2" });
      const o = new VersionedModuleStore(kv, "other");
      await o.loadAt(9n);
      expect(view(o)).to.deep.equal({ a: "other" });

      // building on after the rewind
      store.set(b("d"), b("3"));
      await kv.batch(store.commitOps(3n));
      store.didCommit();
      await store.loadAt(3n);
      expect(view(store)).to.deep.equal({ a: "2", c: "2", d: "3" });
    } finally {
      await kv.close();
    }
  });

  it("answers past heights from the versions it keeps as a fresh store does from the change log, across rewinds", async () => {
    const kv = new MemoryKV();
    const store = new VersionedModuleStore(kv, "epochs");
    const views = (s: VersionedModuleStore, h: bigint) => s.viewAt(h).then((v) => Object.fromEntries(v.entries().map(([k, x]) => [str(k), str(x)])));
    const commit = async (h: bigint, change: () => void): Promise<void> => {
      change();
      await kv.batch(store.commitOps(h));
      store.didCommit();
    };
    const check = async (top: bigint): Promise<void> => {
      const fresh = new VersionedModuleStore(kv, "epochs"); // nothing in memory: reads the log
      for (let h = 0n; h <= top + 1n; h++) expect(await views(store, h), `height ${h}`).to.deep.equal(await views(fresh, h));
    };
    await commit(0n, () => store.set(b("a"), b("0")));
    expect(await views(store, 0n)).to.deep.equal({ a: "0" }); // the versions are built here; later commits add to them
    for (let h = 1n; h <= 12n; h++) {
      await commit(h, () => {
        if (h % 3n === 0n) return; // some blocks change nothing
        store.set(b(`k${h % 4n}`), b(String(h)));
        if (h % 5n === 0n) store.delete(b("a"));
      });
    }
    await check(12n);
    expect(await views(store, 7n)).to.deep.equal({ k0: "4", k1: "5", k2: "2", k3: "7" });

    // evm_revert to 7: the log above goes, the committed set is 7's, and new blocks build on it
    await kv.batch(await store.rewindOps(7n));
    await store.loadAt(7n);
    expect(view(store)).to.deep.equal({ k0: "4", k1: "5", k2: "2", k3: "7" });
    await commit(8n, () => store.set(b("z"), b("8")));
    await check(8n);
    expect(await views(store, 12n)).to.deep.equal({ k0: "4", k1: "5", k2: "2", k3: "7", z: "8" });

    // a rewind whose batch failed changes nothing: the next loadAt sees the rewind that was written
    await store.rewindOps(2n);
    await kv.batch(await store.rewindOps(5n));
    await store.loadAt(5n);
    await check(5n);
    expect(view(store)).to.deep.equal({ k0: "4", k1: "5", k2: "2" });
  });
});
