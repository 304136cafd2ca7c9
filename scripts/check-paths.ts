/**
 * Fails when a doc or a comment names a repository path that does not exist (a file that moved and
 * a reference that did not follow). Reads every tracked source and document (CHANGELOG.md aside: it
 * tells history) and checks each `src/…`, `docs/…` and `test/…` path it names: a file (an extension
 * may be left out, as in imports), or a folder. `contracts/…` and `scripts/…` are left alone: the
 * docs name a user's project files that way. A `test/…` path whose folder the repository does not
 * have, or one right under test/, is a user's (as `test/Token.test.ts`). Globs and placeholders (`<id>`) are not paths.
 * Part of `npm run lint`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const TOP = ["src", "test", "docs"];
const PATH = new RegExp(`(?<![\\w.@/-])(?:\\.\\./|\\./)*((?:${TOP.join("|")})/[A-Za-z0-9_.*<>{}\\[\\]/-]*[A-Za-z0-9_/*])`, "g");
const EXTENSIONS = ["", ".ts", ".mts", ".js", ".mjs", ".d.ts", ".json", ".sol", ".md"];

function tracked(): string[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\n").filter((f) => /\.(ts|mts|js|mjs|md|sh|json)$/.test(f) && f !== "CHANGELOG.md" && !f.startsWith("examples/") && !f.endsWith("package-lock.json") && !f.includes("/fixtures/"));
}

function exists(p: string): boolean {
  const clean = p.replace(/\/+$/, "");
  return EXTENSIONS.some((ext) => existsSync(path.join(ROOT, clean + ext)));
}

const missing: string[] = [];
for (const file of tracked()) {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  lines.forEach((line, i) => {
    for (const m of line.matchAll(PATH)) {
      const p = m[1].replace(/\.$/, "");
      if (/[*<>{}[\]]/.test(p)) continue;
      if (p.startsWith("test/") && (path.dirname(p) === "test" || !existsSync(path.join(ROOT, path.dirname(p))))) continue;
      if (!exists(p)) missing.push(`${file}:${i + 1}: ${p}`);
    }
  });
}
if (missing.length > 0) {
  console.error(`${missing.length} reference(s) to repository paths that do not exist:\n${missing.join("\n")}`);
  process.exit(1);
}
console.log("check-paths: every repository path named in docs and comments exists");
