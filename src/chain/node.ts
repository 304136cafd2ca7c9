/**
 * The chain: EthereumJS VM and state, block storage, the transaction pool, the clock, block
 * production with modules, snapshots. The RPC layer talks to this class only.
 *
 * Two kinds of access. Everything that changes the chain (blocks, dev state changes, snapshots)
 * runs inside `mutex`, one at a time, on the live VM. Everything that only reads or executes
 * without keeping anything (calls, estimates, traces, state reads) runs in an execution context or
 * on a read-only state at a committed root (`contextAt`, `stateAt`) and needs no lock.
 *
 * Commit is write-then-apply: a block's batch is written first, and only then do memory (head,
 * chain-store caches, module stores, live root) move to it; a failed write leaves the node on its
 * last committed block.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { type Block, createBlock } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { CustomPrecompile } from "@ethereumjs/evm";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, KECCAK256_RLP, ValueEncoding, bytesToHex, createAccount, equalsBytes } from "@ethereumjs/util";
import { keccak256 } from "../utils/keccak";
import { type RunTxResult, type VM, createVM } from "@ethereumjs/vm";
import type { BatchOp, KVStore } from "../storage/kv";
import { MemoryKV } from "../storage/kv";
import { type ModuleStore, VersionedModuleStore } from "../storage/module-store";
import { TrieDB } from "../storage/trie-db";
import { Mutex } from "../utils/mutex";
import { type ProducedBlock, type SystemCallExplainer, produceBlock, runBlockTx, runPhase } from "./block-producer";
import { type StoredReceipt, ChainStore } from "./chain-store";
import { Clock } from "./clock";
import { createChainCommon } from "./common";
import type { ChainConfig } from "./config";
import { checkGenesisMeta, genesisMetaOps, storeName } from "./genesis-meta";
import { addressOfKey, nativeCrypto } from "./crypto";
import type { BlockEvents, BlockModule, BlockPhase } from "./module";
import type { ConsoleLogDecoder } from "./console-log";
import { TxPool, type PooledTx, TxPoolError, maxFeeOf } from "./txpool";
import { type ContextOptions, type ExecEnv, type ExecutionContext, VmPool, bindEnv, deadlineOpcodes, envOf, trackMessages } from "./context";
import type { Fork } from "./fork";
import { checkForkMeta, forkMetaOps } from "./fork/meta";
import { adoptBlockHash } from "./chain-store";
import { ChainStateManager } from "./state-manager";

export interface NodeOptions {
  config: ChainConfig;
  kv?: KVStore;
  modules?: BlockModule[];
  /** Precompiles of modules (the epochs precompile). They reach the node lazily, through `ctx`. */
  precompiles?: (ctx: PrecompileContext) => CustomPrecompile[];
  /** Fork a remote chain: the state reads through to it, the first block is its fork block. */
  fork?: Fork;
  /** Decodes console.log calls (from console.sol's signatures); without it they are not watched. */
  consoleLog?: ConsoleLogDecoder;
  /** Sizes of the in-memory caches (defaults: `DEFAULT_CACHE_BOUNDS`); tests use small ones to watch eviction. */
  cacheBounds?: Partial<CacheBounds>;
}

/** How much of the state the node keeps in memory: its memory is bounded by these, not by the chain's size. */
export interface CacheBounds {
  /** Accounts + storage slots + codes the live state's caches may hold after a block is written. */
  liveEntries: number;
  /** Trie nodes kept in the trie database's read cache. */
  trieNodes: number;
}

export const DEFAULT_CACHE_BOUNDS: CacheBounds = { liveEntries: 100_000, trieNodes: 50_000 };

/** How full the node's caches are now (`Node.cacheSizes`). */
export interface CacheSizes {
  account: number;
  storage: number;
  code: number;
  trieNodes: number;
  /** Entries cached by the read-only state serving reads at the head. */
  reader: number;
}

/** Where a console.log line came from. */
export type ConsoleOrigin =
  | { kind: "transaction"; hash: string; height: bigint }
  | { kind: "block"; phase: BlockPhase; height: bigint }
  | { kind: "call" };

/** What a module's precompile may ask of the chain while it executes. */
export interface PrecompileContext {
  /**
   * The env of the execution that runs the precompile, found from its EVM (`PrecompileInput._EVM`):
   * the message stack (msg.sender, static or not) and the module stores of that execution's height.
   */
  envOf(evm: object): ExecEnv;
}

/** A rejected transaction or state change: the RPC layer turns it into -32000 with this text. */
export class ChainError extends Error {
  /** `hardhatMessage`: Hardhat's network's text for the same refusal (the in-process provider answers with it). */
  constructor(
    message: string,
    readonly hardhatMessage?: string,
  ) {
    super(message);
  }
}

/** What happened to a transaction in the block mined for it. */
export interface Inclusion {
  mined: MinedBlock;
  result: RunTxResult;
  index: number;
}

interface Snapshot {
  head: bigint;
  stateRoot: Uint8Array;
  pool: PooledTx[];
  clock: ReturnType<Clock["snapshot"]>;
  settings: NodeSettings;
}

/** Block-production settings that dev methods change at runtime (and snapshots restore). */
export interface NodeSettings {
  coinbase: Uint8Array;
  gasLimit: bigint;
  extraData: Uint8Array;
  minGasPrice: bigint;
  nextBaseFee: bigint | undefined;
  /** prevRandao (mixHash) of the next block only (hardhat_setPrevRandao); else derived from the parent. */
  nextPrevRandao?: Uint8Array;
  automine: boolean;
  /** miner_stop pauses block production; pending transactions wait. */
  paused: boolean;
  intervalMs: number | [number, number];
}

export interface MinedBlock {
  block: Block;
  receipts: StoredReceipt[];
  events: BlockEvents;
  /** What running each transaction returned (revert data, VM error): on a block just mined, for the node's log. */
  results?: RunTxResult[];
}

export interface NodeEvents {
  block: [MinedBlock];
  /** Interval mining failed (it goes on at the next interval). */
  miningError: [Error];
  /** A console.log line from contract code, as it runs. */
  consoleLog: [string, ConsoleOrigin];
  pendingTransaction: [string];
  /** Emitted after a rewind (evm_revert, debug_setHead) to the new head. */
  rewind: [bigint];
  /** Emitted after hardhat_reset replaced the chain (its new head). */
  reset: [bigint];
}

export class Node extends EventEmitter<NodeEvents> {
  readonly mutex = new Mutex();
  pool = new TxPool();
  clock = new Clock();
  /** Dev accounts (funded at genesis) whose keys the node holds. */
  readonly keys = new Map<string, Uint8Array>();
  readonly impersonated = new Set<string>();
  /** Identifies this chain instance (hardhat_metadata); a new one after hardhat_reset. */
  instanceId: Uint8Array = randomBytes(32);
  /** The remote this chain forks, if it does (hardhat_reset may change it). */
  fork: Fork | undefined;
  /** Explains failed system calls (epoch hooks) of the blocks it mines; set by the layer that has the words (src/hardhat/hook-failures.ts). */
  explainSystemCall: SystemCallExplainer | undefined;
  /** How this node was made (hardhat_reset makes the next one the same way). */
  private _createOpts!: NodeOptions;
  settings: NodeSettings;
  private _head!: Block;
  /**
   * The root of the live state as committed: the head's state root plus any hardhat_set* changes
   * made since (they are written with the next block). Contexts and reads at the head use it.
   */
  private _liveRoot: Uint8Array = KECCAK256_RLP;
  /** A read-only state at `_liveRoot` for reads at the head (rebuilt when the root moves). */
  private _reader: { root: Uint8Array; sm: MerkleStateManager } | undefined;
  private readonly _snapshots = new Map<number, Snapshot>();
  private _nextSnapshotId = 1;
  private _intervalTimer: NodeJS.Timeout | undefined;
  private _moduleStores: Array<{ module: BlockModule; store: VersionedModuleStore }>;
  private _vms: VmPool;
  private _consoleDecoder: ConsoleLogDecoder | undefined;
  /** The live state manager's read-through caches (see `_boundCaches`). */
  private _caches: Caches | undefined;
  private _cacheBounds: CacheBounds = DEFAULT_CACHE_BOUNDS;
  /** What the live VM runs now, for console.log lines of block production. */
  private _consoleOrigin: ConsoleOrigin = { kind: "call" };

  // vm, store and the trie db are replaced only by hardhat_reset (inside the lock)
  private constructor(
    readonly config: ChainConfig,
    readonly common: Common,
    public vm: VM,
    public store: ChainStore,
    private _trieDb: TrieDB,
    modules: BlockModule[],
  ) {
    super();
    this._moduleStores = modules.map((module) => ({ module, store: new VersionedModuleStore(store.kv, module.name) }));
    this._vms = new VmPool(vm);
    // the live VM's precompiles see the block being built: the live module stores, with its writes
    bindEnv(vm, { messages: [], moduleStore: (name) => this.moduleStore(name), console: (data) => this._console(data, this._consoleOrigin) });
    this.settings = {
      coinbase: config.coinbase,
      gasLimit: config.blockGasLimit,
      extraData: new Uint8Array(),
      minGasPrice: config.minGasPrice,
      nextBaseFee: undefined,
      automine: config.mining.auto,
      paused: false,
      intervalMs: config.mining.interval,
    };
    for (const a of config.accounts) this.keys.set(addressOfKey(a.privateKey).toString(), a.privateKey);
  }

  static async create(opts: NodeOptions): Promise<Node> {
    const config = opts.config;
    const common = createChainCommon(config.chainId, config.hardfork, nativeCrypto(), config.enableRip7212 === true ? [7951] : []);
    const kv = opts.kv ?? new MemoryKV();
    const bounds: CacheBounds = { ...DEFAULT_CACHE_BOUNDS, ...opts.cacheBounds };
    const trieDb = new TrieDB(kv, { cacheSize: bounds.trieNodes });
    const trie = new MerklePatriciaTrie({ db: trieDb, useKeyHashing: true, common, valueEncoding: ValueEncoding.Bytes });
    // read-through caches: without them every account read walks the trie (keccak + RLP per node)
    const caches = new Caches();
    const stateManager = opts.fork !== undefined ? opts.fork.stateManager({ trie, common, caches }) : new ChainStateManager({ trie, common, caches });
    const store = new ChainStore(kv, common);
    const blockchain = {
      getBlock: async (n: number) => {
        const b = await store.getBlock(BigInt(n));
        if (b === undefined) throw new Error(`block ${n} not found`);
        return b;
      },
      putBlock: async () => {},
      shallowCopy() {
        return this;
      },
    };
    const customPrecompiles = opts.precompiles?.({ envOf: requireEnv }) ?? [];
    const vm = await createVM({
      common,
      stateManager,
      blockchain,
      evmOpts: { allowUnlimitedContractSize: config.allowUnlimitedContractSize, customPrecompiles, customOpcodes: deadlineOpcodes },
    });
    trackMessages(vm);
    const node = new Node(config, common, vm, store, trieDb, opts.modules ?? []);
    node._caches = caches;
    node._cacheBounds = bounds;
    node.fork = opts.fork;
    node._createOpts = opts;
    node._consoleDecoder = opts.consoleLog;
    try {
      await node._openOrInit();
    } catch (err) {
      // a store that cannot be used is released, so the caller (or the next start) can open it again
      await kv.close().catch(() => undefined);
      throw err;
    }
    return node;
  }

  // ---------------------------------------------------------------- blocks

  get head(): Block {
    return this._head;
  }

  get headNumber(): bigint {
    return this._head.header.number;
  }

  async getBlock(n: bigint): Promise<Block | undefined> {
    return n === this.headNumber ? this._head : this.store.getBlock(n);
  }

  /** Base fee of the next block: the one set by hardhat_setNextBlockBaseFeePerGas, else EIP-1559's rule. */
  nextBaseFee(): bigint {
    if (this.settings.nextBaseFee !== undefined) return this.settings.nextBaseFee;
    return this.common.isActivatedEIP(1559) ? this._head.header.calcNextBaseFee() : 0n;
  }

  // ---------------------------------------------------------------- state

  /**
   * A read-only state at block `n` (at the head: the live state as committed, hardhat_set* changes
   * included). Safe without the lock: it reads a committed root, and trie nodes are never deleted.
   */
  async stateAt(n: bigint): Promise<MerkleStateManager> {
    if (n >= this.headNumber) {
      const root = this._liveRoot;
      const r = this._reader;
      if (r !== undefined && equalsBytes(r.root, root)) {
        // a read-only state: emptying its caches loses nothing, and keeps many reads at one head bounded
        if (r.sm instanceof ChainStateManager && r.sm.cacheEntries() > this._cacheBounds.liveEntries) r.sm.clearCaches();
        return r.sm;
      }
      const sm = await this._stateAtRoot(root);
      this._reader = { root, sm };
      return sm;
    }
    if (this.fork !== undefined && n < this.fork.block.number) return this.fork.stateBelow(n, this.common);
    const block = await this.getBlock(n);
    if (block === undefined) throw new ChainError(`header not found`);
    return this._stateAtRoot(block.header.stateRoot);
  }

  private async _stateAtRoot(root: Uint8Array): Promise<MerkleStateManager> {
    const copy = (this.vm.stateManager as MerkleStateManager).shallowCopy(false);
    await copy.setStateRoot(root);
    return copy;
  }

  /**
   * An execution context at block `height` (the head's live state for the head): a VM of its own,
   * read-only module stores of that height, and an optional deadline. Release it after use.
   */
  async contextAt(height: bigint, opts: ContextOptions = {}): Promise<ExecutionContext> {
    const head = this._head;
    const views = new Map<string, ModuleStore>();
    if (height >= head.header.number) {
      for (const m of this._moduleStores) views.set(m.module.name, m.store.view());
      return this._context(head, this._liveRoot, views, opts);
    }
    if (this.fork !== undefined && height < this.fork.block.number) {
      throw new ChainError(`block ${height} is below the fork block ${this.fork.block.number}: calls run at the fork block or later (state reads of older blocks go to the remote)`);
    }
    const block = await this.getBlock(height);
    if (block === undefined) throw new ChainError("header not found");
    for (const m of this._moduleStores) views.set(m.module.name, await m.store.viewAt(height));
    return this._context(block, block.header.stateRoot, views, opts);
  }

  private async _context(block: Block, root: Uint8Array, views: Map<string, ModuleStore>, opts: ContextOptions): Promise<ExecutionContext> {
    const moduleStore = (name: string): ModuleStore => {
      const v = views.get(name);
      if (v === undefined) throw new Error(`no module ${name}`);
      return v;
    };
    const vm = await this._vms.acquire(root);
    const timeoutMs = opts.timeoutMs ?? 0;
    const env: ExecEnv = { messages: [], moduleStore, deadline: timeoutMs > 0 ? Date.now() + timeoutMs : undefined, timeoutMs };
    if (opts.consoleLog === true) env.console = (data) => this._console(data, { kind: "call" });
    bindEnv(vm, env);
    let released = false;
    return {
      height: block.header.number,
      block,
      vm,
      env,
      moduleStore,
      release: () => {
        if (released) return;
        released = true;
        // a VM whose execution was cut short may hold an open checkpoint: never reuse it
        this._vms.release(vm, root, env.messages.length === 0);
      },
    };
  }

  /**
   * Re-executes stored block `n` on the state of its parent, as block production ran it: the
   * modules' begin-block (epoch hooks included), each transaction from its recorded sender, the
   * modules' end-block. `observer` sees each transaction before and after it runs (tracers attach
   * to `vm.evm.events` there). Nothing is kept.
   */
  async replayBlock(n: bigint, observer: ReplayObserver = {}, opts: ContextOptions = {}): Promise<ReplayResult> {
    if (n <= this.firstBlock) throw new ChainError(this.fork !== undefined ? `block ${n} is not traceable: the local chain starts after the fork block ${this.firstBlock}` : "genesis is not traceable");
    const block = await this.getBlock(n);
    if (block === undefined) throw new ChainError(`block #${n} not found`);
    const receipts = (await this.store.getReceipts(n)) ?? [];
    const parent = (await this.getBlock(n - 1n)) as Block;
    // the state the block started from: its parent's, plus any hardhat_set* changes made before it
    const root = (await this.store.getPreStateRoot(n)) ?? parent.header.stateRoot;
    const views = new Map<string, ModuleStore>();
    for (const m of this._moduleStores) views.set(m.module.name, await m.store.viewAt(n - 1n));
    const ctx = await this._context(parent, root, views, opts);
    const { vm } = ctx;
    const modules = this._moduleStores.map((m) => ({ module: m.module, store: VersionedModuleStore.scratch(m.module.name, ctx.moduleStore(m.module.name)) }));
    // precompiles of the replay see its own (scratch) module stores, as the live block saw the live ones
    ctx.env.moduleStore = (name) => {
      const m = modules.find((x) => x.module.name === name);
      if (m === undefined) throw new Error(`no module ${name}`);
      return m.store;
    };
    // the stored block carries the header its transactions ran against (they read nothing else of it)
    const execBlock = block;
    const events: BlockEvents = { begin: [], end: [] };
    const results: RunTxResult[] = [];
    let ok = false;
    await vm.evm.journal.checkpoint();
    try {
      await runPhase("begin_block", vm, execBlock, modules, events.begin);
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
      await runPhase("end_block", vm, execBlock, modules, events.end);
      ok = true;
      return { block, results, events };
    } finally {
      await vm.evm.journal.revert();
      vm.evm.journal.cleanJournal();
      if (ok) ctx.release();
    }
  }

  /**
   * Changes the live state outside a block (hardhat_set*, epochs_registerHooks): all of `change` or
   * nothing, then published to reads at the head. Run inside the lock.
   */
  async modifyState(change: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    const sm = this.vm.stateManager as MerkleStateManager;
    await sm.checkpoint();
    try {
      await change(sm);
      await sm.commit();
    } catch (err) {
      await sm.revert();
      throw err;
    }
    this._liveRoot = await sm.getStateRoot();
  }

  async getNonce(address: Address): Promise<bigint> {
    return (await this.vm.stateManager.getAccount(address))?.nonce ?? 0n;
  }

  // ---------------------------------------------------------------- transactions

  /**
   * Validates a transaction against the current state and adds it to the pool, from `sender` (its
   * signer, or an impersonated account). With automine the blocks needed to include it are mined
   * before this returns, and a transaction that block production refused is answered with its
   * error: a caller never holds the hash of a transaction that silently left the pool.
   */
  async submit(tx: TypedTransaction, sender: Address): Promise<{ hash: string; included?: Inclusion }> {
    const account = await this.vm.stateManager.getAccount(sender);
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
    if (!this.settings.automine || this.settings.paused || where === "queued") return { hash };
    // Mine until this transaction is in a block (earlier pending ones go first, as on Hardhat).
    for (let i = 0; i < 1000 && this.pool.get(hash) !== undefined; i++) {
      let mined: MinedBlock;
      try {
        mined = await this.mineBlock();
      } catch (err) {
        // the block needed a fork's remote that failed: the caller gets the error, and the transaction
        // leaves the pool (kept, it would stop every later block until the remote is back)
        if ((err as { abortsBlock?: unknown } | null)?.abortsBlock === true) this.pool.remove(hash);
        throw err;
      }
      const index = mined.block.transactions.findIndex((t) => bytesToHex(t.hash()) === hash);
      if (index >= 0) return { hash, included: { mined, result: this._lastResults[index], index } };
      const refused = this._lastRefused.get(hash);
      if (refused !== undefined) throw new ChainError(refused);
    }
    return { hash };
  }

  private _lastResults: ProducedBlock["results"] = [];
  /** Transactions the last block refused and the pool dropped, with why (automine answers them). */
  private _lastRefused = new Map<string, string>();

  /** Mines one block from the pool at `timestamp` (default: the clock's next block time). */
  async mineBlock(timestamp?: bigint): Promise<MinedBlock> {
    const parent = this._head;
    const ts = timestamp ?? this.clock.nextTimestamp(parent.header.timestamp, this.config.allowBlocksWithSameTimestamp);
    if (ts < parent.header.timestamp || (ts === parent.header.timestamp && !this.config.allowBlocksWithSameTimestamp)) {
      throw new ChainError(`timestamp ${ts} is lower than or equal to previous block's timestamp ${parent.header.timestamp}`);
    }
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
      modules: this._moduleStores,
      explain: this.explainSystemCall,
      onStep: (step) => {
        const height = parent.header.number + 1n;
        this._consoleOrigin = "tx" in step ? { kind: "transaction", hash: bytesToHex(step.tx.hash()), height } : { kind: "block", phase: step.phase, height };
      },
    });
    this._consoleOrigin = { kind: "call" };
    await this._commit(produced);
    // from here on the block is written: memory follows it
    this._lastRefused = new Map();
    for (const s of produced.skipped) {
      if (!s.invalid) continue;
      const h = bytesToHex(s.tx.hash());
      this._lastRefused.set(h, s.reason);
      this.pool.remove(h);
    }
    for (const tx of produced.block.transactions) this.pool.remove(bytesToHex(tx.hash()));
    await this.pool.update((s) => this.getNonce(new Address(hexBytes(s))));
    this.settings.nextBaseFee = undefined;
    this.settings.nextPrevRandao = undefined;
    this.clock.didMine(ts);
    this._lastResults = produced.results;
    const mined = { block: produced.block, receipts: produced.receipts, events: produced.events, results: produced.results };
    this.emit("block", mined);
    return mined;
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

  /** hardhat_mine: `count` blocks, `interval` seconds apart (the first at the clock's next time). */
  async mineBlocks(count: bigint, interval: bigint): Promise<void> {
    if (interval < 1n && !this.config.allowBlocksWithSameTimestamp) throw new ChainError("interval must be at least 1 second");
    let ts: bigint | undefined;
    for (let i = 0n; i < count; i++) {
      const b = await this.mineBlock(ts);
      ts = b.block.header.timestamp + interval;
    }
    if (ts !== undefined) this.clock.jumpTo(ts - interval);
  }

  // ---------------------------------------------------------------- snapshots

  async snapshot(): Promise<number> {
    const id = this._nextSnapshotId++;
    this._snapshots.set(id, {
      head: this.headNumber,
      stateRoot: this._liveRoot,
      pool: this.pool.snapshot(),
      clock: this.clock.snapshot(),
      settings: { ...this.settings },
    });
    return id;
  }

  /** Restores everything taken by `snapshot(id)`: blocks, EVM state, module stores, pool, clock. Later snapshots are dropped. */
  async revert(id: number): Promise<boolean> {
    const snap = this._snapshots.get(id);
    if (snap === undefined) return false;
    for (const k of [...this._snapshots.keys()]) if (k >= id) this._snapshots.delete(k);
    await this.rewindTo(snap.head, snap.stateRoot);
    this.settings = { ...snap.settings };
    this.clock.restore(snap.clock);
    await this.pool.restore(snap.pool, (s) => this.getNonce(new Address(hexBytes(s))));
    return true;
  }

  /** Rewinds head, state and module stores to block `n`, durably (evm_revert, debug_setHead). */
  async rewindTo(n: bigint, stateRoot?: Uint8Array): Promise<void> {
    if (n > this.headNumber) throw new ChainError(`block ${n} is above the head ${this.headNumber}`);
    if (n < this.firstBlock) throw new ChainError(`block ${n} is below the fork block ${this.firstBlock}, where this chain starts`);
    const ops: BatchOp[] = [...this._trieDb.drainOps(), ...(await this.store.rewindOps(n))];
    for (const m of this._moduleStores) ops.push(...(await m.store.rewindOps(n)));
    try {
      await this.store.kv.batch(ops);
    } catch (err) {
      this._trieDb.undrain();
      throw new ChainError(`the rewind to block ${n} could not be written, the node stays at block ${this.headNumber}: ${errorText(err)}`);
    }
    this.store.didRewind(n);
    for (const m of this._moduleStores) await m.store.loadAt(n);
    this._head = (await this.store.getBlock(n)) as Block;
    const root = stateRoot ?? this._head.header.stateRoot;
    await this.vm.stateManager.setStateRoot(root);
    this._liveRoot = root;
    this.emit("rewind", n);
  }

  // ---------------------------------------------------------------- module access

  moduleStore(name: string): VersionedModuleStore {
    const m = this._moduleStores.find((x) => x.module.name === name);
    if (m === undefined) throw new Error(`no module ${name}`);
    return m.store;
  }

  // ---------------------------------------------------------------- interval mining

  /** (Re)arms interval mining from `settings.intervalMs`; 0 turns it off. */
  armIntervalMining(): void {
    if (this._intervalTimer !== undefined) clearTimeout(this._intervalTimer);
    this._intervalTimer = undefined;
    const iv = this.settings.intervalMs;
    const ms = Array.isArray(iv) ? iv[0] + Math.floor(Math.random() * (iv[1] - iv[0] + 1)) : iv;
    if (ms <= 0) return;
    this._intervalTimer = setTimeout(() => {
      void this.mutex
        .exclusive(async () => {
          if (!this.settings.paused) await this.mineBlock();
        })
        // reported, not swallowed; the next interval tries again (a failed block leaves nothing behind)
        .catch((err: unknown) => this.emit("miningError", err instanceof Error ? err : new Error(String(err))))
        .finally(() => {
          if (this._intervalTimer !== undefined) this.armIntervalMining();
        });
    }, ms);
    this._intervalTimer.unref();
  }

  async close(): Promise<void> {
    if (this._intervalTimer !== undefined) clearTimeout(this._intervalTimer);
    this._intervalTimer = undefined;
    await this.mutex.exclusive(async () => {
      const ops = this._trieDb.drainOps();
      if (ops.length > 0) await this.store.kv.batch(ops);
      await this.store.kv.close();
      await this.fork?.close();
    });
  }

  // ---------------------------------------------------------------- forking

  /** The chain's first block: 0, or the fork block of a forked chain. */
  get firstBlock(): bigint {
    return this.fork?.block.number ?? 0n;
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
    const fresh = await Node.create({ ...this._createOpts, fork, kv: new MemoryKV() });
    const old = this.fork;
    this.vm = fresh.vm;
    this.store = fresh.store;
    this._trieDb = fresh._trieDb;
    this._caches = fresh._caches;
    this._cacheBounds = fresh._cacheBounds;
    this._moduleStores = fresh._moduleStores;
    this._vms = fresh._vms;
    this._head = fresh._head;
    this._liveRoot = fresh._liveRoot;
    this._reader = undefined;
    this._createOpts = fresh._createOpts;
    this.fork = fork;
    this.pool = fresh.pool;
    this.clock = fresh.clock;
    this.settings = fresh.settings;
    this.instanceId = fresh.instanceId;
    this.impersonated.clear();
    this._snapshots.clear();
    this._nextSnapshotId = 1; // as Hardhat: ids start over on a reset chain
    this._lastResults = [];
    this._lastRefused = new Map();
    // the live VM's precompiles see this node's module stores (now the fresh ones)
    bindEnv(this.vm, { messages: [], moduleStore: (name) => this.moduleStore(name), console: (data) => this._console(data, this._consoleOrigin) });
    if (old !== undefined && old !== fork) await old.close();
    this.armIntervalMining();
    this.emit("reset", this.headNumber);
  }

  // ---------------------------------------------------------------- internals

  private _console(data: Uint8Array, origin: ConsoleOrigin): void {
    if (this._consoleDecoder === undefined || this.listenerCount("consoleLog") === 0) return;
    const line = this._consoleDecoder.decode(data);
    if (line !== undefined) this.emit("consoleLog", line, origin);
  }

  /**
   * Writes a produced block in one batch (`extra`: more operations for it, the genesis meta record),
   * then moves memory to it. If the write fails, memory stays on the last committed block: the live
   * state goes back to the last committed root, module stores drop the block's writes, and the trie
   * nodes wait for the next batch.
   */
  private async _commit(p: ProducedBlock, extra: BatchOp[] = []): Promise<void> {
    const n = p.block.header.number;
    const parentRoot = this._head?.header.stateRoot;
    const preState = parentRoot !== undefined && !equalsBytes(parentRoot, this._liveRoot) ? this._liveRoot : undefined;
    const ops: BatchOp[] = [...this._trieDb.drainOps(), ...this.store.commitBlockOps(p.block, p.receipts, p.events, preState), ...extra];
    for (const m of this._moduleStores) ops.push(...m.store.commitOps(n));
    try {
      await this.store.kv.batch(ops);
    } catch (err) {
      this._trieDb.undrain();
      for (const m of this._moduleStores) m.store.discard();
      await this.vm.stateManager.setStateRoot(this._liveRoot);
      const at = this._head === undefined ? "" : `, the node stays at block ${this.headNumber}`;
      throw new ChainError(`block ${n} could not be written${at}: ${errorText(err)}`);
    }
    this.store.didCommit(p.block, p.receipts);
    this._boundCaches();
    for (const m of this._moduleStores) m.store.didCommit();
    this._head = p.block;
    this._liveRoot = p.block.header.stateRoot;
  }

  /**
   * EthereumJS's default caches (ordered maps) never evict: every account and slot a block ever
   * touched would stay in memory, so the node's memory would grow with the chain's state instead of
   * being bounded by caches. Right after a block is written nothing in them is unwritten (the block
   * flushed them to the trie), so they can be emptied then; they refill from the trie node cache.
   */
  private _boundCaches(): void {
    const c = this._caches;
    if (c === undefined) return;
    const size = (c.account?.size() ?? 0) + (c.storage?.size() ?? 0) + (c.code?.size() ?? 0);
    if (size > this._cacheBounds.liveEntries) c.clear();
  }

  /** How full the live state's caches and the trie node cache are (bounded by `NodeOptions.cacheBounds`). */
  cacheSizes(): CacheSizes {
    const c = this._caches;
    const reader = this._reader?.sm;
    return {
      account: c?.account?.size() ?? 0,
      storage: c?.storage?.size() ?? 0,
      code: c?.code?.size() ?? 0,
      trieNodes: this._trieDb.cacheCount,
      reader: reader instanceof ChainStateManager ? reader.cacheEntries() : 0,
    };
  }

  private async _openOrInit(): Promise<void> {
    const head = await this.store.open();
    if (head >= 0n) {
      // identity first: blocks of another chain id do not even decode (their signatures name it)
      const forkOps = await checkForkMeta(this.store.kv, this.fork);
      if (forkOps.length > 0) await this.store.kv.batch(forkOps);
      const genesis = await this.store.getBlock(this.firstBlock);
      if (genesis === undefined) throw new Error(`data directory ${storeName(this.store.kv)} is damaged: its genesis block is missing`);
      const metaOps = await checkGenesisMeta(this.store.kv, this.config.chainId, bytesToHex(genesis.hash()));
      if (metaOps.length > 0) await this.store.kv.batch(metaOps);
      const headBlock = await this.store.getBlock(head);
      if (headBlock === undefined) throw new Error(`data directory ${storeName(this.store.kv)} is damaged: its head block ${head} is missing`);
      this._head = headBlock;
      this._liveRoot = headBlock.header.stateRoot;
      await this.vm.stateManager.setStateRoot(this._liveRoot);
      for (const m of this._moduleStores) await m.store.loadAt(head);
      return;
    }
    const fork = this.fork;
    // a forked chain's first block is the remote's fork block: its number, time, parent and hash
    const timestamp = fork?.block.timestamp ?? BigInt(Math.floor((this.config.initialDate?.getTime() ?? Date.now()) / 1000));
    if (this.config.initialDate !== undefined) this.clock.jumpTo(BigInt(Math.floor(this.config.initialDate.getTime() / 1000)));
    const sm = this.vm.stateManager;
    await sm.checkpoint();
    for (const a of this.config.accounts) {
      const address = addressOfKey(a.privateKey);
      // on a fork the dev accounts keep their nonce (and code) at the remote and get the configured balance, as on Hardhat
      const remote = fork !== undefined ? await sm.getAccount(address) : undefined;
      await sm.putAccount(address, createAccount({ balance: a.balance, nonce: remote?.nonce ?? 0n, codeHash: remote?.codeHash, storageRoot: remote?.storageRoot }));
    }
    const putCode = async (address: Uint8Array, code: Uint8Array): Promise<void> => {
      const a = new Address(address);
      // nonce 1 keeps the account from being cleared as empty (EIP-161)
      await sm.putAccount(a, createAccount({ nonce: 1n, balance: 0n }));
      await sm.putCode(a, code);
    };
    for (const m of this._moduleStores) await m.module.initGenesis?.({ height: this.firstBlock, timestamp, store: m.store, putCode });
    await sm.commit();
    const stateRoot = await sm.getStateRoot();
    const c = this.common;
    const genesis = createBlock(
      {
        header: {
          number: this.firstBlock,
          parentHash: fork?.block.parentHash,
          timestamp,
          gasLimit: this.config.blockGasLimit,
          stateRoot,
          coinbase: new Uint8Array(20),
          difficulty: 0n,
          nonce: new Uint8Array(8),
          extraData: new Uint8Array(),
          baseFeePerGas: c.isActivatedEIP(1559) ? (fork?.block.baseFeePerGas ?? this.config.initialBaseFeePerGas) : undefined,
          withdrawalsRoot: c.isActivatedEIP(4895) ? KECCAK256_RLP : undefined,
          blobGasUsed: c.isActivatedEIP(4844) ? 0n : undefined,
          excessBlobGas: c.isActivatedEIP(4844) ? 0n : undefined,
          parentBeaconBlockRoot: c.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
          requestsHash: c.isActivatedEIP(7685) ? sha256Empty() : undefined,
        },
        withdrawals: c.isActivatedEIP(4895) ? [] : undefined,
      },
      { common: c },
    );
    if (fork !== undefined) adoptBlockHash(genesis, fork.block.hash);
    const meta = [...genesisMetaOps({ chainId: this.config.chainId, genesisHash: bytesToHex(genesis.hash()) }), ...forkMetaOps(fork)];
    await this._commit({ block: genesis, receipts: [], results: [], events: { begin: [], end: [] }, skipped: [] }, meta);
  }
}

function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.slice(2), "hex"));
}

function sha256Empty(): Uint8Array {
  // requestsHash of an empty request list (EIP-7685): sha256 of nothing
  return new Uint8Array(Buffer.from("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "hex"));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function requireEnv(evm: object): ExecEnv {
  const env = envOf(evm);
  if (env === undefined) throw new Error("a precompile ran in an EVM the chain did not make");
  return env;
}

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
