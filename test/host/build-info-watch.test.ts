import { expect } from "chai";
import { EventEmitter } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watchBuildInfos } from "../../src/host/solidity/build-info-watch";

describe("a running node follows the build-info folder", () => {
  let dir: string;
  beforeEach(() => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), "build-info-")), "build-info");
  });
  afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  it("reads what is there, then each new file once, before the next block is told", () => {
    const node = new EventEmitter();
    const read: string[] = [];
    mkdirSync(dir);
    writeFileSync(path.join(dir, "a.json"), "{}");
    writeFileSync(path.join(dir, "a.output.json"), "{}"); // Hardhat 3's other half: not a build-info of its own
    const watch = watchBuildInfos(dir, node, (file) => read.push(path.basename(file)), 60_000);
    try {
      expect(read).to.deep.equal(["a.json"]);
      writeFileSync(path.join(dir, "b.json"), "{}");
      node.emit("block");
      node.emit("block");
      expect(read).to.deep.equal(["a.json", "b.json"]);
    } finally {
      watch.stop();
    }
    writeFileSync(path.join(dir, "c.json"), "{}");
    node.emit("block");
    expect(read).to.deep.equal(["a.json", "b.json"]); // stopped
    expect(node.listenerCount("block")).to.equal(0);
  });

  it("waits for a folder that does not exist yet, and retries a file it could not read", () => {
    const node = new EventEmitter();
    const read: string[] = [];
    let partly = true;
    const watch = watchBuildInfos(
      dir,
      node,
      (file) => {
        if (partly) throw new Error("partly written");
        read.push(path.basename(file));
      },
      60_000,
    );
    try {
      node.emit("block");
      mkdirSync(dir);
      writeFileSync(path.join(dir, "a.json"), "{");
      node.emit("block");
      expect(read).to.deep.equal([]);
      partly = false;
      node.emit("block");
      expect(read).to.deep.equal(["a.json"]);
    } finally {
      watch.stop();
    }
  });

  it("lists a quiet folder only when its modification time moves (a block costs a stat)", () => {
    const node = new EventEmitter();
    const read: string[] = [];
    mkdirSync(dir);
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(dir, past, past);
    const watch = watchBuildInfos(dir, node, (file) => read.push(path.basename(file)), 60_000);
    try {
      // a file whose arrival leaves the folder's time where it was: not listed at a block
      writeFileSync(path.join(dir, "a.json"), "{}");
      utimesSync(dir, past, past);
      node.emit("block");
      expect(read).to.deep.equal([]);
      // the time moves (as adding a file moves it): listed at the next block
      const now = new Date();
      utimesSync(dir, now, now);
      node.emit("block");
      expect(read).to.deep.equal(["a.json"]);
    } finally {
      watch.stop();
    }
  });
});
