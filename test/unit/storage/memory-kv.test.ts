import { expect } from "chai";
import { MemoryKV, compareBytes, prefixEnd } from "../../../src/storage/kv";
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
