import path from "node:path";
import { importGraph } from "./check-cycles";
const prefix = process.argv[2] ?? "cosmos";
const SRC = "/work/main/src";
const g = importGraph();
const node = (file: string): string => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length <= 2 ? `${parts.length === 1 ? "." : parts[0]}/.` : parts.slice(0, -1).join("/");
};
const rows: string[] = [];
for (const [f, deps] of g)
  for (const d of deps) {
    const a = node(f),
      b = node(d);
    if (a !== b && a.startsWith(prefix) && b.startsWith(prefix)) rows.push(`${a} -> ${b}   ${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`);
  }
console.log(rows.sort().join("\n"));
