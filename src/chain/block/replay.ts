/**
 * Replays: re-executing a stored block on the state of its parent, as block production ran it, in an
 * execution context of its own. Tracers (src/chain/tracing/run.ts) and failure explanations
 * (src/chain/tracing/failure.ts) use it. Nothing a replay does is kept.
 */
import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import { runBlockTx, runPhase } from "./block-producer";
import type { ChainState } from "../store/chain-state";
import type { ContextOptions } from "../engine/context";
import { openCheckpoint } from "../engine/isolation";
import { ChainError } from "../base/errors";
import type { BlockEvents } from "../base/module";

/** Sees each transaction of a replayed block before and after it runs. */
export interface ReplayObserver {
  beforeTx?(index: number, tx: TypedTransaction, vm: VM): void | Promise<void>;
  afterTx?(index: number, tx: TypedTransaction, result: RunTxResult): void | Promise<void>;
}

export interface ReplayResult {
  block: Block;
  results: RunTxResult[];
  events: BlockEvents;
}

/**
 * Re-executes stored block `n` on the state of its parent, as block production ran it: the
 * modules' begin-block (epoch hooks included), each transaction from its recorded sender, the
 * modules' end-block. `observer` sees each transaction before and after it runs (tracers attach
 * to `vm.evm.events` there). Nothing is kept.
 */
export async function replayBlock(chain: ChainState, n: bigint, observer: ReplayObserver = {}, opts: ContextOptions = {}): Promise<ReplayResult> {
  if (n <= chain.firstBlock)
    throw new ChainError(chain.fork !== undefined ? `block ${n} is not traceable: the local chain starts after the fork block ${chain.firstBlock}` : "genesis is not traceable");
  const block = await chain.getBlock(n);
  if (block === undefined) throw new ChainError(`block #${n} not found`);
  const receipts = (await chain.store.getReceipts(n)) ?? [];
  const parent = (await chain.getBlock(n - 1n)) as Block;
  // the state the block started from: its parent's, plus any hardhat_set* changes made before it
  const root = (await chain.store.getPreStateRoot(n)) ?? parent.header.stateRoot;
  // the module stores are state too: begin/end-block read and write them in the replay's own state
  const ctx = await chain.context(parent, root, opts);
  const { vm } = ctx;
  const modules = chain.modules;
  // the stored block carries the header its transactions ran against (they read nothing else of it)
  const execBlock = block;
  const events: BlockEvents = { begin: [], end: [] };
  const results: RunTxResult[] = [];
  let ok = false;
  const checkpoint = await openCheckpoint(vm);
  try {
    const stores = { source: chain.moduleStores, root, loaded: new Map() };
    await runPhase("begin_block", vm, execBlock, modules, stores, events.begin, { replay: true });
    let gasUsed = 0n;
    for (let i = 0; i < block.transactions.length; i++) {
      const tx = block.transactions[i];
      const from = receipts[i]?.from;
      const sender = from !== undefined ? new Address(from) : tx.getSenderAddress();
      await observer.beforeTx?.(i, tx, vm);
      const result = await runBlockTx(vm, tx, sender, execBlock, gasUsed);
      gasUsed += result.blockGasSpent;
      results.push(result);
      await observer.afterTx?.(i, tx, result);
    }
    await runPhase("end_block", vm, execBlock, modules, stores, events.end, { replay: true });
    ok = true;
    return { block, results, events };
  } finally {
    await checkpoint.revert();
    vm.evm.journal.cleanJournal();
    if (ok) ctx.release();
  }
}
