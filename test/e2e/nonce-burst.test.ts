/**
 * A script author's burst against `npx hardhat node` (issue: a fast script lost most of its
 * transactions): 300 consecutive nonces of one account, pre-signed, sent by 16 concurrent workers
 * through ethers' JsonRpcProvider (one eth_sendRawTransaction per request) from a separate process
 * at full speed (test/helpers/nonce-burst.mjs). Nothing may be refused, everything must be mined,
 * and each block holds the sender's transactions in nonce order, in memory and with `--home`.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Started, freePort, startHardhatNode, stopProcessGroup } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

// Hardhat's dev account #2
const KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const SENDER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const COUNT = 300;
const WORKERS = 16;

interface BurstResult {
  nonce0: number;
  accepted: number;
  refused: Array<{ nonce: number; error: string }>;
  hashes: string[];
}

/** Runs the burst script as its own process; rejects after 120 s. */
function burst(url: string): Promise<BurstResult> {
  const child = spawn(process.execPath, [path.join(__dirname, "../helpers/nonce-burst.mjs"), url, KEY, String(COUNT), String(WORKERS)], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`burst exited (${code}): ${err}`));
      else resolve(JSON.parse(out) as BurstResult);
    });
  });
}

async function call<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const r = await rpc<T>(url, method, params);
  if (r.error !== undefined) throw new Error(`${method}: ${r.error.message}`);
  return r.result as T;
}

for (const mode of ["in memory", "with --home"] as const) {
  describe(`a burst of one account's nonces from 16 concurrent workers (npx hardhat node, ${mode})`, function () {
    this.timeout(240_000);
    let node: Started | undefined;
    let home: string | undefined;

    before(async () => {
      const args = ["--port", String(await freePort()), "--json-rpc.ws-address", "127.0.0.1:0"];
      if (mode === "with --home") {
        home = mkdtempSync(path.join(tmpdir(), "epochs-burst-"));
        args.push("--home", home);
      }
      node = await startHardhatNode(args);
    });
    after(async () => {
      await stopProcessGroup(node?.child);
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    });

    it("admits every transaction and mines them all, each block in nonce order", async () => {
      const url = (node as Started).url;
      const before = BigInt(await call<string>(url, "eth_blockNumber"));
      const r = await burst(url);
      expect(r.refused).to.deep.equal([]);
      expect(r.accepted).to.equal(COUNT);
      // every send answered after its block (automine): the account's nonce is past the burst now
      expect(Number(await call<string>(url, "eth_getTransactionCount", [SENDER, "latest"]))).to.equal(r.nonce0 + COUNT);
      expect(await call(url, "txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
      const head = BigInt(await call<string>(url, "eth_blockNumber"));
      const mined: Array<{ hash: string; nonce: number }> = [];
      for (let n = before + 1n; n <= head; n++) {
        const block = await call<{ transactions: Array<{ hash: string; nonce: string; from: string }> }>(url, "eth_getBlockByNumber", [`0x${n.toString(16)}`, true]);
        for (const t of block.transactions) if (t.from.toLowerCase() === SENDER) mined.push({ hash: t.hash, nonce: Number(t.nonce) });
      }
      expect(mined.map((m) => m.nonce)).to.deep.equal(Array.from({ length: COUNT }, (_, i) => r.nonce0 + i));
      expect(mined.map((m) => m.hash)).to.deep.equal(r.hashes);
    });
  });
}
