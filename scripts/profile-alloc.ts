/**
 * Where the chain's operations allocate: V8's sampling heap profiler, collected objects included, over
 * N (default 1,000) automined ERC-20 transfers (`PROFILE_OP=send`) or eth_calls of balanceOf
 * (`PROFILE_OP=call`) on a fresh in-process chain, after 300 to warm up; prints KiB allocated per
 * operation and the 30 functions that allocate most. Allocation volume, unlike CPU time, hardly
 * varies from run to run: it is what feeds the garbage collector (issue "Speed": GC is the largest
 * row of a test run's profile). Run: npm run profile:alloc
 */
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { Interface } from "ethers";
import { createRuntime } from "../src/app/runtime";
import { defaultChainConfig } from "../src/chain/config";
const art = JSON.parse(readFileSync("bench/tests/artifacts/contracts/BenchToken.sol/BenchToken.json", "utf8"));
interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

const OP = process.env.PROFILE_OP === "call" ? "call" : "send";
const N = Number(process.env.N ?? 1000);

async function main(): Promise<void> {
  const rt = await createRuntime({ chain: defaultChainConfig(), clientVersion: "x" });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = (m: string, p: unknown[]) => rt.dispatcher.call(m, p, ctx);
  const [from, other] = (await call("eth_accounts", [])) as string[];
  const iface = new Interface(art.abi);
  const h = await call("eth_sendTransaction", [{ from, data: art.bytecode + iface.encodeDeploy(["Bench", 10n ** 24n]).slice(2), gas: "0x500000" }]);
  const to = ((await call("eth_getTransactionReceipt", [h])) as { contractAddress: string }).contractAddress;
  const data = OP === "call" ? iface.encodeFunctionData("balanceOf", [other]) : iface.encodeFunctionData("transfer", [other, 1n]);
  const op = OP === "call" ? () => call("eth_call", [{ to, data }, "latest"]) : () => call("eth_sendTransaction", [{ from, to, data, gas: "0x30000" }]);
  for (let i = 0; i < 300; i++) await op();
  const s = new Session();
  s.connect();
  // objects the collector already freed count too: what matters is how much was allocated
  await s.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  for (let i = 0; i < N; i++) await op();
  const { profile } = (await s.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: SampleNode } };
  const by = new Map<string, number>();
  let total = 0;
  const walk = (n: SampleNode): void => {
    const u = n.callFrame.url.replace(/^.*\/(node_modules|work\/main)\//, "");
    const k = `${n.callFrame.functionName || "(anon)"} ${u}:${n.callFrame.lineNumber + 1}`;
    by.set(k, (by.get(k) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  console.log(`${OP}: ${(total / N / 1024).toFixed(1)} KiB allocated per operation (sampled every 4 KiB)`);
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(v / N / 1024).toFixed(2).padStart(8)} KiB  ${k}`);
  await rt.close();
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
