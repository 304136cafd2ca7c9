/**
 * Tracing on the chain: re-executes stored blocks through the node's `replayBlock` (module
 * begin-block with its epoch hooks, the earlier transactions, then the traced ones) and calls in
 * an execution context, with a tracer attached to the transactions asked for.
 */
import { type Block, createBlock } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, bytesToHex, createZeroAddress } from "@ethereumjs/util";
import { type VM, runTx } from "@ethereumjs/vm";
import { ExecutionTimeout, enterBlock } from "../engine/context";
import { openCheckpoint } from "../engine/isolation";
import { type CallRequest, type StateOverride, applyOverrides, defaultCallGas, readGas, runInContext, transactionFrom } from "../calls/execution";
import { ChainError } from "../base/errors";
import type { NodeReads } from "../reads/node-reads";
import { withSender } from "../engine/sender";
import { attachTracer, type Attached } from "./attach";
import { DEFAULT_TRACE_TIMEOUT_MS, type TraceConfig, createTracer, txEnv } from "./index";
import { type Tracer, TraceError } from "./types";
import type { TraceBudget } from "./struct-logger";

export type TxTrace = { txHash: string; result: unknown } | { txHash: string; error: string };

function timeoutOf(cfg: TraceConfig): number {
  return cfg.timeout ?? DEFAULT_TRACE_TIMEOUT_MS;
}

/**
 * The deadline of a block trace's whole replay: a backstop behind the request's own (`timeout`, for
 * all its traced transactions together), for code that never steps a tracer. At least 10 s, so the
 * phases before and between the traced transactions (begin block, the untraced ones) do not cut short
 * a trace its own deadline would have let finish.
 */
function blockBackstopMs(cfg: TraceConfig): number {
  return Math.max(10_000, timeoutOf(cfg) + 1000);
}

function asTraceError(err: unknown): Error {
  if (err instanceof ExecutionTimeout) return new TraceError("execution timeout");
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Traces the transactions of block `n` whose indexes `want` accepts (all by default), in block
 * order. A trace that fails (its tracer's error, a timeout) is reported for that transaction and
 * the block is replayed again for the ones after it, untraced up to there.
 */
export async function traceBlock(node: NodeReads, n: bigint, cfg: TraceConfig, want: (i: number) => boolean = () => true): Promise<TxTrace[]> {
  const block = await node.getBlock(n);
  if (block === undefined) throw new ChainError(`block #${n} not found`);
  if (n === 0n) throw new TraceError("genesis is not traceable");
  const receipts = (await node.store.getReceipts(n)) ?? [];
  const out: TxTrace[] = [];
  let from = 0;
  // one deadline (from the first traced transaction) and one budget for the request, not one per
  // transaction: a block of many heavy transactions holds the node no longer, and no more memory,
  // than one of them may
  let deadline: number | undefined;
  const budget: TraceBudget = { bytes: 0 };
  while (true) {
    let failedAt = -1;
    let current: { tracer: Tracer; attached: Attached; index: number } | undefined;
    try {
      await node.replayBlock(
        n,
        {
          beforeTx: async (i, tx, vm) => {
            if (i < from || !want(i)) return;
            if (deadline !== undefined && Date.now() > deadline) throw new RequestTimedOut();
            const until = (deadline ??= Date.now() + timeoutOf(cfg));
            const tracer = await createTracer(cfg, vm, () => until, budget);
            const sender = receipts[i]?.from;
            const real = sender !== undefined ? withSender(tx, new Address(sender)) : tx;
            await tracer.onTxStart?.(txEnv(vm, real, block, { txIndex: i, blockHash: block.hash() }));
            current = { tracer, attached: attachTracer(vm, tracer, { deadline: until }), index: i };
          },
          afterTx: async (i, tx, result) => {
            if (current === undefined || current.index !== i) return;
            const { tracer, attached } = current;
            current = undefined;
            attached.detach();
            const txHash = bytesToHex(tx.hash());
            try {
              if (attached.stopped !== undefined) throw attached.stopped;
              await tracer.onTxEnd?.({ result, gasUsed: result.totalGasSpent });
              out.push({ txHash, result: await tracer.result() });
            } catch (err) {
              out.push({ txHash, error: asTraceError(err).message });
            } finally {
              tracer.dispose?.();
            }
          },
        },
        // the context's own deadline backs the tracers' up (it also stops code that never steps a tracer)
        { timeoutMs: blockBackstopMs(cfg) },
      );
      return out;
    } catch (err) {
      const c = current as { tracer: Tracer; attached: Attached; index: number } | undefined;
      if (c === undefined) {
        if (!(err instanceof RequestTimedOut)) throw asTraceError(err);
        out.push(...timedOut(block, from, want));
        return out;
      }
      c.attached.detach();
      c.tracer.dispose?.();
      failedAt = c.index;
      out.push({ txHash: bytesToHex(block.transactions[failedAt].hash()), error: asTraceError(c.attached.stopped ?? err).message });
    }
    from = failedAt + 1;
    if (from >= block.transactions.length) return out;
  }
}

/** A block trace's request ran out of its time before a transaction it was to trace. */
class RequestTimedOut extends Error {}

/** The request's time is spent: each transaction from `from` on that it was to trace answers geth's timeout. */
function timedOut(block: Block, from: number, want: (i: number) => boolean = () => true): TxTrace[] {
  const out: TxTrace[] = [];
  for (let i = from; i < block.transactions.length; i++) if (want(i)) out.push({ txHash: bytesToHex(block.transactions[i].hash()), error: "execution timeout" });
  return out;
}

/** geth's debug_traceTransaction: the result of the one transaction, or its error thrown. */
export async function traceTransaction(node: NodeReads, txHash: Uint8Array, cfg: TraceConfig): Promise<unknown> {
  const loc = await node.store.getTxLocation(txHash);
  if (loc === undefined) throw new TraceError("transaction not found");
  if (loc.blockNumber === 0n) throw new TraceError("genesis is not traceable");
  const [t] = await traceBlock(node, loc.blockNumber, cfg, (i) => i === loc.index);
  if (t === undefined) throw new TraceError("transaction not found");
  if ("error" in t) throw new TraceError(t.error);
  return t.result;
}

export interface BlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  coinbase?: Uint8Array;
  random?: Uint8Array;
  baseFee?: bigint;
}

/** geth's debug_traceCall: `req` run on the state after block `n`, with state and block overrides. */
export async function traceCall(node: NodeReads, n: bigint, req: CallRequest, cfg: TraceConfig, overrides?: StateOverride, blockOverrides?: BlockOverrides): Promise<unknown> {
  const timeoutMs = timeoutOf(cfg);
  const ctx = await node.contextAt(n, { timeoutMs: timeoutMs + 1000 });
  const { vm } = ctx;
  let clean = false;
  const deadline = Date.now() + timeoutMs;
  const tracer = await createTracer(cfg, vm, () => deadline);
  const block = blockOverrides === undefined ? ctx.block : overrideBlock(node, ctx.block, blockOverrides);
  const checkpoint = await openCheckpoint(vm);
  try {
    if (overrides !== undefined) await applyOverrides(vm, overrides);
    const from = new Address(req.from ?? createZeroAddress().bytes);
    const nonce = req.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
    const gas = readGas(node, ctx, req.gas ?? defaultCallGas(node));
    const tx: TypedTransaction = transactionFrom(node, { ...req, from: from.bytes }, gas, nonce);
    await tracer.onTxStart?.(txEnv(vm, tx, block, {}));
    const attached = attachTracer(vm, tracer, { deadline });
    try {
      // the tracer ends while the call's changes are in place: a diff (prestateTracer's diffMode) sees them
      await runInContext(node, { ...ctx, block }, { ...req, from: from.bytes, nonce }, undefined, gas, false, async (result) => {
        attached.detach();
        if (attached.stopped === undefined) await tracer.onTxEnd?.({ result, gasUsed: result.totalGasSpent });
      });
    } catch (err) {
      throw asTraceError(attached.stopped ?? err);
    } finally {
      attached.detach();
    }
    if (attached.stopped !== undefined) throw asTraceError(attached.stopped);
    const out = await tracer.result();
    clean = true;
    return out;
  } finally {
    tracer.dispose?.();
    await checkpoint.revert();
    if (clean) ctx.release();
  }
}

function overrideBlock(node: NodeReads, b: Block, o: BlockOverrides): Block {
  const h = b.header;
  return createBlock(
    {
      header: {
        ...h.toJSON(),
        number: o.number ?? h.number,
        timestamp: o.time ?? h.timestamp,
        gasLimit: o.gasLimit ?? h.gasLimit,
        coinbase: o.coinbase ?? h.coinbase.bytes,
        mixHash: o.random ?? h.mixHash,
        baseFeePerGas: o.baseFee ?? h.baseFeePerGas,
      },
    },
    { common: node.common, skipConsensusFormatValidation: true },
  );
}

/** geth's debug_intermediateRoots: the state root after each transaction of block `n`. */
export async function intermediateRoots(node: NodeReads, n: bigint): Promise<string[]> {
  if (n === 0n) throw new TraceError("genesis is not traceable");
  const block = await node.getBlock(n);
  if (block === undefined) throw new ChainError(`block #${n} not found`);
  const roots: string[] = [];
  let vmRef: VM | undefined;
  const last = block.transactions.length - 1;
  try {
    await node.replayBlock(n, {
      beforeTx: (_i, _tx, vm) => {
        vmRef = vm;
      },
      afterTx: async (i) => {
        if (vmRef !== undefined) roots.push(bytesToHex(await vmRef.stateManager.getStateRoot()));
        // Computing a root flushes the state caches into the tries inside the replay's checkpoint,
        // which its revert does not fully undo: ending the replay with an error keeps this VM out
        // of the context pool (the end-block has no part in these roots).
        if (i === last) throw new RootsDone();
      },
    });
  } catch (err) {
    if (!(err instanceof RootsDone)) throw err;
  }
  return roots;
}

class RootsDone extends Error {}

/**
 * Traces a block that this chain did not store (debug_traceBlock with another block's RLP): its
 * transactions run in order on the state after its parent, against its own header. The modules'
 * begin-block and end-block are not run: they belong to blocks this chain produced.
 */
export async function traceForeignBlock(node: NodeReads, block: Block, cfg: TraceConfig): Promise<TxTrace[]> {
  const parent = await node.store.getBlockNumber(block.header.parentHash);
  if (parent === undefined || parent !== block.header.number - 1n) {
    throw new TraceError(`parent ${bytesToHex(block.header.parentHash)} not found`);
  }
  const ctx = await node.contextAt(parent, { timeoutMs: blockBackstopMs(cfg) });
  const { vm } = ctx;
  const out: TxTrace[] = [];
  let clean = false;
  // one deadline and one budget for the request, as traceBlock
  const deadline = Date.now() + timeoutOf(cfg);
  const budget: TraceBudget = { bytes: 0 };
  const checkpoint = await openCheckpoint(vm);
  try {
    let gasUsed = 0n;
    for (let i = 0; i < block.transactions.length; i++) {
      const tx = block.transactions[i];
      if (Date.now() > deadline) {
        out.push(...timedOut(block, i));
        clean = true;
        return out;
      }
      const tracer = await createTracer(cfg, vm, () => deadline, budget);
      await tracer.onTxStart?.(txEnv(vm, tx, block, { txIndex: i, blockHash: block.hash() }));
      const attached = attachTracer(vm, tracer, { deadline });
      const txHash = bytesToHex(tx.hash());
      try {
        enterBlock(vm, block);
        const result = await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true });
        attached.detach();
        gasUsed += result.blockGasSpent;
        if (attached.stopped !== undefined) throw attached.stopped;
        await tracer.onTxEnd?.({ result, gasUsed: result.totalGasSpent });
        out.push({ txHash, result: await tracer.result() });
      } catch (err) {
        attached.detach();
        out.push({ txHash, error: asTraceError(attached.stopped ?? err).message });
        // the VM may be mid-transaction: what follows cannot run on it
        for (let j = i + 1; j < block.transactions.length; j++) out.push({ txHash: bytesToHex(block.transactions[j].hash()), error: "an earlier transaction of the block could not be traced" });
        return out;
      } finally {
        tracer.dispose?.();
      }
    }
    clean = true;
    return out;
  } finally {
    await checkpoint.revert();
    if (clean) ctx.release();
  }
}
