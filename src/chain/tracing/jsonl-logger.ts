/**
 * geth's JSON logger (EIP-3155 lines), the format of debug_standardTraceBlockToFile: one JSON
 * object per opcode, then `{"output","gasUsed","error"}` when the transaction's frame ends.
 */
import type { Frame, FrameResult, OpStep, Tracer } from "./types";
import type { StructLoggerConfig } from "./struct-logger";

export class JsonlLogger implements Tracer {
  readonly wantsSteps = true;
  readonly lines: string[] = [];

  constructor(private readonly _cfg: StructLoggerConfig = {}) {}

  onOpcode(s: OpStep): void {
    const cfg = this._cfg;
    if (cfg.limit !== undefined && cfg.limit !== 0 && this.lines.length >= cfg.limit) return;
    const log: Record<string, unknown> = { pc: s.pc, op: s.op, gas: q(s.gas), gasCost: q(s.cost) };
    if (cfg.enableMemory === true) log.memory = `0x${Buffer.from(s.memory).toString("hex")}`;
    log.memSize = s.memory.length;
    if (cfg.disableStack !== true) log.stack = s.stack.map(q);
    if (cfg.enableReturnData === true && s.frame.returnData.length > 0) log.returnData = `0x${Buffer.from(s.frame.returnData).toString("hex")}`;
    log.depth = s.depth;
    log.refund = Number(s.refund);
    log.opName = s.opName;
    this.lines.push(JSON.stringify(log));
  }

  onCallGas(s: OpStep, callGas: bigint): void {
    const last = this.lines.pop();
    if (last === undefined) return;
    this.lines.push(JSON.stringify({ ...(JSON.parse(last) as object), gasCost: q(s.cost + callGas) }));
  }

  onFault(_s: OpStep, error: string): void {
    const last = this.lines.pop();
    if (last === undefined) return;
    this.lines.push(JSON.stringify({ ...(JSON.parse(last) as object), error }));
  }

  onExit(f: Frame, r: FrameResult): void {
    if (f.depth !== 0) return;
    const end: Record<string, unknown> = { output: Buffer.from(r.output).toString("hex"), gasUsed: q(r.gasUsed) };
    if (r.error !== undefined) end.error = r.error;
    this.lines.push(JSON.stringify(end));
  }

  result(): unknown {
    return `${this.lines.join("\n")}\n`;
  }
}

function q(v: bigint): string {
  return `0x${v.toString(16)}`;
}
