/** db_* values live in the node's LevelDB store: they survive a restart, and chain rewinds leave them alone. */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRuntime, type Runtime } from "../../../src/app/runtime";
import { LevelKV } from "../../../src/storage/level-kv";
import { CLIENT_VERSION, testChainConfig } from "../../helpers/harness";

const ctx = { transport: "in-process" as const, authenticated: true };
const call = <T>(rt: Runtime, method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx) as Promise<T>;

describe("persistence: db_* in a LevelDB home", function () {
  this.timeout(60_000);
  let dir: string;
  const open = async (): Promise<Runtime> => createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, kv: await LevelKV.open(dir), home: dir });
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "db-home-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps values across a restart and across evm_revert", async () => {
    let rt = await open();
    try {
      const snap = await call<string>(rt, "evm_snapshot");
      await call(rt, "db_putString", ["notes", "first", "kept"]);
      await call(rt, "db_putHex", ["notes", "raw", "0xdeadbeef"]);
      await call(rt, "evm_mine");
      expect(await call(rt, "evm_revert", [snap])).to.equal(true);
      expect(await call(rt, "db_getString", ["notes", "first"])).to.equal("kept");
      const id = (await call<{ id: string }>(rt, "admin_nodeInfo")).id;
      await rt.close();
      rt = await open();
      expect(await call(rt, "db_getString", ["notes", "first"])).to.equal("kept");
      expect(await call(rt, "db_getHex", ["notes", "raw"])).to.equal("0xdeadbeef");
      // the node's identity is kept in the same store
      expect((await call<{ id: string }>(rt, "admin_nodeInfo")).id).to.equal(id);
      expect(await call(rt, "admin_datadir")).to.equal(dir);
    } finally {
      await rt.close();
    }
  });
});
