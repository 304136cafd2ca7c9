/**
 * forge-std's assertions as cheatcodes (`vm.assertEq`, `vm.assertLt`, `vm.assertApproxEqAbs`, …):
 * forge-std v1.8 and later make its `Test` assertions calls to these. Every overload in Vm.sol
 * is one of a few comparisons over one type (or an array of it), optionally with a message; the
 * failure texts are forge's (`assertion failed: 1 != 2`, or the message in place of `assertion failed`).
 */
import type { ParamType, Result } from "ethers/abi";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";

const COMPARISONS: Record<string, { holds(c: number): boolean; fails: string }> = {
  assertEq: { holds: (c) => c === 0, fails: "!=" },
  assertNotEq: { holds: (c) => c !== 0, fails: "==" },
  assertLt: { holds: (c) => c < 0, fails: ">=" },
  assertGt: { holds: (c) => c > 0, fails: "<=" },
  assertLe: { holds: (c) => c <= 0, fails: ">" },
  assertGe: { holds: (c) => c >= 0, fails: "<" },
};

/** Whether `name` is one of the assertion cheatcodes. */
export function isAssertion(name: string): boolean {
  return /^assert(Eq|NotEq|Lt|Gt|Le|Ge|True|False|ApproxEqAbs|ApproxEqRel)(Decimal)?$/.test(name);
}

/** Checks the assertion; returns its failure text, or undefined when it holds. */
export function checkAssertion(name: string, inputs: readonly ParamType[], args: Result): string | undefined {
  const decimal = name.endsWith("Decimal");
  const base = decimal ? name.slice(0, -"Decimal".length) : name;
  const values = args.toArray(true) as unknown[];
  const arity = (base === "assertTrue" || base === "assertFalse" ? 1 : base.startsWith("assertApprox") ? 3 : 2) + (decimal ? 1 : 0);
  const hasMessage = inputs.length > arity;
  const message = hasMessage ? String(values[values.length - 1]) : undefined;
  const prefix = message ?? "assertion failed";
  if (base === "assertTrue" || base === "assertFalse") {
    return values[0] === (base === "assertTrue") ? undefined : prefix;
  }
  const decimals = decimal ? Number(values[inputs.length - (hasMessage ? 2 : 1)]) : undefined;
  const show = (v: unknown, type: string): string => format(v, type, decimals);
  const type = inputs[0].type;
  const [left, right] = values;
  if (base === "assertApproxEqAbs") {
    const max = values[2] as bigint;
    const delta = absDiff(left as bigint, right as bigint);
    if (delta <= max) return undefined;
    return `${prefix}: ${show(left, type)} !~= ${show(right, type)} (max delta: ${show(max, "uint256")}, real delta: ${show(delta, "uint256")})`;
  }
  if (base === "assertApproxEqRel") {
    const maxPercent = values[2] as bigint;
    const l = left as bigint;
    const r = right as bigint;
    if (r === 0n) return l === 0n ? undefined : `${prefix}: ${show(l, type)} !~= ${show(r, type)} (max delta: ${percent(maxPercent)}, real delta: undefined)`;
    const deltaPercent = (absDiff(l, r) * 10n ** 18n) / (r < 0n ? -r : r);
    if (deltaPercent <= maxPercent) return undefined;
    return `${prefix}: ${show(l, type)} !~= ${show(r, type)} (max delta: ${percent(maxPercent)}, real delta: ${percent(deltaPercent)})`;
  }
  const comparison = COMPARISONS[base];
  if (comparison === undefined) return `${name} is not an assertion`;
  return comparison.holds(compare(left, right)) ? undefined : `${prefix}: ${show(left, type)} ${comparison.fails} ${show(right, type)}`;
}

function absDiff(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}

/** 1e18 = 100%, as forge prints a relative delta. */
function percent(v: bigint): string {
  return `${formatDecimals(v * 100n, 18)}%`;
}

/** -1, 0 or 1; values of any ABI type (arrays element by element, bytes and strings by content). */
function compare(a: unknown, b: unknown): number {
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return 1;
    return a.every((x, i) => compare(x, b[i]) === 0) ? 0 : 1;
  }
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase() || a === b ? 0 : 1;
  return a === b ? 0 : 1;
}

function format(v: unknown, type: string, decimals?: number): string {
  if (Array.isArray(v)) return `[${v.map((x) => format(x, type.replace(/\[\d*\]$/, ""), decimals)).join(", ")}]`;
  if (typeof v === "bigint") return decimals === undefined ? v.toString() : formatDecimals(v, decimals);
  if (type === "address") return getAddress(String(v));
  if (v instanceof Uint8Array) return hexlify(v);
  return String(v);
}

function formatDecimals(v: bigint, decimals: number): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const unit = 10n ** BigInt(decimals);
  const frac = (abs % unit).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${abs / unit}${frac === "" ? "" : `.${frac}`}`;
}
