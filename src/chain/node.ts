/**
 * The chain as the RPC layer sees it: one class over the pieces that do the work.
 *
 *   src/chain/store/chain-state.ts     one chain instance: VM and live state, block store, module stores,
 *                                read-only states and execution contexts (hardhat_reset swaps it)
 *   src/chain/store/open-chain.ts      opening a stored chain or writing a new one's genesis block
 *   src/chain/block/commit.ts          moving the chain to a new block or back to an old one, durably
 *   src/chain/block/replay.ts          re-executing a stored block for tracers
 *   src/chain/dev/snapshots.ts       evm_snapshot records
 *   src/chain/block/interval-mining.ts the interval-mining timer
 *   this file                    submission, block production, snapshots and reset, settings
 *
 * Two kinds of access. Everything that changes the chain (blocks, dev state changes, snapshots)
 * must run inside `mutex`, one at a time, on the live VM. Node does not take it for its callers:
 * the RPC dispatcher takes it around every method not marked `concurrent` (src/rpc/dispatcher.ts),
 * the interval miner and the few methods that wait take it themselves. Everything that only reads or executes
 * without keeping anything (calls, estimates, traces, state reads) runs in an execution context or
 * on a read-only state at a committed root (`contextAt`, `stateAt`) and needs no lock.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Block } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { CustomPrecompile } from "@ethereumjs/evm";
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import type { TypedTransaction } from "@ethereumjs/tx";
import { type Account, Address, bytesToHex, equalsBytes } from "@ethereumjs/util";
import { keccak256 } from "../utils/keccak";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import type { KVStore } from "../storage/kv";
import { MemoryKV } from "../storage/memory-kv";
import { Mutex } from "../utils/mutex";
import { StepRelay } from "./engine/step-relay";
import type { AddressIndex } from "./store/address-index";
import { type SystemCallExplainer, produceBlock } from "./block/block-producer";
import type { ChainStart, ChainState, CacheBounds, CacheSizes, PrecompileContext } from "./store/chain-state";
import { DEFAULT_CACHE_BOUNDS } from "./store/chain-state";
import type { ChainStore, StoredReceipt } from "./store/chain-store";
import { Clock, timestampRefusal } from "./block/clock";
import { commitBlock, commitReservation, rewindChain } from "./block/commit";
import { sharedChainCommon } from "./engine/common";
import type { DynamicPrecompiles } from "./engine/evm";
import type { ChainConfig } from "./config";
import { type ContextOptions, type ExecutionContext, turnIfDue } from "./engine/context";
import { addressOfKey } from "./engine/crypto";
import { ChainError, abortsBlock } from "./errors";
import type { Fork } from "./fork";
import { storeName } from "./store/genesis-meta";
import { IntervalMiner } from "./block/interval-mining";
import type { BlockEvents, BlockModule, BlockPhase, StateReader } from "./module";
import { type ModuleStore, slotReader } from "./module-state";
import type { ConsoleLogDecoder } from "./dev/console-log";
import type { ExecutionRecord } from "./dev/executions";
import { openChain } from "./store/open-chain";
import { type ReplayObserver, type ReplayResult, replayBlock } from "./block/replay";
import type { Reservation } from "./block/reserved-blocks";
import { type NodeSettings, Snapshots } from "./dev/snapshots";
import { type StateDump, dumpChainState, loadChainState, parseStateDump } from "./dev/state-dump";
import { TxPool, type PooledTx, TxPoolError, maxFeeOf } from "./pool/txpool";

/** The most blocks one hardhat_mine may make (reserved or real). */
export const MAX_MINE_BLOCKS = 100_000_000n;
/** The most block time one hardhat_mine may cover (10 years of seconds): its epoch ends are real blocks. */
export const MAX_MINE_SPAN_S = 315_360_000n;

export interface NodeOptions {
  config: ChainConfig;
  kv?: KVStore;
  modules?: BlockModule[];
  /** Precompiles of modules (the epochs precompile). They reach the node lazily, through `ctx`. */
  precompiles?: (ctx: PrecompileContext) => CustomPrecompile[];
  /** Precompiles registered while the chain runs (the x/erc20 token pairs): src/chain/engine/evm.ts. */
  dynamicPrecompiles?: DynamicPrecompiles;
  /** Fork a remote chain: the state reads through to it, the first block is its fork block. */
  fork?: Fork;
  /** Decodes console.log calls (from console.sol's signatures); without it they are not watched. */
  consoleLog?: ConsoleLogDecoder;
  /** Sizes of the in-memory caches (defaults: `DEFAULT_CACHE_BOUNDS`); tests use small ones to watch eviction. */
  cacheBounds?: Partial<CacheBounds>;
  /** Tells why a system call (an epoch hook) failed, in the host's words; without it, the VM's error. */
  explainSystemCall?: SystemCallExplainer;
  /** Where `steps` relays the EVM's steps (a host's emitter that exists before the chain does); default: its own. */
  stepEvents?: EventEmitter;
  /** Relay only these opcodes' steps, minimal ones, from the opcodes themselves (src/chain/engine/step-relay.ts); default: every step. */
  stepOpcodes?: readonly string[];
}

/** Where a console.log line came from. */
export type ConsoleOrigin =
  | { kind: "transaction"; hash: string; height: bigint }
  | { kind: "block"; phase: BlockPhase; height: bigint }
  | { kind: "call" };

/** What happened to a transaction in the block mined for it. */
export interface Inclusion {
  mined: MinedBlock;
  result: RunTxResult;
  index: number;
}

/**
 * Under automine, how long a send of a transaction behind a nonce gap waits for the gap to be filled
 * and its block mined before it answers with the hash alone (the transaction stays queued). Waiting
 * keeps a burst of concurrent senders (nonces arriving out of order) from running ahead of the gap.
 */
export const QUEUED_WAIT_MS = 2000;

/** What `Node.submit` answers: the hash; under automine, the inclusion, now or `later`. */
export interface Submitted {
  hash: string;
  included?: Inclusion;
  /** A transaction behind a nonce gap: its inclusion once mined, undefined if still queued after `QUEUED_WAIT_MS`. */
  later?: Promise<Inclusion | undefined>;
}

export interface MinedBlock {
  block: Block;
  receipts: StoredReceipt[];
  events: BlockEvents;
  /** What running each transaction returned (revert data, VM error): on a block just mined, for the node's log. */
  results?: RunTxResult[];
  /** On a block just mined: the pooled transactions it refused (and the pool dropped), with why; automine answers their senders. */
  refused?: ReadonlyMap<string, string>;
}

export interface NodeEvents {
  block: [MinedBlock];
  /** Interval mining failed (it goes on at the next interval). */
  miningError: [Error];
  /** A precompile threw: a bug of the node, which the call met as a revert (src/chain/engine/evm.ts). */
  precompileFault: [string, Error];
  /** A console.log line from contract code, as it runs. */
  consoleLog: [string, ConsoleOrigin];
  /** A statement tag of code instrumented for coverage, as it runs (src/chain/dev/coverage.ts). */
  coverageHit: [Uint8Array];
  /** A user's execution, recorded while someone listens: a mined transaction, an eth_call, a call of block production (src/chain/dev/executions.ts). */
  executed: [ExecutionRecord];
  pendingTransaction: [string];
  /** Emitted after a rewind (evm_revert, debug_setHead) to the new head. */
  rewind: [bigint];
  /** Emitted after hardhat_reset replaced the chain (its new head). */
  reset: [bigint];
  /** A range of empty blocks was reserved (hardhat_mine): first, last, the first one's base fee. No "block" event is emitted for them. */
  reserved: [bigint, bigint, bigint | undefined];
}

export class Node extends EventEmitter<NodeEvents> {
  readonly mutex = new Mutex();
  /** The EVM steps of users' executions, relayed while someone listens (solidity-coverage: src/chain/engine/step-relay.ts). */
  steps = new StepRelay();
  pool: TxPool;
  clock = new Clock();
  /** Dev accounts (funded at genesis) whose keys the node holds. */
  readonly keys = new Map<string, Uint8Array>();
  /**
   * Where node-local data lives (the db_* databases, src/storage/node-db.ts): the home's store, or
   * in memory a store of its own, so that no chain change (hardhat_reset, a state load that takes
   * the dump's height) takes it along.
   */
  nodeKv!: KVStore;
  /** Accounts eth_sendTransaction may send from without their key (hardhat_impersonateAccount). */
  private readonly _impersonated = new Set<string>();
  /** Read-only outside: change it with impersonate / stopImpersonating. */
  get impersonated(): ReadonlySet<string> {
    return this._impersonated;
  }
  /** Identifies this chain instance (hardhat_metadata); a new one after hardhat_reset. */
  instanceId: Uint8Array = randomBytes(32);
  /** Explains failed system calls (epoch hooks) of the blocks it mines; set by the layer that has the words (src/host/hook-failures.ts). */
  private _explainSystemCall: SystemCallExplainer | undefined;
  private _settings: NodeSettings;
  /** The chain instance; replaced only by hardhat_reset (inside the lock). */
  private _chain!: ChainState;
  /** How this node was made (hardhat_reset makes the next one the same way). */
  private _createOpts!: NodeOptions;
  private readonly _snapshots = new Snapshots();
  private readonly _intervalMiner: IntervalMiner;
  private _consoleDecoder: ConsoleLogDecoder | undefined;
  /** What the live VM runs now, for console.log lines of block production. */
  private _consoleOrigin: ConsoleOrigin = { kind: "call" };

  private constructor(
    readonly config: ChainConfig,
    readonly common: Common,
  ) {
    super();
    this._settings = initialSettings(config);
    this.pool = new TxPool(config.txPool);
    for (const a of config.accounts) this.keys.set(addressOfKey(a.privateKey).toString(), a.privateKey);
    this._intervalMiner = new IntervalMiner({
      mutex: this.mutex,
      interval: () => this.settings.intervalMs,
      mine: async () => {
        if (!this.settings.paused) await this.mineBlock();
      },
      onError: (err) => this.emit("miningError", err),
    });
  }

  static async create(opts: NodeOptions): Promise<Node> {
    const config = opts.config;
    const common = sharedChainCommon(config.chainId, config.hardfork, config.enableRip7212 === true ? [7951] : []);
    const node = new Node(config, common);
    node._createOpts = opts;
    node._consoleDecoder = opts.consoleLog;
    node._explainSystemCall = opts.explainSystemCall;
    if (opts.stepEvents !== undefined || opts.stepOpcodes !== undefined) node.steps = new StepRelay(opts.stepEvents, opts.stepOpcodes);
    node._chain = await node._openChain(opts, opts.fork, opts.kv ?? new MemoryKV(), node.clock);
    node.nodeKv = opts.kv !== undefined && !opts.kv.inMemory ? opts.kv : new MemoryKV();
    return node;
  }

  private _openChain(opts: NodeOptions, fork: Fork | undefined, kv: KVStore, clock: Clock, start?: ChainStart): Promise<ChainState> {
    const cacheBounds: CacheBounds = { ...DEFAULT_CACHE_BOUNDS, ...opts.cacheBounds };
    const modules = opts.modules ?? [];
    return openChain(
      {
        config: this.config,
        common: this.common,
        kv,
        modules,
        precompiles: opts.precompiles,
        dynamicPrecompiles: opts.dynamicPrecompiles,
        fork,
        start,
        cacheBounds,
        console: (data, call) => this._console(data, call === true ? { kind: "call" } : this._consoleOrigin),
        coverage: (tag) => {
          if (this.listenerCount("coverageHit") > 0) this.emit("coverageHit", tag);
        },
        steps: this.steps,
        precompileFault: (address, err) => this.emit("precompileFault", address, err),
      },
      clock,
    );
  }

  // ---------------------------------------------------------------- the chain instance

  /** The live VM (block production only, inside the lock). */
  get vm(): VM {
    return this._chain.vm;
  }

  get store(): ChainStore {
    return this._chain.store;
  }

  /** The remote this chain forks, if it does (hardhat_reset may change it). */
  get fork(): Fork | undefined {
    return this._chain.fork;
  }

  get head(): Block {
    return this._chain.head;
  }

  get headNumber(): bigint {
    return this._chain.headNumber;
  }

  /** Which transactions touch each address (Otterscan's searches). */
  get addressIndex(): AddressIndex {
    return this._chain.addressIndex;
  }

  /** The chain's first block: 0, or the fork block of a forked chain. */
  get firstBlock(): bigint {
    return this._chain.firstBlock;
  }

  getBlock(n: bigint): Promise<Block | undefined> {
    return this._chain.getBlock(n);
  }

  /** Base fee of the next block: the one set by hardhat_setNextBlockBaseFeePerGas, else EIP-1559's rule. */
  nextBaseFee(): bigint {
    if (this.settings.nextBaseFee !== undefined) return this.settings.nextBaseFee;
    return this.common.isActivatedEIP(1559) ? this.head.header.calcNextBaseFee() : 0n;
  }

  /** A read-only state at block `n` (see ChainState.stateAt). */
  stateAt(n: bigint): Promise<MerkleStateManager> {
    return this._chain.stateAt(n);
  }

  /** An execution context at block `height` (see ChainState.contextAt). Release it after use. */
  contextAt(height: bigint, opts: ContextOptions = {}): Promise<ExecutionContext> {
    return this._chain.contextAt(height, opts);
  }

  /** Re-executes stored block `n` for tracers (src/chain/block/replay.ts). Nothing is kept. */
  replayBlock(n: bigint, observer: ReplayObserver = {}, opts: ContextOptions = {}): Promise<ReplayResult> {
    return replayBlock(this._chain, n, observer, opts);
  }

  /** Changes the live state outside a block, all or nothing (see ChainState.modifyState). Run inside the lock. */
  modifyState(change: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    return this._chain.modifyState(change);
  }

  /** An account as the chain holds it now, read without touching the live state (see ChainState.accountAtHead). */
  getAccount(address: Address): Promise<Account | undefined> {
    return this._chain.accountAtHead(address);
  }

  /** A contract's code at block `height` (at the head without building a reader: see ChainState.codeAtHead). */
  async getCode(address: Address, height: bigint = this.headNumber): Promise<Uint8Array> {
    if (height === this.headNumber) return this._chain.codeAtHead(address);
    return (await this.stateAt(height)).getCode(address);
  }

  async getNonce(address: Address): Promise<bigint> {
    return (await this.getAccount(address))?.nonce ?? 0n;
  }

  /** Module `name`'s store at block `height` (default and above: the head, with changes made since), read-only. */
  moduleStore(name: string, height: bigint = this.headNumber): Promise<ModuleStore> {
    return this._chain.moduleStoreAt(name, height);
  }

  /** How full the live state's caches and the trie node cache are (bounded by `NodeOptions.cacheBounds`). */
  cacheSizes(): CacheSizes {
    return this._chain.cacheSizes();
  }

  // ---------------------------------------------------------------- transactions and blocks

  /**
   * Validates a transaction against the current state and adds it to the pool, from `sender` (its
   * signer, or an impersonated account). With automine the blocks needed to include it are mined
   * before this returns, and a transaction that block production refused is answered with its
   * error: a caller never holds the hash of a transaction that silently left the pool. A transaction
   * behind a nonce gap under automine comes back with `later`: its inclusion once the gap is filled
   * and its block mined, for the caller to wait for outside the lock (see `Submitted`).
   */
  async submit(tx: TypedTransaction, sender: Address): Promise<Submitted> {
    const account = await this.getAccount(sender);
    const nonce = account?.nonce ?? 0n;
    const balance = account?.balance ?? 0n;
    if (tx.nonce < nonce) throw new ChainError(`nonce too low: address ${sender.toString()}, tx: ${tx.nonce} state: ${nonce}`);
    const intrinsic = tx.getIntrinsicGas();
    if (tx.gasLimit < intrinsic) throw new ChainError(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`);
    if (tx.gasLimit > this.settings.gasLimit) {
      throw new ChainError(`tx gas (${tx.gasLimit}) exceeds block gas limit (${this.settings.gasLimit}): out of gas`);
    }
    const fee = maxFeeOf(tx);
    if (fee < this.settings.minGasPrice) {
      throw new ChainError(`insufficient fee; got: ${fee * tx.gasLimit}aevmos required: ${this.settings.minGasPrice * tx.gasLimit}aevmos`);
    }
    const cost = tx.gasLimit * fee + tx.value;
    if (balance < cost) {
      throw new ChainError(
        `failed to check sender balance: sender balance < tx cost (${balance} < ${cost}): insufficient funds`,
        `Sender doesn't have enough funds to send tx. The max upfront cost is: ${cost} and the sender's balance is: ${balance}.`,
      );
    }
    const baseFee = this.nextBaseFee();
    if (this.settings.automine && !this.settings.paused && fee < baseFee) {
      throw new ChainError(`max fee per gas less than block base fee (${fee} < ${baseFee}): insufficient fee`);
    }
    const senderHex = sender.toString();
    let where: "pending" | "queued";
    try {
      where = this.pool.add(tx, senderHex, nonce);
    } catch (err) {
      if (err instanceof TxPoolError) throw new ChainError(err.message);
      throw err;
    }
    const hash = bytesToHex(tx.hash());
    this.emit("pendingTransaction", hash);
    if (!this.settings.automine || this.settings.paused) return { hash };
    if (where === "queued") return { hash, later: this._inclusionOf(hash, QUEUED_WAIT_MS) };
    // Mine until this transaction is in a block (earlier pending ones go first, as on Hardhat).
    for (let i = 0; i < 1000 && this.pool.get(hash) !== undefined; i++) {
      let mined: Required<MinedBlock>;
      try {
        mined = await this.mineBlock();
      } catch (err) {
        // the block needed a fork's remote that failed: the caller gets the error, and the transaction
        // leaves the pool (kept, it would stop every later block until the remote is back)
        if (abortsBlock(err)) this.pool.remove(hash);
        throw err;
      }
      const index = mined.block.transactions.findIndex((t) => bytesToHex(t.hash()) === hash);
      if (index >= 0) return { hash, included: { mined, result: mined.results[index], index } };
      const refused = mined.refused.get(hash);
      if (refused !== undefined) throw new ChainError(refused);
    }
    return { hash };
  }

  /** Sends waiting for their transaction's block (see `later` of `submit`), by transaction hash. */
  private _waiters = new Map<string, (outcome: { included?: Inclusion; refused?: string }) => void>();

  /** Resolves with the inclusion of pooled `hash` once mined, rejects if block production refuses it, undefined after `ms`. */
  private _inclusionOf(hash: string, ms: number): Promise<Inclusion | undefined> {
    const outcome = new Promise<Inclusion | undefined>((resolve, reject) => {
      const timer = setTimeout(() => settle({}), ms);
      timer.unref();
      const settle = (outcome: { included?: Inclusion; refused?: string }): void => {
        clearTimeout(timer);
        if (this._waiters.get(hash) === settle) this._waiters.delete(hash);
        if (outcome.refused !== undefined) reject(new ChainError(outcome.refused));
        else resolve(outcome.included);
      };
      this._waiters.set(hash, settle);
    });
    // a caller that does not wait (one already inside the lock) leaves no unhandled rejection
    outcome.catch(() => undefined);
    return outcome;
  }

  /** Mines one block from the pool at `timestamp` (default: the clock's next block time). */
  async mineBlock(timestamp?: bigint): Promise<Required<MinedBlock>> {
    const parent = this.head;
    const ts = timestamp ?? this.clock.nextTimestamp(parent.header.timestamp, this.config.allowBlocksWithSameTimestamp);
    const tooEarly = timestampRefusal(ts, parent.header.timestamp, this.config.allowBlocksWithSameTimestamp);
    if (tooEarly !== undefined) throw new ChainError(tooEarly);
    const baseFee = this.nextBaseFee();
    const candidates = this.settings.paused ? [] : this._mineable(baseFee).map((p) => ({ tx: p.tx, sender: new Address(hexBytes(p.sender)) }));
    const produced = await produceBlock({
      vm: this.vm,
      parent,
      header: {
        timestamp: ts,
        gasLimit: this.settings.gasLimit,
        baseFeePerGas: baseFee,
        coinbase: this.settings.coinbase,
        extraData: this.settings.extraData,
        mixHash: this.settings.nextPrevRandao ?? keccak256(parent.hash()),
      },
      candidates,
      modules: this._chain.modules,
      stores: this._chain,
      stateRoot: this._chain.liveRoot,
      explain: this._explainSystemCall,
      recordExecutions: this.listenerCount("executed") > 0,
      onStep: (step) => {
        const height = parent.header.number + 1n;
        this._consoleOrigin = "tx" in step ? { kind: "transaction", hash: bytesToHex(step.tx.hash()), height } : { kind: "block", phase: step.phase, height };
      },
    });
    this._consoleOrigin = { kind: "call" };
    await commitBlock(this._chain, produced);
    // from here on the block is written: memory follows it
    const refused = new Map<string, string>();
    for (const s of produced.skipped) {
      if (!s.invalid) continue;
      const h = bytesToHex(s.tx.hash());
      refused.set(h, s.reason);
      this.pool.remove(h);
    }
    for (const tx of produced.block.transactions) this.pool.remove(bytesToHex(tx.hash()));
    await this.pool.update((s) => this.getNonce(new Address(hexBytes(s))));
    this._settings.nextBaseFee = undefined;
    this._settings.nextPrevRandao = undefined;
    this.clock.didMine(ts);
    const mined: Required<MinedBlock> = { block: produced.block, receipts: produced.receipts, events: produced.events, results: produced.results, refused };
    if (this._waiters.size > 0) {
      produced.block.transactions.forEach((t, index) => this._waiters.get(bytesToHex(t.hash()))?.({ included: { mined, result: produced.results[index], index } }));
      for (const [h, reason] of refused) this._waiters.get(h)?.({ refused: reason });
    }
    for (const e of produced.executions) this.emit("executed", e);
    this.emit("block", mined);
    return mined;
  }

  /**
   * When the store's head had lost its state (see ChainState.recovered), the block the chain opened
   * at instead, and the head it had; undefined when it opened at its head.
   */
  get recovered(): { head: bigint; at: bigint } | undefined {
    return this._chain.recovered;
  }

  /** The dev settings of block production; they change only through the methods below, which do what each change implies. */
  get settings(): Readonly<NodeSettings> {
    return this._settings;
  }

  /** evm_setAutomine: one block per transaction, or none until asked; turning it on mines nothing by itself. */
  setAutomine(on: boolean): void {
    this._settings.automine = on;
  }

  /** evm_setIntervalMining: a block every `ms` (or a random interval in [min, max]); 0 turns it off. */
  setIntervalMining(ms: NodeSettings["intervalMs"]): void {
    this._settings.intervalMs = ms;
    this._intervalMiner.arm();
  }

  /** The gas limit of later blocks. */
  setBlockGasLimit(limit: bigint): void {
    this._settings.gasLimit = limit;
  }

  /** The coinbase of later blocks (eth_coinbase follows). */
  setCoinbase(address: Uint8Array): void {
    this._settings.coinbase = address;
  }

  /** The extraData of later blocks. */
  setExtraData(extra: Uint8Array): void {
    this._settings.extraData = extra;
  }

  /** The base fee of the next block only. */
  setNextBaseFee(fee: bigint): void {
    this._settings.nextBaseFee = fee;
  }

  /** The prevRandao (mixHash) of the next block only. */
  setNextPrevRandao(value: Uint8Array): void {
    this._settings.nextPrevRandao = value;
  }

  /** The minimum gas price; pooled transactions it now lets in are mined at once under automine. */
  async setMinGasPrice(price: bigint): Promise<void> {
    this._settings.minGasPrice = price;
    await this.mineWaiting();
  }

  /** miner_start: block production resumes; what waited is mined at once under automine, else at the next interval. */
  async startMining(): Promise<void> {
    this._settings.paused = false;
    await this.mineWaiting();
  }

  /** evm_setNextBlockTimestamp: the next block's timestamp (the caller checks it is after the head's). */
  setNextTimestamp(timestamp: bigint): void {
    this.clock.next = timestamp;
  }

  /** hardhat_impersonateAccount: eth_sendTransaction may send from `address` without its key. */
  impersonate(address: string): void {
    this._impersonated.add(address);
  }

  /** Ends an impersonation; false when `address` was not impersonated. */
  stopImpersonating(address: string): boolean {
    return this._impersonated.delete(address);
  }

  /** hardhat_dropTransaction: removes a pooled transaction; false when it is not in the pool. */
  dropPooled(hash: string): boolean {
    if (this.pool.get(hash) === undefined) return false;
    this.pool.remove(hash);
    return true;
  }

  /** miner_stop: block production pauses; new transactions wait in the pool. */
  stopMining(): void {
    this._settings.paused = true;
  }

  /**
   * Under automine, mines the pooled transactions that can go in a block now (after mining resumes,
   * or a lowered minimum gas price lets waiting ones in); nothing when none can.
   */
  async mineWaiting(): Promise<void> {
    if (!this.settings.automine || this.settings.paused) return;
    for (let i = 0; i < 1000 && this._mineable().length > 0; i++) {
      const before = this.pool.size.pending;
      await this.mineBlock();
      if (this.pool.size.pending >= before) return;
    }
  }

  /** Pending transactions the next block would take: fee at least the base fee and the minimum. */
  private _mineable(baseFee = this.nextBaseFee()): PooledTx[] {
    return this.pool.ordered(baseFee, this.config.mining.order).filter((p) => maxFeeOf(p.tx) >= baseFee && maxFeeOf(p.tx) >= this.settings.minGasPrice);
  }

  /**
   * hardhat_mine: `count` blocks, `interval` seconds apart (the first at the clock's next time).
   * Runs of blocks in which nothing would happen are reserved, not made (src/chain/block/reserved-blocks.ts):
   * the modules say until when they have nothing to do (the epochs module: its next tick), so the
   * blocks that tick are made for real, with their hooks and events, and the ones between are a record.
   */
  async mineBlocks(count: bigint, interval: bigint): Promise<void> {
    if (interval < 1n && !this.config.allowBlocksWithSameTimestamp) throw new ChainError("interval must be at least 1 second");
    // Quiet blocks are reserved at no cost, but every epoch end in the span is a real block: bound
    // the span so that a typo (1e12 blocks) is refused at once instead of holding the node for hours.
    if (count > MAX_MINE_BLOCKS) throw new ChainError(`cannot mine ${count} blocks in one call: at most ${MAX_MINE_BLOCKS} (mine in several calls)`);
    if (count * interval > MAX_MINE_SPAN_S) throw new ChainError(`cannot mine ${count} blocks ${interval} s apart in one call: at most ${MAX_MINE_SPAN_S} s of block time (10 years; mine in several calls)`);
    let ts: bigint | undefined;
    for (let left = count; left > 0n; ) {
      // the real blocks of a long span give other requests a turn (reads do not wait for the lock)
      await turnIfDue();
      const quiet = await this._quietBlocks(ts, left, interval);
      if (quiet !== undefined) {
        await this._reserve(quiet.timestamp, quiet.count, interval);
        left -= quiet.count;
        ts = this.head.header.timestamp + interval;
        continue;
      }
      const b = await this.mineBlock(ts);
      ts = b.block.header.timestamp + interval;
      left--;
    }
    if (ts !== undefined) this.clock.jumpTo(ts - interval);
  }

  /** Who needs a "block" event for every block (a block filter, a newHeads subscription): while one does, hardhat_mine makes each block. */
  private readonly _everyBlockWanted = new Set<() => boolean>();

  /** Registers a reader that needs each block as it is made (see mineBlocks); `wanted` says whether it does now. */
  wantsEveryBlock(wanted: () => boolean): void {
    this._everyBlockWanted.add(wanted);
  }

  /**
   * How many of the next `left` blocks (the first at `ts`, or the clock's next time) can be reserved:
   * none while something must happen in the next block (pooled transactions, a set next base fee or
   * prevrandao, state changed since the head, a reader of every block) or a module has work in it.
   * Reserving one block saves nothing: at least two.
   */
  private async _quietBlocks(ts: bigint | undefined, left: bigint, interval: bigint): Promise<{ timestamp: bigint; count: bigint } | undefined> {
    if (left < 2n || this.settings.nextBaseFee !== undefined || this.settings.nextPrevRandao !== undefined) return undefined;
    if (this._mineable().length > 0 || [...this._everyBlockWanted].some((wanted) => wanted())) return undefined;
    const head = this.head;
    if (!equalsBytes(head.header.stateRoot, this._chain.liveRoot)) return undefined;
    if (this.common.isActivatedEIP(4844) && head.header.calcNextExcessBlobGas(this.common) !== 0n) return undefined;
    const timestamp = ts ?? this.clock.nextTimestamp(head.header.timestamp, this.config.allowBlocksWithSameTimestamp);
    if (timestampRefusal(timestamp, head.header.timestamp, this.config.allowBlocksWithSameTimestamp) !== undefined) return undefined;
    // the first block time at which some module has work; a module that cannot tell makes every block real
    let until: bigint | undefined;
    for (const module of this._chain.modules) {
      if (module.quietBefore === undefined) return undefined;
      const store = await this._chain.readModuleStore(module, this._chain.vm.stateManager, head.header.number);
      const q = await module.quietBefore(store, this._headState);
      until = until === undefined || q < until ? q : until;
    }
    let count = left;
    if (until !== undefined) {
      if (timestamp >= until) return undefined;
      if (interval > 0n) {
        const quiet = (until - timestamp + interval - 1n) / interval; // blocks i with timestamp + i·interval < until
        if (quiet < count) count = quiet;
      }
    }
    return count >= 2n ? { timestamp, count } : undefined;
  }

  /** The live state (the head's, when _quietBlocks asks: it checks that first), padded as a BlockContext reads it. */
  private get _headState(): StateReader {
    return slotReader(this._chain.vm.stateManager);
  }

  /** Reserves `count` empty blocks above the head, the first at `timestamp` (inside the lock). */
  private async _reserve(timestamp: bigint, count: bigint, interval: bigint): Promise<void> {
    const head = this.head;
    const r: Reservation = {
      first: head.header.number + 1n,
      last: head.header.number + count,
      interval,
      timestamp,
      parentHash: head.hash(),
      stateRoot: head.header.stateRoot,
      gasLimit: this.settings.gasLimit,
      coinbase: this.settings.coinbase,
      extraData: this.settings.extraData,
      baseFeePerGas: this.nextBaseFee(),
    };
    await commitReservation(this._chain, r);
    this.clock.didMine(this.head.header.timestamp);
    this.emit("reserved", r.first, r.last, this.common.isActivatedEIP(1559) ? r.baseFeePerGas : undefined);
  }

  // ---------------------------------------------------------------- saved state

  /** The state at the head in Anvil's format, plus the module stores (src/chain/dev/state-dump.ts). */
  dumpState(): Promise<StateDump> {
    return dumpChainState(this._chain);
  }

  /**
   * Applies a decoded dump at the head (src/chain/dev/state-dump.ts), every value checked before
   * anything changes; snapshots taken before it revert it. Pooled transactions it made stale leave
   * the pool. Run inside the lock.
   */
  async loadState(raw: unknown): Promise<void> {
    // every value decoded (module records with their modules' codecs) before anything is applied
    const parsed = parseStateDump(raw, this._chain.modules);
    const fresh = this.headNumber === this.firstBlock && this.fork === undefined && this.store.kv.inMemory;
    if (fresh && parsed.blockNumber !== undefined && parsed.blockNumber > this.headNumber) {
      // A new in-memory node takes the dump's height and time, as Anvil does: the epochs records
      // name heights (an epoch ends in a later block than it started), so the next block ticks
      // exactly as the dumped chain's next block. The new chain is loaded first and kept only when
      // the whole load succeeded; the one before stays with the snapshots taken on it (`revert`).
      const start: ChainStart = { number: parsed.blockNumber, timestamp: parsed.timestamp ?? this.clock.nowSeconds() };
      const clockBefore = this.clock.snapshot();
      let next: ChainState;
      try {
        next = await this._openChain(this._createOpts, undefined, new MemoryKV(), this.clock, start);
        await loadChainState(next, this.clock, parsed);
      } catch (err) {
        this.clock.restore(clockBefore);
        throw err;
      }
      this._chain = next;
      this.emit("reset", this.headNumber);
    } else {
      await loadChainState(this._chain, this.clock, parsed);
    }
    await this.pool.update((s) => this.getNonce(new Address(hexBytes(s))));
  }

  // ---------------------------------------------------------------- snapshots and reset

  async snapshot(): Promise<number> {
    return this._snapshots.take({
      chain: this._chain,
      head: this.headNumber,
      stateRoot: this._chain.liveRoot,
      pool: this.pool.snapshot(),
      clock: this.clock.snapshot(),
      settings: { ...this.settings },
    });
  }

  /** Restores everything taken by `snapshot(id)`: blocks, EVM state (module stores included), pool, clock. Later snapshots are dropped. */
  async revert(id: number): Promise<boolean> {
    const snap = this._snapshots.takeBack(id);
    if (snap === undefined) return false;
    if (snap.chain !== this._chain) {
      // a state load on a fresh node replaced the chain after this snapshot: the one before comes back
      this._chain = snap.chain as ChainState;
      this.emit("reset", this.headNumber);
    }
    await this.rewindTo(snap.head, snap.stateRoot);
    this._settings = { ...snap.settings };
    this.clock.restore(snap.clock);
    await this.pool.restore(snap.pool, (s) => this.getNonce(new Address(hexBytes(s))));
    return true;
  }

  /**
   * debug_setHead: rewinds the chain to block `n` (at or below the head), durably; pooled
   * transactions whose nonces the rewind made valid again stay, the rest are re-sorted.
   */
  async setHead(n: bigint): Promise<void> {
    if (n > this.headNumber) throw new ChainError(`block ${n} is above the head ${this.headNumber}`);
    await this.rewindTo(n);
    await this.pool.update((s) => this.getNonce(new Address(hexBytes(s))));
  }

  /** Rewinds head and state (module stores included) to block `n`, durably (evm_revert, debug_setHead). */
  async rewindTo(n: bigint, stateRoot?: Uint8Array): Promise<void> {
    await rewindChain(this._chain, n, stateRoot);
    this.emit("rewind", n);
  }

  /**
   * hardhat_reset: replaces the chain with a new one made as this one was, forked from `fork` (or
   * not forked), in place, so everything that holds this node sees the new chain. Snapshots, the
   * pool, the clock, impersonations and dev-method settings start over. Run inside the lock. Only
   * for in-memory chains: a data directory holds one chain.
   */
  async reset(fork: Fork | undefined): Promise<void> {
    if (!this.store.kv.inMemory) {
      throw new ChainError(`hardhat_reset needs an in-memory chain: this node keeps its chain in ${storeName(this.store.kv)}`);
    }
    const clock = new Clock();
    const fresh = await this._openChain(this._createOpts, fork, new MemoryKV(), clock);
    const old = this.fork;
    this.steps.forget(this._chain.vm);
    this._chain = fresh;
    this._createOpts = { ...this._createOpts, fork };
    this.pool = new TxPool(this.config.txPool);
    this.clock = clock;
    this._settings = initialSettings(this.config);
    this.instanceId = randomBytes(32);
    this._impersonated.clear();
    this._snapshots.clear();
    for (const settle of [...this._waiters.values()]) settle({});
    if (old !== undefined && old !== fork) await old.close();
    this.armIntervalMining();
    this.emit("reset", this.headNumber);
  }

  // ---------------------------------------------------------------- interval mining, close

  /** (Re)arms interval mining from `settings.intervalMs`; 0 turns it off. */
  armIntervalMining(): void {
    this._intervalMiner.arm();
  }

  async close(): Promise<void> {
    this._intervalMiner.stop();
    await this.mutex.exclusive(async () => {
      const chain = this._chain;
      const ops = chain.trieDb.drainOps();
      if (ops.length > 0) await chain.store.kv.batch(ops);
      await chain.store.kv.close();
      await chain.fork?.close();
    });
  }

  // ---------------------------------------------------------------- internals

  private _console(data: Uint8Array, origin: ConsoleOrigin): void {
    if (this._consoleDecoder === undefined || this.listenerCount("consoleLog") === 0) return;
    const line = this._consoleDecoder.decode(data);
    if (line !== undefined) this.emit("consoleLog", line, origin);
  }
}

/** The block-production settings a new chain starts with (from its config). */
function initialSettings(config: ChainConfig): NodeSettings {
  return {
    coinbase: config.coinbase,
    gasLimit: config.blockGasLimit,
    extraData: new Uint8Array(),
    minGasPrice: config.minGasPrice,
    nextBaseFee: undefined,
    automine: config.mining.auto,
    paused: false,
    intervalMs: config.mining.interval,
  };
}

function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.slice(2), "hex"));
}
