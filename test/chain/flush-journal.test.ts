/**
 * The flush journal (src/chain/engine/flush-journal.ts): which keys a move back to an older root
 * must correct, and when it cannot say (then every cached entry is stale).
 */
import { expect } from "chai";
import { FlushJournal, type FlushRecord } from "../../src/chain/engine/flush-journal";

const root = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0));
const flush = (from: number, to: number, accounts: string[], slots: [string, string][] = [], codes: string[] = []): FlushRecord => ({ before: root(from), after: root(to), accounts, slots, codes });

describe("FlushJournal", () => {
  it("rewind names every key written since the target root, and drops those flushes", () => {
    const j = new FlushJournal();
    j.record(flush(1, 2, ["aa"], [["aa", "01"]]));
    j.record(flush(2, 3, ["bb"], [["aa", "02"]], ["bb"]));
    j.record(flush(3, 4, ["cc"]));
    const changed = j.rewind(root(4), root(2));
    expect(changed).to.not.equal(undefined);
    expect([...(changed?.accounts ?? [])].sort()).to.deep.equal(["bb", "cc"]);
    expect([...(changed?.slots.get("aa") ?? [])]).to.deep.equal(["02"]);
    expect([...(changed?.codes ?? [])]).to.deep.equal(["bb"]);
    // the journal now ends at root 2: back to root 1 names the first flush's keys only
    const again = j.rewind(root(2), root(1));
    expect([...(again?.accounts ?? [])]).to.deep.equal(["aa"]);
    expect([...(again?.slots.get("aa") ?? [])]).to.deep.equal(["01"]);
  });

  it("changes nothing for the current root", () => {
    const j = new FlushJournal();
    j.record(flush(1, 2, ["aa"]));
    expect(j.rewind(root(2), root(2))?.accounts.size).to.equal(0);
    expect(j.rewind(root(2), root(1))?.accounts.size).to.equal(1);
  });

  it("cannot say for a root its records do not lead to, or when the current root is not where they end", () => {
    const j = new FlushJournal();
    j.record(flush(1, 2, ["aa"]));
    j.record(flush(2, 3, ["bb"]));
    expect(j.rewind(root(3), root(9))).to.equal(undefined);
    // a failed rewind forgets everything
    expect(j.rewind(root(3), root(2))).to.equal(undefined);
    j.record(flush(1, 2, ["aa"]));
    expect(j.rewind(root(5), root(1))).to.equal(undefined);
  });

  it("starts over when a flush does not start where the last ended (the root moved another way)", () => {
    const j = new FlushJournal();
    j.record(flush(1, 2, ["aa"]));
    j.record(flush(7, 8, ["bb"]));
    expect(j.rewind(root(8), root(1))).to.equal(undefined);
    j.record(flush(1, 2, ["aa"]));
    j.record(flush(7, 8, ["bb"]));
    expect([...(j.rewind(root(8), root(7))?.accounts ?? [])]).to.deep.equal(["bb"]);
  });

  it("keeps at most maxKeys keys, dropping the oldest flushes", () => {
    const j = new FlushJournal(3);
    j.record(flush(1, 2, ["aa", "bb"]));
    j.record(flush(2, 3, ["cc", "dd"]));
    expect(j.rewind(root(3), root(1))).to.equal(undefined);
    j.record(flush(1, 2, ["aa", "bb"]));
    j.record(flush(2, 3, ["cc", "dd"]));
    expect([...(j.rewind(root(3), root(2))?.accounts ?? [])].sort()).to.deep.equal(["cc", "dd"]);
    // one flush larger than the whole journal: nothing before it can be reached
    j.record(flush(2, 3, ["a", "b", "c", "d"]));
    expect(j.rewind(root(3), root(2))).to.equal(undefined);
  });

  it("ignores a flush that left the root as it was", () => {
    const j = new FlushJournal();
    j.record(flush(1, 2, ["aa"]));
    j.record(flush(2, 2, ["zz"]));
    expect([...(j.rewind(root(2), root(1))?.accounts ?? [])]).to.deep.equal(["aa"]);
  });
});

describe("FlushJournal.between (a copy moving between the recorded roots)", () => {
  it("names the keys between two recorded roots in either direction, and changes nothing", () => {
    const j = new FlushJournal();
    j.record(flush(1, 2, ["aa"]));
    j.record(flush(2, 3, ["bb"], [["bb", "01"]]));
    j.record(flush(3, 4, ["cc"]));
    expect([...(j.between(root(2), root(4))?.accounts ?? [])].sort()).to.deep.equal(["bb", "cc"]);
    expect([...(j.between(root(4), root(2))?.accounts ?? [])].sort()).to.deep.equal(["bb", "cc"]);
    expect([...(j.between(root(1), root(3))?.slots.get("bb") ?? [])]).to.deep.equal(["01"]);
    expect(j.between(root(3), root(3))?.accounts.size).to.equal(0);
    expect(j.between(root(3), root(9))).to.equal(undefined);
    expect(j.between(root(9), root(8))).to.equal(undefined);
    // the records are all still there
    expect([...(j.rewind(root(4), root(1))?.accounts ?? [])].sort()).to.deep.equal(["aa", "bb", "cc"]);
  });
});
