/**
 * The one way this chain runs a stateful precompile (the epochs precompile and every Cosmos one): an
 * ABI, a handler per method, the methods that write, and a pricing policy. The framework dispatches
 * by selector, charges the policy's price before the handler (a handler charges what it reads on
 * top), refuses what the policy names (a short input, an unknown selector, arguments that do not
 * decode — every argument is decoded before the method runs —, a write inside a STATICCALL or through
 * DELEGATECALL or CALLCODE, where the caller and value are not a call's to the precompile), encodes
 * results and events, and ends every failure the same
 * way: running out of gas consumes all of it and returns nothing; any other failure reverts with
 * `Error(string)` and keeps the gas not used. Nothing is half-applied: the EVM reverts the call's
 * state with it. What else a handler throws is the node's bug, which the chain's EVM turns into a
 * failed call (src/chain/engine/evm.ts, `runPrecompile`).
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import { type FunctionFragment, Interface, type Result } from "ethers/abi";
import { getBytes, hexlify } from "ethers/utils";

const EMPTY = new Uint8Array();

/** Ran out of the gas the call was given (the precompile then consumes all of it). */
class OutOfGas extends Error {}

/** A failure a precompile's handler reports: the call reverts with it as `Error(string)`. */
export class PrecompileRevert extends Error {}

export class GasMeter {
  used = 0n;
  constructor(readonly limit: bigint) {}

  charge(gas: bigint): void {
    this.used += gas;
    if (this.used > this.limit) throw new OutOfGas("out of gas");
  }
}

type Log = [Uint8Array, Uint8Array[], Uint8Array];

/** What a handler gets. */
export interface PrecompileCall {
  fn: FunctionFragment;
  args: Result;
  input: PrecompileInput;
  /** msg.sender of the call to the precompile. */
  caller: Uint8Array;
  /** Wei the call carries (already the precompile account's when the handler runs). */
  value: bigint;
  gas: GasMeter;
  /** Adds one of the ABI's events, emitted by the precompile's address. */
  emit(event: string, values: unknown[]): void;
}

/** A handler returns the method's outputs (encoded by the ABI); it throws PrecompileRevert or OutOfGas to fail. */
export type PrecompileHandler = (call: PrecompileCall) => Promise<unknown[]>;

/** Why a call is refused before its handler runs. */
export type Refusal =
  | { kind: "short" }
  | { kind: "unknown"; selector: string }
  | { kind: "static"; fn: FunctionFragment | "fallback" }
  /** A method that writes, reached through DELEGATECALL or CALLCODE. */
  | { kind: "delegated"; fn: FunctionFragment | "fallback" }
  | { kind: "arguments"; fn: FunctionFragment; error: Error };

/** How a precompile prices and words its calls. */
export interface PrecompilePolicy {
  /** What a call costs before its handler runs. */
  baseGas(fn: FunctionFragment, data: Uint8Array, isTransaction: boolean): bigint;
  /** A refused call's reason and the gas it uses (`used`: charged so far); more than the call was given is running out of gas. */
  refusal(refusal: Refusal, used: bigint): { reason: string; gas: bigint };
}

interface PrecompileSpec {
  /** Where the precompile lives (the emitter of its events). */
  address: string;
  abi: Interface;
  handlers: Record<string, PrecompileHandler>;
  /** The methods that write: refused inside a STATICCALL. */
  transactions: ReadonlySet<string>;
  policy: PrecompilePolicy;
  /**
   * What runs for input that names no method (fewer than 4 bytes, or an unknown selector), as a
   * Solidity fallback: `gas` prices it; it writes (refused inside a STATICCALL); it returns nothing.
   * Without it such input is refused.
   */
  fallback?: { handler: (call: Omit<PrecompileCall, "fn" | "args">) => Promise<void>; gas(data: Uint8Array): bigint };
}

/** What the chain tells a precompile about the execution it runs in (each answer is for `input`'s EVM). */
interface PrecompileContextDeps {
  caller(input: PrecompileInput): Uint8Array;
  isStatic(input: PrecompileInput): boolean;
  /**
   * The precompile's code runs as the calling contract (DELEGATECALL or CALLCODE): its caller and
   * value are not a call's to it. Its methods that write are refused then, as cosmos/evm refuses
   * them; queries answer.
   */
  delegated(input: PrecompileInput): boolean;
  /** The wei the call carries; absent for a precompile that never reads it (then 0). */
  value?(input: PrecompileInput): bigint;
}

const ERROR_ABI = new Interface(["error Error(string)"]);

/** Error(string), as Solidity's require and cosmos/evm's ReturnRevertError encode a reason. */
export function revertData(reason: string): Uint8Array {
  return getBytes(ERROR_ABI.encodeErrorResult("Error", [reason]));
}

const outOfGas = (gasLimit: bigint): ExecResult => ({ returnValue: EMPTY, executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) });

function reverted(gasLimit: bigint, gas: bigint, reason: string): ExecResult {
  if (gas > gasLimit) return outOfGas(gasLimit);
  return { returnValue: revertData(reason), executionGasUsed: gas, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
}

/** The precompile function (EthereumJS `PrecompileFunc`) of `spec`. */
export function createPrecompile(spec: PrecompileSpec, deps: PrecompileContextDeps): (input: PrecompileInput) => Promise<ExecResult> {
  const { abi, policy } = spec;
  return async (input) => {
    const { data, gasLimit } = input;
    const refuse = (r: Refusal, used: bigint): ExecResult => {
      const { reason, gas } = policy.refusal(r, used);
      return reverted(gasLimit, gas, reason);
    };
    const selector = data.length < 4 ? undefined : hexlify(data.subarray(0, 4));
    let fn: FunctionFragment | null = null;
    if (selector !== undefined) {
      try {
        fn = abi.getFunction(selector);
      } catch {
        fn = null;
      }
    }
    const handler = fn === null ? undefined : spec.handlers[fn.name];
    if (fn === null || handler === undefined) {
      if (spec.fallback !== undefined) return runFallback(spec, spec.fallback, deps, input);
      return selector === undefined ? refuse({ kind: "short" }, 0n) : refuse({ kind: "unknown", selector }, 0n);
    }
    const isTx = spec.transactions.has(fn.name);
    const gas = new GasMeter(gasLimit);
    try {
      gas.charge(policy.baseGas(fn, data, isTx));
    } catch {
      return outOfGas(gasLimit);
    }
    // one check for every method that writes: no write inside a STATICCALL, and none for an account
    // that did not call (a contract that DELEGATECALLs a precompile would act as its own caller)
    const refused = isTx ? writeRefusal(deps, input) : undefined;
    if (refused !== undefined) return refuse({ kind: refused, fn }, gas.used);
    let args: Result;
    try {
      args = decodeAll(abi, fn, data);
    } catch (err) {
      return refuse({ kind: "arguments", fn, error: err as Error }, gas.used);
    }
    const logs: Log[] = [];
    const call: PrecompileCall = {
      fn,
      args,
      input,
      caller: deps.caller(input),
      value: deps.value?.(input) ?? 0n,
      gas,
      emit: emitter(abi, spec.address, logs),
    };
    return settle(gasLimit, gas, logs, async () => getBytes(abi.encodeFunctionResult(fn, await handler(call))));
  };
}

/**
 * Every argument of `fn` decoded from `data`, or the decode error. ethers' decoder defers an error in
 * an argument (a string that is not UTF-8) to the first read of it, which would be inside a handler;
 * here every value is read once (deeply) first, so a handler only ever sees decoded arguments and a
 * bad one is refused as arguments that do not decode (cosmos/evm's SetupABI unpacks before the method runs).
 */
export function decodeAll(abi: Interface, fn: FunctionFragment, data: Uint8Array): Result {
  const args = abi.decodeFunctionData(fn, data);
  try {
    args.toArray(true);
  } catch (err) {
    const inner = (err as { error?: unknown }).error;
    throw inner instanceof Error ? inner : err;
  }
  return args;
}

/** Why a write is refused here: inside a STATICCALL, or under DELEGATECALL or CALLCODE; undefined when it may run. */
function writeRefusal(deps: PrecompileContextDeps, input: PrecompileInput): "static" | "delegated" | undefined {
  if (deps.isStatic(input)) return "static";
  return deps.delegated(input) ? "delegated" : undefined;
}

/** The function that adds `abi`'s event `event` to `logs`, emitted by `address`. */
function emitter(abi: Interface, address: string, logs: Log[]): PrecompileCall["emit"] {
  const from = getBytes(address);
  return (event, values) => {
    const log = abi.encodeEventLog(event, values);
    logs.push([from, log.topics.map((t) => getBytes(t)), getBytes(log.data)]);
  };
}

/** Runs a handler to its ExecResult: its output and logs, or the failure it threw. */
async function settle(gasLimit: bigint, gas: GasMeter, logs: Log[], run: () => Promise<Uint8Array>): Promise<ExecResult> {
  try {
    const returnValue = await run();
    return { returnValue, executionGasUsed: gas.used, ...(logs.length > 0 ? { logs } : {}) };
  } catch (err) {
    if (err instanceof OutOfGas) return outOfGas(gasLimit);
    if (err instanceof PrecompileRevert) return reverted(gasLimit, gas.used > gasLimit ? gasLimit : gas.used, err.message);
    throw err;
  }
}

/** Input naming no method, on a precompile with a fallback. */
async function runFallback(spec: PrecompileSpec, fallback: NonNullable<PrecompileSpec["fallback"]>, deps: PrecompileContextDeps, input: PrecompileInput): Promise<ExecResult> {
  const { data, gasLimit } = input;
  const gas = new GasMeter(gasLimit);
  try {
    gas.charge(fallback.gas(data));
  } catch {
    return outOfGas(gasLimit);
  }
  const refused = writeRefusal(deps, input);
  if (refused !== undefined) {
    const { reason, gas: used } = spec.policy.refusal({ kind: refused, fn: "fallback" }, gas.used);
    return reverted(gasLimit, used, reason);
  }
  const logs: Log[] = [];
  const call = { input, caller: deps.caller(input), value: deps.value?.(input) ?? 0n, gas, emit: emitter(spec.abi, spec.address, logs) };
  return settle(gasLimit, gas, logs, async () => {
    await fallback.handler(call);
    return EMPTY;
  });
}
