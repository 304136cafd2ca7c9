import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { expect } from "chai";
import { LevelKV } from "../../src/storage/level-kv";
import { b, collect, str, tempDirs } from "./helpers";

async function rejects(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(Error);
    return e as Error;
  }
  throw new Error("expected a rejection");
}

/** Opens `dir` with LevelKV in a child node process; resolves with what it printed. */
function openInChild(dir: string, holdMs = 0): Promise<string> {
  const mod = path.resolve(__dirname, "../../src/storage/level-kv.ts");
  const code = `
    require("ts-node").register({ transpileOnly: true });
    const { LevelKV } = require(${JSON.stringify(mod)});
    LevelKV.open(${JSON.stringify(dir)}).then(
      async (kv) => { console.log("opened"); await new Promise((r) => setTimeout(r, ${holdMs})); await kv.close(); },
      (e) => console.log("error: " + e.message),
    );`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", () => resolve(out.trim()));
  });
}

describe("LevelKV", function () {
  this.timeout(20_000);
  const tmp = tempDirs();
  after(() => tmp.cleanup());

  it("gets what a batch wrote, and undefined for missing keys", async () => {
    const kv = await LevelKV.open(tmp.make());
    try {
      expect(kv.inMemory).to.equal(false);
      expect(await kv.get(b("a"))).to.equal(undefined);
      await kv.batch([
        { type: "put", key: b("a"), value: b("1") },
        { type: "put", key: b("b"), value: b("2") },
      ]);
      const v = await kv.get(b("a"));
      expect(v).to.be.instanceOf(Uint8Array);
      expect(str(v as Uint8Array)).to.equal("1");
      await kv.batch([{ type: "del", key: b("a") }]);
      expect(await kv.get(b("a"))).to.equal(undefined);
      await kv.batch([]);
    } finally {
      await kv.close();
    }
  });

  it("applies a batch all or nothing", async () => {
    const kv = await LevelKV.open(tmp.make());
    try {
      await kv.batch([{ type: "put", key: b("x"), value: b("old") }]);
      // a null key makes LevelDB reject the whole batch before writing anything
      const bad = [
        { type: "put" as const, key: b("x"), value: b("new") },
        { type: "put" as const, key: b("y"), value: b("1") },
        { type: "put" as const, key: null as unknown as Uint8Array, value: b("2") },
      ];
      await rejects(kv.batch(bad));
      expect(str((await kv.get(b("x"))) as Uint8Array)).to.equal("old");
      expect(await kv.get(b("y"))).to.equal(undefined);
    } finally {
      await kv.close();
    }
  });

  it("ranges in bytewise order, reversed and limited", async () => {
    const kv = await LevelKV.open(tmp.make());
    try {
      const keys = [[0x01], [0x01, 0x00], [0x01, 0xff], [0x02], [0x7f], [0x80], [0xff], [0xff, 0x00]].map((k) => Uint8Array.from(k));
      // insert shuffled: the order must come from the store
      await kv.batch([...keys].reverse().map((k, i) => ({ type: "put" as const, key: k, value: Uint8Array.of(i) })));
      const hex = (rows: Array<[Uint8Array, Uint8Array]>): string[] => rows.map(([k]) => Buffer.from(k).toString("hex"));
      expect(hex(await collect(kv.range({})))).to.deep.equal(["01", "0100", "01ff", "02", "7f", "80", "ff", "ff00"]);
      expect(hex(await collect(kv.range({ gte: Uint8Array.of(0x01, 0x00), lt: Uint8Array.of(0x80) })))).to.deep.equal(["0100", "01ff", "02", "7f"]);
      expect(hex(await collect(kv.range({ gte: Uint8Array.of(0x02), reverse: true })))).to.deep.equal(["ff00", "ff", "80", "7f", "02"]);
      expect(hex(await collect(kv.range({ lt: Uint8Array.of(0xff), reverse: true, limit: 2 })))).to.deep.equal(["80", "7f"]);
      expect(hex(await collect(kv.range({ limit: 0 })))).to.deep.equal([]);
      // breaking out early releases the iterator (close would otherwise wait on it)
      for await (const _row of kv.range({})) break;
    } finally {
      await kv.close();
    }
  });

  it("keeps data across close and reopen", async () => {
    const dir = tmp.make();
    let kv = await LevelKV.open(dir);
    const ops = Array.from({ length: 1000 }, (_, i) => ({
      type: "put" as const,
      key: b(`k${String(i).padStart(4, "0")}`),
      value: b(`v${i}`),
    }));
    await kv.batch(ops);
    await kv.close();
    await kv.close(); // idempotent
    kv = await LevelKV.open(dir);
    try {
      expect(str((await kv.get(b("k0999"))) as Uint8Array)).to.equal("v999");
      expect((await collect(kv.range({ gte: b("k"), lt: b("l") }))).length).to.equal(1000);
    } finally {
      await kv.close();
    }
  });

  it("refuses a directory already open in this process, and keeps the first lock", async () => {
    const dir = tmp.make();
    const kv = await LevelKV.open(dir);
    try {
      const err = await rejects(LevelKV.open(dir));
      expect(err.message).to.equal(`data directory ${dir} is in use by another running node`);
      // the same directory through another spelling of its path
      const err2 = await rejects(LevelKV.open(path.join(dir, ".", "")));
      expect(err2.message).to.match(/is in use by another running node$/);
      // LevelDB's in-process refusal would have dropped the fcntl lock: another process must still be refused
      expect(await openInChild(dir)).to.equal(`error: data directory ${dir} is in use by another running node`);
    } finally {
      await kv.close();
    }
    // released on close
    const again = await LevelKV.open(dir);
    await again.close();
  });

  it("refuses a directory held by another process", async () => {
    const dir = tmp.make();
    const child = openInChild(dir, 3000);
    // wait for the child to hold it
    let err: Error | undefined;
    for (let i = 0; i < 100 && err === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (!fs.existsSync(path.join(dir, "LOCK"))) continue;
      try {
        const kv = await LevelKV.open(dir);
        await kv.close();
      } catch (e) {
        err = e as Error;
      }
    }
    expect(err?.message).to.equal(`data directory ${dir} is in use by another running node`);
    expect(await child).to.equal("opened");
  });

  it("reports an unreadable or corrupt directory clearly", async () => {
    const dir = tmp.make();
    const file = path.join(dir, "not-a-dir");
    fs.writeFileSync(file, "x");
    const e1 = await rejects(LevelKV.open(file));
    expect(e1.message).to.match(new RegExp(`^cannot open data directory ${file}: .+`));

    const db = path.join(dir, "db");
    const kv = await LevelKV.open(db);
    await kv.batch([{ type: "put", key: b("a"), value: b("1") }]);
    await kv.close();
    fs.writeFileSync(path.join(db, "CURRENT"), "MANIFEST-999999\n");
    const e2 = await rejects(LevelKV.open(db));
    expect(e2.message).to.match(new RegExp(`^cannot open data directory ${db}: .+`));
    // a failed open does not leave the directory marked as in use
    fs.rmSync(db, { recursive: true, force: true });
    const fresh = await LevelKV.open(db);
    await fresh.close();
  });
});
