/**
 * The Cosmos SDK's own x/epochs keeper tests (x/epochs/keeper/abci_test.go, epoch_test.go,
 * genesis_test.go in github.com/cosmos/cosmos-sdk), as vectors for the "sdk" tick rule and the
 * cosmos-evm profile. Adaptations, each for a reason:
 * - the SDK's epsilon is 1 ns; EVM block times are whole seconds, so epsilon is 1 s here (the rule is
 *   a strict `>`, so any positive step shows it);
 * - AddEpochInfo is the genesis path (initGenesis: a zero start time becomes the block time, the start
 *   height becomes the block height) and its refusals are GenesisState.Validate's texts;
 * - "first block" is the block at the genesis time and height of the test (the SDK runs BeginBlocker
 *   in the block that added the record).
 */
import { expect } from "chai";
import { SDK_EVENTS } from "../../src/epochs/abci";
import { decodeEpochInfo, encodeEpochInfo } from "../../src/epochs/codec";
import { defaultGenesis, exportGenesis, initGenesis, parseCosmosGenesis, validateGenesis } from "../../src/epochs/genesis";
import { createEpochsModule } from "../../src/epochs";
import { type EpochInfo, ZERO_TIME, newEpochInfo, seconds } from "../../src/epochs/types";
import { FakeChain, run } from "./helpers";

const BLOCK1 = 1656907200; // time.Unix(1656907200, 0)
const HOUR = 3600;
const EPS = 1;

interface AbciCase {
  /** Fields the SDK's case sets; identifier "hourly" and duration 1 h unless given. */
  initial: Partial<EpochInfo> & { currentEpoch: bigint };
  /** Later blocks: [height, unix seconds]. */
  blocks?: Array<[number, number]>;
  expected: Partial<EpochInfo>;
}

const t = (s: number) => seconds(BigInt(s));

// TestEpochInfoBeginBlockChanges
const ABCI_CASES: Record<string, AbciCase> = {
  "First block running at exactly start time sets epoch tick": {
    initial: { startTime: t(BLOCK1), currentEpoch: 0n },
    expected: { startTime: t(BLOCK1), currentEpoch: 1n, currentEpochStartTime: t(BLOCK1), currentEpochStartHeight: 1n },
  },
  "First block run sets start time, subsequent blocks within timer interval do not cause timer tick": {
    initial: { startTime: t(BLOCK1), currentEpoch: 0n },
    blocks: [
      [2, BLOCK1 + 1],
      [3, BLOCK1 + 60],
      [4, BLOCK1 + 30 * 60],
    ],
    expected: { startTime: t(BLOCK1), currentEpoch: 1n, currentEpochStartTime: t(BLOCK1), currentEpochStartHeight: 1n },
  },
  "Second block at exactly timer interval later does not tick": {
    initial: { startTime: t(BLOCK1), currentEpoch: 0n },
    blocks: [[2, BLOCK1 + HOUR]],
    expected: { startTime: t(BLOCK1), currentEpoch: 1n, currentEpochStartTime: t(BLOCK1), currentEpochStartHeight: 1n },
  },
  "Second block at timer interval + epsilon later does tick": {
    initial: { startTime: t(BLOCK1), currentEpoch: 0n },
    blocks: [[2, BLOCK1 + HOUR + EPS]],
    expected: { startTime: t(BLOCK1), currentEpoch: 2n, currentEpochStartTime: t(BLOCK1 + HOUR), currentEpochStartHeight: 2n },
  },
  "Downtime recovery (many intervals), first block causes 1 tick and sets current start time 1 interval ahead": {
    initial: { startTime: t(BLOCK1), currentEpoch: 0n },
    blocks: [[2, BLOCK1 + 24 * HOUR]],
    expected: { startTime: t(BLOCK1), currentEpoch: 2n, currentEpochStartTime: t(BLOCK1 + HOUR), currentEpochStartHeight: 2n },
  },
  "Downtime recovery (many intervals), second block is at tick 2, w/ start time 2 intervals ahead": {
    initial: { startTime: t(BLOCK1), currentEpoch: 0n },
    blocks: [
      [2, BLOCK1 + 24 * HOUR],
      [3, BLOCK1 + 24 * HOUR + EPS],
    ],
    expected: { startTime: t(BLOCK1), currentEpoch: 3n, currentEpochStartTime: t(BLOCK1 + 2 * HOUR), currentEpochStartHeight: 3n },
  },
  "Many blocks between first and second tick": {
    initial: { startTime: t(BLOCK1), currentEpoch: 1n, currentEpochStartTime: t(BLOCK1) },
    blocks: [
      [2, BLOCK1 + 1],
      [3, BLOCK1 + 2],
      [4, BLOCK1 + HOUR + EPS],
    ],
    expected: { startTime: t(BLOCK1), currentEpoch: 2n, currentEpochStartTime: t(BLOCK1 + HOUR), currentEpochStartHeight: 4n },
  },
  "Distinct identifier and duration still works": {
    initial: { identifier: "hello", duration: t(60), startTime: t(BLOCK1), currentEpoch: 0n },
    blocks: [
      [2, BLOCK1 + 1],
      [3, BLOCK1 + 60 + EPS],
    ],
    expected: { identifier: "hello", duration: t(60), startTime: t(BLOCK1), currentEpoch: 2n, currentEpochStartTime: t(BLOCK1 + 60), currentEpochStartHeight: 3n },
  },
  "StartTime in future won't get ticked on first block": {
    initial: { startTime: t(BLOCK1 + 1), currentEpoch: 0n },
    // currentEpochStartHeight is 1 because that's when the timer was created on-chain
    expected: { startTime: t(BLOCK1 + 1), currentEpoch: 0n, currentEpochStartTime: ZERO_TIME, currentEpochStartHeight: 1n },
  },
  "StartTime in past will get ticked on first block": {
    initial: { startTime: t(BLOCK1 - 1), currentEpoch: 0n },
    expected: { startTime: t(BLOCK1 - 1), currentEpoch: 1n, currentEpochStartTime: t(BLOCK1 - 1), currentEpochStartHeight: 1n },
  },
};

/** The SDK's initializeBlankEpochInfoFields: identifier and duration defaulted, counting started iff currentEpoch ≠ 0. */
function filled(e: Partial<EpochInfo>, identifier: string, duration: EpochInfo["duration"]): EpochInfo {
  const base = newEpochInfo(identifier, 0n);
  return { ...base, ...e, identifier: e.identifier ?? identifier, duration: e.duration ?? duration, epochCountingStarted: (e.currentEpoch ?? 0n) !== 0n };
}

describe('Cosmos SDK x/epochs keeper tests as vectors (tick rule "sdk", cosmos-evm profile)', () => {
  describe("abci_test.go: TestEpochInfoBeginBlockChanges", () => {
    for (const [name, c] of Object.entries(ABCI_CASES)) {
      it(name, async () => {
        const initial = filled(c.initial, "hourly", t(HOUR));
        // added in block 1 at BLOCK1, whose BeginBlocker then runs; then the later blocks
        const r = await run("sdk", [initial], [[1, BLOCK1], ...(c.blocks ?? [])], BLOCK1, SDK_EVENTS, 1);
        expect(r.chain.keeper.getEpochInfo(initial.identifier).info).to.deep.equal(filled(c.expected, initial.identifier, initial.duration));
      });
    }
  });

  it("abci_test.go: TestEpochStartingOneMonthAfterInitGenesis", async () => {
    const now = 1_700_000_000;
    const week = 7 * 24 * HOUR;
    const month = 30 * 24 * HOUR;
    const monthly = { ...newEpochInfo("monthly", BigInt(month), t(now + month)), currentEpochStartHeight: 1n };
    const chain = new FakeChain();
    initGenesis(chain.keeper, { epochs: [monthly] }, t(now), 1n);
    const hooks = { afterEpochEnd: async () => {}, beforeEpochStart: async () => {} };
    await chain.block(2, now + week, hooks, "sdk", SDK_EVENTS);
    expect(chain.keeper.getEpochInfo("monthly").info).to.include({ currentEpoch: 0n, currentEpochStartHeight: 1n, epochCountingStarted: false });
    expect(chain.keeper.getEpochInfo("monthly").info?.currentEpochStartTime).to.deep.equal(ZERO_TIME);
    await chain.block(3, now + month, hooks, "sdk", SDK_EVENTS);
    expect(chain.keeper.getEpochInfo("monthly").info).to.deep.include({ currentEpoch: 1n, currentEpochStartHeight: 3n, epochCountingStarted: true, currentEpochStartTime: t(now + month) });
  });

  describe("epoch_test.go", () => {
    it("TestAddEpochInfo simple_add: a zero start time becomes the block time, the start height the block height", () => {
      const chain = new FakeChain();
      initGenesis(chain.keeper, { epochs: [newEpochInfo("default_add_epoch_info_id", BigInt(HOUR))] }, t(BLOCK1), 100n);
      expect(chain.keeper.getEpochInfo("default_add_epoch_info_id").info).to.deep.equal({
        ...newEpochInfo("default_add_epoch_info_id", BigInt(HOUR), t(BLOCK1)),
        currentEpochStartHeight: 100n,
      });
    });

    it("TestAddEpochInfo zero_duration: refused", () => {
      expect(() => validateGenesis({ epochs: [newEpochInfo("default_add_epoch_info_id", 0n)] }, "cosmos-evm")).to.throw("invalid epochs genesis: epochs[0]: epoch duration should NOT be 0");
    });

    it("TestDuplicateAddEpochInfo: refused", () => {
      const monthly = newEpochInfo("duplicate_add_epoch_info", BigInt(30 * 24 * HOUR));
      expect(() => validateGenesis({ epochs: [monthly, monthly] }, "cosmos-evm")).to.throw("epoch identifier should be unique");
    });

    // the SDK's test has no "minute": its default genesis then had three timers
    it("TestEpochLifeCycle: the default genesis and an added timer, in alphabetical order", () => {
      const chain = new FakeChain();
      initGenesis(chain.keeper, { epochs: [...defaultGenesis("cosmos-evm").epochs, newEpochInfo("monthly", BigInt(30 * 24 * HOUR))] }, t(BLOCK1), 1n);
      expect(chain.keeper.allEpochInfos().map((e) => e.identifier)).to.deep.equal(["day", "hour", "minute", "monthly", "week"]);
      expect(chain.keeper.getEpochInfo("monthly").info).to.deep.equal({ ...newEpochInfo("monthly", BigInt(30 * 24 * HOUR), t(BLOCK1)), currentEpochStartHeight: 1n });
    });
  });

  describe("genesis_test.go", () => {
    it("TestEpochsInitGenesis: refuses a repeated identifier, then imports a record with a zero start time at the block time", () => {
      const monthly: EpochInfo = { ...newEpochInfo("monthly", BigInt(24 * HOUR)), epochCountingStarted: true };
      expect(() => validateGenesis({ epochs: [monthly, monthly] }, "cosmos-evm")).to.throw("invalid epochs genesis: epochs[1]: epoch identifier should be unique");
      const chain = new FakeChain();
      validateGenesis({ epochs: [monthly] }, "cosmos-evm");
      initGenesis(chain.keeper, { epochs: [monthly] }, t(BLOCK1), 1n);
      expect(chain.keeper.getEpochInfo("monthly").info).to.deep.equal({ ...monthly, startTime: t(BLOCK1), currentEpochStartHeight: 1n });
    });

    it("TestEpochsExportGenesis: the default genesis, every timer started at the chain's start", async () => {
      const module = createEpochsModule({ profile: "cosmos-evm" });
      expect(module.tickRule).to.equal("sdk");
      const chain = new FakeChain();
      const ctx = { ...chain.ctx(0, BLOCK1, "begin_block"), putCode: async () => {} };
      await module.blockModule().initGenesis!(ctx as never);
      await module.blockModule().beginBlock!(chain.ctx(1, BLOCK1, "begin_block"));
      const expected = defaultGenesis("cosmos-evm").epochs.map((e) => ({
        ...e,
        startTime: t(BLOCK1),
        currentEpoch: 1n,
        epochCountingStarted: true,
        currentEpochStartTime: t(BLOCK1),
        currentEpochStartHeight: 1n,
      }));
      expect(exportGenesis(chain.keeper).epochs).to.deep.equal(expected);
    });
  });

  describe("what the SDK's BeginBlocker emits and calls", () => {
    it("typed events (one attribute per field, sorted, proto3-JSON values) and the ending number for AfterEpochEnd", async () => {
      const r = await run(
        "sdk",
        [newEpochInfo("hour", BigInt(HOUR), t(BLOCK1))],
        [
          [1, BLOCK1],
          [2, BLOCK1 + HOUR + 1],
        ],
        BLOCK1,
        SDK_EVENTS,
      );
      expect(r.calls).to.deep.equal(["hour:B1@1", "hour:A1@2", "hour:B2@2"]);
      // AfterEpochEnd runs before the record is written; BeforeEpochStart after
      expect(r.seen).to.deep.equal(["hour:B1@1 saw 1", "hour:A1@2 saw 1", "hour:B2@2 saw 2"]);
      expect(r.events).to.deep.equal([
        `1:begin_block:cosmos.epochs.v1beta1.EventEpochStart:epoch_number="1",epoch_start_time="${BLOCK1}"`,
        '2:begin_block:cosmos.epochs.v1beta1.EventEpochEnd:epoch_number="1"',
        `2:begin_block:cosmos.epochs.v1beta1.EventEpochStart:epoch_number="2",epoch_start_time="${BLOCK1 + HOUR}"`,
      ]);
    });

    it("stores cosmos.epochs.v1beta1.EpochInfo: current_epoch_start_height is field 8, 7 is reserved", () => {
      const info: EpochInfo = { identifier: "day", startTime: t(1), duration: t(86_400), currentEpoch: 2n, currentEpochStartTime: t(5), epochCountingStarted: true, currentEpochStartHeight: 7n };
      // 0a 03 "day" | 12 02 08 01 | 1a 04 08 80a305 | 20 02 | 2a 02 08 05 | 30 01 | 40 07 (field 8, varint)
      const hex = "0a03646179" + "12020801" + "1a040880a305" + "2002" + "2a020805" + "3001" + "4007";
      expect(Buffer.from(encodeEpochInfo(info)).toString("hex")).to.equal(hex);
      expect(decodeEpochInfo(Buffer.from(hex, "hex"))).to.deep.equal(info);
    });

    it("imports a cosmos/evm genesis.json: any Cosmos chain id, the Ethermint form still giving the EVM one; no epochs = the SDK's defaults", () => {
      const g = parseCosmosGenesis('{"genesis_time": "2026-01-01T00:00:00Z", "chain_id": "cosmos-1", "app_state": {"bank": {}}}', "cosmos-evm");
      expect(g.chainId).to.equal(undefined);
      expect(g.epochs.epochs.map((e) => e.identifier)).to.deep.equal(["day", "hour", "minute", "week"]);
      expect(parseCosmosGenesis('{"chain_id": "cosmos_262144-1"}', "cosmos-evm").chainId).to.equal(262144n);
      // an Evmos genesis imports the same way (the JSON of EpochInfo is the same in both)
      const evmos = parseCosmosGenesis('{"chain_id": "evmos_9000-1", "app_state": {"epochs": {"epochs": [{"identifier": "week", "duration": "604800s"}]}}}', "cosmos-evm");
      expect(evmos.epochs.epochs.map((e) => e.identifier)).to.deep.equal(["week"]);
      expect(() => parseCosmosGenesis('{"chain_id": "cosmos-1"}', "evmos")).to.throw(/expected the Ethermint form/);
    });

    it("the SDK's default genesis is day, hour, minute, week with zero start times", () => {
      expect(defaultGenesis("cosmos-evm").epochs.map((e) => [e.identifier, e.duration.seconds, e.startTime])).to.deep.equal([
        ["day", 86_400n, ZERO_TIME],
        ["hour", 3_600n, ZERO_TIME],
        ["minute", 60n, ZERO_TIME],
        ["week", 604_800n, ZERO_TIME],
      ]);
      expect(createEpochsModule({}).profile).to.equal("evmos");
      expect(createEpochsModule({}).tickRule).to.equal("spec");
    });
  });
});
