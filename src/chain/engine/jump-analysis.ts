/**
 * The EVM's jump-destination analysis, cached per contract code: a documented local patch of
 * EthereumJS (docs/execution-and-commit.md, "Jump analysis").
 *
 * At the first JUMP or JUMPI of every call, EthereumJS's interpreter walks the whole code once: which
 * bytes are valid JUMPDESTs, the value of every PUSH (as a bigint), the opcode entry at every
 * instruction. It keeps nothing between calls, so a contract of 10 KB is analysed again on every
 * call into it: about a tenth of an `eth_call` of `balanceOf` and 3 % of an automined transfer
 * (CPU profiles of `npm run bench:ops`). The result depends only on the code and the EVM's opcode
 * table, and the interpreter only reads it, so one analysis can serve every later call.
 *
 * EthereumJS offers no seam for this: the analysis is a method of its `Interpreter`, a class its
 * package does not export and that each call constructs inside `EVM.runInterpreter`. So this module
 * wraps that one method on the class's prototype, loaded from the package's own folder. The wrapper
 * is narrow: it serves the cache only to EVMs the chain made (their custom opcodes are the chain's
 * `chainOpcodes`, which every copy of the chain's VM inherits) and calls the original for any
 * other EVM in the process; results are keyed by the opcode table's identity (a hardfork change or
 * other custom opcodes make a new table) and the code's SHA-256. If a later EthereumJS moves the
 * class or renames the method, nothing is wrapped and the EVM analyses as before
 * (test/chain/jump-analysis.test.ts checks it is wrapped with the pinned version).
 */
import { hash as digest } from "node:crypto";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { isChainOpcodes } from "./context";

/** What EthereumJS's `_getValidJumpDestinations` returns; the interpreter only reads it. */
interface JumpAnalysis {
  jumps: Uint8Array;
  pushes: Record<number, bigint>;
  opcodesCached: unknown[];
}

interface InterpreterLike {
  _evm: { _opcodeMap: object; _customOpcodes?: unknown };
}

type Analyse = (this: InterpreterLike, code: Uint8Array) => JumpAnalysis;

/**
 * Bounded by the code bytes the cached analyses cover. An analysis takes about ten times its code's
 * size in memory (a bigint per PUSH, a pointer per instruction), so 4 MiB of code is ~40 MB at most,
 * enough for a few hundred contracts of a large project.
 */
const MAX_CODE_BYTES = 4 * 1024 * 1024;

const analyses = new LRUCache<string, JumpAnalysis>({ maxSize: MAX_CODE_BYTES, sizeCalculation: (a) => Math.max(1, a.jumps.length) });
/**
 * The key of a code: its SHA-256, which is collision-resistant as keccak is and native, 5× faster
 * than keccak over a contract's 6 KB (a deploy's init code and every code a context reads again
 * after a new block are new arrays, so this runs once per call into them).
 */
const sha256 = (code: Uint8Array): string => digest("sha256", code, "hex");
/** The hash of code arrays already seen: the live state's code cache hands out the same array each time. */
const codeHashes = new WeakMap<Uint8Array, string>();
const tableIds = new WeakMap<object, number>();
let nextTableId = 0;

export const jumpAnalysisStats = { hits: 0, misses: 0 };

let installed: boolean | undefined;

/** Wraps EthereumJS's analysis once per process; true when the cache is in place. */
export function installJumpAnalysisCache(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  let proto: { _getValidJumpDestinations?: Analyse } | undefined;
  try {
    // the package's `exports` map lists only its index: the interpreter's file is loaded by path, from the same folder
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file of the package that `import` cannot name
    const mod = require(path.join(path.dirname(require.resolve("@ethereumjs/evm")), "interpreter.js")) as { Interpreter?: { prototype: typeof proto } };
    proto = mod.Interpreter?.prototype;
  } catch {
    return false;
  }
  const original = proto?._getValidJumpDestinations;
  if (proto === undefined || typeof original !== "function" || original.length !== 1) return false;
  proto._getValidJumpDestinations = function cachedJumpDestinations(this: InterpreterLike, code: Uint8Array): JumpAnalysis {
    const evm = this._evm;
    if (!isChainOpcodes(evm._customOpcodes) || code.length === 0) return original.call(this, code);
    let table = tableIds.get(evm._opcodeMap);
    if (table === undefined) tableIds.set(evm._opcodeMap, (table = nextTableId++));
    let hash = codeHashes.get(code);
    if (hash === undefined) codeHashes.set(code, (hash = sha256(code)));
    const key = `${table}:${hash}`;
    const cached = analyses.get(key);
    if (cached !== undefined) {
      jumpAnalysisStats.hits++;
      return cached;
    }
    jumpAnalysisStats.misses++;
    const fresh = original.call(this, code);
    analyses.set(key, fresh);
    return fresh;
  };
  installed = true;
  return true;
}
