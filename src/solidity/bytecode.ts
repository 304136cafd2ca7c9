/**
 * A contract's code as solc's output gives it (init or deployed), recognised the way Hardhat does:
 * immutables, library links and the trailing metadata hash are masked, so the code a chain holds
 * matches its compilation; and where an instruction is in the source (its source map).
 */
import { type SourceLocation, decodeSourceMap, instructionIndexes } from "./source-map";

/** solc's `evm.bytecode` / `evm.deployedBytecode`. */
export interface SolcBytecode {
  object?: string;
  sourceMap?: string;
  linkReferences?: Record<string, Record<string, Array<{ start: number; length: number }>>>;
  immutableReferences?: Record<string, Array<{ start: number; length: number }>>;
}

export /** Code of one contract (init or deployed) with the byte ranges that vary between deployments. */
class Bytecode {
  private _pcIndex: Map<number, number> | undefined;
  private _locations: SourceLocation[] | undefined;

  constructor(
    readonly code: Uint8Array,
    readonly masked: Array<[number, number]>,
    private readonly _sourceMap: string,
  ) {}

  /** True when `candidate` (its first code.length bytes, for init code) is this code up to the masked ranges. */
  matches(candidate: Uint8Array, prefix: boolean): boolean {
    if (prefix ? candidate.length < this.code.length : candidate.length !== this.code.length) return false;
    let from = 0;
    for (const [start, len] of this.masked) {
      if (!sameBytes(candidate, this.code, from, start)) return false;
      from = Math.max(from, start + len);
    }
    return sameBytes(candidate, this.code, from, this.code.length);
  }

  location(pc: number): SourceLocation | undefined {
    this._pcIndex ??= instructionIndexes(this.code);
    this._locations ??= decodeSourceMap(this._sourceMap);
    const i = this._pcIndex.get(pc);
    return i === undefined ? undefined : this._locations[i];
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a[i] !== b[i]) return false;
  return true;
}

export /** Hex of solc's bytecode, with library placeholders (`__$…$__`) as zeros; their ranges are masked. */
function bytecodeOf(bc: SolcBytecode | undefined): Bytecode | undefined {
  const hex = bc?.object;
  if (hex === undefined || hex === "") return undefined;
  const code = new Uint8Array(Buffer.from(hex.replace(/__\$[0-9a-fA-F]{34}\$__/g, "0".repeat(40)), "hex"));
  const masked: Array<[number, number]> = [];
  for (const libs of Object.values(bc?.linkReferences ?? {})) for (const refs of Object.values(libs)) for (const r of refs) masked.push([r.start, r.length]);
  for (const refs of Object.values(bc?.immutableReferences ?? {})) for (const r of refs) masked.push([r.start, r.length]);
  // solc appends CBOR metadata whose length is the last two bytes; its hash changes with any source edit
  if (code.length >= 2) {
    const len = (code[code.length - 2] << 8) | code[code.length - 1];
    if (len + 2 <= code.length) masked.push([code.length - 2 - len, len + 2]);
  }
  masked.sort((a, b) => a[0] - b[0]);
  return new Bytecode(code, masked, bc?.sourceMap ?? "");
}
