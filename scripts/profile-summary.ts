/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and by package, and total
 * (inclusive) time by function, so a bench run shows where its time goes.
 * Run: npx ts-node --transpile-only scripts/profile-summary.ts FILE.cpuprofile [TOP=40]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** "ethereumjs/evm", "hardhat-epochs src/chain", "node:internal", … : who owns the code. */
function owner(url: string): string {
  if (url === "") return "(native/idle)";
  if (url.startsWith("node:")) return "node:internal";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const src = /\/(src|scripts|bench|tasks)\/(?:([^/]+)\/)?/.exec(url);
  return src ? `ours ${src[1]}/${src[2] ?? ""}` : url;
}

function label(n: ProfileNode): string {
  const f = n.callFrame;
  const file = f.url.replace(/^.*\/node_modules\//, "").replace(/^.*\/(src|scripts|bench|tasks)\//, "$1/");
  return `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
}

function top(map: Map<string, number>, n: number, total: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${(v / 1000).toFixed(0).padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (file === undefined) throw new Error("usage: profile-summary.ts FILE.cpuprofile [TOP]");
  const n = Number(topArg ?? 40);
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);

  let total = 0;
  const selfFn = new Map<string, number>();
  const selfPkg = new Map<string, number>();
  const totalFn = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id) as ProfileNode;
    total += us;
    selfFn.set(label(node), (selfFn.get(label(node)) ?? 0) + us);
    selfPkg.set(owner(node.callFrame.url), (selfPkg.get(owner(node.callFrame.url)) ?? 0) + us);
    // inclusive: every distinct function on the stack (a recursive one counted once)
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur) as ProfileNode);
      if (seen.has(l)) continue;
      seen.add(l);
      totalFn.set(l, (totalFn.get(l) ?? 0) + us);
    }
  }
  console.log(`profile: ${(total / 1000).toFixed(0)} ms sampled\n\nself time by package`);
  console.log(top(selfPkg, n, total).join("\n"));
  console.log("\nself time by function");
  console.log(top(selfFn, n, total).join("\n"));
  console.log("\ntotal (inclusive) time by function");
  console.log(top(totalFn, n * 2, total).join("\n"));
}

main();
