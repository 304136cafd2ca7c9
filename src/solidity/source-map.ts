/**
 * solc's source maps (`s:l:f:j:m` per instruction, empty fields repeat the previous entry) and the
 * program-counter → instruction index of EVM bytecode, which the maps are keyed by.
 */

export interface SourceLocation {
  /** Byte offset in the source file. */
  start: number;
  length: number;
  /** Source index (output.sources[name].id); -1 for code with no source (dispatcher, generated helpers). */
  file: number;
  /** "i" into a function, "o" out of one, "-" a plain jump. */
  jump: string;
}

/** One entry per instruction, in bytecode order. */
export function decodeSourceMap(map: string): SourceLocation[] {
  const out: SourceLocation[] = [];
  let prev: SourceLocation = { start: -1, length: -1, file: -1, jump: "-" };
  if (map === "") return out;
  for (const entry of map.split(";")) {
    const [s, l, f, j] = entry.split(":");
    const cur: SourceLocation = {
      start: s === undefined || s === "" ? prev.start : Number(s),
      length: l === undefined || l === "" ? prev.length : Number(l),
      file: f === undefined || f === "" ? prev.file : Number(f),
      jump: j === undefined || j === "" ? prev.jump : j,
    };
    out.push(cur);
    prev = cur;
  }
  return out;
}

/** pc → instruction index: PUSH1..PUSH32 (0x60..0x7f) carry 1..32 bytes of immediate data. */
export function instructionIndexes(code: Uint8Array): Map<number, number> {
  const byPc = new Map<number, number>();
  let index = 0;
  for (let pc = 0; pc < code.length; pc++) {
    byPc.set(pc, index++);
    const op = code[pc];
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  return byPc;
}

/** 1-based line of a byte offset in `content` (solc's offsets count UTF-8 bytes). */
export function lineOf(content: Buffer, offset: number): number {
  let line = 1;
  const end = Math.min(offset, content.length);
  for (let i = 0; i < end; i++) if (content[i] === 0x0a) line++;
  return line;
}
