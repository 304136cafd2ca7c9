/**
 * Where an in-memory chain's bytes go per transaction: mines N transfers (one block each, automine)
 * on an in-process runtime, then sums the in-memory store by key group (the first key byte: trie
 * nodes, blocks, receipts, indexes, …) and the bytes its values hold, beside the heap growth over
 * the last N after WARM more (past 4096 blocks the node's bounded caches are full). Run with `node --expose-gc -r ts-node/register/transpile-only scripts/profile-memory.ts
 * [N=2000] [WARM=50]`.
 */
import { createRuntime } from "../src/app/runtime";
import { defaultChainConfig } from "../src/chain/config";
import type { MemoryKV } from "../src/storage/memory-kv";

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 2000);
  const warm = Number(process.argv[3] ?? 50);
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const runtime = await createRuntime({ chain: defaultChainConfig(), clientVersion: "profile" });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = (method: string, params: unknown[]) => runtime.dispatcher.call(method, params, ctx as never);
  const [from, to] = (await call("eth_accounts", [])) as string[];
  const kv = runtime.node.store.kv as MemoryKV;
  const heap = (): number => {
    gc();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  };
  for (let i = 0; i < warm; i++) await call("eth_sendTransaction", [{ from, to, value: "0x1" }]);
  const entries0 = kv.size;
  const h0 = heap();
  for (let i = 0; i < n; i++) await call("eth_sendTransaction", [{ from, to, value: "0x1" }]);
  const h1 = heap();
  const groups = new Map<string, { count: number; keyBytes: number; valueBytes: number }>();
  for await (const [k, v] of kv.range({})) {
    const g = k.length === 0 ? "(empty)" : `0x${k[0].toString(16).padStart(2, "0")} ${JSON.stringify(String.fromCharCode(k[0]))}`;
    let e = groups.get(g);
    if (e === undefined) groups.set(g, (e = { count: 0, keyBytes: 0, valueBytes: 0 }));
    e.count++;
    e.keyBytes += k.length;
    e.valueBytes += v.byteLength;
  }
  console.log(
    `${n} transactions: heap + array buffers grew ${((h1 - h0) / n / 1024).toFixed(2)} KiB per transaction; store entries ${entries0} -> ${kv.size}; value bytes ${JSON.stringify(kv.bytes)}`,
  );
  console.log("| key group | entries | key bytes | value bytes |\n|---|---:|---:|---:|");
  for (const [g, e] of [...groups].sort((a, b) => b[1].valueBytes - a[1].valueBytes)) console.log(`| ${g} | ${e.count} | ${e.keyBytes} | ${e.valueBytes} |`);
  await runtime.close();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
