/**
 * How a stateful Cosmos precompile runs a call, as cosmos/evm's precompiles/common does:
 * - a call costs the SDK's KV price of its input (`RequiredGas`: 2,000 + 30/byte for a transaction,
 *   1,000 + 3/byte for a query) plus what its store reads and writes cost (ledger.ts `KV_GAS`);
 * - every failure but running out of gas reverts with `Error(string)` carrying its text
 *   (`ReturnRevertError`): a module's error, an unknown selector (`no method with id: 0x…`), fewer
 *   than 4 bytes (`execution reverted`), a transaction method inside a STATICCALL (`write protection`),
 *   keeping the gas not used; running out of gas consumes all of it; nothing is half-applied,
 *   since the EVM reverts the call's state (records, balances) with it.
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import { Address } from "@ethereumjs/util";
import { type FunctionFragment, Interface, type Result, getBytes, hexlify } from "ethers";
import { GasMeter, ModuleError, type ModuleEnv, OutOfGas, precompileEnv } from "./ledger";

const EMPTY = new Uint8Array();

export type Log = [Uint8Array, Uint8Array[], Uint8Array];

/** What a method handler gets: its arguments, the caller, the module env, and where to put events. */
export interface MethodCall {
  args: Result;
  /** msg.sender of the call to the precompile. */
  caller: string;
  /** True when the caller holds code (a contract): some methods refuse contracts. */
  callerIsContract: () => Promise<boolean>;
  env: ModuleEnv;
  emit(event: string, args: unknown[]): void;
}

/** A handler returns the method's outputs (encoded by the ABI). */
export type MethodHandler = (call: MethodCall) => Promise<unknown[]>;

/** What the chain tells a precompile about the execution it runs in. */
export interface ModulePrecompileDeps {
  caller(input: PrecompileInput): Uint8Array;
  isStatic(input: PrecompileInput): boolean;
  /** The block the execution runs in. */
  block(input: PrecompileInput): { number: bigint; timestamp: bigint };
  denom: string;
}

/** Out of gas: the call consumes all it was given and returns nothing. */
const outOfGas = (gasLimit: bigint): ExecResult => ({ returnValue: EMPTY, executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) });

const ERROR_ABI = new Interface(["error Error(string)"]);

/** Error(string), as Solidity's require and cosmos/evm's ReturnRevertError encode a reason. */
export function revertData(reason: string): Uint8Array {
  return getBytes(ERROR_ABI.encodeErrorResult("Error", [reason]));
}

/**
 * The precompile function for `abi`, with `handlers` by method name and `transactions` naming the
 * methods that write. `address` is where the precompile lives (the emitter of its events).
 */
export function createModulePrecompile(
  address: string,
  abi: Interface,
  handlers: Record<string, MethodHandler>,
  transactions: ReadonlySet<string>,
  deps: ModulePrecompileDeps,
): (input: PrecompileInput) => Promise<ExecResult> {
  const emitter = getBytes(address);
  return async (input) => {
    const { data, gasLimit } = input;
    const revert = (gas: bigint, reason: string): ExecResult => ({ returnValue: revertData(reason), executionGasUsed: gas, exceptionError: new EVMError(EVMError.errorMessages.REVERT) });
    if (data.length < 4) return revert(0n, "execution reverted");
    const selector = hexlify(data.subarray(0, 4));
    let fn: FunctionFragment | null;
    try {
      fn = abi.getFunction(selector);
    } catch {
      fn = null;
    }
    const handler = fn === null ? undefined : handlers[fn.name];
    if (fn === null || handler === undefined) return revert(0n, `no method with id: ${selector}`);
    const isTx = transactions.has(fn.name);
    const gas = new GasMeter(gasLimit);
    try {
      gas.charge(isTx ? 2_000n + 30n * BigInt(data.length) : 1_000n + 3n * BigInt(data.length));
    } catch {
      return outOfGas(gasLimit);
    }
    if (isTx && deps.isStatic(input)) return revert(gas.used, "write protection");
    let args: Result;
    try {
      args = abi.decodeFunctionData(fn, data);
    } catch (err) {
      return revert(gas.used, `abi: cannot unmarshal the arguments of ${fn.name}: ${(err as Error).message.split(" (")[0]}`);
    }
    const env = precompileEnv(input, deps.block(input), deps.denom, gas);
    const logs: Log[] = [];
    const callerBytes = deps.caller(input);
    const call: MethodCall = {
      args,
      caller: hexlify(callerBytes),
      callerIsContract: async () => {
        const code = await input._EVM.stateManager.getCode(new Address(callerBytes));
        return code.length > 0;
      },
      env,
      emit: (event, values) => {
        const log = abi.encodeEventLog(event, values);
        logs.push([emitter, log.topics.map((t) => getBytes(t)), getBytes(log.data)]);
      },
    };
    try {
      const out = await handler(call);
      return { returnValue: getBytes(abi.encodeFunctionResult(fn, out)), executionGasUsed: gas.used, ...(logs.length > 0 ? { logs } : {}) };
    } catch (err) {
      if (err instanceof OutOfGas) return outOfGas(gasLimit);
      if (err instanceof ModuleError) return revert(gas.used > gasLimit ? gasLimit : gas.used, err.message);
      throw err;
    }
  };
}
