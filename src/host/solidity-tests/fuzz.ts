/**
 * Inputs for a Solidity test's parameters (a fuzz test): values of each ABI type from a seeded
 * generator, a quarter of them edge values (0, 1, the type's bounds, powers of two), as forge
 * weights its inputs towards boundaries; and the shrinking of a failing input towards small values.
 */
import type { ParamType } from "ethers/abi";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import type { Rng } from "../../utils/rng";

function uintEdges(bits: number): bigint[] {
  const max = (1n << BigInt(bits)) - 1n;
  return [0n, 1n, 2n, max, max - 1n, max / 2n, max / 2n + 1n];
}

/** A value of `type` for ethers' encoder. */
export function randomValue(type: ParamType, rng: Rng): unknown {
  if (type.baseType === "array") {
    const length = type.arrayLength !== null && type.arrayLength >= 0 ? type.arrayLength : rng.below(5);
    return Array.from({ length }, () => randomValue(type.arrayChildren!, rng));
  }
  if (type.baseType === "tuple") return type.components!.map((c) => randomValue(c, rng));
  const t = type.type;
  const edge = rng.below(4) === 0;
  if (t === "bool") return rng.below(2) === 1;
  if (t === "address") {
    if (edge) return [getAddress("0x" + "00".repeat(20)), getAddress("0x" + "00".repeat(19) + "01"), getAddress("0x" + "ff".repeat(20))][rng.below(3)];
    return getAddress(hexlify(rng.bytes(20)));
  }
  const uint = /^uint(\d*)$/.exec(t);
  if (uint !== null) {
    const bits = uint[1] === "" ? 256 : Number(uint[1]);
    if (edge) {
      const edges = uintEdges(bits);
      return edges[rng.below(edges.length)];
    }
    // as often small as large: a random width, then a random value of it
    return rng.bits(1 + rng.below(bits));
  }
  const int = /^int(\d*)$/.exec(t);
  if (int !== null) {
    const bits = int[1] === "" ? 256 : Number(int[1]);
    const max = (1n << BigInt(bits - 1)) - 1n;
    if (edge) {
      const edges = [0n, 1n, -1n, max, -max - 1n, max - 1n, -max];
      return edges[rng.below(edges.length)];
    }
    return BigInt.asIntN(bits, rng.bits(1 + rng.below(bits)));
  }
  const fixed = /^bytes(\d+)$/.exec(t);
  if (fixed !== null) return hexlify(edge ? new Uint8Array(Number(fixed[1])) : rng.bytes(Number(fixed[1])));
  if (t === "bytes") return hexlify(rng.bytes(rng.below(edge ? 2 : 100)));
  if (t === "string") {
    const n = rng.below(edge ? 2 : 40);
    return Array.from({ length: n }, () => String.fromCharCode(32 + rng.below(95))).join("");
  }
  throw new Error(`cannot fuzz parameters of type ${t}`);
}

/** Smaller candidates of a failing value (numbers towards 0, arrays and bytes shorter), best first. */
export function shrinkCandidates(type: ParamType, value: unknown): unknown[] {
  if (typeof value === "bigint") {
    if (value === 0n) return [];
    const out = [0n, value / 2n];
    if (value > 0n) out.push(value - 1n);
    else out.push(value + 1n);
    return out.filter((v) => v !== value);
  }
  if (Array.isArray(value) && type.baseType === "array" && (type.arrayLength === null || type.arrayLength < 0) && value.length > 0) {
    return [[], value.slice(0, Math.floor(value.length / 2)), value.slice(1)];
  }
  if (typeof value === "string" && value.startsWith("0x") && (type.type === "bytes" || type.type === "string") && value.length > 2) return ["0x"];
  if (typeof value === "string" && type.type === "string" && value.length > 0) return ["", value.slice(0, Math.floor(value.length / 2))];
  return [];
}

/** How a counterexample prints: its values as Solidity would write them. */
export function showValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(showValue).join(", ")}]`;
  if (typeof value === "string" && !value.startsWith("0x")) return JSON.stringify(value);
  return String(value);
}
