import { expect } from "chai";
import { defaultGenesis, exportGenesis, initGenesis, parseChainId, parseCosmosGenesis, toCosmosGenesis, validateGenesis } from "../../src/epochs/genesis";
import { parseTime } from "../../src/epochs/codec";
import { type EpochInfo, ZERO_TIME, seconds } from "../../src/epochs/types";
import { FakeChain, rec } from "./helpers";

describe("epochs genesis", () => {
  it("defaults to Evmos's week then day, zero times, not counting", () => {
    const gs = defaultGenesis();
    expect(gs.epochs.map((e) => [e.identifier, e.duration.seconds, e.currentEpoch, e.epochCountingStarted])).to.deep.equal([
      ["week", 604800n, 0n, false],
      ["day", 86400n, 0n, false],
    ]);
    for (const e of gs.epochs) {
      expect(e.startTime).to.deep.equal(ZERO_TIME);
      expect(e.currentEpochStartTime).to.deep.equal(ZERO_TIME);
    }
    expect(() => validateGenesis(gs)).to.not.throw();
  });

  describe("validation (Evmos's texts and order)", () => {
    const cases: Array<[string, EpochInfo[], string]> = [
      ["a duplicate, checked before the record's own fields", [rec("day", 10, 0), rec("day", 0, 0)], "invalid epochs genesis: duplicated epoch entry day"],
      ["two blank identifiers: the first one is blank", [rec("", 10, 0), rec("", 10, 0)], "invalid epochs genesis: epochs[0]: epoch identifier cannot be blank"],
      ["a blank identifier (whitespace only)", [rec("day", 10, 0), rec("week", 10, 0), rec(" \t", 10, 0)], "invalid epochs genesis: epochs[2]: epoch identifier cannot be blank"],
      ["a zero duration", [rec("day", 0, 0)], "invalid epochs genesis: epochs[0]: epoch duration cannot be 0"],
      ["a blank identifier before a zero duration", [rec("", 0, 0)], "invalid epochs genesis: epochs[0]: epoch identifier cannot be blank"],
      ["a negative duration", [rec("day", 1, 0), rec("hour", -5, 0)], "invalid epochs genesis: epochs[1]: epoch duration cannot be negative: -5s"],
      ["a negative current epoch", [rec("day", 5, 0, { currentEpoch: -1n })], "invalid epochs genesis: epochs[0]: current epoch cannot be negative: -1"],
      ["a negative start height", [rec("day", 5, 0, { currentEpochStartHeight: -2n })], "invalid epochs genesis: epochs[0]: current epoch start height cannot be negative: -2"],
      ["a negative epoch before a negative height", [rec("day", 5, 0, { currentEpoch: -1n, currentEpochStartHeight: -2n })], "current epoch cannot be negative: -1"],
    ];
    for (const [name, epochs, message] of cases) {
      it(`refuses ${name}`, () => {
        expect(() => validateGenesis({ epochs })).to.throw(Error, message);
      });
    }

    it("accepts an empty list, inconsistent records and case-different identifiers", () => {
      expect(() => validateGenesis({ epochs: [] })).to.not.throw();
      expect(() => validateGenesis({ epochs: [rec("day", 1, 0, { currentEpoch: 3n }), rec("Day", 1, 0), rec(" day", 1, 0)] })).to.not.throw();
    });
  });

  it("InitGenesis fills a zero start time and always sets the genesis height; ExportGenesis returns key order", () => {
    const chain = new FakeChain();
    const given = rec("week", 604800, 0, { startTime: ZERO_TIME, currentEpochStartHeight: 7n });
    const fixed = rec("day", 86400, 1234, { currentEpoch: 2n, epochCountingStarted: true, currentEpochStartTime: seconds(5000n) });
    initGenesis(chain.keeper, { epochs: [given, fixed] }, seconds(99n));
    const out = exportGenesis(chain.keeper).epochs;
    expect(out.map((e) => e.identifier)).to.deep.equal(["day", "week"]);
    expect(out[1]).to.deep.equal({ ...given, startTime: seconds(99n), currentEpochStartHeight: 0n });
    expect(out[0]).to.deep.equal({ ...fixed, currentEpochStartHeight: 0n });
    initGenesis(chain.keeper, { epochs: [fixed] }, seconds(99n), 10n);
    expect(chain.keeper.getEpochInfo("day").info?.currentEpochStartHeight).to.equal(10n);
  });

  describe("Cosmos genesis.json", () => {
    it("reads an exported Evmos genesis and writes one back", () => {
      const text = toCosmosGenesis({ genesisTime: parseTime("2024-03-01T12:00:00Z"), chainId: 9000n, epochs: defaultGenesis().epochs });
      const doc = JSON.parse(text);
      expect(doc.chain_id).to.equal("evmos_9000-1");
      expect(doc.app_state.epochs.epochs[0]).to.deep.equal({
        identifier: "week",
        start_time: "0001-01-01T00:00:00Z",
        duration: "604800s",
        current_epoch: "0",
        current_epoch_start_time: "0001-01-01T00:00:00Z",
        epoch_counting_started: false,
        current_epoch_start_height: "0",
      });
      const g = parseCosmosGenesis(text);
      expect(g.chainId).to.equal(9000n);
      expect(g.genesisTime).to.deep.equal(parseTime("2024-03-01T12:00:00Z"));
      expect(g.epochs).to.deep.equal(defaultGenesis());
    });

    it("defaults the epochs when app_state has none", () => {
      const g = parseCosmosGenesis('{"genesis_time": "2024-01-01T00:00:00.5Z", "chain_id": "evmos_9001-2", "app_state": {}}');
      expect(g.chainId).to.equal(9001n);
      expect(g.genesisTime).to.deep.equal({ seconds: 1704067200n, nanos: 500_000_000 });
      expect(g.epochs).to.deep.equal(defaultGenesis());
    });

    const bad: Array<[string, string, string]> = [
      ["not JSON", "{", "not valid JSON"],
      ["not an object", "[]", "expected a JSON object"],
      ["a chain id without the EVM id", '{"chain_id": "nine"}', 'chain_id "nine"'],
      ["a chain id with a zero EVM id", '{"chain_id": "evmos_0-1"}', 'chain_id "evmos_0-1"'],
      ["a bad genesis time", '{"genesis_time": "yesterday"}', "genesis_time: invalid RFC 3339"],
      ["epochs not a list", '{"app_state": {"epochs": {"epochs": {}}}}', "app_state.epochs.epochs: expected an array"],
      ["a bad duration", '{"app_state": {"epochs": {"epochs": [{"identifier": "x", "duration": "1d"}]}}}', 'app_state.epochs.epochs[0].duration: invalid duration "1d"'],
      ["a bad int64", '{"app_state": {"epochs": {"epochs": [{"current_epoch": "1.5"}]}}}', "app_state.epochs.epochs[0].current_epoch"],
    ];
    for (const [name, text, message] of bad) {
      it(`refuses ${name}`, () => {
        expect(() => parseCosmosGenesis(text)).to.throw(message);
      });
    }

    it("maps Ethermint chain ids to EVM chain ids", () => {
      expect(parseChainId("evmos_9000-1")).to.equal(9000n);
      expect(parseChainId("cronos_25-1")).to.equal(25n);
      expect(() => parseChainId("evmos-9000-1")).to.throw("Ethermint form");
    });
  });
});
