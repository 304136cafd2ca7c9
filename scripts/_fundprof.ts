// per-chunk funding time, same path as scripts/bench-scale.ts fund()
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAccount, createAddressFromString } from "@ethereumjs/util";
import { defaultChainConfig } from "/work/wt-scale/src/chain/config";
import { createRuntime } from "/work/wt-scale/src/rpc/runtime";
import { LevelKV } from "/work/wt-scale/src/storage/level-kv";
import { keccak256 } from "/work/wt-scale/src/utils/keccak";
function accountAt(i: number): string { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(i)); return `0x${Buffer.from(keccak256(b)).subarray(12).toString("hex")}`; }
async function main() {
  const n = Number(process.argv[2]); const store = process.argv[3];
  const dir = mkdtempSync(path.join(tmpdir(), "fundprof-"));
  const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-01-01T00:00:00Z") }, clientVersion: "b", kv: store === "leveldb" ? await LevelKV.open(dir) : undefined });
  const ctx = { transport: "in-process" as const, authenticated: true };
  for (let start = 0; start < n; start += 10000) {
    const t0 = performance.now();
    await rt.node.mutex.exclusive(() => rt.node.modifyState(async (sm) => { for (let i = start; i < start + 10000; i++) await sm.putAccount(createAddressFromString(accountAt(i)), createAccount({ balance: 10n ** 18n })); }));
    const t1 = performance.now();
    await rt.dispatcher.call("evm_mine", [], ctx);
    const t2 = performance.now();
    console.log(start + 10000, "modify", (t1 - t0).toFixed(0), "mine", (t2 - t1).toFixed(0), JSON.stringify(rt.node.cacheSizes()), "rss", (process.memoryUsage().rss / 2 ** 20).toFixed(0), "heap", ((globalThis as any).gc(), process.memoryUsage().heapUsed / 2 ** 20).toFixed(0), "ext", (process.memoryUsage().external / 2 ** 20).toFixed(0), "ab", (process.memoryUsage().arrayBuffers / 2 ** 20).toFixed(0));
  }
  await rt.close(); rmSync(dir, { recursive: true, force: true });
}
main();
