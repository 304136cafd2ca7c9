/**
 * The rest of the debug namespace: every debug name the spec lists answers (never -32601), raw
 * chain data, runtime figures, CPU profiles and heap snapshots Chrome DevTools can open, the file
 * rules, and the private methods refused without the bearer token over HTTP.
 */
import { expect } from "chai";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Transaction, keccak256 } from "ethers";
import { spawnSync } from "node:child_process";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { ROOT, buildDist } from "../helpers/processes";

/** A node's runtime (the built package) that answers debug_writeMemProfile of the file given, as a node would. */
const HEAP_CHILD = `
const { defaultChainConfig } = require("./dist/src/chain/config");
const { createRuntime } = require("./dist/src/app/runtime");
(async () => {
  const rt = await createRuntime({ chain: defaultChainConfig(), clientVersion: "heap-child" });
  const answer = await rt.dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "debug_writeMemProfile", params: [process.argv[1]] }, { transport: "http", authenticated: true });
  process.stdout.write(JSON.stringify(answer) + "\\n");
  await rt.close();
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;
import { type Harness, rpcError, testChainConfig } from "../helpers/harness";
import { TEST_TOKEN, serveHttp } from "../helpers/http";
import { type Deployed, runCorpus } from "../helpers/trace-corpus";

/** The debug names this node must answer (never -32601). */
const SPEC_DEBUG = [
  "debug_traceTransaction",
  "debug_traceBlockByNumber",
  "debug_backtraceAt",
  "debug_blockProfile",
  "debug_cpuProfile",
  "debug_dumpBlock",
  "debug_gcStats",
  "debug_getBlockRlp",
  "debug_goTrace",
  "debug_freeOSMemory",
  "debug_memStats",
  "debug_mutexProfile",
  "debug_seedHash",
  "debug_setHead",
  "debug_setBlockProfileRate",
  "debug_setGCPercent",
  "debug_setMutexProfileFraction",
  "debug_stacks",
  "debug_startCPUProfile",
  "debug_startGoTrace",
  "debug_stopCPUProfile",
  "debug_stopGoTrace",
  "debug_traceBlock",
  "debug_traceBlockByHash",
  "debug_traceBlockFromFile",
  "debug_standardTraceBlockToFile",
  "debug_standardTraceBadBlockToFile",
  "debug_verbosity",
  "debug_vmodule",
  "debug_writeBlockProfile",
  "debug_writeMemProfile",
  "debug_writeMutexProfile",
];

describe("debug namespace", function () {
  this.timeout(120_000);
  let h: Harness;
  let d: Deployed;
  const dir = join(process.cwd(), "cache", `debug-test-${process.pid}`);
  const rel = (f: string) => relative(process.cwd(), join(dir, f));

  before(async () => {
    await mkdir(dir, { recursive: true });
    h = await serveHttp({ chain: { ...testChainConfig(), throwOnTransactionFailures: false } });
    d = await runCorpus(h);
  });
  after(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers every debug name of the spec with something other than -32601", async () => {
    for (const name of SPEC_DEBUG) {
      const res = (await h.raw({ jsonrpc: "2.0", id: 1, method: name, params: [] })) as { error?: { code: number } };
      expect(res.error?.code, name).to.not.equal(-32601);
    }
  });

  it("Go-only methods answer a specific reason", async () => {
    const e = await rpcError(h.request("debug_goTrace", ["x.trace", 1]));
    expect(e.code).to.equal(-32000);
    expect(e.message).to.match(/^debug_goTrace is not available: Go execution traces/);
    expect((await rpcError(h.request("debug_setGCPercent", [100]))).message).to.match(/^debug_setGCPercent is not available: V8/);
    expect((await rpcError(h.request("debug_seedHash", [1]))).message).to.match(/ethash/);
  });

  it("raw data: header, block, receipts, transaction in consensus encodings", async () => {
    const r = await h.request<{ blockNumber: string; blockHash: string }>("eth_getTransactionReceipt", [d.txs.nested]);
    const header = await h.request<string>("debug_getRawHeader", [r.blockNumber]);
    expect(keccak256(header)).to.equal(r.blockHash);
    const block = await h.request<string>("debug_getRawBlock", [r.blockHash]);
    expect(block.length).to.be.greaterThan(header.length);
    expect(await h.request("debug_getBlockRlp", [Number(r.blockNumber)])).to.equal(block);
    expect(await h.request("debug_getHeaderRlp", [Number(r.blockNumber)])).to.equal(header);
    expect((await rpcError(h.request("debug_getBlockRlp", [r.blockNumber]))).message).to.equal("invalid argument 0: json: cannot unmarshal string into Go value of type uint64");
    const raw = await h.request<string>("debug_getRawTransaction", [d.txs.nested]);
    expect(Transaction.from(raw).hash).to.equal(d.txs.nested);
    expect(await h.request("debug_getRawTransaction", [`0x${"00".repeat(32)}`])).to.equal(null);
    const receipts = await h.request<string[]>("debug_getRawReceipts", [r.blockNumber]);
    expect(receipts).to.have.length(1);
    expect(receipts[0].startsWith("0x02")).to.equal(true);
    expect(await h.request<string>("debug_printBlock", [Number(r.blockNumber)])).to.contain(r.blockHash);
    expect(await h.request("debug_getBadBlocks")).to.deep.equal([]);
    expect((await rpcError(h.request("debug_standardTraceBadBlockToFile", [r.blockHash]))).message).to.equal(`bad block ${r.blockHash} not found`);
  });

  it("debug_dumpBlock: geth's state dump with the accounts it can name", async () => {
    const dump = await h.request<{ root: string; accounts: Record<string, { balance: string; nonce: number; code?: string; storage?: Record<string, string>; address?: string; key: string }> }>(
      "debug_dumpBlock",
      ["latest"],
    );
    const block = await h.request<{ stateRoot: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(`0x${dump.root}`).to.equal(block.stateRoot);
    const corpusKey = Object.keys(dump.accounts).find((k) => k.toLowerCase() === d.corpus) as string;
    const acc = dump.accounts[corpusKey];
    expect(acc.address).to.equal(d.corpus);
    expect(acc.key).to.equal(keccak256(d.corpus));
    expect(acc.code).to.match(/^0x60/);
    expect(Object.keys(acc.storage ?? {}).length).to.be.greaterThan(0);
    expect(BigInt(dump.accounts[Object.keys(dump.accounts).find((k) => k.toLowerCase() === d.from) as string].balance) > 0n).to.equal(true);
  });

  it("runtime figures under geth's names; a forced GC; stacks as text", async () => {
    const m = await h.request<Record<string, number>>("debug_memStats");
    expect(m.HeapAlloc).to.be.greaterThan(0);
    expect(m.Sys).to.be.greaterThan(m.HeapAlloc);
    expect(await h.request("debug_freeOSMemory")).to.equal(null);
    const g = await h.request<{ NumGC: number; Pause: number[]; LastGC: string; PauseQuantiles: null }>("debug_gcStats");
    expect(g.NumGC).to.be.greaterThan(0);
    expect(g.Pause.length).to.be.greaterThan(0);
    expect(Date.parse(g.LastGC)).to.be.greaterThan(0);
    expect(await h.request<string>("debug_stacks")).to.contain("[JavaScript]");
  });

  it("CPU profiles and heap snapshots are JSON with nodes (what Chrome DevTools opens); geth's in-progress texts", async () => {
    expect(await h.request("debug_startCPUProfile", [rel("a.cpuprofile")])).to.equal(null);
    expect((await rpcError(h.request("debug_startCPUProfile", [rel("b.cpuprofile")]))).message).to.equal("CPU profiling already in progress");
    await h.request("eth_blockNumber");
    expect(await h.request("debug_stopCPUProfile")).to.equal(null);
    expect((await rpcError(h.request("debug_stopCPUProfile"))).message).to.equal("CPU profiling not in progress");
    const profile = JSON.parse(await readFile(join(dir, "a.cpuprofile"), "utf8")) as { nodes: unknown[]; startTime: number; endTime: number };
    expect(profile.nodes.length).to.be.greaterThan(0);
    expect(profile.endTime).to.be.greaterThan(profile.startTime);
    expect(await h.request("debug_cpuProfile", [rel("c.cpuprofile"), 0])).to.equal(null);
    expect((JSON.parse(await readFile(join(dir, "c.cpuprofile"), "utf8")) as { nodes: unknown[] }).nodes.length).to.be.greaterThan(0);
    // a heap snapshot of a node's process, as a user's node takes it: a snapshot of this one (every test
    // file loaded) took ~20 s of the suite, one of a node's own ~1 s
    buildDist();
    const node = spawnSync(process.execPath, ["-e", HEAP_CHILD, rel("h.heapsnapshot")], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(node.status, node.stderr).to.equal(0);
    expect(node.stdout.trim()).to.equal(JSON.stringify({ jsonrpc: "2.0", id: 1, result: null }));
    const snap = JSON.parse(await readFile(join(dir, "h.heapsnapshot"), "utf8")) as { snapshot: unknown; nodes: number[] };
    expect(snap.nodes.length).to.be.greaterThan(0);
    expect(snap.snapshot).to.be.an("object");
  });

  it("files: only under the home or working directory, never overwriting one", async () => {
    await writeFile(join(dir, "taken.cpuprofile"), "keep me");
    expect((await rpcError(h.request("debug_writeMemProfile", [rel("taken.cpuprofile")]))).message).to.match(/already exists; it is not overwritten$/);
    expect(await readFile(join(dir, "taken.cpuprofile"), "utf8")).to.equal("keep me");
    expect((await rpcError(h.request("debug_writeMemProfile", ["/tmp/elsewhere.heapsnapshot"]))).message).to.match(/files are read and written only under/);
    expect((await rpcError(h.request("debug_writeMemProfile", ["../outside.heapsnapshot"]))).message).to.match(/files are read and written only under/);
    const rlp = await h.request<string>("debug_getRawBlock", ["latest"]);
    await writeFile(join(dir, "block.rlp"), Buffer.from(rlp.slice(2), "hex"));
    const fromFile = await h.request<unknown[]>("debug_traceBlockFromFile", [rel("block.rlp"), { tracer: "callTracer" }]);
    expect(fromFile).to.deep.equal(await h.request("debug_traceBlockByNumber", ["latest", { tracer: "callTracer" }]));
    expect((await rpcError(h.request("debug_traceBlockFromFile", [rel("missing.rlp")]))).message).to.match(/^could not read file: /);
    // links under the root that lead out of it: neither a read nor a write follows them
    const outside = await mkdtemp(join(tmpdir(), "outside-"));
    try {
      await writeFile(join(outside, "secret.rlp"), Buffer.from(rlp.slice(2), "hex"));
      await symlink(join(outside, "secret.rlp"), join(dir, "link.rlp"));
      await symlink(outside, join(dir, "linkdir"));
      expect((await rpcError(h.request("debug_traceBlockFromFile", [rel("link.rlp")]))).message).to.match(/^could not read file: .*leads to .* through a link; files are read and written only under/);
      expect((await rpcError(h.request("debug_traceBlockFromFile", [rel("linkdir/secret.rlp")]))).message).to.match(/through a link/);
      expect((await rpcError(h.request("debug_writeMemProfile", [rel("linkdir/h.heapsnapshot")]))).message).to.match(/through a link/);
      expect(await readdir(outside)).to.deep.equal(["secret.rlp"]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("log level: debug_verbosity and debug_vmodule", async () => {
    expect(await h.request("debug_verbosity", [3])).to.equal(null);
    expect((await rpcError(h.request("debug_verbosity", [9]))).message).to.match(/^invalid log level 9/);
    expect(await h.request("debug_vmodule", ["rpc=4"])).to.equal(null);
    expect((await rpcError(h.request("debug_vmodule", ["rpc"]))).message).to.match(/^invalid vmodule pattern/);
    expect(await h.request("debug_vmodule", [""])).to.equal(null);
  });

  it("over HTTP without the token: file-writing and node-changing methods are refused (4100), tracing is open", async () => {
    const server = new JsonRpcServer(h.runtime.dispatcher, { host: "127.0.0.1", port: 0, token: TEST_TOKEN });
    const { httpAddress } = await server.listen();
    try {
      const call = async (method: string, params: unknown[]) => {
        const res = await fetch(`http://127.0.0.1:${httpAddress.port}/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      };
      const privateOnes: Array<[string, unknown[]]> = [
        ["debug_startCPUProfile", [rel("x.cpuprofile")]],
        ["debug_stopCPUProfile", []],
        ["debug_cpuProfile", [rel("y.cpuprofile"), 0]],
        ["debug_writeMemProfile", [rel("x.heapsnapshot")]],
        ["debug_standardTraceBlockToFile", [`0x${"00".repeat(32)}`]],
        ["debug_traceBlockFromFile", [rel("block.rlp")]],
        ["debug_verbosity", [5]],
        ["debug_vmodule", ["rpc=5"]],
        ["debug_freeOSMemory", []],
        ["debug_setHead", ["0x1"]],
        ["debug_setGCPercent", [100]],
      ];
      for (const [m, p] of privateOnes) expect((await call(m, p)).error, m).to.deep.equal({ code: 4100, message: `unauthorized: ${m} needs the bearer token` });
      const open = await call("debug_traceTransaction", [d.txs.nested, { tracer: "4byteTracer" }]);
      expect(open.result).to.deep.equal({ "0x10b80908-32": 1, "0x32145f90-32": 1 });
      expect((await call("debug_memStats", [])).error).to.equal(undefined);
    } finally {
      await server.close();
    }
  });
});
