/**
 * The module seam in block production (Cosmos begin-block / end-block analogue).
 *
 * Every block runs: beginBlock(ctx) of each module in registration order → the block's transactions →
 * endBlock(ctx) of each module → commit. Anything a module does to EVM state through `ctx.systemCall`
 * lands in the same block and reverts with it, and so do its store's writes: a module's store is EVM
 * state too, a record in its account's storage (src/chain/base/module-state.ts).
 */
import type { StateManagerInterface } from "@ethereumjs/common";
import { abortsBlock } from "./errors";
import type { ModuleStore } from "./module-state";
import type { StateReader } from "./records";
import { errorText } from "./errors";

/** A Cosmos-style event: a type and ordered string attributes. */
export interface ModuleEvent {
  type: string;
  attributes: Array<{ key: string; value: string }>;
  /** Logs emitted by EVM code run for this event (hook calls); formatted by the RPC layer. */
  logs?: SystemCallLog[];
}

export interface SystemCallLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface SystemCallResult {
  /** True when the call neither reverted nor ran out of gas. */
  success: boolean;
  gasUsed: bigint;
  returnValue: Uint8Array;
  logs: SystemCallLog[];
  /** Why the call failed: "execution reverted: <reason>", "out of gas", … */
  error?: string;
  /** A failure in the words of the layer that explains failures (Hardhat's), when one is set on the node. */
  explanation?: FailureExplanation;
}

/** Why an execution failed, as a failed transaction is told: a message and Solidity frames (`at C.f (file.sol:12)`; none when the code is unknown). */
export interface FailureExplanation {
  message: string;
  frames: string[];
}

export interface SystemCallArgs {
  caller: Uint8Array;
  to: Uint8Array;
  data: Uint8Array;
  gasLimit: bigint;
}

export type BlockPhase = "begin_block" | "end_block";

export interface BlockContext {
  readonly height: bigint;
  /** The block's own header timestamp, whole Unix seconds. */
  readonly timestamp: bigint;
  readonly phase: BlockPhase;
  /**
   * The module's store as this execution's state holds it (the live block's, or a replay's), loaded
   * when the phase starts and written back into that state when it changed: before each system call
   * (so the code it runs reads it) and when the phase ends. Modules keep no store of their own.
   */
  readonly store: ModuleStore;
  /**
   * True when a stored block is re-executed (tracing) rather than produced: nothing it does is kept.
   * Contract hooks run in replays (they are part of the block); hooks outside the chain (TypeScript
   * functions) do not, so tracing never repeats their side effects.
   */
  readonly replay: boolean;
  /** Records an event of this block in the current phase. */
  emit(event: ModuleEvent): void;
  /**
   * Runs EVM code outside any transaction (no receipt, no gas charged, not in gasUsed).
   * Isolated: a failed call leaves no state change; a successful one is kept in the block.
   */
  systemCall(args: SystemCallArgs): Promise<SystemCallResult>;
  /** Reads a storage slot (32-byte key) of an account in the block's current state; 32 bytes, zero when unset. */
  getStorage(address: Uint8Array, key: Uint8Array): Promise<Uint8Array>;
  /**
   * The block's state, for a module's own work in TypeScript (its keepers: accounts, balances,
   * records), as the epochs module runs its keeper on its store. Write only inside `isolated`, so a
   * failure undoes itself (`runIsolated`).
   */
  readonly state: StateManagerInterface;
  /**
   * Runs `fn` as one unit (an epoch hook): everything it does — EVM writes, its system calls
   * included, module-store writes and events — is kept when it returns and undone when it throws;
   * the error is rethrown.
   */
  isolated<T>(fn: () => Promise<T>): Promise<T>;
}

/** Context for genesis: no events, block 0. */
export interface GenesisContext {
  readonly height: bigint;
  readonly timestamp: bigint;
  readonly store: ModuleStore;
  /** Puts code at an address in the genesis state (a module's precompile account, so calls to it see code). */
  putCode(address: Uint8Array, code: Uint8Array): Promise<void>;
  /** Writes a storage slot (32-byte key) of an account that putCode made; an empty value deletes it. */
  putStorage(address: Uint8Array, key: Uint8Array, value: Uint8Array): Promise<void>;
  /** Reads a storage slot of an account in the genesis state (on a fork: the remote's, at the fork block). */
  getStorage(address: Uint8Array, key: Uint8Array): Promise<Uint8Array>;
  /** Adds to an account's balance (a module account's genesis funds). */
  addBalance(address: Uint8Array, amount: bigint): Promise<void>;
}

export interface BlockModule {
  readonly name: string;
  /**
   * The account whose storage holds the module's store (src/chain/base/module-state.ts); default the
   * module account of its name (`moduleAddress`). The epochs module keeps it at its precompile.
   */
  readonly storeAccount?: Uint8Array;
  /** Writes the module's genesis state into its store (block 0). */
  initGenesis?(ctx: GenesisContext): Promise<void> | void;
  beginBlock?(ctx: BlockContext): Promise<void> | void;
  endBlock?(ctx: BlockContext): Promise<void> | void;
  /**
   * The first block time (Unix seconds) at which beginBlock or endBlock could do anything, given
   * the module's store now: in blocks before it both phases write, emit and call nothing (a module
   * with `steady` work is asked its player instead). The node
   * reserves such blocks instead of making them (src/chain/store/reserved-blocks.ts). A module without
   * it has every block made. `state` reads the head's EVM state (a module whose state is EVM
   * storage, like the staking module's queue).
   */
  quietBefore?(store: ModuleStore, state: StateReader): bigint | Promise<bigint>;
  /** Work the module can play for a run of reserved blocks (SteadyWork); its player bounds the run. */
  readonly steady?: SteadyWork;
  /**
   * Why a record of the module's store cannot be read (its key or its value), or undefined when it
   * can. A state load (hardhat_loadState, --load-state) asks it of every record of the loaded store
   * (and of an older dump's `modules` section before anything is applied), and keeps nothing when
   * one fails, so a load never leaves records that every later block would fail on.
   */
  checkRecord?(key: Uint8Array, value: Uint8Array): string | undefined;
  /**
   * Reads every record the module keeps as EVM state (a Cosmos module's records in its precompile's
   * storage) and throws with why one cannot be read. A state load runs it on the loaded state before
   * that state is kept, and keeps nothing when it throws.
   */
  checkState?(state: StateReader): Promise<void>;
  /**
   * Told the head's state each time the chain's state is opened or replaced wholesale (a new chain,
   * a data directory reopened, hardhat_reset, a loaded dump), before anything runs on it: what the
   * module derives from its state outside the state (the precompiles of x/erc20's token pairs,
   * src/chain/engine/evm.ts) catches up here.
   */
  stateOpened?(state: StateReader): Promise<void>;
}

/**
 * A module's work in blocks that are otherwise quiet (x/mint's provision in every block, the epochs
 * module's ticks when no hook would act), played for a whole run of such blocks at once:
 * hardhat_mine reserves the run (src/chain/store/reserved-blocks.ts) and the state is written once,
 * as making the blocks one by one would leave it. Playing follows the same rules as the module's
 * begin and end blocks; the run's inputs are read once at its start, so a player refuses (`step`
 * answers undefined) the first block whose work it cannot play, and that block is made.
 */
export interface SteadyWork {
  /** What playing the run needs, read from the state at its start and the module's store in it (kept in the range's record). */
  start(state: StateManagerInterface, store: ModuleStore): Promise<Uint8Array>;
  /** A player at the run's start. */
  player(start: Uint8Array): SteadyPlayer;
}

export interface SteadyPlayer {
  /** Plays the next block (begin and end block): its events, or undefined when that block must be made. */
  step(block: { number: bigint; timestamp: bigint }): Promise<BlockEvents | undefined>;
  /** Writes into `state` what the blocks played so far leave. */
  write(state: StateManagerInterface): Promise<void>;
  /** An independent player at the same block. */
  copy(): SteadyPlayer;
  /** The first block time (seconds) at which the next block could hold work; blocks before it play as nothing and are skipped. Omitted: every block holds work. */
  quietUntil?(): bigint;
}

/** Events of one block, by phase, in emission order. */
export interface BlockEvents {
  begin: ModuleEvent[];
  end: ModuleEvent[];
}

/**
 * Runs `fn` isolated (BlockContext.isolated): what it did is kept on success and all undone on a
 * throw — state writes, its system calls', module-store writes and events — and the throw is reported
 * through `onFail` instead of propagating: a dev chain goes on. A failure of the chain's environment
 * (a fork's remote) is not the work's: it ends the block.
 */
export async function runIsolated(ctx: BlockContext, fn: () => void | Promise<void>, onFail: (reason: string) => void): Promise<boolean> {
  try {
    await ctx.isolated(async () => fn());
    return true;
  } catch (err) {
    if (abortsBlock(err)) throw err;
    onFail(errorText(err));
    return false;
  }
}
