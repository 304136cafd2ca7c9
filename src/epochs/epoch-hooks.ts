/**
 * Hooks: contract hooks (registered through the precompile, called as system calls from the
 * precompile address with their own gas limit) and in-process TypeScript hooks. Every call is
 * isolated: a failure is undone alone, recorded as an `epoch_hook_failed` event, and the others go on
 * (Osmosis's model; Evmos would halt the chain).
 */
import type { BlockContext } from "../chain/module";
import { getBytes } from "ethers";
import { EPOCHS_PRECOMPILE_BYTES, HOOKS_ABI, registeredHooks } from "./hook-registry";
import type { EpochHooks } from "./tick-rules";

export type HookName = "BeforeEpochStart" | "AfterEpochEnd";
export type TsHook = (identifier: string, epochNumber: bigint, ctx: BlockContext) => void | Promise<void>;

const hexAddr = (a: Uint8Array): string => `0x${Buffer.from(a).toString("hex")}`;

/** Calls every registered contract, in registration order. */
export class ContractHooks implements EpochHooks {
  constructor(private readonly _gasLimit: () => bigint) {}

  afterEpochEnd(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._call(ctx, "AfterEpochEnd", identifier, n);
  }

  beforeEpochStart(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._call(ctx, "BeforeEpochStart", identifier, n);
  }

  private async _call(ctx: BlockContext, hook: HookName, identifier: string, n: bigint): Promise<void> {
    const hooks = await registeredHooks({ get: (k) => ctx.getStorage(EPOCHS_PRECOMPILE_BYTES, k) });
    const fn = hook === "BeforeEpochStart" ? "beforeEpochStart" : "afterEpochEnd";
    const data = getBytes(HOOKS_ABI.encodeFunctionData(fn, [identifier, n]));
    for (const address of hooks) {
      const r = await ctx.systemCall({ caller: EPOCHS_PRECOMPILE_BYTES, to: address, data, gasLimit: this._gasLimit() });
      const attributes = [
        { key: "identifier", value: identifier },
        { key: "hook", value: hook },
        { key: "address", value: hexAddr(address) },
        { key: "epoch_number", value: n.toString() },
        { key: "gas_used", value: r.gasUsed.toString() },
      ];
      if (!r.success) attributes.push({ key: "reason", value: r.error ?? "failed" });
      ctx.emit({ type: r.success ? "epoch_hook" : "epoch_hook_failed", attributes, logs: r.logs });
    }
  }
}

/** In-process hooks (hre.epochs.onBeforeEpochStart / onAfterEpochEnd). */
export class TypeScriptHooks implements EpochHooks {
  readonly before: TsHook[] = [];
  readonly after: TsHook[] = [];

  afterEpochEnd(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._run(ctx, this.after, "AfterEpochEnd", identifier, n);
  }

  beforeEpochStart(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._run(ctx, this.before, "BeforeEpochStart", identifier, n);
  }

  private async _run(ctx: BlockContext, list: TsHook[], hook: HookName, identifier: string, n: bigint): Promise<void> {
    for (const fn of [...list]) {
      try {
        await fn(identifier, n, ctx);
      } catch (err) {
        ctx.emit({
          type: "epoch_hook_failed",
          attributes: [
            { key: "identifier", value: identifier },
            { key: "hook", value: hook },
            { key: "address", value: "typescript" },
            { key: "epoch_number", value: n.toString() },
            { key: "gas_used", value: "0" },
            { key: "reason", value: err instanceof Error ? err.message : String(err) },
          ],
        });
      }
    }
  }
}

/** Go's MultiEpochHooks: each member in order. */
export class MultiEpochHooks implements EpochHooks {
  constructor(private readonly _members: EpochHooks[]) {}

  async afterEpochEnd(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    for (const m of this._members) await m.afterEpochEnd(ctx, identifier, n);
  }

  async beforeEpochStart(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    for (const m of this._members) await m.beforeEpochStart(ctx, identifier, n);
  }
}
