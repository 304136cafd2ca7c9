/**
 * Revert data, decoded once for the whole project: Solidity's two built-in errors, Error(string) and
 * Panic(uint256), and geth's texts of them. The chain's failure texts (src/chain/base/vm-errors.ts),
 * Hardhat's wording of the same data (src/host/solidity/failure-text.ts) and the Solidity stack
 * traces (src/solidity/stack-trace.ts) read it through these decoders.
 */

/** Error(string)'s selector, hex without 0x. */
export const ERROR_SELECTOR = "08c379a0";
/** Panic(uint256)'s selector, hex without 0x. */
export const PANIC_SELECTOR = "4e487b71";

const WORD = 32;

/** The first four bytes of revert data, hex without 0x ("" when shorter). */
export function selectorOf(data: Uint8Array): string {
  return data.length < 4 ? "" : Buffer.from(data.subarray(0, 4)).toString("hex");
}

function word(body: Uint8Array, at: number): bigint | undefined {
  if (at < 0 || at + WORD > body.length) return undefined;
  return BigInt(`0x${Buffer.from(body.subarray(at, at + WORD)).toString("hex")}`);
}

/**
 * The reason of Error(string) revert data; undefined for any other data. `strict`: only data
 * Solidity's ABI decoder accepts (the string padded to whole words, valid UTF-8), as Hardhat's texts
 * read it; otherwise geth's lenient reading (any bytes that fit, invalid UTF-8 replaced).
 */
export function revertReason(data: Uint8Array, { strict = false }: { strict?: boolean } = {}): string | undefined {
  if (selectorOf(data) !== ERROR_SELECTOR) return undefined;
  const body = data.subarray(4);
  const offset = word(body, 0);
  if (offset === undefined || offset > BigInt(body.length)) return undefined;
  const len = word(body, Number(offset));
  const start = Number(offset) + WORD;
  if (len === undefined || len > BigInt(body.length - start)) return undefined;
  const end = start + Number(len);
  if (strict && start + Math.ceil(Number(len) / WORD) * WORD > body.length) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: strict }).decode(body.subarray(start, end));
  } catch {
    return undefined; // strict, and not UTF-8
  }
}

/** The code of Panic(uint256) revert data; undefined for any other data. */
export function panicCode(data: Uint8Array): bigint | undefined {
  return selectorOf(data) === PANIC_SELECTOR ? word(data.subarray(4), 0) : undefined;
}

/** geth's texts of panic codes (abi.UnpackRevert). */
const GETH_PANICS: Record<number, string> = {
  0x00: "generic panic",
  0x01: "assert(false)",
  0x11: "arithmetic underflow or overflow",
  0x12: "division or modulo by zero",
  0x21: "enum overflow",
  0x22: "invalid encoded storage byte array accessed",
  0x31: "out-of-bounds array access; popping on an empty array",
  0x32: "out-of-bounds access of an array or bytesN",
  0x41: "out of memory",
  0x51: "uninitialized function",
};

/** geth's abi.UnpackRevert: the reason of Error(string), the text of Panic(uint256), else undefined (the call tracer's revertReason). */
export function unpackRevert(data: Uint8Array): string | undefined {
  const reason = revertReason(data);
  if (reason !== undefined) return reason;
  const code = panicCode(data);
  if (code === undefined) return undefined;
  return (code <= 0xffn ? GETH_PANICS[Number(code)] : undefined) ?? `unknown panic code: 0x${code.toString(16)}`;
}
