/**
 * README.md's install sections as a script: the fenced blocks under one heading, in order. A `sh`
 * block is run as written; a `ts`/`jsonc`/`solidity` block whose first line is `// <path>` is the file
 * the reader saves at that path. The registry name `hardhat-epochs` in an `npm install` line becomes
 * the tarball's path, as the README tells a reader to do until the package is published.
 */

export interface ReadmeBlock {
  lang: string;
  text: string;
}

/** The fenced blocks between the heading that starts with `heading` and the next heading of its level or above. */
export function readmeSection(readme: string, heading: string): ReadmeBlock[] {
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) throw new Error(`README.md has no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 0;
  const blocks: ReadmeBlock[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const h = /^(#+) /.exec(lines[i]);
    if (h !== null && h[1].length <= level) break;
    const open = /^```(\w+)$/.exec(lines[i]);
    if (open === null) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]);
    blocks.push({ lang: open[1], text: `${body.join("\n")}\n` });
  }
  return blocks;
}

/**
 * Lines a test runs before the README line that matches `before` (what this machine cannot reach
 * and a reader's can: a stand-in put in place first). Said in the test, never hidden.
 */
export interface ReadmePrelude {
  before: RegExp;
  lines: string;
}

/** A bash script doing what the blocks say: commands run, files written where their first line says. */
export function readmeScript(blocks: ReadmeBlock[], tarball: string, prelude?: ReadmePrelude): string {
  const out = ["set -euo pipefail"];
  let preluded = prelude === undefined;
  for (const { lang, text } of blocks) {
    if (lang === "sh") {
      // `npm install … hardhat-epochs …` (continuation lines included) → the tarball
      let script = text.replace(/npm install(?:[^\n]*\\\n)*[^\n]*/g, (cmd) => cmd.replace(/(?<=\s)hardhat-epochs(?=\s|$)/g, tarball));
      if (prelude !== undefined && !preluded) {
        const lines = script.split("\n");
        const at = lines.findIndex((l) => prelude.before.test(l));
        if (at >= 0) {
          lines.splice(at, 0, prelude.lines.trimEnd());
          script = lines.join("\n");
          preluded = true;
        }
      }
      out.push(script);
      continue;
    }
    const file = /^\/\/ ([\w./-]+)\n/.exec(text)?.[1];
    if (file === undefined) throw new Error(`a ${lang} block without a "// <path>" first line:\n${text}`);
    if (text.includes("\nREADME_EOF\n")) throw new Error(`${file}: the block holds the script's end marker`);
    out.push(`mkdir -p "$(dirname '${file}')" && cat > '${file}' <<'README_EOF'\n${text}README_EOF`);
  }
  if (!preluded) throw new Error(`no README line matches ${String(prelude?.before)}: the prelude has no place`);
  return `${out.join("\n")}\n`;
}
