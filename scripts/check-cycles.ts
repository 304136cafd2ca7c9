/**
 * Lists the import cycles among src/'s modules and fails when there is one. An edge is any import of
 * another module of src/: `import`/`export … from` (types too: a cycle of types still ties two modules'
 * designs together) and `require()` (the lazy loads that keep plugin start light are dependencies
 * all the same). Each cycle is printed once, as the files it passes through. Then the same one level
 * up, folders as nodes: a folder-level cycle fails too, printed with a file import per edge.
 * Part of `npm run lint`.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const SRC = path.join(ROOT, "src");
const EXTENSIONS = [".ts", ".mts", "/index.ts", "/index.mts", ".d.mts"];
const IMPORT = /(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(m?ts)$/.test(name) ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.(m?js)$/, ""));
  for (const ext of ["", ...EXTENSIONS]) {
    const p = base + ext;
    try {
      if (statSync(p).isFile() && /\.(m?ts)$/.test(p)) return p;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** The import graph of src/: file → the src/ files it imports. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(SRC)) {
    // comments name paths too; only code imports count
    const code = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    const deps = new Set<string>();
    for (const m of code.matchAll(IMPORT)) {
      const target = resolve(file, m[1]);
      if (target !== undefined && target.startsWith(SRC) && target !== file) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan's algorithm), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indexOf.get(w) as number));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return out;
}

/** A file's node one level up: its folder under src/, or `<top>/.` for a top folder's loose files. */
export function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length <= 2 ? `${parts.length === 1 ? "." : parts[0]}/.` : parts.slice(0, -1).join("/");
}

/**
 * The import graph one level up: each folder of src/ is a node, and a top folder's loose files one
 * node of their own (`chain/.`); an edge is any file import between two nodes.
 */
export function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const node = folderOf;
  const out = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    const from = node(file);
    const set = out.get(from) ?? new Set<string>();
    out.set(from, set);
    for (const d of deps) if (node(d) !== from) set.add(node(d));
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

if (require.main === module) {
  const files = importGraph();
  const found = cycles(files);
  const rel = (p: string) => path.relative(ROOT, p);
  const folders = folderGraph(files);
  const folderCycles = cycles(folders);
  if (folderCycles.length > 0) {
    for (const c of folderCycles) {
      console.error(`check-cycles: a folder-level import cycle: ${c.join(" ⇄ ")}`);
      // the folder edges inside it, each with one file import that makes it: where to cut
      for (const from of c) {
        for (const to of folders.get(from) ?? []) {
          if (!c.includes(to)) continue;
          const edge = [...files].flatMap(([f, ds]) => (folderOf(f) === from ? ds.filter((d) => folderOf(d) === to).map((d) => `${rel(f)} → ${rel(d)}`) : []))[0];
          console.error(`    ${from} → ${to} (${edge})`);
        }
      }
    }
    process.exitCode = 1;
  } else {
    console.log("check-cycles: no folder-level import cycle in src/");
  }
  if (found.length === 0) {
    console.log("check-cycles: no import cycle in src/");
  } else {
    console.error(`check-cycles: ${found.length} import cycle(s) in src/ (each line: files that import each other, directly or around):`);
    const graph = importGraph();
    for (const c of found) {
      console.error(`- ${c.map(rel).join(" ⇄ ")}`);
      // the edges inside it: where to cut
      for (const f of c) for (const d of graph.get(f) ?? []) if (c.includes(d)) console.error(`    ${rel(f)} → ${rel(d)}`);
    }
    process.exitCode = 1;
  }
}
