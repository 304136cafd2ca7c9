/**
 * The two tick rules as a table of named boundary cases: each case runs beginBlocker/endBlocker over
 * (height, time) pairs and compares the hook calls (order, numbers, blocks) and the first record at
 * the end ("epoch/current start time/start height", "+ended" while the spec rule's mark is set).
 */
import { expect } from "chai";
import type { BlockContext } from "../../src/chain/base/module";
import { type EpochHooks, type EpochInfo, type TickRule, newEpochInfo, seconds } from "../../src/epochs/types";
import { FakeChain, rec, run } from "./helpers";

interface Case {
  name: string;
  records: EpochInfo[];
  blocks: Array<[number, number]>;
  spec: { calls: string[]; end: string };
  evmos: { calls: string[]; end: string };
}

const CASES: Case[] = [
  {
    name: "a block exactly at the end time",
    records: [rec("e", 100, 1000)],
    blocks: [
      [1, 1000],
      [2, 1050],
      [3, 1100],
      [4, 1101],
      [5, 1102],
    ],
    // spec: "at or after" ends it; evmos: strict ">" waits for 1101
    spec: { calls: ["e:B1@1", "e:A1@3", "e:B2@4"], end: "2/1101/4" },
    evmos: { calls: ["e:B1@1", "e:A2@4", "e:B2@4"], end: "2/1100/4" },
  },
  {
    name: "a block one second after the end time",
    records: [rec("e", 100, 1000)],
    blocks: [
      [1, 1000],
      [2, 1101],
      [3, 1102],
    ],
    spec: { calls: ["e:B1@1", "e:A1@2", "e:B2@3"], end: "2/1102/3" },
    evmos: { calls: ["e:B1@1", "e:A2@2", "e:B2@2"], end: "2/1100/2" },
  },
  {
    name: "a start time in the future (starts at the first block at or after it)",
    records: [rec("e", 100, 2000)],
    blocks: [
      [1, 1000],
      [2, 1999],
      [3, 2000],
      [4, 2001],
    ],
    spec: { calls: ["e:B1@3"], end: "1/2000/3" },
    evmos: { calls: ["e:B1@3"], end: "1/2000/3" },
  },
  {
    name: "a start time between blocks",
    records: [rec("e", 100, 1005)],
    blocks: [
      [1, 1000],
      [2, 1010],
      [3, 1105],
      [4, 1111],
    ],
    // spec: epoch 1 starts at the block's time (1010); evmos: at start_time (1005), on the grid
    spec: { calls: ["e:B1@2", "e:A1@4"], end: "1/1010/2+ended" },
    evmos: { calls: ["e:B1@2", "e:A2@4", "e:B2@4"], end: "2/1105/4" },
  },
  {
    name: "a duration shorter than the block interval",
    records: [rec("e", 5, 1000)],
    blocks: [
      [1, 1000],
      [2, 1010],
      [3, 1020],
      [4, 1030],
    ],
    // spec: at least two blocks per epoch; evmos: one tick every block, falling behind
    spec: { calls: ["e:B1@1", "e:A1@2", "e:B2@3", "e:A2@4"], end: "2/1020/3+ended" },
    evmos: { calls: ["e:B1@1", "e:A2@2", "e:B2@2", "e:A3@3", "e:B3@3", "e:A4@4", "e:B4@4"], end: "4/1015/4" },
  },
  {
    name: "a jump in time over many durations",
    records: [rec("e", 100, 1000)],
    blocks: [
      [1, 1000],
      [2, 1950],
      [3, 1951],
      [4, 1952],
    ],
    // spec: one end and one start, no replay; evmos: catches up one epoch per block
    spec: { calls: ["e:B1@1", "e:A1@2", "e:B2@3"], end: "2/1951/3" },
    evmos: { calls: ["e:B1@1", "e:A2@2", "e:B2@2", "e:A3@3", "e:B3@3", "e:A4@4", "e:B4@4"], end: "4/1300/4" },
  },
  {
    name: "several identifiers ending in one block, visited in identifier-byte order",
    records: [rec("week", 100, 1000), rec("day", 100, 1000), rec("Zeta", 100, 1000), rec("10s", 100, 1000)],
    blocks: [
      [1, 1000],
      [2, 1100],
      [3, 1101],
    ],
    spec: {
      calls: ["10s:B1@1", "Zeta:B1@1", "day:B1@1", "week:B1@1", "10s:A1@2", "Zeta:A1@2", "day:A1@2", "week:A1@2", "10s:B2@3", "Zeta:B2@3", "day:B2@3", "week:B2@3"],
      end: "2/1101/3",
    },
    evmos: {
      calls: ["10s:B1@1", "Zeta:B1@1", "day:B1@1", "week:B1@1", "10s:A2@3", "10s:B2@3", "Zeta:A2@3", "Zeta:B2@3", "day:A2@3", "day:B2@3", "week:A2@3", "week:B2@3"],
      end: "2/1100/3",
    },
  },
  {
    name: "a genesis record already counting",
    records: [rec("e", 100, 500, { epochCountingStarted: true, currentEpoch: 5n, currentEpochStartTime: seconds(900n) })],
    blocks: [
      [1, 1000],
      [2, 1001],
    ],
    spec: { calls: ["e:A5@1", "e:B6@2"], end: "6/1001/2" },
    evmos: { calls: ["e:A6@2", "e:B6@2"], end: "6/1000/2" },
  },
  {
    name: "a record counting with its start time still in the future",
    records: [rec("e", 100, 5000, { epochCountingStarted: true, currentEpoch: 3n, currentEpochStartTime: seconds(0n) })],
    blocks: [
      [1, 1000],
      [2, 2000],
    ],
    // evmos's third tick condition (start_time <= t) holds it back, however overdue
    spec: { calls: ["e:A3@1", "e:B4@2"], end: "4/2000/2" },
    evmos: { calls: [], end: "3/0/0" },
  },
  {
    name: "the spec's drift example: blocks at 97, 104, 110 end a 100-unit epoch at 104 and start the next at 110",
    records: [rec("e", 100, 4)],
    blocks: [
      [1, 4],
      [2, 97],
      [3, 104],
      [4, 110],
    ],
    spec: { calls: ["e:B1@1", "e:A1@3", "e:B2@4"], end: "2/110/4" },
    evmos: { calls: ["e:B1@1", "e:A2@4", "e:B2@4"], end: "2/104/4" },
  },
];

function endState(chain: FakeChain, id: string): string {
  const info = chain.keeper.getEpochInfo(id).info!;
  return `${info.currentEpoch}/${info.currentEpochStartTime.seconds}/${info.currentEpochStartHeight}${chain.keeper.isEnded(id) ? "+ended" : ""}`;
}

describe("epochs tick rules (table of boundary cases)", () => {
  for (const rule of ["spec", "evmos"] as const) {
    describe(`rule "${rule}"`, () => {
      for (const c of CASES) {
        it(c.name, async () => {
          const r = await run(
            rule,
            c.records.map((x) => ({ ...x })),
            c.blocks,
          );
          expect(r.calls).to.deep.equal(c[rule].calls);
          const sorted = [...c.records.map((x) => x.identifier)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
          expect(endState(r.chain, sorted[0])).to.equal(c[rule].end);
        });
      }
    });
  }
});

describe("epochs tick rules: events, store and hook order", () => {
  it('"spec": epoch_start carries the block time, epoch_end the ending number, both name the timer last', async () => {
    const r = await run(
      "spec",
      [rec("e", 100, 1005)],
      [
        [1, 1000],
        [2, 1010],
        [3, 1110],
        [4, 1111],
      ],
    );
    expect(r.events).to.deep.equal([
      "2:begin_block:epoch_start:epoch_number=1,start_time=1010,identifier=e",
      "3:end_block:epoch_end:epoch_number=1,identifier=e",
      "4:begin_block:epoch_start:epoch_number=2,start_time=1111,identifier=e",
    ]);
  });

  it('"evmos": epoch_end carries the new number, start times stay on the grid, all in begin-block', async () => {
    const r = await run(
      "evmos",
      [rec("e", 100, 1005)],
      [
        [1, 1000],
        [2, 1010],
        [3, 1111],
      ],
    );
    expect(r.events).to.deep.equal([
      "2:begin_block:epoch_start:epoch_number=1,start_time=1005,identifier=e",
      "3:begin_block:epoch_end:epoch_number=2,identifier=e",
      "3:begin_block:epoch_start:epoch_number=2,start_time=1105,identifier=e",
    ]);
  });

  it('"evmos": start_time attributes are floored Unix seconds, negative for year 1', async () => {
    // a record counting from the zero time ticks once per block on the grid from 0001-01-01
    const r = await run("evmos", [rec("e", 86400, 10, { epochCountingStarted: true, currentEpoch: 1n, currentEpochStartTime: { seconds: -62135596800n, nanos: 0 } })], [[1, 1000]]);
    expect(r.events).to.deep.equal(["1:begin_block:epoch_end:epoch_number=2,identifier=e", "1:begin_block:epoch_start:epoch_number=2,start_time=-62135510400,identifier=e"]);
  });

  it("hooks see the store as their rule writes it", async () => {
    const spec = await run(
      "spec",
      [rec("e", 100, 1000)],
      [
        [1, 1000],
        [2, 1101],
        [3, 1102],
      ],
    );
    expect(spec.seen).to.deep.equal(["e:B1@1 saw 1", "e:A1@2 saw 1", "e:B2@3 saw 2"]);
    const evmos = await run(
      "evmos",
      [rec("e", 100, 1000)],
      [
        [1, 1000],
        [2, 1101],
      ],
    );
    // AfterEpochEnd still sees the old record under Evmos's order
    expect(evmos.seen).to.deep.equal(["e:B1@1 saw 1", "e:A2@2 saw 1", "e:B2@2 saw 2"]);
  });

  it('"spec": the ended mark is in the store while AfterEpochEnd runs and cleared before BeforeEpochStart', async () => {
    const chain = new FakeChain();
    chain.keeper.setEpochInfo(rec("e", 10, 0));
    const marks: string[] = [];
    const hooks: EpochHooks = {
      afterEpochEnd: (_c, id, n) => void marks.push(`A${n}:${chain.keeper.isEnded(id)}`),
      beforeEpochStart: (_c, id, n) => void marks.push(`B${n}:${chain.keeper.isEnded(id)}`),
    };
    for (const [h, t] of [
      [1, 100],
      [2, 200],
      [3, 300],
    ])
      await chain.block(h, t, hooks, "spec");
    expect(marks).to.deep.equal(["B1:false", "A1:true", "B2:false"]);
  });

  for (const rule of ["spec", "evmos"] as TickRule[]) {
    it(`"${rule}": records a hook adds or changes are seen from the next phase on`, async () => {
      const chain = new FakeChain();
      chain.keeper.setEpochInfo(rec("a", 1000, 0));
      chain.keeper.setEpochInfo(rec("b", 1000, 0));
      const calls: string[] = [];
      const hooks: EpochHooks = {
        afterEpochEnd: () => undefined,
        beforeEpochStart: (_c: BlockContext, id, n) => {
          calls.push(`${id}:B${n}`);
          if (id === "a" && n === 1n) {
            chain.keeper.setEpochInfo(rec("a2", 1000, 0));
            chain.keeper.deleteEpochInfo("b");
          }
        },
      };
      await chain.block(1, 100, hooks, rule);
      expect(calls).to.deep.equal(["a:B1", "b:B1"]);
      await chain.block(2, 101, hooks, rule);
      expect(calls).to.deep.equal(["a:B1", "b:B1", "a2:B1"]);
    });
  }

  it("a zero start time becomes the genesis time and the start height the genesis height", async () => {
    const r = await run("spec", [newEpochInfo("day", 86400n)], [[1, 5000]], 4000);
    const info = r.chain.keeper.getEpochInfo("day").info!;
    expect(info.startTime).to.deep.equal(seconds(4000n));
    expect(info.currentEpoch).to.equal(1n);
    expect(info.currentEpochStartTime).to.deep.equal(seconds(5000n));
    expect(info.currentEpochStartHeight).to.equal(1n);
  });

  it("sub-second start times compare exactly (no floats)", async () => {
    const start = { seconds: 1000n, nanos: 1 };
    for (const rule of ["spec", "evmos"] as const) {
      const r = await run(
        rule,
        [{ ...rec("e", 100, 0), startTime: start }],
        [
          [1, 1000],
          [2, 1001],
        ],
      );
      expect(r.calls, rule).to.deep.equal(["e:B1@2"]);
    }
  });
});
