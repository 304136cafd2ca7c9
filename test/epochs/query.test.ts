/** EpochInfos pagination (Cosmos SDK v0.50 query.Paginate, docs/epochs.md "Queries and pagination") and CurrentEpoch. */
import { expect } from "chai";
import { BOTH_OFFSET_AND_KEY, EpochNotFoundError, type PageRequest, currentEpoch, epochInfos, epochInfosJson, pageRequestFromJson } from "../../src/epochs/query";
import { FakeChain, rec } from "./helpers";

const b = (s: string) => new TextEncoder().encode(s);

function keeperWith(ids: string[]) {
  const chain = new FakeChain();
  for (const id of ids) chain.keeper.setEpochInfo(rec(id, 60, 0));
  return chain.keeper;
}

describe("epochs queries", () => {
  // stored order: a, c, e, g, i
  const keeper = keeperWith(["i", "c", "a", "g", "e"]);

  const cases: Array<[string, PageRequest, string[], string | null, bigint]> = [
    ["no pagination: limit 100, total forced on", {}, ["a", "c", "e", "g", "i"], null, 5n],
    ["limit 2 without count_total", { limit: 2n }, ["a", "c"], "e", 0n],
    ["limit 2 with count_total", { limit: 2n, countTotal: true }, ["a", "c"], "e", 5n],
    ["offset 2, limit 2", { offset: 2n, limit: 2n, countTotal: true }, ["e", "g"], "i", 5n],
    ["offset at the end", { offset: 4n, limit: 2n }, ["i"], null, 0n],
    ["offset past the end", { offset: 9n, limit: 2n, countTotal: true }, [], null, 5n],
    ["offset with limit 0 (the default limit, total on)", { offset: 3n }, ["g", "i"], null, 5n],
    ["reverse", { reverse: true, limit: 2n }, ["i", "g"], "e", 0n],
    ["reverse with offset", { reverse: true, offset: 1n, limit: 3n, countTotal: true }, ["g", "e", "c"], "a", 5n],
    ["key: from an existing key, total never counted", { key: b("c"), limit: 2n, countTotal: true }, ["c", "e"], "g", 0n],
    ["key between records: from the next one", { key: b("d"), limit: 2n }, ["e", "g"], "i", 0n],
    ["key past the last record", { key: b("z"), limit: 2n }, [], null, 0n],
    ["key with limit 0", { key: b("g") }, ["g", "i"], null, 0n],
    ["reverse key: backwards from an existing key", { key: b("e"), reverse: true, limit: 2n }, ["e", "c"], "a", 0n],
    ["reverse key between records: from the next larger one", { key: b("d"), reverse: true, limit: 5n }, ["e", "c", "a"], null, 0n],
    ["reverse key past the last record: from the top", { key: b("z"), reverse: true, limit: 1n }, ["i"], "g", 0n],
    ["an empty key is no key", { key: new Uint8Array(), offset: 1n, limit: 1n }, ["c"], "e", 0n],
  ];
  for (const [name, page, ids, next, total] of cases) {
    it(name, () => {
      const r = epochInfos(keeper, page);
      expect(r.epochs.map((e) => e.identifier)).to.deep.equal(ids);
      expect(r.nextKey === null ? null : new TextDecoder().decode(r.nextKey)).to.equal(next);
      expect(r.total).to.equal(total);
    });
  }

  it("refuses both offset and key with the SDK's text", () => {
    expect(() => epochInfos(keeper, { key: b("a"), offset: 1n })).to.throw(BOTH_OFFSET_AND_KEY);
    expect(BOTH_OFFSET_AND_KEY).to.equal("invalid request, either offset or key is expected, got both");
  });

  it("walks every page by next_key, forwards and backwards", () => {
    for (const reverse of [false, true]) {
      const seen: string[] = [];
      let key: Uint8Array | undefined;
      for (let i = 0; i < 10; i++) {
        const r = epochInfos(keeper, { key, limit: 2n, reverse });
        seen.push(...r.epochs.map((e) => e.identifier));
        if (r.nextKey === null) break;
        key = r.nextKey;
      }
      expect(seen).to.deep.equal(reverse ? ["i", "g", "e", "c", "a"] : ["a", "c", "e", "g", "i"]);
    }
  });

  it("answers the gateway JSON: next_key base64 or null, total a string", () => {
    expect(epochInfosJson(epochInfos(keeper, { limit: 1n })).pagination).to.deep.equal({ next_key: Buffer.from("c").toString("base64"), total: "0" });
    const empty = new FakeChain().keeper;
    expect(epochInfosJson(epochInfos(empty))).to.deep.equal({ epochs: [], pagination: { next_key: null, total: "0" } });
    const one = epochInfosJson(epochInfos(keeperWith(["day"])));
    expect(one.epochs[0]).to.include({ identifier: "day", duration: "60s", current_epoch: "0", epoch_counting_started: false });
    expect(one.pagination).to.deep.equal({ next_key: null, total: "1" });
  });

  it("reads the REST/RPC pagination fields", () => {
    expect(pageRequestFromJson({ key: Buffer.from("g").toString("base64"), limit: "2", count_total: "true", reverse: false })).to.deep.equal({
      key: b("g"),
      offset: undefined,
      limit: 2n,
      countTotal: true,
      reverse: false,
    });
    expect(pageRequestFromJson({ offset: 3, key: "" })).to.deep.equal({ key: undefined, offset: 3n, limit: undefined, countTotal: undefined, reverse: undefined });
    expect(() => pageRequestFromJson({ limit: "-1" })).to.throw("invalid pagination.limit: -1");
    expect(() => pageRequestFromJson({ offset: "18446744073709551616" })).to.throw("invalid pagination.offset");
    expect(() => pageRequestFromJson({ reverse: "yes" })).to.throw("invalid pagination.reverse: yes");
    expect(() => pageRequestFromJson({ key: "!!" })).to.throw("invalid pagination.key");
  });

  it("CurrentEpoch: the number, or NotFound `epoch info not found: ID` by exact identifier", () => {
    const k = keeperWith(["day"]);
    expect(currentEpoch(k, "day")).to.equal(0n);
    for (const id of ["second", "Day", ""]) {
      expect(() => currentEpoch(k, id)).to.throw(EpochNotFoundError, `epoch info not found: ${id}`);
    }
    try {
      currentEpoch(k, "second");
    } catch (err) {
      expect((err as EpochNotFoundError).code).to.equal(5);
      expect((err as Error).message).to.equal("epoch info not found: second");
    }
  });
});
