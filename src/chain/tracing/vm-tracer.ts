/**
 * Parity's vmTrace (OpenEthereum's VMTrace, trace_replayTransaction's "vmTrace" type): per frame the
 * code that ran and its operations, each with its pc, its cost and what executing it did — `used`
 * (the gas left after it), `push` (the stack items it left, as OpenEthereum's instruction table
 * counts them), `mem` (the memory it wrote) and `store` (the slot it wrote) — and `sub`, the vmTrace
 * of the frame a CALL or CREATE opened. A failed operation has `ex: null`.
 *
 * What an operation did is read from the next step of the same frame (its stack, memory and gas),
 * or, for the frame's last operation, from the frame's end.
 */
import { bytesToHex } from "@ethereumjs/util";
import type { Frame, FrameResult, OpStep, Tracer, TxEnv } from "./types";

interface Executed {
  used: number;
  push: string[];
  mem: { off: number; data: string } | null;
  store: { key: string; val: string } | null;
}

interface Operation {
  pc: number;
  cost: number;
  ex: Executed | null;
  sub: VmTrace | null;
}

interface VmTrace {
  code: string;
  ops: Operation[];
}

interface Building {
  trace: VmTrace;
  /** Whose code runs (read at the end, when the code of contracts created in the transaction exists). */
  codeAddress: Frame["codeAddress"];
  create: boolean;
  /** The last operation, waiting for the next step to say what it did. */
  pending: { op: Operation; step: OpStep } | undefined;
}

/** Stack items an opcode leaves, as OpenEthereum's instruction table has them (`ret`). */
function pushes(op: number): number {
  if (op >= 0x80 && op <= 0x8f) return op - 0x80 + 2; // DUPn: n + 1 items
  if (op >= 0x90 && op <= 0x9f) return op - 0x90 + 2; // SWAPn: n + 1 items
  if (op >= 0x5f && op <= 0x7f) return 1; // PUSH0..PUSH32
  switch (op) {
    case 0x00: // STOP
    case 0x50: // POP
    case 0x52: // MSTORE
    case 0x53: // MSTORE8
    case 0x55: // SSTORE
    case 0x56: // JUMP
    case 0x57: // JUMPI
    case 0x5b: // JUMPDEST
    case 0x5d: // TSTORE
    case 0x5e: // MCOPY
    case 0x37: // CALLDATACOPY
    case 0x39: // CODECOPY
    case 0x3c: // EXTCODECOPY
    case 0x3e: // RETURNDATACOPY
    case 0xa0:
    case 0xa1:
    case 0xa2:
    case 0xa3:
    case 0xa4: // LOG0..4
    case 0xf3: // RETURN
    case 0xfd: // REVERT
    case 0xfe: // INVALID
    case 0xff: // SELFDESTRUCT
      return 0;
    default:
      return 1;
  }
}

/** The memory range an opcode writes, from its stack before it ran (top last). */
function memoryWrite(op: number, stack: bigint[]): { off: number; size: number } | undefined {
  const at = (i: number): number => Number(stack[stack.length - 1 - i] ?? 0n);
  switch (op) {
    case 0x52:
      return { off: at(0), size: 32 };
    case 0x53:
      return { off: at(0), size: 1 };
    case 0x37: // CALLDATACOPY(destOffset, offset, size)
    case 0x39: // CODECOPY
    case 0x3e: // RETURNDATACOPY
    case 0x5e: // MCOPY(dest, src, size)
      return { off: at(0), size: at(2) };
    case 0x3c: // EXTCODECOPY(address, destOffset, offset, size)
      return { off: at(1), size: at(3) };
    case 0xf1: // CALL(gas, to, value, in, inSize, out, outSize)
    case 0xf2: // CALLCODE
      return { off: at(5), size: at(6) };
    case 0xf4: // DELEGATECALL(gas, to, in, inSize, out, outSize)
    case 0xfa: // STATICCALL
      return { off: at(4), size: at(5) };
    default:
      return undefined;
  }
}

const hexQ = (v: bigint): string => `0x${v.toString(16)}`;

export class VmTracer implements Tracer {
  readonly wantsSteps = true;
  /** Open frames, innermost last. */
  private readonly _frames: Building[] = [];
  /** Every frame, in the order they opened (their code is filled in at the end). */
  private readonly _all: Building[] = [];
  private _top: Building | undefined;
  private _env!: TxEnv;

  onTxStart(env: TxEnv): void {
    this._env = env;
  }

  onEnter(f: Frame): void {
    if (f.type === "SELFDESTRUCT") return;
    const b: Building = { trace: { code: "0x", ops: [] }, codeAddress: f.codeAddress ?? f.to, create: f.type === "CREATE" || f.type === "CREATE2", pending: undefined };
    if (b.create) b.trace.code = bytesToHex(f.input);
    const parent = this._frames[this._frames.length - 1];
    // the frame belongs to the operation that opened it: the caller's pending CALL or CREATE
    if (parent?.pending !== undefined) parent.pending.op.sub = b.trace;
    if (this._frames.length === 0) this._top = b;
    this._frames.push(b);
    this._all.push(b);
  }

  onExit(f: Frame, _r: FrameResult): void {
    if (f.type === "SELFDESTRUCT") return;
    const b = this._frames.pop();
    if (b === undefined) return;
    // the frame's last operation: what is left is the gas at its end
    if (b.pending !== undefined) {
      const { op, step } = b.pending;
      if (op.ex !== null) op.ex.used = Number(step.gas - step.cost);
      b.pending = undefined;
    }
  }

  onOpcode(s: OpStep): void {
    const b = this._frames[this._frames.length - 1];
    if (b === undefined) return;
    if (b.pending !== undefined) this._complete(b.pending, s);
    const op: Operation = { pc: s.pc, cost: Number(s.cost), ex: { used: 0, push: [], mem: null, store: null }, sub: null };
    if (s.op === 0x55 && s.stack.length >= 2) {
      (op.ex as Executed).store = { key: hexQ(s.stack[s.stack.length - 1]), val: hexQ(s.stack[s.stack.length - 2]) };
    }
    b.trace.ops.push(op);
    b.pending = { op, step: { ...s, stack: [...s.stack] } };
  }

  /** The previous operation of a frame, seen from the frame's next step. */
  private _complete(p: { op: Operation; step: OpStep }, next: OpStep): void {
    const ex = p.op.ex;
    if (ex === null) return;
    ex.used = Number(next.gas);
    const n = Math.min(pushes(p.step.op), next.stack.length);
    for (let i = n - 1; i >= 0; i--) ex.push.push(hexQ(next.stack[next.stack.length - 1 - i]));
    const w = memoryWrite(p.step.op, p.step.stack);
    if (w !== undefined && w.size > 0) ex.mem = { off: w.off, data: bytesToHex(next.memory.subarray(w.off, w.off + w.size)) };
  }

  onFault(s: OpStep): void {
    const b = this._frames[this._frames.length - 1];
    if (b?.pending !== undefined && b.pending.step.pc === s.pc) {
      b.pending.op.ex = null;
      b.pending = undefined;
    }
  }

  async result(): Promise<VmTrace | null> {
    if (this._top === undefined) return null;
    // codes are read after the transaction, when the contracts it created exist; a creation's is its init code
    const sm = this._env.vm.stateManager;
    for (const b of this._all) if (!b.create && b.codeAddress !== undefined) b.trace.code = bytesToHex(await sm.getCode(b.codeAddress));
    return this._top.trace;
  }
}
