/**
 * Gas statistics for Hardhat 3 (`hardhat test --gas-stats`, `--gas-stats-json`): the chain's
 * executions (src/chain/engine/executions.ts) as the measurements Hardhat's `onGasMeasurement` hook
 * takes, made the way EDR makes them from its gas report: one per successful deployment or call of
 * a project contract it can name, the gas as the receipt counts it, a call through a proxy named
 * after the implementation with the proxies in `proxyChain`. Beyond EDR: the epoch hooks, calls
 * block production makes, count as calls of the hook contract (their gas: what the call used; no
 * transaction, so no intrinsic gas).
 */
import type { ExecutionFrame, ExecutionRecord } from "../../chain/setup";
import type { ContractInfo, ContractRegistry } from "../../solidity/registry";

/** Hardhat 3's GasMeasurement (hardhat/internal gas-analytics types). */
export type GasMeasurement =
  { type: "deployment"; contractFqn: string; gas: number; runtimeSize: number } | { type: "function"; contractFqn: string; functionSig: string; gas: number; proxyChain: string[] };

/** What EDR calls a contract it cannot name (in a proxy chain). */
const UNRECOGNIZED_CONTRACT = "<UnrecognizedContract>";

const fqn = (c: ContractInfo): string => `${c.sourceName}:${c.name}`;

/** The measurement of one execution, or undefined (failed, or code or function the project's compilations do not have). */
export function gasMeasurementOf(record: ExecutionRecord, contracts: ContractRegistry): GasMeasurement | undefined {
  const { frame } = record;
  if (!frame.success) return undefined;
  const gas = Number(record.gasUsed);
  if (frame.create) {
    const deployed = contracts.identify(frame.code, true);
    return deployed === undefined ? undefined : { type: "deployment", contractFqn: fqn(deployed), gas, runtimeSize: frame.output.length };
  }
  // [implementation, …, outermost proxy] when the call went through proxies
  const chain = proxyChain(frame);
  const target = contracts.identify((chain?.[0] ?? frame).code, false);
  const sig = target === undefined ? undefined : functionSignature(target, frame.input);
  if (target === undefined || sig === undefined) return undefined;
  const proxies = (chain ?? [])
    .slice(1)
    .reverse()
    .map((f) => {
      const c = contracts.identify(f.code, false);
      return c === undefined ? UNRECOGNIZED_CONTRACT : fqn(c);
    });
  return { type: "function", contractFqn: fqn(target), functionSig: sig, gas, proxyChain: chain === undefined ? [] : [...proxies, fqn(target)] };
}

/** `name(type,…)` of the ABI function `input` selects; undefined for none (EDR leaves fallback and receive calls out too). */
function functionSignature(c: ContractInfo, input: Uint8Array): string | undefined {
  if (input.length < 4) return undefined;
  const selector = `0x${Buffer.from(input.subarray(0, 4)).toString("hex")}`;
  return c.functions.get(selector)?.signature;
}

/**
 * A proxy forwards its call: a DELEGATECALL with the same selector that returned what the call
 * returned. Followed down: [implementation, …, `frame`], or undefined when `frame` forwards nothing.
 */
function proxyChain(frame: ExecutionFrame): ExecutionFrame[] | undefined {
  if (frame.create || frame.input.length < 4) return undefined;
  for (const child of frame.children) {
    if (!child.delegate || child.input.length < 4 || !sameBytes(child.input.subarray(0, 4), frame.input.subarray(0, 4)) || !sameBytes(child.output, frame.output)) continue;
    const inner = proxyChain(child);
    return inner === undefined ? [child, frame] : [...inner, frame];
  }
  return undefined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
