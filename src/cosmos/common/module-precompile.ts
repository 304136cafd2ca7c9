/**
 * How a stateful Cosmos precompile runs a call, as cosmos/evm's precompiles/common does, on the
 * chain's precompile framework (src/chain/base/precompile.ts):
 * - a call costs the SDK's KV price of its input (`RequiredGas`: 2,000 + 30/byte for a transaction,
 *   1,000 + 3/byte for a query) plus what its store reads and writes cost (src/cosmos/common/records.ts `KV_GAS`);
 * - every failure but running out of gas reverts with `Error(string)` carrying its text
 *   (`ReturnRevertError`): a module's error, an unknown selector (`no method with id: 0x…`), fewer
 *   than 4 bytes (`execution reverted`), a transaction method inside a STATICCALL or through
 *   DELEGATECALL or CALLCODE (`write protection`),
 *   keeping the gas not used; running out of gas consumes all of it.
 */
import type { PrecompileInput } from "@ethereumjs/evm";
import { Address } from "@ethereumjs/util";
import { type Interface, type Result } from "ethers/abi";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { type PrecompileHandler, type PrecompilePolicy, createPrecompile } from "../../chain/base/precompile";
import { type ModuleEnv } from "./module-env";
import { ModuleError } from "./errors";
import { precompileEnv } from "./module-env";

export { revertData } from "../../chain/base/precompile";

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
  /** Runs as the calling contract's code (DELEGATECALL, CALLCODE): src/chain/base/precompile.ts refuses writes then. */
  delegated(input: PrecompileInput): boolean;
  /** The block the execution runs in. */
  block(input: PrecompileInput): { number: bigint; timestamp: bigint };
  denom: string;
}

/** cosmos/evm's prices and refusals. */
export const COSMOS_POLICY: PrecompilePolicy = {
  baseGas: (_fn, data, isTx) => (isTx ? 2_000n + 30n * BigInt(data.length) : 1_000n + 3n * BigInt(data.length)),
  refusal: (r, used) => {
    switch (r.kind) {
      case "short":
        return { reason: "execution reverted", gas: 0n };
      case "unknown":
        return { reason: `no method with id: ${r.selector}`, gas: 0n };
      // cosmos/evm runs a stateful precompile read-only under STATICCALL, DELEGATECALL and CALLCODE
      case "static":
      case "delegated":
        return { reason: "write protection", gas: used };
      case "arguments":
        return { reason: `abi: cannot unmarshal the arguments of ${r.fn.name}: ${r.error.message.split(" (")[0]}`, gas: used };
    }
  },
};

/**
 * The precompile function for `abi`, with `handlers` by method name and `transactions` naming the
 * methods that write. `address` is where the precompile lives (the emitter of its events).
 */
export function createModulePrecompile(address: string, abi: Interface, handlers: Record<string, MethodHandler>, transactions: ReadonlySet<string>, deps: ModulePrecompileDeps) {
  const wrapped: Record<string, PrecompileHandler> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = (call) =>
      handler({
        args: call.args,
        caller: hexlify(call.caller),
        callerIsContract: async () => (await call.input._EVM.stateManager.getCode(new Address(call.caller))).length > 0,
        env: precompileEnv(call.input, deps.block(call.input), deps.denom, call.gas),
        emit: call.emit,
      });
  }
  return createPrecompile({ address, abi, handlers: wrapped, transactions, policy: COSMOS_POLICY }, deps);
}

/** cosmos/evm's check that a message's requester (delegator, depositor, operator) is its msg.sender. */
export function requireSender(call: MethodCall, requester: string): void {
  if (call.caller.toLowerCase() !== requester.toLowerCase()) {
    throw new ModuleError(`msg.sender address ${getAddress(call.caller)} does not match the requester address ${getAddress(requester)}`);
  }
}
