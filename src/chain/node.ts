/**
 * The chain as the RPC layer sees it: one class over the pieces that do the work (the file map is in
 * docs/architecture.md, "The chain"). This file: sends, blocks, snapshots, state loads and reset;
 * the read half is src/chain/reads/node-reads.ts, block production src/chain/block/miner.ts, the dev
 * settings src/chain/dev/dev-controls.ts (`node.dev`).
 *
 * The node owns its lock: every public method here that changes the chain takes it itself (`_change`),
 * so changes run one at a time on the live VM whoever calls them, and no caller takes it for them.
 * What only reads or executes without keeping anything runs on a committed state and needs no lock
 * (docs/execution-and-commit.md, "Two kinds of access"); while a block is produced, reads at the head
 * answer from the last committed state (ChainState.changingLive).
 */
import { randomBytes } from "node:crypto";
import type { Common } from "@ethereumjs/common";
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, bytesToHex } from "@ethereumjs/util";
import type { KVStore } from "../storage/kv";
import { MemoryKV } from "../storage/memory-kv";
import { Mutex } from "../utils/mutex";
import { StepRelay } from "./engine/step-relay";
import { DynamicPrecompiles } from "./engine/evm";
import type { SystemCallExplainer } from "./block/block-producer";
import type { ChainStart, ChainState } from "./store/chain-state";
import { type CacheBounds, DEFAULT_CACHE_BOUNDS } from "./store/cache-bounds";
import { Clock, type ClockReading, notBefore, timestampRefusal } from "./base/clock";
import { rewindChain } from "./block/commit";
import { Miner } from "./block/miner";
import { Calls } from "./calls/calls";
import { DevControls } from "./dev/dev-controls";
import { sharedChainCommon } from "./engine/common";
import { Traces } from "./tracing/traces";
import type { ChainConfig } from "./config";
import { ChainError } from "./base/errors";
import { Fork, type ForkConfig } from "./fork";
import { storeName } from "./base/genesis-meta";
import { IntervalMiner } from "./block/interval-mining";
import type { ConsoleLogDecoder } from "../solidity/console-log";
import { closeChain, openChain } from "./block/open-chain";
import { Snapshots } from "./dev/snapshots";
import { type StateDump, decodeStateDump, dumpChainState, encodeStateDump, loadChainState, parseStateDump } from "./dev/state-dump";
import { NodeReads, initialSettings } from "./reads/node-reads";
import { type BlockTime, type ConsoleOrigin, type Inclusion, type MinedBlock, type NodeOptions, type Prepared, QUEUED_WAIT_MS, type Sent } from "./reads/node-types";
import { checkAdmission } from "./pool/admission";
import { TxPool, TxPoolError, type TxPoolView } from "./pool/txpool";

export class Node extends NodeReads {
  private readonly _lock = new Mutex();
  /** Calls, estimates, simulations and the transactions a send or a fill prepares (src/chain/calls/calls.ts). */
  readonly calls: Calls;
  /** Traces of stored blocks, transactions and calls, and Solidity stack traces (src/chain/tracing/traces.ts). */
  readonly traces: Traces;
  /** The dev settings: block-production settings, mining on and off, time, impersonation (src/chain/dev/dev-controls.ts). */
  readonly dev: DevControls;
  /** The EVM steps of users' executions, relayed while someone listens (solidity-coverage: src/chain/engine/step-relay.ts). */
  steps = new StepRelay();
  private _pool: TxPool;
  private _clock = new Clock();
  /**
   * Where node-local data lives (the db_* databases, src/storage/node-db.ts): the home's store, or
   * in memory a store of its own, so that no chain change (hardhat_reset, a state load that takes
   * the dump's height) takes it along.
   */
  nodeKv!: KVStore;
  /** Identifies this chain instance (hardhat_metadata); a new one after hardhat_reset. */
  instanceId: Uint8Array = randomBytes(32);
  /** The pool, to read: it changes through `send`, `dev.dropPooled` and block production. */
  get pool(): TxPoolView {
    return this._pool;
  }

  /** Block time, to read: it moves through `dev.increaseTime`, `dev.setNextTimestamp` and `mineBlock`. */
  get clock(): ClockReading {
    return this._clock;
  }

  /** How this node was made (hardhat_reset makes the next one the same way). */
  private _createOpts!: NodeOptions;
  private readonly _snapshots = new Snapshots();
  /** Precompiles added while a chain runs (x/erc20's pairs): one set for every chain this node opens. */
  private readonly _added = new DynamicPrecompiles();
  private readonly _intervalMiner: IntervalMiner;
  private readonly _miner: Miner;
  private _consoleDecoder: ConsoleLogDecoder | undefined;
  /** What the live VM runs now, for console.log lines of block production. */
  private _consoleOrigin: ConsoleOrigin = { kind: "call" };

  private constructor(config: ChainConfig, common: Common, explainSystemCall: SystemCallExplainer | undefined) {
    super(config, common);
    this._pool = new TxPool(config.txPool);
    this.calls = new Calls(this, () => this._pool);
    this.traces = new Traces(this);
    this.dev = new DevControls({
      change: (fn) => this._change(fn),
      parts: () => ({ settings: this._settings, pool: this._pool, impersonated: this._impersonated, clock: this._clock }),
      setNextTimestamp: (ts) => this._setNextTimestamp(ts),
      mineWaiting: () => this._miner.mineWaiting(),
      armIntervalMining: () => this.armIntervalMining(),
    });
    this._intervalMiner = new IntervalMiner({
      interval: () => this.settings.intervalMs,
      mine: () =>
        this._change(async () => {
          if (!this.settings.paused) await this._miner.mineBlock();
        }),
      onError: (err) => this.emit("miningError", err),
    });
    this._miner = new Miner({
      config,
      common,
      explainSystemCall,
      parts: () => ({ chain: this._chain, pool: this._pool, clock: this._clock, settings: this._settings }),
      recordsExecutions: () => this.listenerCount("executed") > 0,
      setConsoleOrigin: (origin) => {
        this._consoleOrigin = origin;
      },
      mined: (block, executions) => {
        for (const e of executions) this.emit("executed", e);
        this.emit("block", block);
      },
      reserved: (first, last, baseFee, played) => this.emit("reserved", first, last, baseFee, played),
    });
  }

  static async create(opts: NodeOptions): Promise<Node> {
    const config = opts.config;
    const common = sharedChainCommon(config.chainId, config.hardfork, config.enableRip7212 === true ? [7951] : []);
    const node = new Node(config, common, opts.explainSystemCall);
    node._createOpts = opts;
    node._consoleDecoder = opts.consoleLog;
    if (opts.stepEvents !== undefined || opts.stepOpcodes !== undefined) node.steps = new StepRelay(opts.stepEvents, opts.stepOpcodes);
    // the node owns the store it is given: a start that fails releases it (a LevelDB home is unlocked; openChain does on its own failures)
    const fork = opts.fork === undefined ? undefined : await Fork.open(opts.fork).catch((err: unknown) => failWith(err, () => opts.kv?.close()));
    node._chain = await node._openChain(opts, fork, opts.kv ?? new MemoryKV(), node._clock).catch((err: unknown) => failWith(err, () => fork?.close()));
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
        fork,
        start,
        cacheBounds,
        precompiles: opts.precompiles,
        added: this._added,
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

  /**
   * The node's lock: every public method that changes the chain runs its body through here, one at a
   * time; bodies call only private helpers and the miner, never another public changing method (the
   * lock is not re-entrant). test/chain/node-lock.test.ts holds each of them against a block in production.
   */
  private _change<T>(fn: () => Promise<T>): Promise<T> {
    return this._lock.exclusive(fn);
  }

  /** Changes the live state outside a block, all or nothing (see ChainState.modifyState). */
  modifyState(change: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    return this._change(() => this._chain.modifyState(change));
  }

  // ---------------------------------------------------------------- transactions and blocks

  /**
   * Sends a transaction: `prepare` builds it (fills its defaults, signs it: `node.calls.sign`) and
   * the node admits it (src/chain/pool/admission.ts) and pools it, both inside the lock, so two sends
   * from one account never take the same nonce. With automine the blocks needed to include it are
   * mined before this returns, and a transaction that block production refused is answered with its
   * error: a caller never holds the hash of a transaction that silently left the pool. A
   * transaction behind a nonce gap under automine is waited for (up to `QUEUED_WAIT_MS`) outside
   * the lock, so the sends that fill the gap get in.
   */
  async send(prepare: () => Promise<Prepared> | Prepared): Promise<Sent> {
    const submitted = await this._change(async () => {
      const { tx, sender } = await prepare();
      return this._submit(tx, sender ?? tx.getSenderAddress());
    });
    if (submitted.later === undefined) return submitted;
    return { hash: submitted.hash, included: await submitted.later };
  }

  private async _submit(tx: TypedTransaction, sender: Address): Promise<Sent & { later?: Promise<Inclusion | undefined> }> {
    const account = await this.getAccount(sender);
    checkAdmission(tx, sender, account, this.settings, this.nextBaseFee());
    let where: "pending" | "queued";
    try {
      where = this._pool.add(tx, sender.toString(), account?.nonce ?? 0n);
    } catch (err) {
      if (err instanceof TxPoolError) throw new ChainError(err.message);
      throw err;
    }
    const hash = bytesToHex(tx.hash());
    this.emit("pendingTransaction", hash);
    if (!this.settings.automine || this.settings.paused) return { hash };
    if (where === "queued") return { hash, later: this._miner.inclusionOf(hash, QUEUED_WAIT_MS) };
    return { hash, included: await this._miner.mineUntilIncluded(hash) };
  }

  /**
   * Mines one block from the pool. With `time` the block has that timestamp and the clock moves on
   * from it (evm_mine's argument: refused, a ChainError, when it goes back in time), or with
   * `{ notBefore }` that timestamp unless the head is already as late, then the earliest allowed.
   */
  mineBlock(time?: BlockTime): Promise<Required<MinedBlock>> {
    return this._change(async () => {
      if (time !== undefined) this._setNextTimestamp(typeof time === "bigint" ? time : notBefore(time.notBefore, this.head.header.timestamp, this.config.allowBlocksWithSameTimestamp));
      return this._miner.mineBlock();
    });
  }

  /** hardhat_mine: `count` blocks `interval` seconds apart, quiet runs reserved (src/chain/block/miner.ts). */
  mineBlocks(count: bigint, interval: bigint): Promise<void> {
    return this._change(() => this._miner.mineBlocks(count, interval));
  }

  /** Registers a reader that needs each block as it is made (a block filter, a newHeads subscription); `wanted` says whether it does now. */
  wantsEveryBlock(wanted: () => boolean): void {
    this._miner.wantsEveryBlock(wanted);
  }

  // ---------------------------------------------------------------- saved state

  /** The state at the head in Anvil's format, plus the module stores (src/chain/dev/state-dump.ts). */
  dumpState(): Promise<StateDump> {
    return this._change(() => dumpChainState(this._chain));
  }

  /** The same, in the wire form hardhat_dumpState and anvil_dumpState answer with: hex of gzipped JSON. */
  async exportState(): Promise<string> {
    return encodeStateDump(await this.dumpState());
  }

  /**
   * Applies a dump at the head, in its wire form (hex of gzip or of JSON, as Anvil takes it) or as a
   * file's JSON text (src/chain/dev/state-dump.ts), every value checked before anything changes (a
   * bad one is a StateDumpError); snapshots taken before it revert it. Pooled transactions it made
   * stale leave the pool.
   */
  loadState(text: string): Promise<void> {
    return this._change(() => this._loadState(text));
  }

  private async _loadState(text: string): Promise<void> {
    const raw = decodeStateDump(text);
    // every value decoded (module records with their modules' codecs) before anything is applied
    const parsed = parseStateDump(raw, this._chain.modules);
    const fresh = this.headNumber === this.firstBlock && this.fork === undefined && this.store.kv.inMemory;
    if (fresh && parsed.blockNumber !== undefined && parsed.blockNumber > this.headNumber) {
      // A new in-memory node takes the dump's height and time, as Anvil does: the epochs records
      // name heights (an epoch ends in a later block than it started), so the next block ticks
      // exactly as the dumped chain's next block. The new chain is loaded first and kept only when
      // the whole load succeeded; the one before stays with the snapshots taken on it (`revert`).
      const start: ChainStart = { number: parsed.blockNumber, timestamp: parsed.timestamp ?? this._clock.nowSeconds() };
      const clockBefore = this._clock.snapshot();
      const next = await this._openChain(this._createOpts, undefined, new MemoryKV(), this._clock, start)
        .then(async (chain) => {
          await loadChainState(chain, this._clock, parsed);
          return chain;
        })
        .catch((err: unknown) => failWith(err, async () => this._clock.restore(clockBefore)));
      this._chain = next;
      this.emit("reset", this.headNumber);
    } else {
      await loadChainState(this._chain, this._clock, parsed);
    }
    await this._resortPool();
  }

  // ---------------------------------------------------------------- snapshots and reset

  /** evm_snapshot: an id that `revert` takes back to this moment. */
  snapshot(): Promise<number> {
    return this._change(async () =>
      this._snapshots.take({
        chain: this._chain,
        head: this.headNumber,
        stateRoot: this._chain.liveRoot,
        pool: this._pool.snapshot(),
        clock: this._clock.snapshot(),
        settings: { ...this.settings },
      }),
    );
  }

  /** Restores everything taken by `snapshot(id)`: blocks, EVM state (module stores included), pool, clock. Later snapshots are dropped. */
  revert(id: number): Promise<boolean> {
    return this._change(async () => {
      const snap = this._snapshots.takeBack(id);
      if (snap === undefined) return false;
      if (snap.chain !== this._chain) {
        // a state load on a fresh node replaced the chain after this snapshot: the one before comes back
        this._chain = snap.chain as ChainState;
        this.emit("reset", this.headNumber);
      }
      await this._rewindTo(snap.head, snap.stateRoot);
      this._settings = { ...snap.settings };
      this._clock.restore(snap.clock);
      await this._pool.restore(snap.pool, (s) => this._chain.nonceAtHead(s));
      return true;
    });
  }

  /**
   * debug_setHead: rewinds the chain to block `n` (at or below the head), durably; pooled
   * transactions whose nonces the rewind made valid again stay, the rest are re-sorted.
   */
  setHead(n: bigint): Promise<void> {
    return this._change(async () => {
      if (n > this.headNumber) throw new ChainError(`block ${n} is above the head ${this.headNumber}`);
      await this._rewindTo(n);
      await this._resortPool();
    });
  }

  /**
   * hardhat_reset: replaces the chain with a new one made as this one was, forked from `fork` (or
   * not forked), in place, so everything that holds this node sees the new chain. Snapshots, the
   * pool, the clock, impersonations and dev-method settings start over. Only for in-memory chains:
   * a data directory holds one chain.
   */
  async reset(forking: ForkConfig | undefined): Promise<void> {
    // the remote is read before anything changes (and outside the lock): one that cannot be reached leaves the chain as it was
    const fork = forking === undefined ? undefined : await Fork.open(forking);
    await this._reset(fork).catch((err: unknown) => failWith(err, () => (fork !== this.fork ? fork?.close() : undefined)));
  }

  private _reset(fork: Fork | undefined): Promise<void> {
    return this._change(async () => {
      if (!this.store.kv.inMemory) {
        throw new ChainError(`hardhat_reset needs an in-memory chain: this node keeps its chain in ${storeName(this.store.kv)}`);
      }
      const clock = new Clock();
      const fresh = await this._openChain(this._createOpts, fork, new MemoryKV(), clock);
      const old = this.fork;
      this.steps.forget(this._chain.vm);
      this._chain = fresh;
      this._pool = new TxPool(this.config.txPool);
      this._clock = clock;
      this._settings = initialSettings(this.config);
      this.instanceId = randomBytes(32);
      this._impersonated.clear();
      this._snapshots.clear();
      this._miner.releaseWaiters();
      if (old !== undefined && old !== fork) await old.close();
      this.armIntervalMining();
      this.emit("reset", this.headNumber);
    });
  }

  // ---------------------------------------------------------------- interval mining, close

  /** (Re)arms interval mining from `settings.intervalMs`; 0 turns it off. */
  armIntervalMining(): void {
    this._intervalMiner.arm();
  }

  async close(): Promise<void> {
    this._intervalMiner.stop();
    await this._change(() => closeChain(this._chain));
  }

  // ---------------------------------------------------------------- internals

  /** Re-sorts the pool against the head's nonces (after the state moved other than by a mined block). */
  private _resortPool(): Promise<void> {
    return this._pool.update((s) => this._chain.nonceAtHead(s));
  }

  /** Rewinds head and state (module stores included) to block `n`, durably (evm_revert, debug_setHead). */
  private async _rewindTo(n: bigint, stateRoot?: Uint8Array): Promise<void> {
    await rewindChain(this._chain, n, stateRoot);
    this.emit("rewind", n);
  }

  private _setNextTimestamp(timestamp: bigint): void {
    const refusal = timestampRefusal(timestamp, this.head.header.timestamp, this.config.allowBlocksWithSameTimestamp);
    if (refusal !== undefined) throw new ChainError(refusal);
    this._clock.next = timestamp;
  }

  private _console(data: Uint8Array, origin: ConsoleOrigin): void {
    if (this._consoleDecoder === undefined || this.listenerCount("consoleLog") === 0) return;
    const line = this._consoleDecoder.decode(data);
    if (line !== undefined) this.emit("consoleLog", line, origin);
  }
}

/** Rethrows `err` after `release` (a store, a fork, the clock), whatever the release does. */
async function failWith(err: unknown, release: () => Promise<void> | undefined): Promise<never> {
  await release()?.catch(() => undefined);
  throw err;
}
