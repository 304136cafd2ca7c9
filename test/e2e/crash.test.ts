/**
 * Crash test (bounded, no network): a child node under write load is killed with SIGKILL, at every
 * phase of a block's write and at random moments. After each kill the store must hold every
 * transaction the child reported as committed, the head block's state root must match the state,
 * and the node must keep working.
 *
 * The phases are hit on purpose, not by chance: the child kills itself at its n-th store write just
 * before it issues the batch, right after issuing it (LevelDB writing it on its own thread), or once
 * it was written and before memory moves to the block. Two kills of each, and two at random moments
 * (mid-transaction, mid-answer): eight in all, where twenty random ones used to cover the same
 * ground by chance (CRASH_KILLS sets the random ones' count on top of the phases).
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultChainConfig } from "../../src/chain/config";
import { createRuntime } from "../../src/app/runtime";
import { LevelKV } from "../../src/storage/level-kv";
import { mulberry32 } from "../helpers/prng";
import { ROOT, buildDist } from "../helpers/processes";

const PHASES = ["before", "during", "after"] as const;
type Phase = (typeof PHASES)[number] | "random";
/** The kills: each write phase twice, then the random ones. */
const KILLS: Phase[] = [...PHASES, ...PHASES, ...Array.from({ length: Number(process.env.CRASH_KILLS ?? 2) }, () => "random" as const)];
const INITIAL_BALANCE = defaultChainConfig().accounts[5].balance;

/**
 * The child: opens a LevelDB home and sends value transfers until it is killed, printing
 * "OK <txHash> <block>" after each transfer's block is committed. It loads the built package (dist/),
 * as a user's node does: ready in ~0.7 s, where compiling src/ with ts-node took ~4 s of each kill.
 */
const CHILD = `
const { defaultChainConfig } = require("./dist/src/chain/config");
const { createRuntime } = require("./dist/src/app/runtime");
const { LevelKV } = require("./dist/src/storage/level-kv");
(async () => {
  const kv = await LevelKV.open(process.argv[1]);
  // a phase and a write number: the child kills itself at that write of the store (fault injection)
  const [phase, at] = [process.argv[2], Number(process.argv[3])];
  if (phase !== "random") {
    const batch = kv.batch.bind(kv);
    let n = 0;
    kv.batch = async (ops) => {
      if (++n !== at) return batch(ops);
      if (phase === "before") process.kill(process.pid, "SIGKILL");
      const written = batch(ops);
      if (phase === "during") process.kill(process.pid, "SIGKILL");
      await written;
      process.kill(process.pid, "SIGKILL");
    };
  }
  const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-03-01T12:00:00Z") }, clientVersion: "crash-child", kv });
  const ctx = { transport: "in-process", authenticated: true };
  const accounts = await rt.dispatcher.call("eth_accounts", [], ctx);
  process.stdout.write("READY\\n");
  for (let i = 0; i < 1_000_000; i++) {
    const hash = await rt.dispatcher.call("eth_sendTransaction", [{ from: accounts[i % 5], to: accounts[5 + (i % 5)], value: "0x1" }], ctx);
    const receipt = await rt.dispatcher.call("eth_getTransactionReceipt", [hash], ctx);
    process.stdout.write(\`OK \${hash} \${receipt.blockNumber}\\n\`);
  }
})().catch((err) => {
  process.stderr.write(\`\${err.message}\\n\`);
  process.exit(1);
});
`;

/** Runs the child on `dir` until it is killed: by this test `afterMs` after it is ready (phase random), or by itself at its write `at`. */
function runAndKill(dir: string, phase: Phase, afterMs: number, at: number): Promise<{ confirmed: Array<[string, bigint]>; stderr: string }> {
  const child = spawn(process.execPath, ["-e", CHILD, dir, phase, String(at)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (phase === "random" && timer === undefined && out.includes("READY\n")) timer = setTimeout(() => child.kill("SIGKILL"), afterMs);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    // a child that never gets ready is killed too, so the test always ends
    const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", () => {
      clearTimeout(guard);
      if (timer !== undefined) clearTimeout(timer);
      const confirmed = out
        .split("\n")
        // a line cut by the kill is not a confirmation the child finished reporting
        .filter((l) => /^OK 0x[0-9a-f]{64} 0x[0-9a-f]+$/.test(l))
        .map((l) => {
          const [, hash, block] = l.split(" ");
          return [hash, BigInt(block)] as [string, bigint];
        });
      resolve({ confirmed, stderr: err });
    });
  });
}

describe("persistence: crashes lose nothing committed", function () {
  // ~15 s on an idle 2-core machine; longer when other work shares the cores
  this.timeout(600_000);
  let dir: string;
  before(() => {
    buildDist();
    dir = mkdtempSync(path.join(tmpdir(), "epochs-crash-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`survives ${KILLS.length} SIGKILLs under write load: before, during and after a block's write, and at random moments`, async () => {
    // the kill times come from a seeded generator: a failing run can be replayed with CRASH_SEED=<seed>
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`      crash test seed: ${seed} (replay with CRASH_SEED=${seed})`);
    const random = mulberry32(seed);
    const ctx = { transport: "in-process" as const, authenticated: true };
    let total = 0;
    let maxHead = 0n;
    const t0 = performance.now();
    for (let k = 0; k < KILLS.length; k++) {
      // the writes: the genesis block's (first start only), then one per block
      const { confirmed, stderr } = await runAndKill(dir, KILLS[k], 200 + Math.floor(random() * 1300), 5 + Math.floor(random() * 40));
      expect(stderr, stderr).to.equal("");
      total += confirmed.length;
      const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-03-01T12:00:00Z") }, clientVersion: "crash-check", kv: await LevelKV.open(dir) });
      try {
        for (const [hash, block] of confirmed) {
          const r = (await rt.dispatcher.call("eth_getTransactionReceipt", [hash], ctx)) as { blockNumber: string } | null;
          expect(r, `receipt of ${hash} after kill ${k}`).to.not.equal(null);
          expect(BigInt(r!.blockNumber)).to.equal(block);
        }
        const head = rt.node.head;
        expect(Buffer.from(await rt.node.vm.stateManager.getStateRoot()).toString("hex")).to.equal(Buffer.from(head.header.stateRoot).toString("hex"));
        if (head.header.number > maxHead) maxHead = head.header.number;
        const accounts = (await rt.dispatcher.call("eth_accounts", [], ctx)) as string[];
        // blocks and state agree: every block holds one transfer (the child's from accounts 0-4, this
        // test's from account 10), so the nonces add up to the head and the recipients got 1 wei each
        const read = async (m: string, a: string): Promise<bigint> => BigInt((await rt.dispatcher.call(m, [a, "latest"], ctx)) as string);
        let sent = 0n;
        let received = 0n;
        for (let i = 0; i < 5; i++) {
          sent += await read("eth_getTransactionCount", accounts[i]);
          received += (await read("eth_getBalance", accounts[5 + i])) - INITIAL_BALANCE;
        }
        expect(sent + (await read("eth_getTransactionCount", accounts[10]))).to.equal(head.header.number);
        expect(received).to.equal(sent);
        const hash = (await rt.dispatcher.call("eth_sendTransaction", [{ from: accounts[10], to: accounts[11], value: "0x1" }], ctx)) as string;
        expect(await rt.dispatcher.call("eth_getTransactionReceipt", [hash], ctx)).to.not.equal(null);
      } finally {
        await rt.close();
      }
    }
    console.log(
      `      crash: ${KILLS.length} SIGKILLs (${KILLS.join(", ")}), ${total} confirmed transactions all present afterwards, head reached ${maxHead}, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    expect(total).to.be.greaterThan(0);
  });
});
