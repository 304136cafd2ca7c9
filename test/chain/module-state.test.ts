import { expect } from "chai";
import { MerkleStateManager } from "@ethereumjs/statemanager";
import { RLP } from "@ethereumjs/rlp";
import { getBytes, keccak256, toBeHex, toUtf8Bytes } from "ethers";
import { Address } from "@ethereumjs/util";
import { MemoryModuleStore, moduleAddress, readModuleStore, slotReader, writeModuleStore } from "../../src/chain/base/module-state";
import { hasLegacyModuleLog, readLegacyModuleSet } from "../../src/storage/legacy-module-log";
import { MemoryKV } from "../../src/storage/memory-kv";

const b = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (entries: Array<[Uint8Array, Uint8Array]>): string[] => entries.map(([k, v]) => `${Buffer.from(k).toString()}=${Buffer.from(v).toString()}`);
const ACCOUNT = new Uint8Array(20).fill(0x09);

async function expectReject(p: Promise<unknown>, re: RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err?.message ?? "resolved", "rejected").to.match(re);
}

describe("module stores as EVM state", function () {
  describe("MemoryModuleStore", function () {
    it("lists entries in key-byte order, by prefix, either way, and the same array while unchanged", () => {
      const s = MemoryModuleStore.writable();
      for (const k of ["b2", "a", "b1", "c", "b"]) s.set(b(k), b(k.toUpperCase()));
      expect(text(s.entries())).to.deep.equal(["a=A", "b=B", "b1=B1", "b2=B2", "c=C"]);
      expect(text(s.entries(b("b")))).to.deep.equal(["b=B", "b1=B1", "b2=B2"]);
      expect(text(s.entries(b("b"), true))).to.deep.equal(["b2=B2", "b1=B1", "b=B"]);
      expect(s.entries(b("b"))).to.equal(s.entries(b("b")));
      const before = s.entries();
      s.delete(b("b1"));
      expect(s.entries()).to.not.equal(before);
      expect(text(s.entries(b("b")))).to.deep.equal(["b=B", "b2=B2"]);
      expect(s.get(b("b1"))).to.equal(undefined);
    });

    it("copies its base on the first write and marks itself changed; the base stays as it was", () => {
      const base = MemoryModuleStore.readOnly([[b("k"), b("1")]]);
      const s = MemoryModuleStore.writable(base);
      expect(s.changed).to.equal(false);
      expect(s.entries()).to.equal(base.entries());
      s.set(b("k"), b("2"));
      s.set(b("n"), b("3"));
      expect(s.changed).to.equal(true);
      expect(text(base.entries())).to.deep.equal(["k=1"]);
      expect(text(s.entries())).to.deep.equal(["k=2", "n=3"]);
      expect(() => base.set(b("x"), b("y"))).to.throw(/read-only in a call or a query/);
    });

    it("restores a mark: later writes undone, the changed flag as it was", () => {
      const s = MemoryModuleStore.writable();
      s.set(b("a"), b("1"));
      s.changed = false;
      const mark = s.mark();
      s.set(b("a"), b("2"));
      s.set(b("b"), b("3"));
      expect(text(s.entries())).to.deep.equal(["a=2", "b=3"]);
      s.restore(mark);
      expect(s.changed).to.equal(false);
      expect(text(s.entries())).to.deep.equal(["a=1"]);
    });

    it("encodes each entry in key order as RLP [key, value] padded to whole words, and decodes back", () => {
      const s = MemoryModuleStore.writable();
      s.set(b("z"), b("26"));
      s.set(new Uint8Array([1, 0x64]), new Uint8Array(40).fill(7));
      const bytes = s.encode();
      const first = RLP.encode([new Uint8Array([1, 0x64]), new Uint8Array(40).fill(7)]);
      const second = RLP.encode([b("z"), b("26")]);
      expect(bytes.length).to.equal(64 + 32);
      expect(bytes.subarray(0, first.length)).to.deep.equal(first);
      expect(bytes.subarray(first.length, 64).every((x) => x === 0)).to.equal(true);
      expect(bytes.subarray(64, 64 + second.length)).to.deep.equal(second);
      expect(text(MemoryModuleStore.decode(bytes).entries())).to.deep.equal(text(s.entries()));
      // an entry that keeps its words leaves the other entries' words as they were
      s.set(b("z"), b("27"));
      expect(s.encode().subarray(0, 64)).to.deep.equal(bytes.subarray(0, 64));
      expect(MemoryModuleStore.decode(new Uint8Array()).size).to.equal(0);
      expect(() => MemoryModuleStore.decode(RLP.encode(b("not a list")))).to.throw(/RLP \[key, value\] lists/);
      expect(() => MemoryModuleStore.decode(RLP.encode([[b("k")]]))).to.throw(/\[key, value\] pairs/);
      const padded = Uint8Array.from(bytes);
      padded[50] = 1;
      expect(() => MemoryModuleStore.decode(padded)).to.throw(/pads its entries with zeros/);
    });
  });

  describe("in an account's storage", function () {
    it("writes the record into a new account (nonce 1, so it is never cleared as empty) and reads it back; none before", async () => {
      const sm = new MerkleStateManager();
      expect(await readModuleStore(slotReader(sm), ACCOUNT)).to.equal(undefined);
      const s = MemoryModuleStore.writable();
      s.set(b("day"), b("record"));
      await writeModuleStore(sm, ACCOUNT, s);
      expect(s.changed).to.equal(false);
      expect((await sm.getAccount(new Address(ACCOUNT)))?.nonce).to.equal(1n);
      const read = await readModuleStore(slotReader(sm), ACCOUNT);
      expect(text(read?.entries() ?? [])).to.deep.equal(["day=record"]);
      // an unchanged record is decoded once: the same store again
      expect(await readModuleStore(slotReader(sm), ACCOUNT)).to.equal(read);
    });

    it("reverts with the state's checkpoint, and an emptied store stays a record (not absent)", async () => {
      const sm = new MerkleStateManager();
      const s = MemoryModuleStore.writable();
      s.set(b("a"), b("x".repeat(70)));
      await writeModuleStore(sm, ACCOUNT, s);
      await sm.checkpoint();
      s.delete(b("a"));
      await writeModuleStore(sm, ACCOUNT, s);
      expect((await readModuleStore(slotReader(sm), ACCOUNT))?.size).to.equal(0);
      await sm.revert();
      expect(text((await readModuleStore(slotReader(sm), ACCOUNT))?.entries() ?? [])).to.deep.equal([`a=${"x".repeat(70)}`]);
    });

    it("refuses a record whose header claims more than a record holds, without reading on (the header is storage anyone can set)", async () => {
      const sm = new MerkleStateManager();
      const s = MemoryModuleStore.writable();
      s.set(b("a"), b("1"));
      await writeModuleStore(sm, ACCOUNT, s);
      await sm.putStorage(new Address(ACCOUNT), getBytes(keccak256(toUtf8Bytes("module-store"))), getBytes(toBeHex(2n ** 200n, 32)));
      await expectReject(readModuleStore(slotReader(sm), ACCOUNT), /claims \d+ bytes, more than a record holds \(4194304\)/);
      s.set(b("a"), b("2"));
      s.stateBytes = undefined;
      await expectReject(writeModuleStore(sm, ACCOUNT, s), /more than a record holds/);
    });

    it("puts a module without an account of its own at the Cosmos SDK's module address (sha256 of its name)", () => {
      // authtypes.NewModuleAddress: the gov and distribution module accounts of Cosmos Hub
      // (cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn, cosmos1jv65s3grqf6v6jl3dp4t6c9t9rk99cd88lyufl)
      expect(Buffer.from(moduleAddress("gov")).toString("hex")).to.equal("7b5fe22b5446f7c62ea27b8bd71cef94e03f3df2");
      expect(Buffer.from(moduleAddress("distribution")).toString("hex")).to.equal("93354845030274cd4bf1686abd60ab28ec52e1a7");
    });
  });

  describe("the change log of older data directories (read-only)", function () {
    const logKey = (module: string, height: bigint, key: string): Uint8Array => {
      const prefix = b(`m/${module}/`);
      const out = new Uint8Array(prefix.length + 8 + key.length);
      out.set(prefix);
      new DataView(out.buffer).setBigUint64(prefix.length, height);
      out.set(b(key), prefix.length + 8);
      return out;
    };
    const put = (module: string, height: bigint, key: string, value?: string) => ({
      type: "put" as const,
      key: logKey(module, height, key),
      value: value === undefined ? new Uint8Array([0]) : new Uint8Array([1, ...b(value)]),
    });

    it("reads a module's set at any height: the latest change at or below it per key, deletions applied", async () => {
      const kv = new MemoryKV();
      expect(await hasLegacyModuleLog(kv, "epochs")).to.equal(false);
      await kv.batch([put("epochs", 0n, "a", "0"), put("epochs", 0n, "b", "0"), put("epochs", 3n, "a", "3"), put("epochs", 5n, "b"), put("other", 1n, "a", "x"), put("epochsx", 1n, "q", "no")]);
      expect(await hasLegacyModuleLog(kv, "epochs")).to.equal(true);
      expect(await hasLegacyModuleLog(kv, "staking")).to.equal(false);
      expect(text(await readLegacyModuleSet(kv, "epochs", 0n))).to.deep.equal(["a=0", "b=0"]);
      expect(text(await readLegacyModuleSet(kv, "epochs", 4n))).to.deep.equal(["a=3", "b=0"]);
      expect(text(await readLegacyModuleSet(kv, "epochs", 9n))).to.deep.equal(["a=3"]);
    });
  });
});
