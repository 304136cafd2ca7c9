/**
 * Stack traces of failed executions, made only after the fact: the failed call or transaction runs
 * again at the same state with its messages recorded, so executions that succeed pay nothing. A
 * transaction or call that reverted without calling anything is told from its own result instead,
 * where that says all the record would.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import { madeNoCalls } from "../engine/context";
import { type CallRequest, type StateOverride, runInContext } from "../calls/execution";
import type { NodeReads } from "../reads/node-reads";
import type { ContractRegistry } from "../../solidity/registry";
import { type Frame, type StackTraceEntry, inferFromResult, inferStackTrace, recordMessages } from "../../solidity/stack-trace";

async function recorded(vm: VM, registry: ContractRegistry, run: () => Promise<unknown>): Promise<Frame | undefined> {
  const rec = recordMessages(vm, registry.size > 0);
  try {
    await run();
  } finally {
    rec.detach();
  }
  return rec.root();
}

/** The stack trace of what `run` executes on `vm`: a failed system call (an epoch hook) run again at the state it failed at. */
export async function runStackTrace(vm: VM, registry: ContractRegistry, run: () => Promise<unknown>): Promise<StackTraceEntry[] | undefined> {
  const root = await recorded(vm, registry, run);
  return root === undefined ? undefined : inferStackTrace(root, registry);
}

/**
 * The stack trace of `req` run as eth_call / eth_estimateGas (its first run) at block `n`: from that
 * run's `result` where it made no calls and that says all (as for a mined transaction), else run again.
 */
export async function callStackTrace(
  node: NodeReads,
  registry: ContractRegistry,
  req: CallRequest,
  n: bigint,
  overrides: StateOverride | undefined,
  lenient = false,
  result?: RunTxResult,
): Promise<StackTraceEntry[] | undefined> {
  if (result !== undefined && madeNoCalls.has(result)) {
    const quick = inferFromResult(result, { to: req.to === undefined ? undefined : new Address(req.to), value: req.value ?? 0n, data: req.data ?? new Uint8Array() }, registry);
    if (quick !== undefined) return quick;
  }
  const ctx = await node.contextAt(n);
  try {
    const root = await recorded(ctx.vm, registry, () => runInContext(node, ctx, req, overrides, undefined, lenient));
    return root === undefined ? undefined : inferStackTrace(root, registry);
  } finally {
    ctx.release();
  }
}

/**
 * The stack trace of transaction `index` of mined block `n`. Given what it returned when the block was
 * made (`ran`), a transaction that called nothing is told from that alone where it can be
 * (`inferFromResult`); otherwise the block is replayed up to it with its messages recorded.
 */
export async function txStackTrace(node: NodeReads, registry: ContractRegistry, n: bigint, index: number, ran?: { result: RunTxResult; tx: TypedTransaction }): Promise<StackTraceEntry[] | undefined> {
  if (ran !== undefined && madeNoCalls.has(ran.result)) {
    const quick = inferFromResult(ran.result, ran.tx, registry);
    if (quick !== undefined) return quick;
  }
  let rec: ReturnType<typeof recordMessages> | undefined;
  let root: Frame | undefined;
  await node.replayBlock(n, {
    beforeTx: (i, _tx, vm) => {
      if (i === index) rec = recordMessages(vm, registry.size > 0);
    },
    afterTx: (i) => {
      if (i !== index || rec === undefined) return;
      rec.detach();
      root = rec.root();
    },
  });
  return root === undefined ? undefined : inferStackTrace(root, registry);
}
