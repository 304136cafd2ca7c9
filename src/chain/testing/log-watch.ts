/**
 * What some cheatcodes must see opcode by opcode: the logs a test emits (`vm.recordLogs`, the
 * template of `vm.expectEmit`) and the storage it reads and writes (`vm.record` / `vm.accesses`).
 * EthereumJS tells each step to its EVM's `step` listeners (with the stack and memory), and builds
 * that step only while a listener is there: the listener is attached only while one of these
 * cheatcodes waits, so a test that uses none runs at full speed.
 */
import type { InterpreterStep } from "@ethereumjs/evm";
import { bigIntToBytes, setLengthLeft } from "@ethereumjs/util";

export interface WatchedLog {
  emitter: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

interface Events {
  on(event: "step", listener: (step: InterpreterStep) => void): unknown;
  off(event: "step", listener: (step: InterpreterStep) => void): unknown;
}

const word = (v: bigint): Uint8Array => setLengthLeft(bigIntToBytes(v), 32);

export class LogWatch {
  private _recorded?: WatchedLog[];
  private _capture?: { depth: number; take(log: WatchedLog): void };
  private _accesses?: Map<string, { reads: Uint8Array[]; writes: Uint8Array[] }>;
  /** `vm.record` is on (`vm.stopRecord` keeps what was recorded, for `vm.accesses`). */
  private _recording = false;
  private _attached = false;
  private readonly _listener = (step: InterpreterStep): void => this._step(step);

  constructor(private readonly _events: Events | undefined) {}

  reset(): void {
    this._recorded = undefined;
    this._capture = undefined;
    this._accesses = undefined;
    this._recording = false;
    this._sync();
  }

  /** `vm.recordLogs`: from now on every log is kept (a second call starts over). */
  recordLogs(): void {
    this._recorded = [];
    this._sync();
  }

  /** `vm.getRecordedLogs`: the logs kept since, which are then forgotten. */
  takeRecorded(): WatchedLog[] {
    const logs = this._recorded ?? [];
    if (this._recorded !== undefined) this._recorded = [];
    return logs;
  }

  /** The next log emitted by a frame at `depth` goes to `take` (an expected emit's template). */
  captureNext(depth: number, take: (log: WatchedLog) => void): void {
    this._capture = { depth, take };
    this._sync();
  }

  /** `vm.record`: from now on storage reads and writes are noted by account. */
  record(): void {
    this._accesses = new Map();
    this._recording = true;
    this._sync();
  }

  stopRecord(): void {
    this._recording = false;
    this._sync();
  }

  /** `vm.accesses(target)`: the slots read and written (a write counts as a read too, as in forge). */
  accesses(address: string): { reads: Uint8Array[]; writes: Uint8Array[] } {
    return this._accesses?.get(address.toLowerCase()) ?? { reads: [], writes: [] };
  }

  private _sync(): void {
    const wanted = this._recorded !== undefined || this._capture !== undefined || this._recording;
    if (this._events === undefined || wanted === this._attached) return;
    if (wanted) this._events.on("step", this._listener);
    else this._events.off("step", this._listener);
    this._attached = wanted;
  }

  private _step(step: InterpreterStep): void {
    const name = step.opcode.name;
    if (this._recording && this._accesses !== undefined && (name === "SLOAD" || name === "SSTORE")) {
      const key = word(step.stack[step.stack.length - 1]);
      const at = step.address.toString().toLowerCase();
      let acc = this._accesses.get(at);
      if (acc === undefined) this._accesses.set(at, (acc = { reads: [], writes: [] }));
      acc.reads.push(key);
      if (name === "SSTORE") acc.writes.push(key);
      return;
    }
    if (!name.startsWith("LOG")) return;
    const n = Number(name.slice(3));
    const stack = step.stack;
    const top = (i: number): bigint => stack[stack.length - 1 - i];
    const offset = Number(top(0));
    const length = Number(top(1));
    const topics = Array.from({ length: n }, (_, i) => word(top(2 + i)));
    const data = length === 0 ? new Uint8Array() : readMemory(step.memory, offset, length);
    const log: WatchedLog = { emitter: step.address.bytes, topics, data };
    if (this._capture !== undefined && this._capture.depth === step.depth) {
      const { take } = this._capture;
      this._capture = undefined;
      take(log);
      this._sync();
      return;
    }
    this._recorded?.push(log);
  }
}

/** Memory as a step holds it (only as far as it has grown: the rest reads as zeros). */
function readMemory(memory: Uint8Array, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  if (offset < memory.length) out.set(memory.subarray(offset, Math.min(memory.length, offset + length)));
  return out;
}
