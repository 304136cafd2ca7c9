/**
 * Produces one block: header → beginBlock of every module → transactions → endBlock of every
 * module → roots and seal. Everything runs inside one EVM journal checkpoint: on any throw the
 * state goes back to the depth it began at, module stores included (they are EVM state: the single
 * revert path), and a transaction or system call that throws leaves no checkpoint of its own open
 * (src/chain/engine/isolation.ts).
 *
 * Unlike EthereumJS's BlockBuilder this runs every transaction against one header-only block, so
 * adding a transaction does not rebuild the block from all earlier ones (that made big blocks quadratic).
 */
import { abortsBlock } from "../base/errors";
import { cleanVmError, describeFailure } from "../base/vm-errors";
import { Block, createBlock, createBlockHeader } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, equalsBytes } from "@ethereumjs/util";
import { Bloom, type RunTxResult, type VM, encodeReceipt, runTx } from "@ethereumjs/vm";
import { keccak256 } from "../../utils/keccak";
import type { StoredReceipt } from "../store/chain-store";
import { enterBlock, envOf, madeNoCalls } from "../engine/context";
import type { BlockContext, BlockEvents, BlockModule, BlockPhase, FailureExplanation, ModuleEvent, SystemCallArgs, SystemCallResult } from "../base/module";
import { MemoryModuleStore, slotReader, writeModuleStore } from "../base/module-state";
import { orderedTrieRoot } from "./ordered-trie";
import { blockHeaderData } from "../base/header";
import { withSender } from "../engine/sender";
import { withContractSender } from "../engine/state-manager";
import { checkpointDepth, restoringDepth, revertToDepth } from "../engine/isolation";
import { type ExecutionRecord, ExecutionRecorder } from "../engine/executions";

export interface ProduceBlockArgs {
  vm: VM;
  parent: Block;
  header: { timestamp: bigint; gasLimit: bigint; baseFeePerGas: bigint; coinbase: Uint8Array; extraData: Uint8Array; mixHash: Uint8Array };
  /** Candidate transactions in mining order, with their senders. */
  candidates: Array<{ tx: TypedTransaction; sender: Address }>;
  modules: readonly BlockModule[];
  /** Where each module's store is read from (src/chain/store/chain-state.ts). */
  stores: ModuleStores;
  /** The committed state root the live state is at (its module stores may be known by it). */
  stateRoot: Uint8Array;
  /** Told what runs next: a module phase, or a transaction (console.log lines are attributed by it). */
  onStep?(step: { phase: BlockPhase } | { tx: TypedTransaction }): void;
  /** Explains the system calls that fail (epoch hooks); none: a failure carries its VM error only. */
  explain?: SystemCallExplainer;
  /** Record the block's executions for gas statistics (`ProducedBlock.executions`). */
  recordExecutions?: boolean;
}

/** How block production finds a module's store in the state (the chain does: src/chain/store/chain-state.ts). */
export interface ModuleStores {
  /** The account whose storage holds `module`'s store. */
  storeAccount(module: BlockModule): Uint8Array;
  /** `module`'s store in state `sm`, the state after block `height` (the committed state `root`, when given); read-only. */
  readModuleStore(module: BlockModule, sm: VM["stateManager"], height: bigint, root?: Uint8Array): Promise<MemoryModuleStore>;
}

/**
 * Explains a failed system call. `rerun` runs the call again at the state it failed at, so a recorder
 * attached to `vm` sees it; nothing the re-run does is kept or printed.
 */
export type SystemCallExplainer = (vm: VM, failure: { error: string; returnValue: Uint8Array }, rerun: () => Promise<void>) => Promise<FailureExplanation | undefined>;

export interface ProducedBlock {
  block: Block;
  receipts: StoredReceipt[];
  results: RunTxResult[];
  events: BlockEvents;
  /** Candidates left out, with the reason (invalid nonce, does not fit, …). */
  skipped: Array<{ tx: TypedTransaction; reason: string; invalid: boolean }>;
  /** The module stores as the block's state holds them, by module (those whose phases ran). */
  stores: Map<string, MemoryModuleStore>;
  /** Its transactions and system calls, in order, when asked (`recordExecutions`): src/chain/engine/executions.ts. */
  executions: ExecutionRecord[];
}

/** The fields a block's header takes from its producer (the rest follow from the fork rules and the block's content). */
export async function produceBlock(args: ProduceBlockArgs): Promise<ProducedBlock> {
  const { vm, parent, modules } = args;
  const common = vm.common;
  const headerData = blockHeaderData(common, {
    parentHash: parent.hash(),
    number: parent.header.number + 1n,
    ...args.header,
    excessBlobGas: common.isActivatedEIP(4844) ? parent.header.calcNextExcessBlobGas(common) : 0n,
  });
  const execBlock = createBlock({ header: headerData, withdrawals: common.isActivatedEIP(4895) ? [] : undefined }, { common });

  const events: BlockEvents = { begin: [], end: [] };
  const stores: PhaseStores = { source: args.stores, root: args.stateRoot, loaded: new Map() };
  const env = envOf(vm.evm);
  const recorder = args.recordExecutions === true && env !== undefined ? new ExecutionRecorder() : undefined;
  if (env !== undefined) env.executions = recorder;
  const depth = checkpointDepth(vm);
  await vm.evm.journal.checkpoint();
  try {
    args.onStep?.({ phase: "begin_block" });
    await runPhase("begin_block", vm, execBlock, modules, stores, events.begin, { explain: args.explain });

    const included: TypedTransaction[] = [];
    const senders: Address[] = [];
    const results: RunTxResult[] = [];
    const skipped: ProducedBlock["skipped"] = [];
    // A sender with a transaction left out keeps its later ones for a later block: they would fail
    // the nonce check here, and they are valid (Hardhat's mining queue does the same).
    const heldBack = new Set<string>();
    let gasUsed = 0n;
    for (const { tx, sender } of args.candidates) {
      const key = sender.toString();
      if (heldBack.has(key)) {
        skipped.push({ tx, reason: "an earlier transaction of the same sender waits for a later block", invalid: false });
        continue;
      }
      if (tx.gasLimit > args.header.gasLimit - gasUsed) {
        heldBack.add(key);
        skipped.push({ tx, reason: "transaction does not fit in the block's remaining gas", invalid: false });
        continue;
      }
      try {
        args.onStep?.({ tx });
        const result = await runBlockTx(vm, tx, sender, execBlock, gasUsed);
        recorder?.finish("transaction", result.totalGasSpent);
        included.push(tx);
        senders.push(sender);
        results.push(result);
        gasUsed += result.blockGasSpent;
      } catch (err) {
        // the chain's environment failed (a fork's remote): the transaction is not at fault, the block is not made
        if (abortsBlock(err)) throw err;
        heldBack.add(key);
        skipped.push({ tx, reason: cleanVmError(err), invalid: true });
      }
    }

    args.onStep?.({ phase: "end_block" });
    await runPhase("end_block", vm, execBlock, modules, stores, events.end, { explain: args.explain });
    await vm.evm.journal.commit();
    const stateRoot = await vm.stateManager.getStateRoot();

    const bloom = new Bloom(undefined, common);
    const encodedReceipts: Uint8Array[] = [];
    const receipts: StoredReceipt[] = [];
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      bloom.or(r.bloom);
      encodedReceipts.push(encodeReceipt(r.receipt, included[i].type));
      const status = "status" in r.receipt ? r.receipt.status : 1;
      receipts.push({
        status,
        cumulativeGasUsed: r.receipt.cumulativeBlockGasUsed,
        gasUsed: r.totalGasSpent,
        effectiveGasPrice: effectiveGasPrice(included[i], args.header.baseFeePerGas),
        from: senders[i].bytes,
        contractAddress: r.createdAddress?.bytes,
        logs: r.receipt.logs.map(([address, topics, data]) => ({ address, topics, data })),
      });
    }
    const header = createBlockHeader(
      {
        ...headerData,
        stateRoot,
        gasUsed,
        logsBloom: bloom.bitvector,
        transactionsTrie: orderedTrieRoot(
          included.map((tx) => tx.serialize()),
          keccak256,
        ),
        receiptTrie: orderedTrieRoot(encodedReceipts, keccak256),
      },
      { common },
    );
    // Block's own constructor, not createBlock: createBlock builds every transaction anew from its
    // fields, and the copies lose what the originals hold (their hash, the signer's key): one more
    // construction and hash per transaction, for nothing
    const block = new Block(header, included, [], common.isActivatedEIP(4895) ? [] : undefined, { common });
    return { block, receipts, results, events, skipped, stores: stores.loaded, executions: recorder?.records ?? [] };
  } catch (err) {
    await revertToDepth(vm, depth);
    throw err;
  } finally {
    if (env !== undefined) env.executions = undefined;
  }
}

function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint): bigint {
  if ("maxFeePerGas" in tx) {
    const tip = tx.maxFeePerGas - baseFee < tx.maxPriorityFeePerGas ? tx.maxFeePerGas - baseFee : tx.maxPriorityFeePerGas;
    return baseFee + tip;
  }
  return (tx as { gasPrice: bigint }).gasPrice;
}

/**
 * Runs one of a block's transactions from its recorded `sender` (block production and replay alike).
 * A transaction whose signature is not its sender's is an impersonated account's: that sender may
 * hold code (see state-manager.ts).
 */
export async function runBlockTx(vm: VM, tx: TypedTransaction, sender: Address, block: Block, blockGasUsed: bigint): Promise<RunTxResult> {
  enterBlock(vm, block);
  const impersonated = !tx.getSenderAddress().equals(sender);
  const env = envOf(vm.evm);
  const begun = env?.messagesBegun ?? 0;
  // a signed transaction runs as itself (its sender is recovered once and kept: it is frozen); only an
  // impersonated one needs the view that names its sender, and a transaction used as a view's
  // prototype gets a map of its own in V8, which every later access to it pays
  const run = impersonated ? withSender(tx, sender) : tx;
  // a throw leaves the state where the transaction began, whatever the EVM left open (engine/isolation.ts)
  const result = await restoringDepth(vm, () => withContractSender(vm.stateManager, sender, impersonated, () => runTx(vm, { tx: run, block, blockGasUsed, skipHardForkValidation: true })));
  if (env !== undefined && env.messagesBegun === begun + 1) madeNoCalls.add(result);
  return result;
}

/**
 * The module stores of one block's execution: read from the state the block starts on (`root`, its
 * committed root, when known) the first time a module's phase needs its store, then carried to its
 * next phase. The stores always equal what the state holds, as no EVM code writes a store's record.
 */
interface PhaseStores {
  source: ModuleStores;
  root?: Uint8Array;
  loaded: Map<string, MemoryModuleStore>;
}

/**
 * Runs one phase (begin-block or end-block) of every module against `block`'s header. Each module's
 * store is loaded from the state (or carried from its earlier phase) and written back into the state
 * when it changed: before each system call and storage read (so the code they run reads the store as
 * written) and when the phase ends. `replay`: the block is re-executed, not produced (BlockContext.replay).
 */
export async function runPhase(
  phase: BlockPhase,
  vm: VM,
  block: Block,
  modules: readonly BlockModule[],
  stores: PhaseStores,
  sink: ModuleEvent[],
  { explain, replay = false, inExecution = false }: { explain?: SystemCallExplainer; replay?: boolean; inExecution?: boolean } = {},
): Promise<void> {
  for (const module of modules) {
    const fn = phase === "begin_block" ? module.beginBlock : module.endBlock;
    if (fn === undefined) continue;
    const account = stores.source.storeAccount(module);
    let store = stores.loaded.get(module.name);
    if (store === undefined) {
      store = MemoryModuleStore.writable(await stores.source.readModuleStore(module, vm.stateManager, block.header.number - 1n, stores.root));
      stores.loaded.set(module.name, store);
    }
    const writeBack = async (): Promise<void> => {
      if (store.changed) await writeModuleStore(vm.stateManager, account, store);
    };
    const ctx: BlockContext = {
      height: block.header.number,
      timestamp: block.header.timestamp,
      phase,
      store,
      replay,
      emit: (e) => sink.push(e),
      systemCall: async (a) => {
        await writeBack();
        return systemCall(vm, block, a, explain, inExecution);
      },
      getStorage: async (address, key) => {
        if (equalsBytes(address, account)) await writeBack();
        return slotReader(vm.stateManager).getStorage(address, key);
      },
      state: vm.stateManager,
      // one checkpoint of the state manager under the system calls' own, a mark of the store (its
      // entries and the bytes that state holds of it: a revert brings both back to one moment) and
      // the events so far
      isolated: async (run) => {
        const events = sink.length;
        const entries = store.mark();
        await vm.stateManager.checkpoint();
        try {
          const out = await run();
          await vm.stateManager.commit();
          return out;
        } catch (err) {
          await vm.stateManager.revert();
          store.restore(entries);
          sink.length = events;
          throw err;
        }
      },
    };
    await fn.call(module, ctx);
    await writeBack();
  }
}

/**
 * A call outside any transaction: no nonce, no fee, no receipt. Its own checkpoint makes it
 * isolated: a failing call leaves nothing behind, a successful one stays in the block.
 */
export async function systemCall(vm: VM, block: Block, a: SystemCallArgs, explain?: SystemCallExplainer, inExecution = false): Promise<SystemCallResult> {
  const depth = checkpointDepth(vm);
  await vm.evm.journal.checkpoint();
  try {
    // a throw reverts every checkpoint the call left open, down to the one of this call (reverted below)
    const ex = (await restoringDepth(vm, () => runSystemCall(vm, block, a))).execResult;
    envOf(vm.evm)?.executions?.finish("system", ex.executionGasUsed);
    const logs = (ex.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }));
    if (ex.exceptionError !== undefined) {
      await vm.evm.journal.revert();
      const failure = { error: ex.exceptionError.error, returnValue: ex.returnValue };
      const explanation = explain === undefined ? undefined : await explainFailure(vm, block, a, failure, explain);
      return { success: false, gasUsed: ex.executionGasUsed, returnValue: ex.returnValue, logs: [], error: describeFailure(failure.error, failure.returnValue), explanation };
    }
    await vm.evm.journal.commit();
    return { success: true, gasUsed: ex.executionGasUsed, returnValue: ex.returnValue, logs };
  } catch (err) {
    await revertToDepth(vm, depth);
    // the chain's environment failed (a fork's remote), not the call: the block is not made
    if (abortsBlock(err)) throw err;
    return { success: false, gasUsed: a.gasLimit, returnValue: new Uint8Array(), logs: [], error: cleanVmError(err) };
  } finally {
    // warm/cold tracking of a system call must not leak into the next transaction; inside a running
    // execution (a Solidity test's epoch cheat, src/chain/testing/chain-cheats.ts) the journal is that execution's
    if (!inExecution) vm.evm.journal.cleanJournal();
  }
}

function runSystemCall(vm: VM, block: Block, a: SystemCallArgs) {
  enterBlock(vm, block);
  return vm.evm.runCall({
    caller: new Address(a.caller),
    origin: new Address(a.caller),
    to: new Address(a.to),
    data: a.data,
    gasLimit: a.gasLimit,
    gasPrice: 0n,
    value: 0n,
    block,
    skipBalance: true,
    skipNonceIncrement: true,
  });
}

/**
 * Only failures pay for an explanation: the failed call (already reverted) runs again in a checkpoint
 * that is reverted too, from the same state and warm/cold sets, with console.log, coverage (hits and
 * tapped steps) and the recording of executions silenced (the first run told them). An explainer
 * that fails explains nothing; the block goes on.
 */
async function explainFailure(vm: VM, block: Block, a: SystemCallArgs, failure: { error: string; returnValue: Uint8Array }, explain: SystemCallExplainer): Promise<FailureExplanation | undefined> {
  const env = envOf(vm.evm);
  const rerun = async (): Promise<void> => {
    const [printer, coverage, executions, stepTap] = [env?.console, env?.coverage, env?.executions, env?.stepTap];
    if (env !== undefined) [env.console, env.coverage, env.executions, env.stepTap] = [undefined, undefined, undefined, undefined];
    await vm.evm.journal.checkpoint();
    try {
      await runSystemCall(vm, block, a);
    } finally {
      await vm.evm.journal.revert();
      if (env !== undefined) [env.console, env.coverage, env.executions, env.stepTap] = [printer, coverage, executions, stepTap];
    }
  };
  try {
    return await explain(vm, failure, rerun);
  } catch {
    return undefined;
  }
}
