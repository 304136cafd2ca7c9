import { expect } from "chai";
import { encodeEpochInfo } from "../../src/epochs/codec";
import { EpochsKeeper } from "../../src/epochs/keeper";
import { MemoryModuleStore } from "../../src/chain/base/module-state";
import { rec } from "./helpers";

describe("EpochsKeeper", () => {
  const setup = () => {
    const store = MemoryModuleStore.writable();
    return { store, keeper: new EpochsKeeper(store) };
  };

  it("stores the protobuf record under 0x01 ‖ identifier bytes", () => {
    const { store, keeper } = setup();
    const info = rec("day", 86400, 0);
    keeper.setEpochInfo(info);
    expect(store.entries().map(([k, v]) => [Buffer.from(k).toString("hex"), Buffer.from(v).toString("hex")])).to.deep.equal([["01646179", Buffer.from(encodeEpochInfo(info)).toString("hex")]]);
  });

  it("gets (record, found) by exact bytes, with no trimming or case folding", () => {
    const { keeper } = setup();
    keeper.setEpochInfo(rec("day", 1, 0));
    expect(keeper.getEpochInfo("day")).to.deep.equal({ info: rec("day", 1, 0), found: true });
    for (const id of ["Day", " day", "day ", ""]) expect(keeper.getEpochInfo(id), id).to.deep.equal({ info: undefined, found: false });
  });

  it("upserts, deletes (a no-op when absent) and hands out copies", () => {
    const { keeper } = setup();
    keeper.setEpochInfo(rec("day", 1, 0));
    keeper.setEpochInfo(rec("day", 2, 0));
    const got = keeper.getEpochInfo("day").info!;
    expect(got.duration.seconds).to.equal(2n);
    got.duration.seconds = 99n;
    got.currentEpoch = 5n;
    expect(keeper.getEpochInfo("day").info!.duration.seconds).to.equal(2n);
    expect(keeper.getEpochInfo("day").info!.currentEpoch).to.equal(0n);
    keeper.deleteEpochInfo("day");
    keeper.deleteEpochInfo("day");
    expect(keeper.getEpochInfo("day").found).to.equal(false);
    expect(keeper.allEpochInfos()).to.deep.equal([]);
  });

  it("iterates in identifier-byte order with indexes, and stops when the callback says so", () => {
    const { keeper } = setup();
    for (const id of ["week", "day", "hour", "Zeta", "10s", "month"]) keeper.setEpochInfo(rec(id, 1, 0));
    const seen: string[] = [];
    keeper.iterateEpochInfo((i, e) => {
      seen.push(`${i}:${e.identifier}`);
      return false;
    });
    expect(seen).to.deep.equal(["0:10s", "1:Zeta", "2:day", "3:hour", "4:month", "5:week"]);
    const stopped: string[] = [];
    keeper.iterateEpochInfo((i, e) => {
      stopped.push(e.identifier);
      return i === 1;
    });
    expect(stopped).to.deep.equal(["10s", "Zeta"]);
    expect(keeper.allEpochInfos().map((e) => e.identifier)).to.deep.equal(["10s", "Zeta", "day", "hour", "month", "week"]);
    expect(keeper.allEpochInfos(true).map((e) => e.identifier)).to.deep.equal(["week", "month", "hour", "day", "Zeta", "10s"]);
    expect(keeper.identifiers()).to.deep.equal(["10s", "Zeta", "day", "hour", "month", "week"]);
  });

  it("orders multi-byte identifiers by their UTF-8 bytes", () => {
    const { keeper } = setup();
    for (const id of ["é", "z", "a", "ä"]) keeper.setEpochInfo(rec(id, 1, 0));
    expect(keeper.identifiers()).to.deep.equal(["a", "z", "ä", "é"]);
  });

  it("keeps the ended mark beside the record (0x02 ‖ identifier), not in the record", () => {
    const { store, keeper } = setup();
    keeper.setEpochInfo(rec("day", 1, 0));
    const before = Buffer.from(store.get(new Uint8Array([1, 0x64, 0x61, 0x79]))!).toString("hex");
    keeper.setEnded("day", true);
    expect(keeper.isEnded("day")).to.equal(true);
    expect(store.get(new Uint8Array([2, 0x64, 0x61, 0x79]))).to.deep.equal(new Uint8Array([1]));
    expect(Buffer.from(store.get(new Uint8Array([1, 0x64, 0x61, 0x79]))!).toString("hex")).to.equal(before);
    // the mark is not a record
    expect(keeper.allEpochInfos()).to.have.length(1);
    keeper.clearEnded("day");
    expect(keeper.isEnded("day")).to.equal(false);
    keeper.setEnded("day", true);
    keeper.deleteEpochInfo("day");
    expect(keeper.isEnded("day")).to.equal(false);
  });

  it("follows the store it is given per block (getter form), and its records survive the store's record bytes", () => {
    let store = MemoryModuleStore.writable();
    const keeper = new EpochsKeeper(() => store);
    keeper.setEpochInfo(rec("day", 1, 0));
    keeper.setEnded("day", true);
    const first = store;
    store = MemoryModuleStore.writable(MemoryModuleStore.decode(first.encode()));
    expect(keeper.getEpochInfo("day").info).to.deep.equal(rec("day", 1, 0));
    expect(keeper.isEnded("day")).to.equal(true);
    keeper.clearEnded("day");
    expect(keeper.isEnded("day")).to.equal(false);
    expect(new EpochsKeeper(first).isEnded("day")).to.equal(true);
  });
});
