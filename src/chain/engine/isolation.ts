/**
 * The EVM's boundary, kept whatever the code inside it throws. EthereumJS opens a journal checkpoint
 * for every message and closes it when the message ends; an exception that leaves the EVM mid-message
 * (a precompile's bug, an engine error such as a balance past 256 bits, a fork's remote that could not
 * be read) skips those closes, and `runTx` reverts only its own checkpoint. The ones left open would
 * swallow everything the block writes next: its trie nodes stay in the checkpoint's memory and never
 * reach the database, so the block's state root could not be read back.
 *
 * `restoringDepth` is the one way the chain runs an execution on a VM whose state it keeps (a block's
 * transaction, a system call): on a throw, every checkpoint the execution opened is reverted and the
 * message stack is cut back, so the state is where the execution began; commitBlock
 * (src/chain/block/commit.ts) refuses a block whose state still has a checkpoint open.
 * `openCheckpoint` is the same for what runs in a context and is always undone (calls, simulations,
 * traces, replays): the context's VM comes back at the depth it had, whatever was thrown.
 */
import type { VM } from "@ethereumjs/vm";
import { envOf } from "./context";
import { ChainStateManager } from "./state-manager";

/** Checkpoints open on `vm`'s state. */
export function checkpointDepth(vm: VM): number {
  const sm = vm.stateManager;
  if (!(sm instanceof ChainStateManager)) throw new Error("the chain's VMs run a ChainStateManager");
  return sm.checkpointDepth;
}

/**
 * Reverts `vm`'s open checkpoints down to `depth`. On the state manager itself: the journal's own count
 * is not the state's (runTx empties it after every transaction, whatever is still open), and its warm
 * sets are emptied by whoever ran the execution (runTx, systemCall).
 */
export async function revertToDepth(vm: VM, depth: number): Promise<void> {
  while (checkpointDepth(vm) > depth) await vm.stateManager.revert();
}

/**
 * Runs `run` (an execution on `vm`); when it throws, the state goes back to where it began, checkpoint
 * depth included, and the error is thrown on. A depth that cannot be restored is a fault of the chain
 * itself: it is thrown instead, so no block is made on top of it.
 */
export async function restoringDepth<T>(vm: VM, run: () => Promise<T>): Promise<T> {
  const depth = checkpointDepth(vm);
  const env = envOf(vm.evm);
  const messages = env?.messages.length ?? 0;
  try {
    return await run();
  } catch (err) {
    await revertToDepth(vm, depth);
    if (env !== undefined) env.messages.length = messages;
    if (checkpointDepth(vm) !== depth) throw new Error(`the state's checkpoint depth is ${checkpointDepth(vm)} after a failed execution, not ${depth}`);
    throw err;
  }
}

/**
 * Opens a journal checkpoint of `vm`'s state whose `revert` undoes everything done since, every
 * checkpoint left open included, down to the depth it began at, and cuts the message stack back to
 * its length then. For executions in a context, which are always undone (src/chain/engine/context.ts).
 */
export async function openCheckpoint(vm: VM): Promise<{ revert(): Promise<void> }> {
  const depth = checkpointDepth(vm);
  const env = envOf(vm.evm);
  const messages = env?.messages.length ?? 0;
  await vm.evm.journal.checkpoint();
  return {
    async revert() {
      // what was left open first, then this checkpoint through the journal (its warm sets go too)
      await revertToDepth(vm, depth + 1);
      await vm.evm.journal.revert();
      if (env !== undefined) env.messages.length = messages;
    },
  };
}
