/**
 * The two tick rules as a table of named boundary cases: each case runs beginBlocker/endBlocker over
 * (height, time) pairs and compares the hook calls (in order, with numbers and blocks) and events.
 */
import { expect } from "chai";
import type { BlockContext, ModuleEvent } from "../../../src/chain/module";
import { type EpochInfo, newEpochInfo, seconds } from "../../../src/epochs/epoch-info";
import { initGenesis, validateGenesis } from "../../../src/epochs/epochs-genesis";
import { EpochsKeeper } from "../../../src/epochs/epochs-keeper";
import { type EpochHooks, type TickRule, beginBlocker, endBlocker } from "../../../src/epochs/tick-rules";
import { MemoryKV } from "../../../src/storage/kv";
import { VersionedModuleStore } from "../../../src/storage/module-store";

interface Run {
  calls: string[];
  events: Array<{ height: number; phase: string; event: ModuleEvent }>;
  keeper: EpochsKeeper;
  /** What each hook saw in the store for its own identifier: "B1@3 saw 1" = current_epoch read during the hook. */
  seen: string[];
}

async function run(rule: TickRule, records: EpochInfo[], blocks: Array<[number, number]>, genesisTime = 0): Promise<Run> {
  const store = new VersionedModuleStore(new MemoryKV(), "epochs");
  const keeper = new EpochsKeeper(() => store);
  initGenesis(keeper, { epochs: records }, seconds(BigInt(genesisTime)), 0n);
  store.commitOps(0n);
  const out: Run = { calls: [], events: [], keeper, seen: [] };
  let height = 0;
  const hooks: EpochHooks = {
    afterEpochEnd: (_ctx, id, n) => {
      out.calls.push(`${id}:A${n}@${height}`);
      out.seen.push(`${id}:A${n}@${height} saw ${keeper.getEpochInfo(id).info?.currentEpoch}`);
    },
    beforeEpochStart: (_ctx, id, n) => {
      out.calls.push(`${id}:B${n}@${height}`);
      out.seen.push(`${id}:B${n}@${height} saw ${keeper.getEpochInfo(id).info?.currentEpoch}`);
    },
  };
  for (const [h, t] of blocks) {
    height = h;
    for (const phase of ["begin_block", "end_block"] as const) {
      const ctx: BlockContext = {
        height: BigInt(h),
        timestamp: BigInt(t),
        phase,
        store,
        emit: (event) => out.events.push({ height: h, phase, event }),
        systemCall: () => Promise.reject(new Error("no EVM in this test")),
        getStorage: () => Promise.resolve(new Uint8Array(32)),
      };
      if (phase === "begin_block") await beginBlocker(ctx, keeper, hooks, rule);
      else await endBlocker(ctx, keeper, hooks, rule);
    }
    store.commitOps(BigInt(h));
  }
  return out;
}

const rec = (id: string, duration: number, start: number, extra: Partial<EpochInfo> = {}): EpochInfo => ({
  ...newEpochInfo(id, BigInt(duration), seconds(BigInt(start))),
  ...extra,
});

interface Case {
  name: string;
  records: EpochInfo[];
  blocks: Array<[number, number]>;
  spec: string[];
  evmos: string[];
}

const CASES: Case[] = [
  {
    name: "an epoch at its exact end time",
    records: [rec("e", 100, 1000)],
    blocks: [[1, 1000], [2, 1050], [3, 1100], [4, 1101], [5, 1102]],
    spec: ["e:B1@1", "e:A1@3", "e:B2@4"],
    evmos: ["e:B1@1", "e:A2@4", "e:B2@4"],
  },
  {
    name: "one second after the end time",
    records: [rec("e", 100, 1000)],
    blocks: [[1, 1000], [2, 1101], [3, 1102]],
    spec: ["e:B1@1", "e:A1@2", "e:B2@3"],
    evmos: ["e:B1@1", "e:A2@2", "e:B2@2"],
  },
  {
    name: "a start time in the future",
    records: [rec("e", 100, 2000)],
    blocks: [[1, 1000], [2, 1999], [3, 2000], [4, 2001]],
    spec: ["e:B1@3"],
    evmos: ["e:B1@3"],
  },
  {
    name: "a start time between blocks",
    records: [rec("e", 100, 1005)],
    blocks: [[1, 1000], [2, 1010], [3, 1105], [4, 1111]],
    spec: ["e:B1@2", "e:A1@4"],
    evmos: ["e:B1@2", "e:A2@4", "e:B2@4"],
  },
  {
    name: "a duration shorter than the block interval",
    records: [rec("e", 5, 1000)],
    blocks: [[1, 1000], [2, 1010], [3, 1020], [4, 1030]],
    spec: ["e:B1@1", "e:A1@2", "e:B2@3", "e:A2@4"],
    evmos: ["e:B1@1", "e:A2@2", "e:B2@2", "e:A3@3", "e:B3@3", "e:A4@4", "e:B4@4"],
  },
  {
    name: "a jump in time over many durations",
    records: [rec("e", 100, 1000)],
    blocks: [[1, 1000], [2, 1950], [3, 1951], [4, 1952]],
    spec: ["e:B1@1", "e:A1@2", "e:B2@3"],
    evmos: ["e:B1@1", "e:A2@2", "e:B2@2", "e:A3@3", "e:B3@3", "e:A4@4", "e:B4@4"],
  },
  {
    name: "several identifiers ending in one block, in identifier-byte order",
    records: [rec("week", 100, 1000), rec("day", 100, 1000), rec("Zeta", 100, 1000), rec("10s", 100, 1000)],
    blocks: [[1, 1000], [2, 1100], [3, 1101]],
    spec: ["10s:B1@1", "Zeta:B1@1", "day:B1@1", "week:B1@1", "10s:A1@2", "Zeta:A1@2", "day:A1@2", "week:A1@2", "10s:B2@3", "Zeta:B2@3", "day:B2@3", "week:B2@3"],
    evmos: ["10s:B1@1", "Zeta:B1@1", "day:B1@1", "week:B1@1", "10s:A2@3", "10s:B2@3", "Zeta:A2@3", "Zeta:B2@3", "day:A2@3", "day:B2@3", "week:A2@3", "week:B2@3"],
  },
  {
    name: "a genesis record already counting",
    records: [rec("e", 100, 500, { epochCountingStarted: true, currentEpoch: 5n, currentEpochStartTime: seconds(900n) })],
    blocks: [[1, 1000], [2, 1001]],
    spec: ["e:A5@1", "e:B6@2"],
    evmos: ["e:A6@2", "e:B6@2"],
  },
  {
    name: "the spec's drift example: blocks at 97, 104, 110 end a 100-unit epoch at 104 and start the next at 110",
    records: [rec("e", 100, 4)],
    blocks: [[1, 4], [2, 97], [3, 104], [4, 110]],
    spec: ["e:B1@1", "e:A1@3", "e:B2@4"],
    evmos: ["e:B1@1", "e:A2@4", "e:B2@4"],
  },
];

describe("epochs tick rules (table of boundary cases)", () => {
  for (const rule of ["spec", "evmos"] as const) {
    describe(`rule "${rule}"`, () => {
      for (const c of CASES) {
        it(c.name, async () => {
          const r = await run(rule, c.records.map((x) => ({ ...x })), c.blocks);
          expect(r.calls).to.deep.equal(c[rule]);
        });
      }
    });
  }

  it('"spec": epoch_start carries the block time; start and end events name the timer', async () => {
    const r = await run("spec", [rec("e", 100, 1005)], [[1, 1000], [2, 1010], [3, 1110], [4, 1111]]);
    const shape = r.events.map((e) => `${e.height}:${e.phase}:${e.event.type}:${e.event.attributes.map((a) => `${a.key}=${a.value}`).join(",")}`);
    expect(shape).to.deep.equal([
      "2:begin_block:epoch_start:epoch_number=1,start_time=1010,identifier=e",
      "3:end_block:epoch_end:epoch_number=1,identifier=e",
      "4:begin_block:epoch_start:epoch_number=2,start_time=1111,identifier=e",
    ]);
    const info = r.keeper.getEpochInfo("e").info!;
    expect(info.currentEpochStartTime).to.deep.equal(seconds(1111n));
    expect(info.currentEpochStartHeight).to.equal(4n);
    expect(r.keeper.isEnded("e")).to.equal(false);
  });

  it('"evmos": epoch_end carries the new number, start times stay on the grid, all in begin-block', async () => {
    const r = await run("evmos", [rec("e", 100, 1005)], [[1, 1000], [2, 1010], [3, 1111]]);
    const shape = r.events.map((e) => `${e.height}:${e.phase}:${e.event.type}:${e.event.attributes.map((a) => `${a.key}=${a.value}`).join(",")}`);
    expect(shape).to.deep.equal([
      "2:begin_block:epoch_start:epoch_number=1,start_time=1005,identifier=e",
      "3:begin_block:epoch_end:epoch_number=2,identifier=e",
      "3:begin_block:epoch_start:epoch_number=2,start_time=1105,identifier=e",
    ]);
    expect(r.keeper.getEpochInfo("e").info!.currentEpochStartHeight).to.equal(3n);
  });

  it("hooks see the store as their rule writes it", async () => {
    const spec = await run("spec", [rec("e", 100, 1000)], [[1, 1000], [2, 1101], [3, 1102]]);
    expect(spec.seen).to.deep.equal(["e:B1@1 saw 1", "e:A1@2 saw 1", "e:B2@3 saw 2"]);
    const evmos = await run("evmos", [rec("e", 100, 1000)], [[1, 1000], [2, 1101]]);
    // AfterEpochEnd still sees the old record under Evmos's order
    expect(evmos.seen).to.deep.equal(["e:B1@1 saw 1", "e:A2@2 saw 1", "e:B2@2 saw 2"]);
  });

  it("fills a zero start time with the genesis time and the start height with the genesis height", async () => {
    const r = await run("spec", [newEpochInfo("day", 86400n)], [[1, 5000]], 4000);
    const info = r.keeper.getEpochInfo("day").info!;
    expect(info.startTime).to.deep.equal(seconds(4000n));
    expect(info.currentEpoch).to.equal(1n);
    expect(info.currentEpochStartTime).to.deep.equal(seconds(5000n));
  });
});

describe("epochs genesis validation (Evmos's texts)", () => {
  const cases: Array<[string, EpochInfo[], string]> = [
    ["a duplicate (checked first)", [rec("day", 10, 0), rec("day", 0, 0)], "invalid epochs genesis: duplicated epoch entry day"],
    ["a blank identifier", [rec("day", 10, 0), rec("week", 10, 0), rec("  ", 10, 0)], "invalid epochs genesis: epochs[2]: epoch identifier cannot be blank"],
    ["a zero duration", [rec("day", 0, 0)], "invalid epochs genesis: epochs[0]: epoch duration cannot be 0"],
    ["a negative duration", [rec("day", -5, 0)], "invalid epochs genesis: epochs[0]: epoch duration cannot be negative: -5s"],
    ["a negative current epoch", [rec("day", 5, 0, { currentEpoch: -1n })], "invalid epochs genesis: epochs[0]: current epoch cannot be negative: -1"],
    ["a negative start height", [rec("day", 5, 0, { currentEpochStartHeight: -2n })], "invalid epochs genesis: epochs[0]: current epoch start height cannot be negative: -2"],
  ];
  for (const [name, epochs, message] of cases) {
    it(`refuses ${name}`, () => {
      expect(() => validateGenesis({ epochs })).to.throw(message);
    });
  }

  it("accepts an empty list and Evmos's defaults", () => {
    expect(() => validateGenesis({ epochs: [] })).to.not.throw();
  });
});
