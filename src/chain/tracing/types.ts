/**
 * Tracer hooks in geth's vocabulary (OnTxStart, OnEnter, OnExit, OnOpcode, OnLog, OnTxEnd), fed by
 * EthereumJS EVM events through `attachTracer`. Tracers implement the hooks they need and produce
 * geth's JSON result.
 */
import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import type { Address } from "@ethereumjs/util";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import { ChainError } from "../base/errors";

/** geth's call-frame kinds (the opcode that opened the frame). */
export type FrameType = "CALL" | "CALLCODE" | "DELEGATECALL" | "STATICCALL" | "CREATE" | "CREATE2" | "SELFDESTRUCT";

export interface Frame {
  type: FrameType;
  /** 0 for the transaction's own frame. */
  depth: number;
  from: Address;
  /** The callee; for creates the new address (known once the frame exits, or at `newContract`). */
  to: Address | undefined;
  /** Whose code runs (differs from `to` under DELEGATECALL / CALLCODE). */
  codeAddress: Address | undefined;
  input: Uint8Array;
  gas: bigint;
  /** undefined for STATICCALL, as geth passes no value there. */
  value: bigint | undefined;
  /** Return data of the last call this frame made (RETURNDATA buffer). */
  returnData: Uint8Array;
  /** Runs in a static context (a STATICCALL or below one). */
  isStatic: boolean;
}

export interface FrameResult {
  output: Uint8Array;
  gasUsed: bigint;
  /** geth's error text, or undefined on success. */
  error: string | undefined;
  reverted: boolean;
}

export interface OpStep {
  pc: number;
  op: number;
  opName: string;
  gas: bigint;
  cost: bigint;
  /** geth's depth: 1 for the transaction's own frame. */
  depth: number;
  stack: bigint[];
  memory: Uint8Array;
  refund: bigint;
  address: Address;
  frame: Frame;
}

export interface TxEnv {
  vm: VM;
  block: Block;
  tx: TypedTransaction;
  from: Address;
  /** Recipient, or the address a creation makes. */
  to: Address;
  isCreate: boolean;
  gasPrice: bigint;
  txIndex?: number;
  txHash?: Uint8Array;
  blockHash?: Uint8Array;
}

export interface LogEntry {
  address: Address;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface TxEnd {
  result?: RunTxResult;
  /** Gas used as the receipt says. */
  gasUsed: bigint;
  error?: string;
}

export interface Tracer {
  /** The tracer reads opcodes (a step listener costs per instruction; tracers without it skip it). */
  readonly wantsSteps: boolean;
  onTxStart?(env: TxEnv): Promise<void> | void;
  onEnter?(frame: Frame): void;
  onExit?(frame: Frame, result: FrameResult): void;
  onOpcode?(step: OpStep): Promise<void> | void;
  /**
   * The gas a CALL-family opcode passed to its callee, once known (geth counts it in the opcode's
   * gasCost; EthereumJS reports it only when the callee's message starts).
   */
  onCallGas?(step: OpStep, callGas: bigint): void;
  /** A failing opcode (geth's OnFault): the step that was logged, and the error. */
  onFault?(step: OpStep, error: string): void;
  onLog?(log: LogEntry, frame: Frame): void;
  onTxEnd?(end: TxEnd): Promise<void> | void;
  result(): unknown;
  /** Ends the trace at the first opportunity with this error (geth's Stop). */
  stop?(reason: Error): void;
  /** Frees what the tracer holds (a JavaScript tracer's engine); called once it is done, whatever happened. */
  dispose?(): void;
}

/** A tracer's own failure (its error, a bad config, "tracer not found"): geth answers it with -32000 and its text. */
export class TraceError extends ChainError {}
