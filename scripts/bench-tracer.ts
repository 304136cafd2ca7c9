/**
 * JavaScript tracer speed (part of `npm run bench`; alone: `BENCH_ONLY=tracer npm run bench`): a
 * step-counting tracer over a transaction of about 100,000 opcodes, on the in-process chain (the
 * tracer engine is the same as the node's), beside the struct logger and the callTracer over the same
 * transaction. Median of a few runs; every loop is bounded.
 */
import solc from "solc";
import { newEpochInfo } from "../src/epochs";
import { defaultChainConfig } from "../src/chain/config";
import { createRuntime } from "../src/app/runtime";

const LOOP = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Loop { uint256 public acc; function spin(uint256 n) external { uint256 a; for (uint256 i = 0; i < n; i++) { a += i; } acc = a; } }`;

const STEP_COUNTER = "{ n: 0, step: function () { this.n++; }, fault: function () {}, result: function () { return this.n; } }";
const RUNS = 5;

export interface TracerRow {
  tracer: string;
  steps: number;
  medianMs: number;
}

export async function benchTracer(): Promise<TracerRow[]> {
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({ language: "Solidity", sources: { "Loop.sol": { content: LOOP } }, settings: { optimizer: { enabled: false }, outputSelection: { "*": { "*": ["evm.bytecode.object"] } } } }),
    ),
  ) as {
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  const rt = await createRuntime({ chain: defaultChainConfig(), clientVersion: "bench", epochs: { genesis: { epochs: [newEpochInfo("day", 86_400n)] } } });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = <T>(method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx) as Promise<T>;
  try {
    const [from] = await call<string[]>("eth_accounts");
    const deploy = await call<string>("eth_sendTransaction", [{ from, data: `0x${out.contracts["Loop.sol"].Loop.evm.bytecode.object}` }]);
    const loop = (await call<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress;
    // spin(n): about 77 opcodes per iteration without the optimizer; 1,300 iterations ≈ 100k opcodes
    const hash = await call<string>("eth_sendTransaction", [{ from, to: loop, data: `0xa5b6ea8f${(1300).toString(16).padStart(64, "0")}`, gas: "0xf42400" }]);
    const rows: TracerRow[] = [];
    for (const [name, cfg] of [
      ["step-counting JavaScript tracer", { tracer: STEP_COUNTER, timeout: "60s" }],
      ["opcountTracer (built-in JavaScript)", { tracer: "opcountTracer", timeout: "60s" }],
      ["struct logger (no memory)", { disableStack: true, disableStorage: true }],
      ["callTracer", { tracer: "callTracer" }],
    ] as const) {
      const times: number[] = [];
      let steps = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const r = await call<unknown>("debug_traceTransaction", [hash, cfg]);
        times.push(performance.now() - t);
        if (typeof r === "number") steps = r;
        else if (r !== null && typeof r === "object" && "structLogs" in r) steps = (r as { structLogs: unknown[] }).structLogs.length;
      }
      times.sort((a, b) => a - b);
      rows.push({ tracer: name, steps, medianMs: times[Math.floor(times.length / 2)] });
    }
    return rows;
  } finally {
    await rt.close();
  }
}

export function printTracerRows(rows: TracerRow[]): void {
  console.log("\nJavaScript tracer speed: debug_traceTransaction of one transaction (in-process), median of 5\n");
  console.log("| tracer | opcodes | ms | opcodes/s |\n|---|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.tracer} | ${r.steps || "—"} | ${r.medianMs.toFixed(0)} | ${r.steps > 0 ? Math.round(r.steps / (r.medianMs / 1000)) : "—"} |`);
}

if (require.main === module) {
  benchTracer()
    .then(printTracerRows)
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
