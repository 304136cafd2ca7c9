import { expect } from "chai";
import {
  ZERO_TIME,
  decodeEpochInfo,
  decodeGenesis,
  encodeEpochInfo,
  encodeGenesis,
  formatDuration,
  formatTime,
  fromJson,
  parseDuration,
  parseTime,
  toJson,
  type EpochInfo,
} from "../../../src/epochs/epoch-info";
import { defaultGenesis, parseCosmosGenesis, toCosmosGenesis } from "../../../src/epochs/epochs-genesis";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("EpochInfo codec", () => {
  const dayAfterFirstBlock: EpochInfo = {
    identifier: "day",
    startTime: parseTime("2024-03-01T12:00:00Z"),
    duration: { seconds: 86400n, nanos: 0 },
    currentEpoch: 1n,
    currentEpochStartTime: parseTime("2024-03-01T12:00:00Z"),
    epochCountingStarted: true,
    currentEpochStartHeight: 1n,
  };

  it("encodes with the spec's field numbers (height = field 8, tag 0x40; field 7 unused)", () => {
    // the reference's Evmos vector ends in 3801 (field 7); the spec layout writes 4001
    expect(hex(encodeEpochInfo(dayAfterFirstBlock))).to.equal("0a03646179120608c08687af061a040880a30520012a0608c08687af0630014001");
  });

  it("always writes the embedded times, even the zero time, and omits zero scalars", () => {
    const atGenesis: EpochInfo = { ...dayAfterFirstBlock, currentEpoch: 0n, currentEpochStartTime: ZERO_TIME, epochCountingStarted: false, currentEpochStartHeight: 0n };
    expect(hex(encodeEpochInfo(atGenesis))).to.equal("0a03646179120608c08687af061a040880a3052a0b088092b8c398feffffff01");
  });

  it("round-trips records and genesis states exactly", () => {
    const odd: EpochInfo = { ...dayAfterFirstBlock, identifier: "Zeta ü", duration: { seconds: 0n, nanos: 500_000_000 }, currentEpoch: 2n ** 62n, currentEpochStartHeight: 123456789n };
    expect(decodeEpochInfo(encodeEpochInfo(odd))).to.deep.equal(odd);
    const gs = { epochs: [dayAfterFirstBlock, odd] };
    expect(decodeGenesis(encodeGenesis(gs))).to.deep.equal(gs);
  });

  it("writes and reads Cosmos proto-JSON", () => {
    expect(toJson(dayAfterFirstBlock)).to.deep.equal({
      identifier: "day",
      start_time: "2024-03-01T12:00:00Z",
      duration: "86400s",
      current_epoch: "1",
      current_epoch_start_time: "2024-03-01T12:00:00Z",
      epoch_counting_started: true,
      current_epoch_start_height: "1",
    });
    expect(fromJson(toJson(dayAfterFirstBlock), "x")).to.deep.equal(dayAfterFirstBlock);
    expect(formatTime(ZERO_TIME)).to.equal("0001-01-01T00:00:00Z");
    expect(formatTime({ seconds: 0n, nanos: 120_000_000 })).to.equal("1970-01-01T00:00:00.120Z");
    expect(formatDuration(parseDuration("0.25s"))).to.equal("0.25s");
    expect(() => parseDuration("1d")).to.throw('invalid duration "1d"');
    expect(() => fromJson({ current_epoch: "x" }, "epochs[0]")).to.throw("epochs[0].current_epoch");
  });

  it("reads an exported Evmos genesis.json and writes one back", () => {
    const text = toCosmosGenesis({ genesisTime: parseTime("2024-03-01T12:00:00Z"), chainId: 9000n, epochs: defaultGenesis().epochs });
    const g = parseCosmosGenesis(text);
    expect(g.chainId).to.equal(9000n);
    expect(g.genesisTime).to.deep.equal(parseTime("2024-03-01T12:00:00Z"));
    expect(g.epochs.epochs.map((e) => e.identifier)).to.deep.equal(["week", "day"]);
    expect(() => parseCosmosGenesis('{"chain_id": "nine"}')).to.throw('chain_id "nine"');
    expect(() => parseCosmosGenesis("{")).to.throw("not valid JSON");
  });
});
