/**
 * JavaScript tracers as geth runs them: an object literal with `result` and `fault` (required),
 * `step`, `enter`/`exit` (both or none), `setup`, called with geth's `log`, `db`, `ctx`, frame
 * objects, in a `node:vm` sandbox. Every call into the sandbox runs with the time left before the
 * trace's deadline, so a tracer that never returns is stopped with geth's "execution timeout".
 *
 * Differences from geth's goja: numbers geth gives as big integers are native BigInt here (they
 * print with toString(16) and compare as usual; `bigInt(x)` builds one); db reads are answered from
 * the state as it is when the call is made, by running the call again once the missing state is
 * loaded (state is read asynchronously here), so a function that reads state it did not read before
 * may run twice for that step; `log.getCost()` of a CALL-family opcode is its own cost, without the
 * gas it forwards (known only once the callee starts; the struct logger adds it afterwards).
 */
import { Script, createContext } from "node:vm";
import { Address, bytesToHex } from "@ethereumjs/util";
import type { Frame, FrameResult, OpStep, Tracer, TxEnd, TxEnv } from "./types";
import { TraceError } from "./types";

const BOOTSTRAP = `
var toHex = function (b) { var s = "0x"; for (var i = 0; i < b.length; i++) { s += (b[i] < 16 ? "0" : "") + (b[i] & 255).toString(16); } return s; };
var __fromHex = function (h) { h = String(h); if (h.slice(0, 2) === "0x" || h.slice(0, 2) === "0X") h = h.slice(2); if (h.length % 2) h = "0" + h; var out = new Uint8Array(h.length / 2); for (var i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16); return out; };
var __bytes = function (v, n) { var b = typeof v === "string" ? __fromHex(v) : typeof v === "bigint" ? __fromHex(v.toString(16)) : Uint8Array.from(v); if (b.length >= n) return b.slice(b.length - n); var out = new Uint8Array(n); out.set(b, n - b.length); return out; };
var toWord = function (v) { return __bytes(v, 32); };
var toAddress = function (v) { return __bytes(v, 20); };
var bigInt = function (v, base) { if (typeof v === "bigint") return v; if (base === 16) return BigInt("0x" + v); return BigInt(v); };
var slice = function (b, start, end) { return Uint8Array.from(b).slice(start, end); };
var toContractAddress = function (from, nonce) { return __host.contractAddress(toAddress(from), Number(nonce)); };
var toContract2Address = function (from, salt, code) { return __host.contract2Address(toAddress(from), toWord(salt), Uint8Array.from(code)); };
var isPrecompiled = function (a) { return __host.isPrecompiled(toAddress(a)); };
var __json = function (v) { return JSON.stringify(v, function (k, x) { if (typeof x === "bigint") return x.toString(); if (x instanceof Uint8Array) return Array.from(x); return x; }); };
`;

class MissingState extends Error {}

const OP_NAMES_PUSH = (op: number): boolean => op >= 0x5f && op <= 0x7f;

export class JsTracer implements Tracer {
  readonly wantsSteps: boolean;
  private readonly _ctx: Record<string, unknown>;
  private readonly _hasStep: boolean;
  private readonly _hasEnterExit: boolean;
  private _env!: TxEnv;
  private _err: Error | undefined;
  private _reason: Error | undefined;
  private readonly _cache = new Map<string, unknown>();
  private readonly _pending = new Map<string, Promise<unknown>>();
  private readonly _calls = new Map<string, Script>();
  private _output: Uint8Array = new Uint8Array();
  private _frameError: string | undefined;
  private _gasUsed = 0n;
  private _started = 0;

  constructor(
    code: string,
    private readonly _deadline: () => number,
    config: unknown,
    precompiled: (a: Address) => boolean,
    contractAddress: (from: Uint8Array, nonce: number) => Uint8Array,
    contract2Address: (from: Uint8Array, salt: Uint8Array, code: Uint8Array) => Uint8Array,
  ) {
    this._ctx = createContext({
      __host: {
        isPrecompiled: (a: Uint8Array) => precompiled(new Address(Uint8Array.from(a))),
        contractAddress,
        contract2Address,
      },
    }) as Record<string, unknown>;
    new Script(BOOTSTRAP).runInContext(this._ctx);
    let obj: unknown;
    try {
      obj = new Script(`(${code})`, { filename: "tracer.js" }).runInContext(this._ctx, { timeout: this._timeLeft() });
    } catch (err) {
      throw new TraceError(jsErrorText(err));
    }
    if (obj === null || typeof obj !== "object") throw new TraceError("tracer must be an object");
    const t = obj as Record<string, unknown>;
    if (typeof t.result !== "function") throw new TraceError("trace object must expose a function result()");
    if (typeof t.fault !== "function") throw new TraceError("trace object must expose a function fault()");
    const hasEnter = typeof t.enter === "function";
    const hasExit = typeof t.exit === "function";
    if (hasEnter !== hasExit) throw new TraceError("trace object must expose either both or none of enter() and exit()");
    this._hasStep = typeof t.step === "function";
    this._hasEnterExit = hasEnter;
    // steps also tell call kinds apart and find logs, so they are on even without step()
    this.wantsSteps = true;
    this._ctx.__t = obj;
    if (typeof t.setup === "function") {
      this._ctx.__cfg = JSON.stringify(config ?? {});
      this._call("setup", "__t.setup(JSON.parse(__cfg))");
      if (this._err !== undefined) throw this._err;
    }
  }

  onTxStart(env: TxEnv): void {
    this._env = env;
    this._started = Date.now();
  }

  async onOpcode(s: OpStep): Promise<void> {
    if (!this._hasStep || this._err !== undefined || this._reason !== undefined) return;
    this._ctx.__log = this._log(s, undefined);
    this._ctx.__db = this._db();
    await this._callWithState("step", "__t.step(__log, __db)");
  }

  onFault(s: OpStep, error: string): void {
    if (this._err !== undefined || this._reason !== undefined) return;
    this._ctx.__log = this._log(s, error);
    this._ctx.__db = this._db();
    try {
      this._call("fault", "__t.fault(__log, __db)");
    } catch (err) {
      // fault runs inside the EVM's synchronous error path: state not read by this step's step() cannot be loaded here
      if (!(err instanceof MissingState)) throw err;
      this._err = new TraceError(`db: state not loaded for ${err.message}    in server-side tracer function 'fault'`);
    }
  }

  onEnter(f: Frame): void {
    if (f.depth === 0 || !this._hasEnterExit || this._err !== undefined || this._reason !== undefined) return;
    this._ctx.__frame = {
      getType: () => f.type,
      getFrom: () => f.from.bytes,
      getTo: () => f.to?.bytes,
      getInput: () => f.input,
      getGas: () => Number(f.gas),
      getValue: () => f.value,
    };
    this._call("enter", "__t.enter(__frame)");
  }

  onExit(f: Frame, r: FrameResult): void {
    if (f.depth === 0) {
      this._output = r.output;
      this._frameError = r.error;
      return;
    }
    if (!this._hasEnterExit || this._err !== undefined || this._reason !== undefined) return;
    this._ctx.__res = {
      getGasUsed: () => Number(r.gasUsed),
      getOutput: () => r.output,
      getError: () => r.error,
    };
    this._call("exit", "__t.exit(__res)");
  }

  onTxEnd(end: TxEnd): void {
    this._gasUsed = end.gasUsed;
    if (end.error !== undefined) this._frameError ??= end.error;
  }

  stop(reason: Error): void {
    this._reason = reason;
  }

  async result(): Promise<unknown> {
    if (this._reason !== undefined) throw this._reason;
    const env = this._env;
    const tx = env.tx;
    const ctx: Record<string, unknown> = {
      type: env.isCreate ? "CREATE" : "CALL",
      from: env.from.bytes,
      to: env.to.bytes,
      input: tx.data,
      gas: Number(tx.gasLimit),
      gasUsed: Number(this._gasUsed),
      gasPrice: Number(env.gasPrice),
      intrinsicGas: Number(tx.getIntrinsicGas()),
      value: tx.value,
      block: Number(env.block.header.number),
      output: this._output,
      time: `${Date.now() - this._started}ms`,
    };
    if (env.blockHash !== undefined) ctx.blockHash = env.blockHash;
    if (env.txIndex !== undefined) ctx.txIndex = env.txIndex;
    if (env.txHash !== undefined) ctx.txHash = env.txHash;
    if (this._frameError !== undefined) ctx.error = this._frameError;
    this._ctx.__ctx = ctx;
    this._ctx.__db = this._db();
    const json = await this._callWithState("result", "__json(__t.result(__ctx, __db))");
    if (this._reason !== undefined) throw this._reason;
    if (this._err !== undefined) throw this._err;
    return json === undefined ? null : JSON.parse(json as string);
  }

  private _timeLeft(): number {
    return Math.max(1, this._deadline() - Date.now());
  }

  /** Runs `expr` in the sandbox; errors are kept as geth does (wrapped with the function's name). */
  private _call(fn: string, expr: string): unknown {
    let script = this._calls.get(expr);
    if (script === undefined) this._calls.set(expr, (script = new Script(expr)));
    try {
      return script.runInContext(this._ctx, { timeout: this._timeLeft() });
    } catch (err) {
      if (err instanceof MissingState) throw err;
      if ((err as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT" || Date.now() >= this._deadline()) {
        this._reason = new TraceError("execution timeout");
        throw this._reason;
      }
      if (this._reason !== undefined) throw this._reason;
      this._err = new TraceError(`${jsErrorText(err)}    in server-side tracer function '${fn}'`);
      return undefined;
    }
  }

  private async _callWithState(fn: string, expr: string): Promise<unknown> {
    this._cache.clear();
    for (let attempt = 0; attempt < 64; attempt++) {
      try {
        return this._call(fn, expr);
      } catch (err) {
        if (!(err instanceof MissingState)) throw err;
        for (const [k, p] of this._pending) this._cache.set(k, await p);
        this._pending.clear();
      }
    }
    return undefined;
  }

  private _read<T>(key: string, load: () => Promise<T>): T {
    if (this._cache.has(key)) return this._cache.get(key) as T;
    this._pending.set(key, load());
    throw new MissingState(key);
  }

  private _db(): Record<string, unknown> {
    const sm = this._env.vm.stateManager;
    const a = (v: Uint8Array): Address => new Address(Uint8Array.from(v).slice(-20));
    return {
      getBalance: (v: Uint8Array) => this._read(`b${bytesToHex(Uint8Array.from(v))}`, async () => (await sm.getAccount(a(v)))?.balance ?? 0n),
      getNonce: (v: Uint8Array) => this._read(`n${bytesToHex(Uint8Array.from(v))}`, async () => Number((await sm.getAccount(a(v)))?.nonce ?? 0n)),
      getCode: (v: Uint8Array) => this._read(`c${bytesToHex(Uint8Array.from(v))}`, async () => ((await sm.getAccount(a(v))) === undefined ? new Uint8Array() : sm.getCode(a(v)))),
      getState: (v: Uint8Array, slot: Uint8Array) =>
        this._read(`s${bytesToHex(Uint8Array.from(v))}${bytesToHex(Uint8Array.from(slot))}`, async () => {
          const raw = await sm.getStorage(a(v), pad32(Uint8Array.from(slot)));
          return pad32(raw);
        }),
      exists: (v: Uint8Array) => this._read(`e${bytesToHex(Uint8Array.from(v))}`, async () => (await sm.getAccount(a(v))) !== undefined),
    };
  }

  private _log(s: OpStep, error: string | undefined): Record<string, unknown> {
    const f = s.frame;
    const stack = s.stack;
    const memory = s.memory;
    return {
      op: { isPush: () => OP_NAMES_PUSH(s.op), toString: () => s.opName, toNumber: () => s.op },
      stack: {
        peek: (i: number) => {
          if (i < 0 || i >= stack.length) throw new Error(`tracer accessed out of bound stack: size ${stack.length}, index ${i}`);
          return stack[stack.length - 1 - i];
        },
        length: () => stack.length,
      },
      memory: {
        slice: (start: number, end: number) => {
          if (end < start || start < 0) throw new Error(`tracer accessed out of bound memory: offset ${start}, end ${end}`);
          const out = new Uint8Array(end - start);
          if (start < memory.length) out.set(memory.subarray(start, Math.min(end, memory.length)));
          return out;
        },
        getUint: (offset: number) => {
          if (offset < 0 || offset + 32 > memory.length) throw new Error(`tracer accessed out of bound memory: available ${memory.length}, offset ${offset}, size 32`);
          return BigInt(bytesToHex(memory.subarray(offset, offset + 32)));
        },
        length: () => memory.length,
      },
      contract: {
        getCaller: () => f.from.bytes,
        getAddress: () => s.address.bytes,
        getValue: () => f.value ?? 0n,
        getInput: () => f.input,
      },
      getPC: () => s.pc,
      getGas: () => Number(s.gas),
      getCost: () => Number(s.cost),
      getDepth: () => s.depth,
      getRefund: () => Number(s.refund),
      getError: () => error,
    };
  }
}

function pad32(v: Uint8Array): Uint8Array {
  if (v.length === 32) return v;
  const out = new Uint8Array(32);
  out.set(v, 32 - v.length);
  return out;
}

function jsErrorText(err: unknown): string {
  if (err !== null && typeof err === "object" && "message" in err) {
    const e = err as { name?: string; message: string };
    return `${e.name ?? "Error"}: ${e.message}`;
  }
  return String(err);
}
