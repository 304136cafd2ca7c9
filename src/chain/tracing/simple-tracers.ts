/** geth's small native tracers: 4byteTracer, noopTracer, muxTracer. */
import type { VM } from "@ethereumjs/vm";
import { precompileAt } from "./precompiles";
import type { Frame, FrameResult, LogEntry, OpStep, Tracer, TxEnd, TxEnv } from "./types";

/** Counts `0x<selector>-<argument bytes>` of every call with at least 4 bytes of input (precompiles and creations aside). */
export class FourByteTracer implements Tracer {
  readonly wantsSteps = true;
  private readonly _ids = new Map<string, number>();
  private _vm: VM | undefined;
  private _reason: Error | undefined;

  onTxStart(env: TxEnv): void {
    this._vm = env.vm;
  }

  onEnter(f: Frame): void {
    if (f.input.length < 4) return;
    if (f.type !== "CALL" && f.type !== "CALLCODE" && f.type !== "DELEGATECALL" && f.type !== "STATICCALL") return;
    if (f.to !== undefined && this._vm !== undefined && precompileAt(this._vm, f.to)) return;
    const key = `0x${Buffer.from(f.input.subarray(0, 4)).toString("hex")}-${f.input.length - 4}`;
    this._ids.set(key, (this._ids.get(key) ?? 0) + 1);
  }

  stop(reason: Error): void {
    this._reason = reason;
  }

  result(): unknown {
    if (this._reason !== undefined) throw this._reason;
    return Object.fromEntries(this._ids);
  }
}

export class NoopTracer implements Tracer {
  readonly wantsSteps = false;
  result(): unknown {
    return {};
  }
}

/** Runs several tracers on one execution; the result maps each tracer's name to its result. */
export class MuxTracer implements Tracer {
  readonly wantsSteps: boolean;

  constructor(private readonly _tracers: Array<[string, Tracer]>) {
    this.wantsSteps = _tracers.some(([, t]) => t.wantsSteps);
  }

  async onTxStart(env: TxEnv): Promise<void> {
    for (const [, t] of this._tracers) await t.onTxStart?.(env);
  }
  onEnter(f: Frame): void {
    for (const [, t] of this._tracers) t.onEnter?.(f);
  }
  onExit(f: Frame, r: FrameResult): void {
    for (const [, t] of this._tracers) t.onExit?.(f, r);
  }
  onOpcode(s: OpStep): Promise<void> | void {
    let pending: Promise<void> | undefined;
    for (const [, t] of this._tracers) {
      const p = t.onOpcode?.(s);
      if (p !== undefined) pending = pending === undefined ? p : pending.then(() => p);
    }
    return pending;
  }
  onCallGas(s: OpStep, g: bigint): void {
    for (const [, t] of this._tracers) t.onCallGas?.(s, g);
  }
  onFault(s: OpStep, e: string): void {
    for (const [, t] of this._tracers) t.onFault?.(s, e);
  }
  onLog(l: LogEntry, f: Frame): void {
    for (const [, t] of this._tracers) t.onLog?.(l, f);
  }
  async onTxEnd(end: TxEnd): Promise<void> {
    for (const [, t] of this._tracers) await t.onTxEnd?.(end);
  }
  stop(reason: Error): void {
    for (const [, t] of this._tracers) t.stop?.(reason);
  }
  dispose(): void {
    for (const [, t] of this._tracers) t.dispose?.();
  }
  async result(): Promise<unknown> {
    const out: Record<string, unknown> = {};
    // a member's result may be asynchronous (the vmTrace reads codes, a JavaScript tracer runs its result())
    for (const [name, t] of this._tracers) out[name] = await t.result();
    return out;
  }
}
