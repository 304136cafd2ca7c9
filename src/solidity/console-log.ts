/**
 * console.log from contracts (`import "hardhat/console.sol"`): the library sends each call's
 * arguments, ABI-encoded behind the selector of `log(<types>)`, to an address with no code. The EVM
 * runs that as a call to an empty account (so gas is what Hardhat's network charges); the chain
 * watches the messages to that address and decodes them here.
 *
 * The table of signatures is read from the console.sol the user compiles against (Hardhat's
 * package), not typed by hand. Formatting follows Hardhat's: numbers in decimal, addresses and bytes
 * as lower-case hex, the first argument a printf-style format (`%d`/`%i` read as `%s`, since the
 * numbers may not fit a JavaScript number).
 */
import { format } from "node:util";
import { AbiCoder } from "ethers/abi";
import { keccak256 } from "../utils/keccak";
import { selectorOf } from "./revert-data";

/** The address console.sol calls: "console.log" in ASCII, right-aligned. */
export const CONSOLE_ADDRESS = "0x000000000000000000636f6e736f6c652e6c6f67";

export class ConsoleLogDecoder {
  private readonly _bySelector = new Map<string, string[]>();

  /** From signatures such as `log(string,uint256)`. */
  constructor(signatures: Iterable<string>) {
    for (const sig of signatures) {
      const types = parseTypes(sig);
      if (types === undefined) continue;
      this._bySelector.set(signatureSelector(sig), types);
      // console.sol once wrote `uint`/`int`, whose selectors differ; contracts built with it still call them
      const legacy = sig.replace(/\buint256\b/g, "uint").replace(/\bint256\b/g, "int");
      if (legacy !== sig) this._bySelector.set(signatureSelector(legacy), types);
    }
  }

  /** Every `log(...)` signature that a console.sol source encodes. */
  static fromSoliditySource(source: string): ConsoleLogDecoder {
    const sigs = new Set<string>();
    for (const m of source.matchAll(/abi\.encodeWithSignature\("(log\([^"]*\))"/g)) sigs.add(m[1]);
    return new ConsoleLogDecoder(sigs);
  }

  get size(): number {
    return this._bySelector.size;
  }

  /** The printed line for a call's data, or undefined when it is no console.log call. */
  decode(data: Uint8Array): string | undefined {
    if (data.length < 4) return undefined;
    const selector = `0x${Buffer.from(data.subarray(0, 4)).toString("hex")}`;
    const types = this._bySelector.get(selector);
    if (types === undefined) return undefined;
    let values: unknown[];
    try {
      values = [...AbiCoder.defaultAbiCoder().decode(types, data.subarray(4))];
    } catch {
      return undefined;
    }
    const args = values.map((v, i) => show(types[i], v));
    if (args.length > 0) args[0] = args[0].replace(/((?<!%)(?:%%)*)(%[di])/g, "$1%s");
    return format(...args);
  }
}

/** `0x` and the first 4 bytes of the signature's Keccak-256 (natively: a console.sol has ~400 signatures, hashed at a cold start). */
function signatureSelector(signature: string): string {
  return `0x${selectorOf(keccak256(Buffer.from(signature, "utf8")))}`;
}

function parseTypes(signature: string): string[] | undefined {
  const m = /^log\(([^)]*)\)$/.exec(signature);
  if (m === null) return undefined;
  return m[1] === "" ? [] : m[1].split(",");
}

function show(type: string, value: unknown): string {
  if (type === "address") return String(value).toLowerCase();
  if (type === "bool") return value === true ? "true" : "false";
  if (type === "string") return String(value);
  if (type.startsWith("bytes")) return String(value).toLowerCase();
  return (value as bigint).toString(10);
}
