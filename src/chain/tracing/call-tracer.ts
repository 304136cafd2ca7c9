/**
 * geth's callTracer: the tree of call frames (CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE,
 * CREATE2, SELFDESTRUCT, precompiles included) with gas, gasUsed, input, output, error and decoded
 * revertReason; `onlyTopCall` keeps the transaction's own frame, `withLog` adds the logs of frames
 * that did not fail, with their position among the frame's calls.
 */
import { bytesToHex } from "@ethereumjs/util";
import { unpackRevert } from "../../solidity/revert-data";
import type { Frame, FrameResult, LogEntry, Tracer, TxEnd, TxEnv } from "./types";

export interface CallTracerConfig {
  onlyTopCall?: boolean;
  withLog?: boolean;
}

interface CallLog {
  address: string;
  topics: string[];
  data: string;
  position: string;
}

export interface CallFrame {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
  logs?: CallLog[];
  value?: string;
  type: string;
}

interface Building {
  frame: CallFrame;
}

export class CallTracer implements Tracer {
  readonly wantsSteps = true;
  private readonly _stack: Building[] = [];
  private _top: Building | undefined;
  private _gasLimit = 0n;
  private _reason: Error | undefined;

  constructor(private readonly _cfg: CallTracerConfig = {}) {}

  onTxStart(env: TxEnv): void {
    this._gasLimit = env.tx.gasLimit;
  }

  onEnter(f: Frame): void {
    if (this._cfg.onlyTopCall === true && f.depth > 0) return;
    const frame: CallFrame = {
      from: f.from.toString(),
      gas: qty(f.depth === 0 ? this._gasLimit : f.gas),
      gasUsed: "0x0",
      to: f.to?.toString(),
      input: bytesToHex(f.input),
      output: undefined,
      error: undefined,
      revertReason: undefined,
      calls: undefined,
      logs: undefined,
      value: f.value === undefined ? undefined : qty(f.value),
      type: f.type,
    };
    const b = { frame };
    this._stack.push(b);
    if (f.depth === 0) this._top = b;
  }

  onExit(f: Frame, r: FrameResult): void {
    if (this._cfg.onlyTopCall === true && f.depth > 0) return;
    const b = this._stack.pop();
    if (b === undefined) return;
    if (f.to !== undefined) b.frame.to = f.to.toString();
    if (f.depth > 0) b.frame.gasUsed = qty(r.gasUsed);
    processOutput(b, f, r);
    const parent = this._stack[this._stack.length - 1];
    if (parent !== undefined) (parent.frame.calls ??= []).push(b.frame);
  }

  onLog(log: LogEntry): void {
    if (this._cfg.withLog !== true) return;
    const top = this._stack[this._stack.length - 1];
    if (top === undefined) return;
    (top.frame.logs ??= []).push({
      address: log.address.toString(),
      topics: log.topics.map((t) => bytesToHex(t)),
      data: bytesToHex(log.data),
      position: qty(BigInt(top.frame.calls?.length ?? 0)),
    });
  }

  onTxEnd(end: TxEnd): void {
    if (this._top !== undefined && end.error === undefined) this._top.frame.gasUsed = qty(end.gasUsed);
  }

  stop(reason: Error): void {
    this._reason = reason;
  }

  result(): unknown {
    if (this._reason !== undefined) throw this._reason;
    if (this._top === undefined) throw new Error("incorrect number of top-level calls");
    if (this._cfg.withLog === true) clearFailedLogs(this._top.frame, false);
    return this._top.frame;
  }
}

function processOutput(b: Building, f: Frame, r: FrameResult): void {
  const frame = b.frame;
  if (r.error === undefined || !r.reverted) {
    // geth's output is omitempty: a frame that returned nothing has no output field
    if (r.output.length > 0) frame.output = bytesToHex(r.output);
    return;
  }
  frame.error = r.error;
  failedFrames.add(frame);
  if (f.type === "CREATE" || f.type === "CREATE2") frame.to = undefined;
  if (r.error !== "execution reverted" || r.output.length === 0) return;
  frame.output = bytesToHex(r.output);
  if (r.output.length < 4) return;
  const reason = unpackRevert(r.output);
  if (reason !== undefined) frame.revertReason = reason;
}

const failedFrames = new WeakSet<CallFrame>();

/** Logs of a frame that reverted, or whose caller did, never happened. */
function clearFailedLogs(f: CallFrame, parentFailed: boolean): void {
  const failed = failedFrames.has(f) || parentFailed;
  if (failed) f.logs = undefined;
  for (const c of f.calls ?? []) clearFailedLogs(c, failed);
}

function qty(v: bigint): string {
  return `0x${v.toString(16)}`;
}
