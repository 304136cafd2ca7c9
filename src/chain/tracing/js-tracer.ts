/**
 * JavaScript tracers as geth runs them: an object literal with `result` and `fault` (required),
 * `step`, `enter`/`exit` (both or none), `setup`, called with geth's `log`, `db`, `ctx` and frame
 * objects — run in QuickJS (src/chain/tracing/js-engine.ts), never in the node's own engine.
 *
 * The objects a tracer sees are built inside the engine by the bootstrap below; their methods ask
 * the host through a few functions that take and return numbers and strings, so every value is a
 * copy and no host object is reachable. Each call into the engine runs until the trace's deadline or
 * the per-call slice, whichever comes first (then "execution timeout"); the promise jobs a call
 * queued run right after it, as goja runs them, within the same time; the heap and the stack are
 * capped. Long traces give the node's event loop a turn every few tens of
 * milliseconds, so other requests are answered meanwhile.
 *
 * Differences from geth's goja: numbers geth gives as big integers are native BigInt here (they
 * print with toString(16) and compare as usual; `bigInt(x)` builds one); db reads are answered from
 * the state as it is when the call is made, by running the call again once the missing state is
 * loaded (state is read asynchronously here), so a function that reads state it did not read before
 * may run twice for that step; `log.getCost()` of a CALL-family opcode is its own cost, without the
 * gas it forwards (known only once the callee starts; the struct logger adds it afterwards).
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { Address, bytesToHex, hexToBytes } from "@ethereumjs/util";
import { TRACER_CALL_SLICE_MS, TRACER_MEMORY_LIMIT, TRACER_STACK_LIMIT, newTracerEngine } from "./js-engine";

/** Zeros `log.memory.slice` may add past the end of the EVM memory (geth's memoryPadLimit). */
const MEMORY_PAD_LIMIT = 1024 * 1024;
import type { Frame, FrameResult, OpStep, Tracer, TxEnd, TxEnv } from "./types";
import { TraceError } from "./types";
import { BOOTSTRAP } from "./js-tracer-bootstrap";

/** Thrown by the db host function when the state it needs is not loaded yet (the call runs again). */
const MISSING_STATE = "__hardhat_epochs_missing_state__";

/** Host function names the bootstrap calls, besides the db and helpers. */
type HostFn = (...args: QuickJSHandle[]) => QuickJSHandle | undefined;

interface JsTracerDeps {
  precompiled(a: Address): boolean;
  contractAddress(from: Uint8Array, nonce: number): Uint8Array;
  contract2Address(from: Uint8Array, salt: Uint8Array, code: Uint8Array): Uint8Array;
}

export class JsTracer implements Tracer {
  readonly wantsSteps = true;
  private _env!: TxEnv;
  private _err: Error | undefined;
  private _reason: Error | undefined;
  private readonly _cache = new Map<string, string>();
  private readonly _pending = new Map<string, Promise<string>>();
  private _output: Uint8Array = new Uint8Array();
  private _frameError: string | undefined;
  private _gasUsed = 0n;
  private _started = 0;
  private _step: OpStep | undefined;
  private _stepError = "";
  private _callDeadline = 0;
  private _interrupted = false;
  private _lastTurn = Date.now();
  private _disposed = false;
  private readonly _fns = new Map<string, QuickJSHandle>();
  private _hasStep = false;
  private _hasEnterExit = false;

  private constructor(
    private readonly _rt: QuickJSRuntime,
    private readonly _vm: QuickJSContext,
    private readonly _deadline: () => number,
  ) {}

  /** Evaluates the tracer `code` in a fresh engine; refused with geth's texts when it is not a tracer. */
  static async create(code: string, deadline: () => number, config: unknown, deps: JsTracerDeps): Promise<JsTracer> {
    const rt = (await newTracerEngine()).newRuntime();
    rt.setMemoryLimit(TRACER_MEMORY_LIMIT);
    rt.setMaxStackSize(TRACER_STACK_LIMIT);
    const t = new JsTracer(rt, rt.newContext(), deadline);
    try {
      t._install(deps);
      t._load(code, config);
      return t;
    } catch (err) {
      t.dispose();
      throw err;
    }
  }

  private _install(deps: JsTracerDeps): void {
    const vm = this._vm;
    this._rt.setInterruptHandler(() => {
      if (Date.now() <= this._callDeadline) return false;
      this._interrupted = true;
      return true;
    });
    const step = (): OpStep => {
      if (this._step === undefined) throw new Error("log is only valid inside step and fault");
      return this._step;
    };
    const str = (h: QuickJSHandle): string => vm.getString(h);
    const num = (h: QuickJSHandle): number => vm.getNumber(h);
    const host: Record<string, HostFn> = {
      __h_op: () => vm.newNumber(step().op),
      __h_opName: () => vm.newString(step().opName),
      __h_num: (k) => {
        const s = step();
        const field = str(k);
        const v = field === "pc" ? s.pc : field === "gas" ? Number(s.gas) : field === "cost" ? Number(s.cost) : field === "depth" ? s.depth : Number(s.refund);
        return vm.newNumber(v);
      },
      __h_error: () => vm.newString(this._stepError),
      __h_stack: (i) => {
        const { stack } = step();
        const n = num(i);
        if (!Number.isInteger(n) || n < 0 || n >= stack.length) throw new Error(`tracer accessed out of bound stack: size ${stack.length}, index ${n}`);
        return vm.newString(`0x${stack[stack.length - 1 - n].toString(16)}`);
      },
      __h_stackLength: () => vm.newNumber(step().stack.length),
      __h_memory: (a, b) => {
        const { memory } = step();
        const start = num(a);
        const end = num(b);
        if (!Number.isInteger(start) || !Number.isInteger(end) || end < start || start < 0) throw new Error(`tracer accessed out of bound memory: offset ${start}, end ${end}`);
        // geth's GetMemoryCopyPadded: past the EVM memory's end at most 1 MiB of zeros, so what the
        // host allocates for one call is bounded by the execution's memory (itself bounded by gas)
        if (end - memory.length > MEMORY_PAD_LIMIT) throw new Error(`reached limit for padding memory slice: ${end - memory.length}`);
        if (end - start > TRACER_MEMORY_LIMIT) throw new Error(`tracer asked for ${end - start} bytes of memory at once`);
        const out = new Uint8Array(end - start);
        if (start < memory.length) out.set(memory.subarray(start, Math.min(end, memory.length)));
        return vm.newString(bytesToHex(out));
      },
      __h_memoryWord: (o) => {
        const { memory } = step();
        const offset = num(o);
        if (!Number.isInteger(offset) || offset < 0 || offset + 32 > memory.length) throw new Error(`tracer accessed out of bound memory: available ${memory.length}, offset ${offset}, size 32`);
        return vm.newString(bytesToHex(memory.subarray(offset, offset + 32)));
      },
      __h_memoryLength: () => vm.newNumber(step().memory.length),
      __h_contract: (k) => {
        const s = step();
        const field = str(k);
        if (field === "caller") return vm.newString(s.frame.from.toString());
        if (field === "address") return vm.newString(s.address.toString());
        if (field === "value") return vm.newString(`0x${(s.frame.value ?? 0n).toString(16)}`);
        return vm.newString(bytesToHex(s.frame.input));
      },
      __h_db: (k, a, s) => vm.newString(this._read(str(k), str(a), str(s))),
      __h_create: (from, nonce) => vm.newString(bytesToHex(deps.contractAddress(hexToBytes(str(from) as `0x${string}`), num(nonce)))),
      __h_create2: (from, salt, code) =>
        vm.newString(bytesToHex(deps.contract2Address(hexToBytes(str(from) as `0x${string}`), hexToBytes(str(salt) as `0x${string}`), hexToBytes(str(code) as `0x${string}`)))),
      __h_precompiled: (a) => (deps.precompiled(new Address(hexToBytes(str(a) as `0x${string}`))) ? vm.true : vm.false),
    };
    for (const [name, fn] of Object.entries(host)) {
      const h = vm.newFunction(name, fn);
      vm.setProp(vm.global, name, h);
      h.dispose();
    }
    this._callDeadline = this._deadline();
    this._unwrap(vm.evalCode(BOOTSTRAP, "bootstrap.js"), "bootstrap");
    for (const name of ["__load", "__setup", "__step", "__fault", "__enter", "__exit", "__result"]) this._fns.set(name, vm.getProp(vm.global, name));
  }

  private _load(code: string, config: unknown): void {
    const shape = this._call("__load", [code], "");
    if (this._err !== undefined) throw new TraceError(this._err.message.replace(/ {4}in server-side tracer function ''$/, ""));
    if (shape === undefined || shape === "not an object") throw new TraceError("tracer must be an object");
    const [result, fault, enter, exit, step, setup] = [...shape].map((c) => c === "1");
    if (!result) throw new TraceError("trace object must expose a function result()");
    if (!fault) throw new TraceError("trace object must expose a function fault()");
    if (enter !== exit) throw new TraceError("trace object must expose either both or none of enter() and exit()");
    this._hasStep = step;
    this._hasEnterExit = enter;
    if (setup) {
      this._call("__setup", [JSON.stringify(config ?? {})], "setup");
      if (this._err !== undefined) throw this._err;
    }
  }

  onTxStart(env: TxEnv): void {
    this._env = env;
    this._started = Date.now();
  }

  async onOpcode(s: OpStep): Promise<void> {
    if (!this._hasStep || this._err !== undefined || this._reason !== undefined) return;
    // the engine runs on the node's thread: let other requests in now and then
    if (Date.now() - this._lastTurn > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      this._lastTurn = Date.now();
    }
    await this._callWithState("__step", [], "step", s, "");
  }

  onFault(s: OpStep, error: string): void {
    if (this._err !== undefined || this._reason !== undefined) return;
    this._step = s;
    this._stepError = error;
    this._missing = undefined;
    this._call("__fault", [], "fault");
    this._step = undefined;
    if (this._missing !== undefined) {
      // fault runs inside the EVM's synchronous error path: state not read by this step's step() cannot be loaded here
      this._err = new TraceError(`db: state not loaded for ${this._missing}    in server-side tracer function 'fault'`);
      this._missing = undefined;
    }
  }

  onEnter(f: Frame): void {
    if (f.depth === 0 || !this._hasEnterExit || this._err !== undefined || this._reason !== undefined) return;
    const frame = {
      type: f.type,
      from: f.from.toString(),
      to: f.to?.toString() ?? null,
      input: bytesToHex(f.input),
      gas: Number(f.gas),
      value: f.value === undefined ? null : `0x${f.value.toString(16)}`,
    };
    this._call("__enter", [JSON.stringify(frame)], "enter");
  }

  onExit(f: Frame, r: FrameResult): void {
    if (f.depth === 0) {
      this._output = r.output;
      this._frameError = r.error;
      return;
    }
    if (!this._hasEnterExit || this._err !== undefined || this._reason !== undefined) return;
    this._call("__exit", [JSON.stringify({ gasUsed: Number(r.gasUsed), output: bytesToHex(r.output), error: r.error ?? null })], "exit");
  }

  onTxEnd(end: TxEnd): void {
    this._gasUsed = end.gasUsed;
    if (end.error !== undefined) this._frameError ??= end.error;
  }

  stop(reason: Error): void {
    this._reason = reason;
  }

  async result(): Promise<unknown> {
    try {
      if (this._reason !== undefined) throw this._reason;
      const env = this._env;
      const tx = env.tx;
      const ctx: Record<string, unknown> = {
        type: env.isCreate ? "CREATE" : "CALL",
        from: env.from.toString(),
        to: env.to.toString(),
        input: bytesToHex(tx.data),
        gas: Number(tx.gasLimit),
        gasUsed: Number(this._gasUsed),
        gasPrice: Number(env.gasPrice),
        intrinsicGas: Number(tx.getIntrinsicGas()),
        value: `0x${tx.value.toString(16)}`,
        block: Number(env.block.header.number),
        output: bytesToHex(this._output),
        time: `${Date.now() - this._started}ms`,
      };
      if (env.blockHash !== undefined) ctx.blockHash = bytesToHex(env.blockHash);
      if (env.txIndex !== undefined) ctx.txIndex = env.txIndex;
      if (env.txHash !== undefined) ctx.txHash = bytesToHex(env.txHash);
      if (this._frameError !== undefined) ctx.error = this._frameError;
      const json = await this._callWithState("__result", [JSON.stringify(ctx)], "result", undefined, "");
      if (this._reason !== undefined) throw this._reason;
      if (this._err !== undefined) throw this._err;
      return json === undefined ? null : JSON.parse(json);
    } finally {
      this.dispose();
    }
  }

  /** Frees the engine (its instance and everything in it); the tracer answers nothing after this. */
  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    // The engine is this tracer's own WebAssembly instance: dropping it frees its memory. Disposing
    // first releases what QuickJS holds outside it; after some failures (a stack overflow) QuickJS
    // refuses with an assertion, which is of no consequence for an instance nobody uses again.
    try {
      for (const h of this._fns.values()) h.dispose();
      this._vm.dispose();
      this._rt.dispose();
    } catch {
      // the instance is dropped either way
    }
    this._fns.clear();
  }

  private _missing: string | undefined;

  /**
   * Calls the bootstrap function `name` with string arguments; its string result, or undefined when
   * the tracer failed (kept as geth keeps it, wrapped with the tracer function's name `fn`).
   */
  private _call(name: string, args: string[], fn: string): string | undefined {
    if (this._disposed) throw new TraceError("the tracer has ended");
    const vm = this._vm;
    const f = this._fns.get(name) ?? vm.getProp(vm.global, name);
    const handles = args.map((a) => vm.newString(a));
    this._callDeadline = Math.min(this._deadline(), Date.now() + TRACER_CALL_SLICE_MS);
    this._interrupted = false;
    try {
      let called: ReturnType<QuickJSContext["callFunction"]>;
      try {
        called = vm.callFunction(f, vm.undefined, ...handles);
      } catch (err) {
        // the engine's recursion can exhaust the node's own stack first: the tracer fails, the engine is not used again
        if (err instanceof RangeError) {
          this._err = new TraceError(`InternalError: stack overflow    in server-side tracer function '${fn}'`);
          this._reason = this._err;
          return undefined;
        }
        throw err;
      }
      const out = this._unwrap(called, fn);
      // as goja does after each call: run the promise jobs it queued, within the same time
      if (this._rt.hasPendingJob()) {
        const jobs = this._rt.executePendingJobs();
        let failed: { name?: string; message?: string } | undefined;
        if (jobs.error !== undefined) {
          failed = jobs.error.context.dump(jobs.error) as { name?: string; message?: string } | undefined;
          jobs.error.dispose();
        }
        // an interrupted job only rejects its promise: the interrupt itself says the time is up
        if (this._interrupted) {
          this._reason = new TraceError("execution timeout");
          throw this._reason;
        }
        if (failed !== undefined) this._err ??= new TraceError(`${failed.name ?? "Error"}: ${failed.message ?? String(failed)}    in server-side tracer function '${fn}'`);
      }
      return out;
    } finally {
      for (const h of handles) h.dispose();
      if (!this._fns.has(name)) f.dispose();
    }
  }

  private _unwrap(r: ReturnType<QuickJSContext["evalCode"]>, fn: string): string | undefined {
    const vm = this._vm;
    if (r.error === undefined) {
      const out = vm.typeof(r.value) === "string" ? vm.getString(r.value) : undefined;
      r.value.dispose();
      return out;
    }
    const e = vm.dump(r.error) as { name?: string; message?: string } | string | undefined;
    r.error.dispose();
    if (this._interrupted) {
      this._reason = new TraceError("execution timeout");
      throw this._reason;
    }
    // QuickJS quotes the name in "'x' is not defined"; geth's goja (and V8) do not
    const message = (typeof e === "object" && e !== null ? (e.message ?? "") : String(e)).replace(/^'([^']*)' is not defined$/, "$1 is not defined");
    if (message === MISSING_STATE) return undefined;
    const name = typeof e === "object" && e !== null ? (e.name ?? "Error") : "Error";
    const limit = `its limit is ${TRACER_MEMORY_LIMIT / 1024 / 1024} MiB`;
    // QuickJS throws null when it runs out of memory while making the error itself; so does `throw null`
    const text = message === "out of memory" ? `tracer ran out of memory (${limit})` : e === null ? `tracer ran out of memory (${limit}) or threw null` : `${name}: ${message}`;
    if (fn === "bootstrap") throw new Error(`tracer bootstrap failed: ${text}`);
    this._err = new TraceError(`${text}    in server-side tracer function '${fn}'`);
    return undefined;
  }

  /** `_call` with db reads: a read of state not loaded yet loads it and runs the call again. */
  private async _callWithState(name: string, args: string[], fn: string, step: OpStep | undefined, error: string): Promise<string | undefined> {
    this._cache.clear();
    for (let attempt = 0; attempt < 64; attempt++) {
      this._step = step;
      this._stepError = error;
      this._missing = undefined;
      const out = this._call(name, args, fn);
      this._step = undefined;
      if (this._missing === undefined) return out;
      // state was missing: whatever the call did with that (an error, a caught exception) is void
      this._err = undefined;
      for (const [k, p] of this._pending) this._cache.set(k, await p);
      this._pending.clear();
    }
    return undefined;
  }

  /** A db read by kind (b balance, n nonce, c code, s storage, e exists) as a string, from the cache or loaded. */
  private _read(kind: string, address: string, slot: string): string {
    const key = `${kind}${address}${slot}`;
    const hit = this._cache.get(key);
    if (hit !== undefined) return hit;
    const sm = this._env.vm.stateManager;
    const a = new Address(hexToBytes(address as `0x${string}`));
    const load = async (): Promise<string> => {
      const acc = await sm.getAccount(a);
      if (kind === "b") return `0x${(acc?.balance ?? 0n).toString(16)}`;
      if (kind === "n") return String(acc?.nonce ?? 0n);
      if (kind === "e") return acc === undefined ? "0" : "1";
      if (kind === "c") return acc === undefined ? "0x" : bytesToHex(await sm.getCode(a));
      const raw = await sm.getStorage(a, hexToBytes(slot as `0x${string}`));
      return bytesToHex(pad32(raw));
    };
    this._pending.set(key, load());
    this._missing = `${address}`;
    throw new Error(MISSING_STATE);
  }
}

function pad32(v: Uint8Array): Uint8Array {
  if (v.length === 32) return v;
  const out = new Uint8Array(32);
  out.set(v, 32 - v.length);
  return out;
}
