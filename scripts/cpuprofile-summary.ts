/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by package (or source folder of this
 * repository) and the top functions by self time. Used to find where the node spends its time under
 * a `npm run bench` workload:
 *
 *   NODE_OPTIONS=--cpu-prof --cpu-prof-dir=/tmp/prof node node_modules/hardhat/internal/cli/bootstrap.js node …
 *   npx ts-node --transpile-only scripts/cpuprofile-summary.ts /tmp/prof/CPU.*.cpuprofile [top=30]
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

/** `node_modules/@scope/name/…` → `@scope/name`; this repository's `src/dir/…` → `src/dir`; else a short origin. */
export function bucketOf(url: string): string {
  if (url === "") return "(native / VM)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + "node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith("node:")) return "node:internal";
  const src = /\/(src|tasks|scripts)\/([^/]+)\//.exec(url);
  if (src !== null) return `${src[1]}/${src[2]}`;
  return url.replace(/^file:\/\//, "");
}

export function summarise(profile: Profile, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  let total = 0;
  const buckets = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (n === undefined) continue;
    total += us;
    const f = n.callFrame;
    const bucket = f.functionName === "(idle)" || f.functionName === "(program)" || f.functionName === "(garbage collector)" ? f.functionName : bucketOf(f.url);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const key = `${f.functionName || "(anonymous)"}  ${f.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(src|scripts)\//, "$1/")}:${f.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const busy = total - (buckets.get("(idle)") ?? 0);
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(8)} ms ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  return [`total ${(total / 1000).toFixed(0)} ms, busy (not idle) ${(busy / 1000).toFixed(0)} ms; % of busy`, "", "self time by package / folder:", rows(buckets), "", `top ${top} functions by self time:`, rows(fns)].join("\n");
}

if (require.main === module) {
  const [file, topArg] = process.argv.slice(2);
  if (file === undefined) {
    console.error("usage: cpuprofile-summary.ts FILE.cpuprofile [top]");
    process.exit(1);
  }
  console.log(summarise(JSON.parse(readFileSync(file, "utf8")) as Profile, Number(topArg ?? 30)));
}
