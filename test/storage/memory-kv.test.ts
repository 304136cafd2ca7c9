import { expect } from "chai";
import { compareBytes, prefixEnd } from "../../src/storage/kv";
import { MemoryKV } from "../../src/storage/memory-kv";
import { collect } from "./helpers";

const hex = (rows: Array<[Uint8Array, Uint8Array]>): string[] => rows.map(([k]) => Buffer.from(k).toString("hex"));

describe("MemoryKV ranges", function () {
  it("ranges in bytewise order across first bytes, reversed and limited, without deleted keys", async () => {
    const kv = new MemoryKV();
    const keys = [[], [0x00], [0x01], [0x01, 0x00], [0x01, 0xff], [0x02], [0x7f], [0x80], [0xff], [0xff, 0x00]].map((k) => Uint8Array.from(k));
    await kv.batch([...keys].reverse().map((k, i) => ({ type: "put" as const, key: k, value: Uint8Array.of(i) })));
    await kv.batch([{ type: "del", key: Uint8Array.of(0x02) }]);
    expect(hex(await collect(kv.range({})))).to.deep.equal(["", "00", "01", "0100", "01ff", "7f", "80", "ff", "ff00"]);
    expect(hex(await collect(kv.range({ gte: Uint8Array.of(0x01, 0x00), lt: Uint8Array.of(0x80) })))).to.deep.equal(["0100", "01ff", "7f"]);
    expect(hex(await collect(kv.range({ gte: Uint8Array.of(0x01), lt: prefixEnd(Uint8Array.of(0x01)) })))).to.deep.equal(["01", "0100", "01ff"]);
    expect(hex(await collect(kv.range({ gte: Uint8Array.of(0x7f), reverse: true })))).to.deep.equal(["ff00", "ff", "80", "7f"]);
    expect(hex(await collect(kv.range({ lt: Uint8Array.of(0x01), reverse: true, limit: 1 })))).to.deep.equal(["00"]);
    expect(hex(await collect(kv.range({ lt: new Uint8Array() })))).to.deep.equal([]);
  });

  it("answers every range as a full scan would (random keys, deletes and bounds)", async () => {
    const kv = new MemoryKV();
    const model = new Map<string, Uint8Array>();
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    // short keys over a few first bytes, so ranges cross and stop inside groups
    const randomKey = (): Uint8Array => Uint8Array.from({ length: rand(4) }, () => [0x00, 0x41, 0x42, 0x6e, 0xff][rand(5)]);
    for (let round = 0; round < 200; round++) {
      const k = randomKey();
      const id = Buffer.from(k).toString("hex");
      if (rand(4) === 0) {
        await kv.batch([{ type: "del", key: k }]);
        model.delete(id);
      } else {
        await kv.batch([{ type: "put", key: k, value: Uint8Array.of(round) }]);
        model.set(id, k);
      }
      const gte = rand(3) === 0 ? undefined : randomKey();
      const lt = rand(3) === 0 ? undefined : randomKey();
      const expected = [...model.values()]
        .filter((x) => (gte === undefined || compareBytes(x, gte) >= 0) && (lt === undefined || compareBytes(x, lt) < 0))
        .sort(compareBytes)
        .map((x) => Buffer.from(x).toString("hex"));
      expect(hex(await collect(kv.range({ gte, lt }))), `round ${round}`).to.deep.equal(expected);
    }
  });
});

describe("MemoryKV values", function () {
  const bytes = (len: number, fill: number): Uint8Array => new Uint8Array(len).fill(fill);

  it("stores a copy: the caller's array may change after the batch", async () => {
    const kv = new MemoryKV();
    const v = Uint8Array.of(1, 2, 3);
    await kv.batch([{ type: "put", key: Uint8Array.of(1), value: v }]);
    v[0] = 9;
    expect([...((await kv.get(Uint8Array.of(1))) as Uint8Array)]).to.deep.equal([1, 2, 3]);
  });

  it("keeps every returned value valid after its key is overwritten or deleted", async () => {
    const kv = new MemoryKV();
    await kv.batch([
      { type: "put", key: Uint8Array.of(1), value: bytes(40, 1) },
      { type: "put", key: Uint8Array.of(2), value: bytes(20_000, 2) },
      { type: "put", key: Uint8Array.of(3), value: new Uint8Array() },
    ]);
    const small = (await kv.get(Uint8Array.of(1))) as Uint8Array;
    const large = (await kv.get(Uint8Array.of(2))) as Uint8Array;
    expect((await kv.get(Uint8Array.of(3)))?.length).to.equal(0);
    await kv.batch([
      { type: "put", key: Uint8Array.of(1), value: bytes(40, 7) },
      { type: "del", key: Uint8Array.of(2) },
    ]);
    expect(small.every((x) => x === 1) && small.length === 40).to.equal(true);
    expect(large.every((x) => x === 2) && large.length === 20_000).to.equal(true);
    expect((await kv.get(Uint8Array.of(1)))?.[0]).to.equal(7);
    expect(await kv.get(Uint8Array.of(2))).to.equal(undefined);
    expect(kv.size).to.equal(2);
  });

  it("counts a rewrite of the same bytes as nothing", async () => {
    const kv = new MemoryKV();
    const put = { type: "put" as const, key: Uint8Array.of(5), value: bytes(100, 5) };
    await kv.batch([put]);
    await kv.batch([put, put]);
    expect(kv.bytes).to.deep.equal({ live: 100, dead: 0 });
  });

  it("reclaims overwritten space once it outweighs what is live, keeping every value and old views", async () => {
    const kv = new MemoryKV();
    const key = (i: number): Uint8Array => Uint8Array.of(0x6e, i >> 8, i & 0xff);
    const first = async (): Promise<Uint8Array> => (await kv.get(key(0))) as Uint8Array;
    // 2,000 keys of 4 KiB (shared chunks), rewritten 5 times: 40 MiB overwritten (the threshold is 32 MiB), 8 MiB live
    let view: Uint8Array | undefined;
    for (let round = 0; round < 6; round++) {
      await kv.batch(Array.from({ length: 2000 }, (_, i) => ({ type: "put" as const, key: key(i), value: bytes(4096, (round + i) & 0xff) })));
      if (round === 0) view = await first();
    }
    expect(kv.bytes.live).to.equal(2000 * 4096);
    expect(kv.bytes.dead).to.be.below(kv.bytes.live);
    for (let i = 0; i < 2000; i += 199)
      expect(
        ((await kv.get(key(i))) as Uint8Array).every((x) => x === ((5 + i) & 0xff)),
        `key ${i}`,
      ).to.equal(true);
    expect((view as Uint8Array).every((x) => x === 0)).to.equal(true);
    expect(kv.size).to.equal(2000);
    expect((await collect(kv.range({}))).length).to.equal(2000);
  });
});

describe("MemoryKV: empty values and all-or-nothing batches", function () {
  it("stores an empty value first into a new store, and values after it", async () => {
    const kv = new MemoryKV();
    await kv.batch([
      { type: "put", key: Uint8Array.of(1), value: new Uint8Array() },
      { type: "put", key: Uint8Array.of(2), value: Uint8Array.of(7, 8) },
    ]);
    expect(kv.getSync(Uint8Array.of(1))).to.deep.equal(new Uint8Array());
    expect(kv.getSync(Uint8Array.of(2))).to.deep.equal(Uint8Array.of(7, 8));
    expect(kv.size).to.equal(2);
  });

  it("a batch with a malformed operation applies none of it", async () => {
    const kv = new MemoryKV();
    await kv.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(1) }]);
    const bad = [
      { type: "put", key: Uint8Array.of(1), value: Uint8Array.of(2) },
      { type: "put", key: Uint8Array.of(3), value: undefined },
    ] as unknown as Parameters<MemoryKV["batch"]>[0];
    let failed = false;
    await kv.batch(bad).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(kv.getSync(Uint8Array.of(1))).to.deep.equal(Uint8Array.of(1));
    expect(kv.getSync(Uint8Array.of(3))).to.equal(undefined);
    expect(kv.size).to.equal(1);
  });

  it("compaction keeps every value, empty ones included", async () => {
    const kv = new MemoryKV();
    await kv.batch([{ type: "put", key: Uint8Array.of(9), value: new Uint8Array() }]);
    await kv.batch([{ type: "put", key: Uint8Array.of(8), value: Uint8Array.of(1, 2, 3) }]);
    // overwrite one large value until what is dead outweighs what is live: the store compacts
    const big = new Uint8Array(1024 * 1024);
    for (let i = 0; i < 40; i++) {
      big[0] = i;
      await kv.batch([{ type: "put", key: Uint8Array.of(7), value: big }]);
    }
    expect(kv.bytes.dead, "compacted").to.be.lessThan(32 * 1024 * 1024);
    expect(kv.getSync(Uint8Array.of(9))).to.deep.equal(new Uint8Array());
    expect(kv.getSync(Uint8Array.of(8))).to.deep.equal(Uint8Array.of(1, 2, 3));
    expect(kv.getSync(Uint8Array.of(7))?.[0]).to.equal(39);
    await kv.batch([{ type: "put", key: Uint8Array.of(6), value: new Uint8Array() }]);
    expect(kv.getSync(Uint8Array.of(6))).to.deep.equal(new Uint8Array());
  });
});
