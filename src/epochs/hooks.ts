/**
 * Hook fan-out. Go's MultiEpochHooks calls every member in order with no recovery (a panic halts
 * Evmos); a dev chain must go on, so each member — and each TypeScript function — runs isolated
 * (Osmosis's model): everything it did is undone when it throws (EVM writes, module-store writes,
 * events), the failure becomes an `epoch_hook_failed` event, and the next member runs.
 */
import { type BlockContext, type ModuleEvent, runIsolated } from "../chain/base/module";
import type { StateReader } from "../chain/base/records";
import type { EpochHooks, HookName } from "./types";

export type TsHook = (identifier: string, epochNumber: bigint, ctx: BlockContext) => void | Promise<void>;

/** The `epoch_hook_failed` event for a hook that is not a contract (no gas, no address). */
function hookFailedEvent(identifier: string, hook: HookName, epochNumber: bigint, reason: string, address = "typescript"): ModuleEvent {
  return {
    type: "epoch_hook_failed",
    attributes: [
      { key: "identifier", value: identifier },
      { key: "hook", value: hook },
      { key: "address", value: address },
      { key: "epoch_number", value: epochNumber.toString() },
      { key: "gas_used", value: "0" },
      { key: "reason", value: reason },
    ],
  };
}

/** In-process hooks (hre.epochs.onBeforeEpochStart / onAfterEpochEnd), each function isolated; not run in replays. */
export class TypeScriptHooks implements EpochHooks {
  readonly before: TsHook[] = [];
  readonly after: TsHook[] = [];

  /** Adds a BeforeEpochStart function; returns its removal. */
  onBeforeEpochStart(fn: TsHook): () => void {
    return add(this.before, fn);
  }

  /** Adds an AfterEpochEnd function; returns its removal. */
  onAfterEpochEnd(fn: TsHook): () => void {
    return add(this.after, fn);
  }

  afterEpochEnd(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._run(ctx, this.after, "AfterEpochEnd", identifier, n);
  }

  beforeEpochStart(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._run(ctx, this.before, "BeforeEpochStart", identifier, n);
  }

  /** Idle while no function is registered (each gets every tick). */
  async idle(): Promise<boolean> {
    return this.before.length === 0 && this.after.length === 0;
  }

  private async _run(ctx: BlockContext, list: TsHook[], hook: HookName, identifier: string, n: bigint): Promise<void> {
    // a replay (tracing) re-executes a block already produced: these functions ran for it then
    if (ctx.replay) return;
    // a copy: a function may remove itself while running
    for (const fn of [...list]) {
      await runIsolated(
        ctx,
        () => fn(identifier, n, ctx),
        (reason) => ctx.emit(hookFailedEvent(identifier, hook, n, reason)),
      );
    }
  }
}

function add(list: TsHook[], fn: TsHook): () => void {
  list.push(fn);
  return () => {
    const i = list.indexOf(fn);
    if (i >= 0) list.splice(i, 1);
  };
}

/** Go's MultiEpochHooks: every member in list order, each isolated. */
export class MultiEpochHooks implements EpochHooks {
  constructor(private readonly _members: EpochHooks[] = []) {}

  get members(): readonly EpochHooks[] {
    return this._members;
  }

  add(member: EpochHooks, { first = false }: { first?: boolean } = {}): void {
    if (first) this._members.unshift(member);
    else this._members.push(member);
  }

  afterEpochEnd(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._each(ctx, "AfterEpochEnd", identifier, n);
  }

  beforeEpochStart(ctx: BlockContext, identifier: string, n: bigint): Promise<void> {
    return this._each(ctx, "BeforeEpochStart", identifier, n);
  }

  /** Idle when every member is. */
  async idle(state: StateReader, identifier: string): Promise<boolean> {
    for (const m of this._members) if (m.idle === undefined || !(await m.idle(state, identifier))) return false;
    return true;
  }

  private async _each(ctx: BlockContext, hook: HookName, identifier: string, n: bigint): Promise<void> {
    for (const m of [...this._members]) {
      await runIsolated(
        ctx,
        () => (hook === "AfterEpochEnd" ? m.afterEpochEnd(ctx, identifier, n) : m.beforeEpochStart(ctx, identifier, n)),
        (reason) => ctx.emit(hookFailedEvent(identifier, hook, n, reason)),
      );
    }
  }
}
