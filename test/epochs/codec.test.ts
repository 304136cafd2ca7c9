import { expect } from "chai";
import protobuf from "protobufjs";
import { decodeEpochInfo, decodeGenesis, encodeEpochInfo, encodeGenesis, formatDuration, formatTime, fromJson, parseDuration, parseTime, toJson } from "../../src/epochs/codec";
import { type EpochInfo, ZERO_TIME, fromNanos } from "../../src/epochs/types";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

const dayAfterFirstBlock: EpochInfo = {
  identifier: "day",
  startTime: parseTime("2024-03-01T12:00:00Z"),
  duration: { seconds: 86400n, nanos: 0 },
  currentEpoch: 1n,
  currentEpochStartTime: parseTime("2024-03-01T12:00:00Z"),
  epochCountingStarted: true,
  currentEpochStartHeight: 1n,
};
const dayAtGenesis: EpochInfo = { ...dayAfterFirstBlock, currentEpoch: 0n, currentEpochStartTime: ZERO_TIME, epochCountingStarted: false, currentEpochStartHeight: 0n };

describe("EpochInfo protobuf codec", () => {
  // Evmos's encoding vectors (docs/epochs.md, "Data model"); Evmos writes the height as field 7 (tag 0x38), we as field 8 (0x40)
  const vectors: Array<[string, EpochInfo, string, string]> = [
    ["day after the first block", dayAfterFirstBlock, "0a03646179120608c08687af061a040880a30520012a0608c08687af0630013801", "0a03646179120608c08687af061a040880a30520012a0608c08687af0630014001"],
    ["day right after InitGenesis", dayAtGenesis, "0a03646179120608c08687af061a040880a3052a0b088092b8c398feffffff01", "0a03646179120608c08687af061a040880a3052a0b088092b8c398feffffff01"],
  ];
  for (const [name, info, evmos, ours] of vectors) {
    it(`encodes "${name}" with the spec's field numbers and decodes it exactly`, () => {
      const bytes = encodeEpochInfo(info);
      expect(hex(bytes)).to.equal(ours);
      // the only difference from Evmos's bytes is the height's tag
      expect(ours.replace(/4001$/, "3801")).to.equal(evmos);
      expect(decodeEpochInfo(bytes)).to.deep.equal(info);
      expect(hex(encodeEpochInfo(decodeEpochInfo(bytes)))).to.equal(ours);
    });
  }

  it("never writes field 7", () => {
    const reader = protobuf.Reader.create(encodeEpochInfo({ ...dayAfterFirstBlock, currentEpochStartHeight: 123456789n }));
    const tags: number[] = [];
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      tags.push(tag >>> 3);
      reader.skipType(tag & 7);
    }
    expect(tags).to.deep.equal([1, 2, 3, 4, 5, 6, 8]);
  });

  it("round-trips odd records and genesis states exactly", () => {
    const odd: EpochInfo = {
      ...dayAfterFirstBlock,
      identifier: "Zeta ü",
      startTime: { seconds: -5n, nanos: 999_999_999 },
      duration: { seconds: 0n, nanos: 500_000_000 },
      currentEpoch: 2n ** 62n,
      currentEpochStartHeight: 2n ** 63n - 1n,
    };
    expect(decodeEpochInfo(encodeEpochInfo(odd))).to.deep.equal(odd);
    const empty: EpochInfo = { ...dayAtGenesis, identifier: "", startTime: { seconds: 0n, nanos: 0 }, duration: { seconds: 0n, nanos: 0 }, currentEpochStartTime: { seconds: 0n, nanos: 0 } };
    // the three embedded messages are written even when zero (gogoproto non-nullable)
    expect(hex(encodeEpochInfo(empty))).to.equal("12001a002a00");
    expect(decodeEpochInfo(encodeEpochInfo(empty))).to.deep.equal(empty);
    const gs = { epochs: [dayAfterFirstBlock, odd, empty] };
    expect(decodeGenesis(encodeGenesis(gs))).to.deep.equal(gs);
  });

  it("writes a negative duration as a proto Duration (seconds and nanos share the sign)", () => {
    const neg = { ...dayAtGenesis, duration: fromNanos(-1_500_000_000n) };
    const Duration = protobuf.Root.fromJSON({ nested: { D: { fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } } } } }).lookupType("D");
    const bytes = encodeEpochInfo(neg);
    // field 3 follows identifier (5 bytes) and start_time (8 bytes)
    const d = Duration.toObject(Duration.decode(bytes.subarray(15, 15 + bytes[14])), { longs: String });
    expect(d).to.deep.equal({ seconds: "-1", nanos: -500_000_000 });
    expect(decodeEpochInfo(bytes)).to.deep.equal(neg);
  });
});

describe("EpochInfo proto-JSON", () => {
  it("writes and reads the Cosmos gateway/genesis form", () => {
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
    expect(fromJson(toJson(dayAtGenesis), "x")).to.deep.equal(dayAtGenesis);
  });

  it("reads missing fields as zero values and numbers for int64", () => {
    expect(fromJson({ identifier: "w", current_epoch: 3 }, "x")).to.deep.equal({
      identifier: "w",
      startTime: ZERO_TIME,
      duration: { seconds: 0n, nanos: 0 },
      currentEpoch: 3n,
      currentEpochStartTime: ZERO_TIME,
      epochCountingStarted: false,
      currentEpochStartHeight: 0n,
    });
  });

  const times: Array<[string, { seconds: bigint; nanos: number }]> = [
    ["0001-01-01T00:00:00Z", { seconds: -62135596800n, nanos: 0 }],
    ["1970-01-01T00:00:00Z", { seconds: 0n, nanos: 0 }],
    ["1970-01-01T00:00:00.120Z", { seconds: 0n, nanos: 120_000_000 }],
    ["1969-12-31T23:59:59.999999Z", { seconds: -1n, nanos: 999_999_000 }],
    ["2024-02-29T23:59:59.000000001Z", { seconds: 1709251199n, nanos: 1 }],
    ["9999-12-31T23:59:59Z", { seconds: 253402300799n, nanos: 0 }],
  ];
  for (const [text, t] of times) {
    it(`time ${text} (0, 3, 6 or 9 fraction digits)`, () => {
      expect(formatTime(t)).to.equal(text);
      expect(parseTime(text)).to.deep.equal(t);
    });
  }

  it("reads offsets and short fractions, refuses non-dates", () => {
    expect(parseTime("2024-03-01T14:00:00.5+02:00")).to.deep.equal({ seconds: 1709294400n, nanos: 500_000_000 });
    for (const s of [
      "2024-02-30T00:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "0000-01-01T00:00:00Z",
      "2024-01-01 00:00:00Z",
      "2024-01-01T00:00:00",
      "2024-01-01T00:00:00.1234567890Z",
    ]) {
      expect(() => parseTime(s), s).to.throw("invalid RFC 3339 time");
    }
  });

  const durations: Array<[string, bigint]> = [
    ["604800s", 604_800_000_000_000n],
    ["0s", 0n],
    ["0.250s", 250_000_000n],
    ["1.000001s", 1_000_001_000n],
    ["-1.500s", -1_500_000_000n],
    ["0.000000001s", 1n],
  ];
  for (const [text, nanos] of durations) {
    it(`duration ${text}`, () => {
      expect(formatDuration(fromNanos(nanos))).to.equal(text);
      expect(parseDuration(text)).to.deep.equal(fromNanos(nanos));
    });
  }

  it("refuses bad durations and says which field", () => {
    for (const s of ["1d", "86400", "1.5", "+1s", "1.0000000001s", "315576000001s"]) expect(() => parseDuration(s), s).to.throw(`"${s}"`);
    expect(parseDuration("0.25s")).to.deep.equal(fromNanos(250_000_000n));
    expect(() => fromJson({ current_epoch: "x" }, "epochs[0]")).to.throw("epochs[0].current_epoch");
    expect(() => fromJson({ current_epoch_start_height: "9223372036854775808" }, "e")).to.throw("e.current_epoch_start_height");
    expect(() => fromJson({ epoch_counting_started: "yes" }, "e")).to.throw("e.epoch_counting_started");
    expect(() => fromJson({ start_time: 5 }, "e")).to.throw("e.start_time: expected a string");
    expect(() => fromJson([], "e")).to.throw("e: expected an object");
  });
});
