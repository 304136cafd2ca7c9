/**
 * Contract hooks: every contract registered in the precompile's storage gets
 * `beforeEpochStart(string,int64)` / `afterEpochEnd(string,int64)` as a system call from the
 * precompile address (no transaction, no receipt, its own gas limit), in registration order. Each call
 * is isolated by the chain (a failure undoes only itself); every call leaves an `epoch_hook` or
 * `epoch_hook_failed` event carrying the call's logs, a failure its reason and revert data (and,
 * explained, `error` and `stack`: see docs/epochs.md).
 */
import { concatBytes } from "@ethereumjs/util";
import { AbiCoder } from "ethers/abi";
import { getBytes, hexlify } from "ethers/utils";
import type { BlockContext } from "../chain/base/module";
import type { StateReader } from "../chain/base/records";
import { EPOCHS_PRECOMPILE_BYTES, HOOKS_ABI, hookCount, registeredHooks } from "./precompile";
import type { EpochHooks, HookName } from "./types";

export const DEFAULT_HOOK_GAS_LIMIT = 3_000_000n;

/**
 * Each hook's selector and parameters, looked up once: ethers' `encodeFunctionData` by name finds the
 * fragment and hashes its signature again on every call (pure-JS Keccak), at every epoch boundary.
 */
const HOOK_CALLS = new Map(
  (["BeforeEpochStart", "AfterEpochEnd"] as const).map((hook) => {
    const fragment = HOOKS_ABI.getFunction(hook === "BeforeEpochStart" ? "beforeEpochStart" : "afterEpochEnd");
    if (fragment === null) throw new Error(`the hooks ABI has no ${hook}`);
    return [hook, { selector: getBytes(fragment.selector), inputs: fragment.inputs }];
  }),
);

/** The calldata of `hook(identifier, n)`. */
function hookCalldata(hook: HookName, identifier: string, n: bigint): Uint8Array {
  const call = HOOK_CALLS.get(hook);
  if (call === undefined) throw new Error(`unknown epoch hook ${hook}`);
  return concatBytes(call.selector, getBytes(AbiCoder.defaultAbiCoder().encode(call.inputs, [identifier, n])));
}

export class ContractHooks implements EpochHooks {
  private readonly _gasLimit: () => bigint;

  /** `gasLimit` may be a getter, so a changed setting applies from the next call on. */
  constructor(gasLimit: bigint | (() => bigint) = DEFAULT_HOOK_GAS_LIMIT) {
    this._gasLimit = typeof gasLimit === "function" ? gasLimit : () => gasLimit;
  }

  afterEpochEnd(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._call(ctx, "AfterEpochEnd", identifier, n);
  }

  /** Idle while no contract is registered (a registered one is called at every tick, and leaves an event): one slot read, however many are registered. */
  async idle(state: StateReader): Promise<boolean> {
    return (await hookCount({ get: (k) => state.getStorage(EPOCHS_PRECOMPILE_BYTES, k) })) === 0n;
  }

  beforeEpochStart(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._call(ctx, "BeforeEpochStart", identifier, n);
  }

  private async _call(ctx: BlockContext, hook: HookName, identifier: string, n: bigint): Promise<void> {
    // the list as it is now: a hook that (un)registers affects the next hook invocation
    const hooks = await registeredHooks({ get: (k) => ctx.getStorage(EPOCHS_PRECOMPILE_BYTES, k) });
    if (hooks.length === 0) return;
    const data = hookCalldata(hook, identifier, n);
    for (const address of hooks) {
      const r = await ctx.systemCall({ caller: EPOCHS_PRECOMPILE_BYTES, to: address, data, gasLimit: this._gasLimit() });
      const attributes = [
        { key: "identifier", value: identifier },
        { key: "hook", value: hook },
        { key: "address", value: hexlify(address) },
        { key: "epoch_number", value: n.toString() },
        { key: "gas_used", value: r.gasUsed.toString() },
      ];
      if (!r.success) attributes.push({ key: "reason", value: r.error ?? "failed" });
      // what the hook reverted with (a custom error, Error(string), a panic), for tests that decode it
      if (!r.success && r.returnValue.length > 0) attributes.push({ key: "revert_data", value: hexlify(r.returnValue) });
      // the failure as a failed transaction is told (when the node explains failures): its message, and its
      // Solidity frames one a line when the code is the project's
      if (r.explanation !== undefined) attributes.push({ key: "error", value: r.explanation.message });
      if (r.explanation !== undefined && r.explanation.frames.length > 0) attributes.push({ key: "stack", value: r.explanation.frames.join("\n") });
      ctx.emit({ type: r.success ? "epoch_hook" : "epoch_hook_failed", attributes, logs: r.success ? r.logs : [] });
    }
  }
}
