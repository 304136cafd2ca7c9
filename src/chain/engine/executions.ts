/**
 * The chain's executions as gas statistics read them (Hardhat 3's `--gas-stats`): each transaction
 * mined, each eth_call, each system call of block production (epoch hooks), with the gas it used and
 * its tree of messages (what code ran with what input and output, which messages were DELEGATECALLs:
 * a proxy is told by those). Recorded from the EVM's message events (src/chain/engine/context.ts,
 * `trackMessages`) only while the node has `executed` listeners; nothing is recorded otherwise.
 */

/** One EVM message of an execution. */
export interface ExecutionFrame {
  /** The code it ran: the account's (the delegate's, for a DELEGATECALL) or, for a CREATE, the init code. */
  code: Uint8Array;
  create: boolean;
  delegate: boolean;
  input: Uint8Array;
  /** What it returned (a CREATE that succeeded: the deployed code). */
  output: Uint8Array;
  success: boolean;
  children: ExecutionFrame[];
}

export interface ExecutionRecord {
  /** A mined transaction, an eth_call, or a call block production made (an epoch hook). */
  kind: "transaction" | "call" | "system";
  /** The outermost message. */
  frame: ExecutionFrame;
  /** A transaction's or a call's gas as its receipt counts it (intrinsic gas included); a system call's: what its execution used. */
  gasUsed: bigint;
}

/** The fields of EthereumJS's Message the recorder reads (its `code` is loaded by the time the message ends). */
export interface RecordedMessage {
  depth: number;
  to?: unknown;
  delegatecall: boolean;
  data: Uint8Array;
  code?: unknown;
  isCompiled?: boolean;
}

/** The fields of EthereumJS's EVMResult the recorder reads. */
export interface RecordedResult {
  execResult: { returnValue: Uint8Array; exceptionError?: unknown };
}

const NO_BYTES = new Uint8Array();

/** Builds the message tree of each outermost message and, once told what it was, keeps its record. */
export class ExecutionRecorder {
  readonly records: ExecutionRecord[] = [];
  private _open: Array<{ frame: ExecutionFrame; msg: RecordedMessage }> = [];
  private _done: ExecutionFrame | undefined;

  enter(msg: RecordedMessage): void {
    // an outermost message starts a new tree (one cut short by a deadline left its frames open)
    if (msg.depth === 0) this._open = [];
    // copies: a message's data and a result's return value may be views of the caller's memory, which later code overwrites
    const frame: ExecutionFrame = { code: NO_BYTES, create: msg.to === undefined, delegate: msg.delegatecall, input: msg.data.slice(), output: NO_BYTES, success: false, children: [] };
    this._open.at(-1)?.frame.children.push(frame);
    this._open.push({ frame, msg });
  }

  exit(result: RecordedResult): void {
    const open = this._open.pop();
    if (open === undefined) return;
    const { frame, msg } = open;
    frame.code = msg.isCompiled !== true && msg.code instanceof Uint8Array ? msg.code : frame.create ? msg.data : NO_BYTES;
    frame.output = result.execResult.returnValue.slice();
    frame.success = result.execResult.exceptionError === undefined;
    if (this._open.length === 0) this._done = frame;
  }

  /** The outermost message that just ended was a `kind` execution that used `gasUsed`. */
  finish(kind: ExecutionRecord["kind"], gasUsed: bigint): void {
    const frame = this._done;
    this._done = undefined;
    if (frame !== undefined) this.records.push({ kind, frame, gasUsed });
  }
}
