/**
 * What the node acknowledges, it keeps, also when the disk fills up under `--home`: on a real small
 * filesystem (a 32 MiB tmpfs, mounted when the test runs as root), the block that cannot be written is
 * refused; once space is freed the node writes again, and every block it answered for is there after
 * a clean stop and a restart. LevelDB's failed log write leaves a torn record that its recovery stops
 * at: blocks written after it were lost on restart until the store reopened itself before the next
 * write (src/storage/level-kv.ts).
 */
import { expect } from "chai";
import { requireTool } from "../helpers/tools";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Started, startHardhatNode, stopProcessGroup } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

/** Mounts a tmpfs of `mb` MiB at a new directory; undefined (with the reason) when this process cannot. */
function mountTmpfs(mb: number): { dir: string } | { why: string } {
  if (process.getuid?.() !== 0) return { why: "mounting a small filesystem needs root (CI runs as root)" };
  const dir = mkdtempSync(path.join(tmpdir(), "disk-full-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${mb}m`, "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `mount -t tmpfs failed: ${(r.stderr || r.error?.message || "").trim()}` };
  }
  return { dir };
}

/** Fills the filesystem of `dir` until `leave` bytes are free (a file of zeros, written in chunks). */
function fill(file: string, leave: number): void {
  const fd = openSync(file, "w");
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    for (;;) {
      const s = statfsSync(path.dirname(file));
      const free = s.bavail * s.bsize;
      if (free <= leave) return;
      const n = Math.min(chunk.length, free - leave);
      try {
        writeSync(fd, chunk, 0, n);
      } catch {
        return;
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe("npx hardhat node --home on a full disk", function () {
  this.timeout(180_000);
  let mount: { dir: string } | undefined;
  let node: Started | undefined;

  before(function () {
    const m = mountTmpfs(32);
    requireTool(this, "a small filesystem", "why" in m ? m.why : undefined, "run as root where mount -t tmpfs works (CI does)");
    mount = m as { dir: string };
  });
  after(async () => {
    await stopProcessGroup(node?.child);
    if (mount !== undefined) {
      spawnSync("umount", [mount.dir]);
      rmSync(mount.dir, { recursive: true, force: true });
    }
  });

  it("refuses the block it cannot write, writes again once space is freed, and keeps every block it acknowledged", async () => {
    const dir = (mount as { dir: string }).dir;
    const home = path.join(dir, "home");
    mkdirSync(home);
    const args = ["--home", home, "--port", "0"];
    node = await startHardhatNode(args);
    const call = async (method: string, params: unknown[] = []) => rpc<string>((node as Started).url, method, params);
    for (let i = 0; i < 3; i++) expect((await call("evm_mine")).result).to.equal("0x0");
    const filler = path.join(dir, "filler");
    fill(filler, 64 * 1024);
    // blocks go on until one cannot be written: refused with the node's words, the head where it was
    let refused: string | undefined;
    for (let i = 0; i < 2000 && refused === undefined; i++) {
      const before = BigInt((await call("eth_blockNumber")).result as string);
      const r = await call("evm_mine");
      if (r.error === undefined) continue;
      refused = r.error.message;
      expect(BigInt((await call("eth_blockNumber")).result as string)).to.equal(before);
      expect(refused).to.match(new RegExp(`^block ${before + 1n} could not be written, the node stays at block ${before}: `));
    }
    expect(refused, "a block was refused").to.be.a("string");
    rmSync(filler);
    for (let i = 0; i < 3; i++) expect((await call("evm_mine")).error, "a block after the disk was freed").to.equal(undefined);
    const head = (await call("eth_blockNumber")).result;
    const balance = (await call("eth_getBalance", ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest"])).result;
    await stopProcessGroup(node.child);
    expect(node.output()).to.not.include("An unexpected error occurred");
    node = await startHardhatNode(args);
    expect((await call("eth_blockNumber")).result, "every acknowledged block is kept").to.equal(head);
    expect((await call("eth_getBalance", ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest"])).result).to.equal(balance);
    expect((await call("evm_mine")).result).to.equal("0x0");
  });
});
