/**
 * The node's traces (`Node.traces`): stored blocks and transactions re-executed with a tracer
 * attached, calls traced in an execution context, blocks a client sends, the intermediate roots of a
 * block, and the Solidity stack trace of a failed call or transaction. Over the node's read half
 * (src/chain/reads/node-reads.ts); the work is in src/chain/tracing/run.ts and src/chain/tracing/failure.ts.
 */
import type { AfterNode, NodeReads } from "../reads/node-reads";
import { callStackTrace, txStackTrace } from "./failure";
import { intermediateRoots, traceBlock, traceCall, traceForeignBlock, traceTransaction } from "./run";

export class Traces {
  constructor(private readonly _node: NodeReads) {}

  /** debug_traceBlockByNumber and the like: the transactions of a stored block `want` accepts. */
  block(...a: AfterNode<typeof traceBlock>): ReturnType<typeof traceBlock> {
    return traceBlock(this._node, ...a);
  }

  /** debug_traceTransaction. */
  transaction(...a: AfterNode<typeof traceTransaction>): ReturnType<typeof traceTransaction> {
    return traceTransaction(this._node, ...a);
  }

  /** debug_traceCall: a call at a block, with state and block overrides. */
  call(...a: AfterNode<typeof traceCall>): ReturnType<typeof traceCall> {
    return traceCall(this._node, ...a);
  }

  /** debug_traceBlock / debug_traceBadBlock: a block the client sends, on its parent's state. */
  foreignBlock(...a: AfterNode<typeof traceForeignBlock>): ReturnType<typeof traceForeignBlock> {
    return traceForeignBlock(this._node, ...a);
  }

  /** debug_intermediateRoots: the state root after each transaction of a stored block. */
  intermediateRoots(...a: AfterNode<typeof intermediateRoots>): ReturnType<typeof intermediateRoots> {
    return intermediateRoots(this._node, ...a);
  }

  /** The Solidity stack trace of a failed call (for the error's data and the node's log). */
  callStackTrace(...a: AfterNode<typeof callStackTrace>): ReturnType<typeof callStackTrace> {
    return callStackTrace(this._node, ...a);
  }

  /** The Solidity stack trace of a failed transaction of a stored block. */
  txStackTrace(...a: AfterNode<typeof txStackTrace>): ReturnType<typeof txStackTrace> {
    return txStackTrace(this._node, ...a);
  }
}
