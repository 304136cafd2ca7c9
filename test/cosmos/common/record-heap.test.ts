/**
 * The records-backed heap (src/cosmos/common/record-heap.ts) the modules' block work reads what is
 * due from: against a sorted list under seeded random pushes, moves and removals, and the records a
 * push or a pop reads grow with log n, not n.
 */
import { expect } from "chai";
import { GasMeter, MeteredRecords, type RecordTally } from "../../../src/cosmos/common/records";
import { RecordHeap, compareKeys } from "../../../src/cosmos/common/record-heap";
import { mulberry32 } from "../../helpers/prng";

function memoryRecords(tally?: RecordTally): MeteredRecords {
  const slots = new Map<string, Uint8Array>();
  const hex = (k: Uint8Array) => Buffer.from(k).toString("hex");
  return new MeteredRecords(
    { get: async (k) => slots.get(hex(k)) ?? new Uint8Array(), put: async (k, v) => void (v.length === 0 ? slots.delete(hex(k)) : slots.set(hex(k), v)) },
    new GasMeter(2n ** 255n),
    tally,
  );
}

describe("cosmos: RecordHeap", () => {
  it("keeps the smallest key first under random pushes, moves and removals (seeded)", async () => {
    const rand = mulberry32(69);
    const heap = new RecordHeap(memoryRecords(), "h");
    const model = new Map<string, bigint[]>();
    for (let step = 0; step < 600; step++) {
      const member = `m${Math.floor(rand() * 80)}`;
      const r = rand();
      if (r < 0.55) {
        const key = [BigInt(Math.floor(rand() * 20)), BigInt(Math.floor(rand() * 5))];
        await heap.push(member, key);
        model.set(member, key);
      } else if (r < 0.8) {
        expect(await heap.remove(member)).to.equal(model.delete(member));
      } else {
        const top = await heap.pop();
        const min = [...model.entries()].sort((a, b) => compareKeys(a[1], b[1]))[0];
        if (min === undefined) expect(top).to.equal(undefined);
        else {
          expect(top?.key).to.deep.equal(min[1]);
          model.delete(top!.member);
        }
      }
      expect(await heap.size()).to.equal(model.size);
      expect(await heap.has(member)).to.equal(model.has(member));
    }
    const drained: bigint[][] = [];
    for (let e = await heap.pop(); e !== undefined; e = await heap.pop()) drained.push(e.key);
    expect(drained).to.deep.equal([...model.values()].sort(compareKeys));
  });

  it("reads O(log n) records for a push and a pop", async () => {
    const tally: RecordTally = { reads: 0, bytes: 0 };
    const heap = new RecordHeap(memoryRecords(tally), "h");
    const cost = async (n: number): Promise<number> => {
      for (let i = await heap.size(); i < n; i++) await heap.push(`m${i}`, [BigInt((i * 7919) % n)]);
      tally.reads = 0;
      await heap.push("probe", [-1n]);
      await heap.pop();
      return tally.reads;
    };
    const small = await cost(16);
    const large = await cost(1024);
    // log2(1024) / log2(16) = 2.5: a scan would read 64 times more
    expect(large).to.be.lessThan(small * 3);
  });
});
