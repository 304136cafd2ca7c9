/**
 * Feeds a tracer from EthereumJS EVM events ("beforeMessage", "afterMessage", "newContract", "step"),
 * translated to geth's hooks: frame kinds from the opcode that opened them, geth's error texts,
 * logs and SELFDESTRUCT frames from the opcode stream, and a deadline that stops the trace.
 */
import { Address } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { gethError, opName } from "./errors";
import { type Frame, type FrameType, type OpStep, type Tracer, TraceError } from "./types";
import { turnIfDue } from "../../utils/turn";

interface MessageLike {
  caller: Address;
  to?: Address;
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
  depth: number;
  isStatic: boolean;
  delegatecall: boolean;
  salt?: Uint8Array;
  codeAddress: Address;
}

interface ResultLike {
  createdAddress?: Address;
  execResult: { returnValue: Uint8Array; executionGasUsed: bigint; exceptionError?: { error: string } };
}

interface StepLike {
  pc: number;
  gasLeft: bigint;
  gasRefund: bigint;
  opcode: { name: string; dynamicFee: bigint; code: number };
  stack: bigint[];
  depth: number;
  address: Address;
  memory: Uint8Array;
  stateManager: { getAccount(a: Address): Promise<{ balance: bigint } | undefined> };
}

type Listener = (data: never, resolve?: () => void) => void;
interface Events {
  on(name: string, fn: Listener): void;
  off(name: string, fn: Listener): void;
}

const CALL_OPS: Record<number, FrameType> = { 0xf0: "CREATE", 0xf1: "CALL", 0xf2: "CALLCODE", 0xf4: "DELEGATECALL", 0xf5: "CREATE2", 0xfa: "STATICCALL" };
const CALL_GAS_OPS = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
/** Errors that geth reports on the failing opcode's own struct log entry (raised before it runs). */
const PRE_EXEC_ERRORS = new Set(["out of gas", "stack underflow", "stack overflow", "invalid opcode", "static state change"]);

export interface Attached {
  detach(): void;
  /** The error that stopped the trace (timeout or a tracer's own failure), if any. */
  readonly stopped: Error | undefined;
}

/**
 * How often (in steps) the deadline is checked and the event loop offered a turn. A traced step costs
 * microseconds (EthereumJS copies the stack and memory for each), and the EVM's own turns come at
 * JUMPDESTs, which straight-line code never passes: traced, a megabyte of it would hold the node
 * for seconds.
 */
const DEADLINE_EVERY = 256;

export function attachTracer(vm: VM, tracer: Tracer, opts: { deadline?: number } = {}): Attached {
  const events = vm.evm.events as unknown as Events;
  const frames: Frame[] = [];
  let pendingOp: FrameType | undefined;
  let lastStep: OpStep | undefined;
  let stopped: Error | undefined;
  let steps = 0;
  const deadline = opts.deadline;

  const stop = (err: Error): never => {
    stopped ??= err;
    tracer.stop?.(err);
    throw stopped;
  };
  const checkDeadline = (): void => {
    if (deadline !== undefined && Date.now() > deadline) stop(new TraceError("execution timeout"));
  };

  const onBefore = (msg: MessageLike): void => {
    checkDeadline();
    const parent = frames[frames.length - 1];
    const caller = lastStep;
    if (caller !== undefined && pendingOp !== undefined && msg.depth === caller.depth && CALL_GAS_OPS.has(caller.op)) {
      // geth's gasCost of a call includes the gas given to the callee (without the value stipend)
      const stipend = (caller.op === 0xf1 || caller.op === 0xf2) && msg.value > 0n ? 2300n : 0n;
      tracer.onCallGas?.(caller, msg.gasLimit - stipend);
    }
    let type: FrameType;
    if (msg.to === undefined) type = msg.salt !== undefined ? "CREATE2" : "CREATE";
    else if (msg.depth === 0) type = "CALL";
    else if (pendingOp !== undefined) type = pendingOp;
    else if (msg.delegatecall) type = "DELEGATECALL";
    else if (msg.isStatic && parent !== undefined && !parent.isStatic) type = "STATICCALL";
    else type = "CALL";
    pendingOp = undefined;
    const byCode = type === "DELEGATECALL" || type === "CALLCODE";
    const frame: Frame = {
      type,
      depth: msg.depth,
      // DELEGATECALL / CALLCODE run in the caller's account: geth names that account as `from`
      from: byCode && parent?.to !== undefined ? parent.to : msg.caller,
      to: msg.to === undefined ? undefined : byCode ? msg.codeAddress : msg.to,
      codeAddress: msg.to === undefined ? undefined : msg.codeAddress,
      input: msg.data,
      gas: msg.gasLimit,
      value: type === "STATICCALL" ? undefined : msg.value,
      returnData: new Uint8Array(),
      isStatic: msg.isStatic,
    };
    frames.push(frame);
    tracer.onEnter?.(frame);
  };

  const onAfter = (res: ResultLike): void => {
    const frame = frames.pop();
    if (frame === undefined) return;
    const ex = res.execResult;
    if (frame.to === undefined && res.createdAddress !== undefined) frame.to = res.createdAddress;
    const raw = ex.exceptionError?.error;
    const error = raw === undefined ? undefined : gethError(raw, lastStep?.frame === frame ? lastStep : undefined);
    if (raw !== undefined && PRE_EXEC_ERRORS.has(raw) && lastStep !== undefined && lastStep.frame === frame && error !== undefined) {
      tracer.onFault?.(lastStep, error);
    }
    const isCreate = frame.type === "CREATE" || frame.type === "CREATE2";
    const parent = frames[frames.length - 1];
    if (parent !== undefined) parent.returnData = isCreate && raw === undefined ? new Uint8Array() : ex.returnValue;
    tracer.onExit?.(frame, { output: ex.returnValue, gasUsed: ex.executionGasUsed, error, reverted: raw !== undefined });
    lastStep = undefined;
  };

  const onNewContract = (ev: { address: Address }): void => {
    const top = frames[frames.length - 1];
    if (top !== undefined && top.to === undefined) top.to = ev.address;
  };

  const onStep = (ev: StepLike, resolve?: () => void): void => {
    // Throwing here (before `resolve`) rejects the EVM's wait for this listener: not an EVM error,
    // so the transaction ends and runTx rejects with it.
    if (stopped !== undefined) throw stopped;
    let turn: Promise<void> | undefined;
    if (++steps % DEADLINE_EVERY === 0) {
      checkDeadline();
      turn = turnIfDue();
    }
    const code = ev.opcode.code;
    const frame = frames[frames.length - 1];
    const step: OpStep = {
      pc: ev.pc,
      op: code,
      opName: opName(code, ev.opcode.name),
      gas: ev.gasLeft,
      cost: ev.opcode.dynamicFee,
      depth: ev.depth + 1,
      stack: ev.stack,
      memory: ev.memory,
      refund: ev.gasRefund,
      address: ev.address,
      frame,
    };
    lastStep = step;
    const callType = CALL_OPS[code];
    if (callType !== undefined) pendingOp = callType;
    const done = (): void => resolve?.();
    const fail = (err: unknown): void => {
      stopped ??= err instanceof Error ? err : new Error(String(err));
      resolve?.();
    };
    let pending: Promise<void> | void = undefined;
    try {
      pending = tracer.onOpcode?.(step) as Promise<void> | void;
    } catch (err) {
      stopped ??= err instanceof Error ? err : new Error(String(err));
    }
    if (code >= 0xa0 && code <= 0xa4 && tracer.onLog !== undefined) {
      const n = ev.stack.length;
      const offset = Number(ev.stack[n - 1]);
      const size = Number(ev.stack[n - 2]);
      const topics: Uint8Array[] = [];
      for (let i = 0; i < code - 0xa0; i++) topics.push(word(ev.stack[n - 3 - i]));
      tracer.onLog({ address: ev.address, topics, data: readMemory(ev.memory, offset, size) }, frame);
    }
    if (code === 0xff && tracer.onEnter !== undefined) {
      const beneficiary = new Address(word(ev.stack[ev.stack.length - 1]).subarray(12));
      const p = ev.stateManager.getAccount(ev.address).then((acc) => {
        const sd: Frame = {
          type: "SELFDESTRUCT",
          depth: ev.depth + 1,
          from: ev.address,
          to: beneficiary,
          codeAddress: beneficiary,
          input: new Uint8Array(),
          gas: 0n,
          value: acc?.balance ?? 0n,
          returnData: new Uint8Array(),
          isStatic: false,
        };
        tracer.onEnter?.(sd);
        tracer.onExit?.(sd, { output: new Uint8Array(), gasUsed: 0n, error: undefined, reverted: false });
      });
      pending = pending === undefined ? p : pending.then(() => p);
    }
    if (stopped !== undefined) throw stopped;
    if (turn !== undefined) pending = pending === undefined ? turn : pending.then(() => turn);
    if (pending instanceof Promise) pending.then(done, fail);
    else done();
  };

  const listeners: Array<[string, Listener]> = [
    ["beforeMessage", onBefore as unknown as Listener],
    ["afterMessage", onAfter as unknown as Listener],
    ["newContract", onNewContract as unknown as Listener],
  ];
  if (tracer.wantsSteps) listeners.push(["step", onStep as unknown as Listener]);
  for (const [name, fn] of listeners) events.on(name, fn);
  return {
    detach() {
      for (const [name, fn] of listeners) events.off(name, fn);
    },
    get stopped() {
      return stopped;
    },
  };
}

export function word(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** Memory bytes [offset, offset+size), zero beyond the current size (as memory expansion gives). */
export function readMemory(memory: Uint8Array, offset: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  if (offset < memory.length) out.set(memory.subarray(offset, Math.min(memory.length, offset + size)));
  return out;
}
