/**
 * geth's default tracer (the struct logger): one entry per opcode with pc, op, gas, gasCost, depth,
 * stack, memory (enableMemory), storage of SLOAD/SSTORE (unless disableStorage), returnData
 * (enableReturnData), refund; and `gas`, `failed`, `returnValue` of the transaction.
 */
import type { Address } from "@ethereumjs/util";
import { word } from "./attach";
import type { Frame, FrameResult, OpStep, Tracer, TxEnd, TxEnv } from "./types";
import { TraceError } from "./types";

export interface StructLoggerConfig {
  enableMemory?: boolean;
  disableStack?: boolean;
  disableStorage?: boolean;
  enableReturnData?: boolean;
  limit?: number;
}

interface StructLogRes {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  returnData?: string;
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number;
}

/**
 * About the memory one trace's struct logs may hold (V8's objects and strings, estimated). A long
 * call logs millions of steps, and with `enableMemory` each step copies the whole EVM memory: past
 * this the trace stops with an error instead of growing the node by gigabytes.
 */
const MAX_STRUCT_LOG_BYTES = 256 * 1024 * 1024;
/** An entry's own cost: the object, its numbers and its op name. */
const ENTRY_BYTES = 160;
/** One slot of an entry's `storage` copy: two 64-character strings and the property holding them. */
const STORAGE_SLOT_BYTES = 200;

/**
 * What a request's traces hold, counted against MAX_STRUCT_LOG_BYTES: one per request, shared by the
 * traces of all a block's transactions (src/chain/tracing/run.ts).
 */
export interface TraceBudget {
  bytes: number;
}

export class StructLogger implements Tracer {
  readonly wantsSteps = true;
  private readonly _logs: StructLogRes[] = [];
  private readonly _storage = new Map<string, Map<string, string>>();
  private _env!: TxEnv;
  private _output: Uint8Array = new Uint8Array();
  private _error: string | undefined;
  private _gasUsed = 0n;
  private _reason: Error | undefined;

  constructor(
    private readonly _cfg: StructLoggerConfig = {},
    private readonly _budget: TraceBudget = { bytes: 0 },
  ) {
    if (_cfg.limit !== undefined && _cfg.limit < 0) throw new TraceError(`output limit cannot be negative, got ${_cfg.limit}`);
  }

  onTxStart(env: TxEnv): void {
    this._env = env;
  }

  onOpcode(s: OpStep): Promise<void> | void {
    const cfg = this._cfg;
    if (cfg.limit !== undefined && cfg.limit !== 0 && this._logs.length >= cfg.limit) return;
    const words = cfg.enableMemory === true ? Math.floor(s.memory.length / 32) : 0;
    this._charge(ENTRY_BYTES + (cfg.disableStack !== true ? 16 + s.stack.length * 56 : 0) + (words > 0 ? 16 + words * 104 : 0));
    const log: StructLogRes = { pc: s.pc, op: s.opName, gas: Number(s.gas), gasCost: Number(s.cost), depth: s.depth };
    if (cfg.disableStack !== true) log.stack = s.stack.map((v) => `0x${v.toString(16)}`);
    if (cfg.enableReturnData === true && s.frame.returnData.length > 0) log.returnData = `0x${Buffer.from(s.frame.returnData).toString("hex")}`;
    if (cfg.enableMemory === true) {
      const mem: string[] = [];
      for (let i = 0; i + 32 <= s.memory.length; i += 32) mem.push(Buffer.from(s.memory.subarray(i, i + 32)).toString("hex"));
      log.memory = mem;
    }
    if (cfg.disableStorage !== true && (s.op === 0x54 || s.op === 0x55)) {
      const n = s.stack.length;
      const key = s.address.toString();
      let st = this._storage.get(key);
      if (st === undefined) this._storage.set(key, (st = new Map()));
      if (s.op === 0x54 && n >= 1) {
        const slot = word(s.stack[n - 1]);
        const storage = st;
        // geth copies every slot touched so far into each SLOAD's and SSTORE's entry: a trace touching
        // n slots holds ~n²/2 of them, counted before they are made
        this._charge((st.size + 1) * STORAGE_SLOT_BYTES);
        log.storage = {};
        this._logs.push(log);
        if (s.refund > 0n) log.refund = Number(s.refund);
        return readSlot(this._env, s.address, slot).then((v) => {
          storage.set(hex64(slot), hex64(v));
          log.storage = Object.fromEntries(storage);
        });
      } else if (s.op === 0x55 && n >= 2) {
        this._charge((st.size + 1) * STORAGE_SLOT_BYTES);
        st.set(hex64(word(s.stack[n - 1])), hex64(word(s.stack[n - 2])));
        log.storage = Object.fromEntries(st);
      }
    }
    if (s.refund > 0n) log.refund = Number(s.refund);
    this._logs.push(log);
  }

  /** Counts what the next entry holds; past the request's budget the trace stops with an error. */
  private _charge(bytes: number): void {
    this._budget.bytes += bytes;
    if (this._budget.bytes > MAX_STRUCT_LOG_BYTES) {
      throw new TraceError(
        `trace too large: its struct logs passed ${MAX_STRUCT_LOG_BYTES / 1024 / 1024} MiB (ask for fewer with \`limit\`, \`disableStack\`, \`disableStorage\` or without \`enableMemory\`)`,
      );
    }
  }

  onCallGas(s: OpStep, callGas: bigint): void {
    const last = this._logs[this._logs.length - 1];
    if (last !== undefined && last.pc === s.pc && last.depth === s.depth) last.gasCost = Number(s.cost + callGas);
  }

  onFault(s: OpStep, error: string): void {
    const last = this._logs[this._logs.length - 1];
    if (last !== undefined && last.pc === s.pc && last.depth === s.depth) last.error = error;
  }

  onExit(frame: Frame, r: FrameResult): void {
    if (frame.depth !== 0) return;
    this._output = r.output;
    this._error = r.error;
  }

  onTxEnd(end: TxEnd): void {
    if (end.error !== undefined) {
      this._error ??= end.error;
      return;
    }
    this._gasUsed = end.gasUsed;
  }

  stop(reason: Error): void {
    this._reason = reason;
  }

  result(): unknown {
    if (this._reason !== undefined) throw this._reason;
    const failed = this._error !== undefined;
    const returnValue = failed && this._error !== "execution reverted" ? "" : Buffer.from(this._output).toString("hex");
    return { gas: Number(this._gasUsed), failed, returnValue, structLogs: this._logs };
  }
}

function hex64(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

async function readSlot(env: TxEnv, address: Address, slot: Uint8Array): Promise<Uint8Array> {
  const v = await env.vm.stateManager.getStorage(address, slot);
  const out = new Uint8Array(32);
  out.set(v, 32 - v.length);
  return out;
}
