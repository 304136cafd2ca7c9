/**
 * The chain: EthereumJS VM and state, block storage, the transaction pool, the clock, block
 * production with modules, snapshots. The RPC layer talks to this class only; it serialises every
 * request through `mutex`, so methods here assume they run one at a time.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { type Block, createBlock } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { CustomPrecompile } from "@ethereumjs/evm";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, KECCAK256_RLP, ValueEncoding, bytesToHex, createAccount, createAddressFromPrivateKey } from "@ethereumjs/util";
import { keccak256 } from "../utils/keccak";
import { type VM, createVM } from "@ethereumjs/vm";
import type { BatchOp, KVStore } from "../storage/kv";
import { MemoryKV } from "../storage/kv";
import { VersionedModuleStore } from "../storage/module-store";
import { TrieDB } from "../storage/trie-db";
import { Mutex } from "../utils/mutex";
import { type ProducedBlock, produceBlock } from "./block-producer";
import { type StoredReceipt, ChainStore } from "./chain-store";
import { Clock } from "./clock";
import { createChainCommon } from "./common";
import type { ChainConfig } from "./config";
import { checkGenesisMeta, genesisMetaOps, storeName } from "./genesis-meta";
import { nativeCrypto } from "./crypto";
import type { BlockEvents, BlockModule } from "./module";
import { TxPool, type PooledTx, TxPoolError, maxFeeOf } from "./txpool";

export interface NodeOptions {
  config: ChainConfig;
  kv?: KVStore;
  modules?: BlockModule[];
  /** Precompiles of modules (the epochs precompile). They reach the node lazily, through `ctx`. */
  precompiles?: (ctx: PrecompileContext) => CustomPrecompile[];
}

/** What a module's precompile may ask of the chain while it executes. */
export interface PrecompileContext {
  /** msg.sender of the call to the precompile. */
  currentCaller(): Address;
  moduleStore(name: string): VersionedModuleStore;
}

/** A rejected transaction or state change: the RPC layer turns it into -32000 with this text. */
export class ChainError extends Error {}

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
  automine: boolean;
  /** miner_stop pauses block production; pending transactions wait. */
  paused: boolean;
  intervalMs: number | [number, number];
}

export interface MinedBlock {
  block: Block;
  receipts: StoredReceipt[];
  events: BlockEvents;
}

export interface NodeEvents {
  block: [MinedBlock];
  pendingTransaction: [string];
  /** Emitted after a rewind (evm_revert, debug_setHead) to the new head. */
  rewind: [bigint];
}

export class Node extends EventEmitter<NodeEvents> {
  readonly mutex = new Mutex();
  readonly pool = new TxPool();
  readonly clock = new Clock();
  /** Dev accounts (funded at genesis) whose keys the node holds. */
  readonly keys = new Map<string, Uint8Array>();
  readonly impersonated = new Set<string>();
  /** Identifies this chain instance (hardhat_metadata). */
  readonly instanceId: Uint8Array = randomBytes(32);
  settings: NodeSettings;
  private _head!: Block;
  private readonly _snapshots = new Map<number, Snapshot>();
  private _nextSnapshotId = 1;
  private readonly _messageStack: Address[] = [];
  private _intervalTimer: NodeJS.Timeout | undefined;
  private readonly _moduleStores: Array<{ module: BlockModule; store: VersionedModuleStore }>;

  private constructor(
    readonly config: ChainConfig,
    readonly common: Common,
    readonly vm: VM,
    readonly store: ChainStore,
    private readonly _trieDb: TrieDB,
    modules: BlockModule[],
  ) {
    super();
    this._moduleStores = modules.map((module) => ({ module, store: new VersionedModuleStore(store.kv, module.name) }));
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
    for (const a of config.accounts) this.keys.set(createAddressFromPrivateKey(a.privateKey).toString(), a.privateKey);
  }

  static async create(opts: NodeOptions): Promise<Node> {
    const config = opts.config;
    const common = createChainCommon(config.chainId, config.hardfork, nativeCrypto());
    const kv = opts.kv ?? new MemoryKV();
    const trieDb = new TrieDB(kv);
    const trie = new MerklePatriciaTrie({ db: trieDb, useKeyHashing: true, common, valueEncoding: ValueEncoding.Bytes });
    // read-through caches: without them every account read walks the trie (keccak + RLP per node)
    const stateManager = new MerkleStateManager({ trie, common, caches: new Caches() });
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
    const ref: { node?: Node } = {};
    const live = (): Node => {
      if (ref.node === undefined) throw new Error("node not ready");
      return ref.node;
    };
    const customPrecompiles =
      opts.precompiles?.({ currentCaller: () => live().currentCaller(), moduleStore: (name) => live().moduleStore(name) }) ?? [];
    const vm = await createVM({
      common,
      stateManager,
      blockchain,
      evmOpts: { allowUnlimitedContractSize: config.allowUnlimitedContractSize, customPrecompiles },
    });
    const node = new Node(config, common, vm, store, trieDb, opts.modules ?? []);
    ref.node = node;
    if (customPrecompiles.length > 0) node._trackMessages();
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

  /** The state to read at block `n`: the live state for the head (it includes hardhat_set* changes), a copy at the block's root otherwise. */
  async stateAt(n: bigint): Promise<MerkleStateManager> {
    const sm = this.vm.stateManager as MerkleStateManager;
    if (n >= this.headNumber) return sm;
    const block = await this.getBlock(n);
    if (block === undefined) throw new ChainError(`header not found`);
    const copy = sm.shallowCopy(false);
    await copy.setStateRoot(block.header.stateRoot);
    return copy;
  }

  async getNonce(address: Address): Promise<bigint> {
    return (await this.vm.stateManager.getAccount(address))?.nonce ?? 0n;
  }

  /** The sender of the EVM message being executed (for precompiles: their msg.sender). */
  currentCaller(): Address {
    const top = this._messageStack[this._messageStack.length - 1];
    if (top === undefined) throw new Error("no message is executing");
    return top;
  }

  // ---------------------------------------------------------------- transactions

  /**
   * Validates a signed transaction against the current state and adds it to the pool; with automine
   * the block that includes it is mined before this returns. Returns the hash and, when mined, the block.
   */
  async submit(tx: TypedTransaction, sender: Address): Promise<{ hash: string; mined?: MinedBlock; result?: ProducedBlock["results"][number] }> {
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
      throw new ChainError(`failed to check sender balance: sender balance < tx cost (${balance} < ${cost}): insufficient funds`);
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
      const mined = await this.mineBlock();
      const idx = mined.block.transactions.findIndex((t) => bytesToHex(t.hash()) === hash);
      if (idx >= 0) return { hash, mined, result: this._lastResults[idx] };
    }
    return { hash };
  }

  private _lastResults: ProducedBlock["results"] = [];

  /** Mines one block from the pool at `timestamp` (default: the clock's next block time). */
  async mineBlock(timestamp?: bigint): Promise<MinedBlock> {
    const parent = this._head;
    const ts = timestamp ?? this.clock.nextTimestamp(parent.header.timestamp, this.config.allowBlocksWithSameTimestamp);
    if (ts < parent.header.timestamp || (ts === parent.header.timestamp && !this.config.allowBlocksWithSameTimestamp)) {
      throw new ChainError(`timestamp ${ts} is lower than or equal to previous block's timestamp ${parent.header.timestamp}`);
    }
    const baseFee = this.nextBaseFee();
    const candidates = this.settings.paused
      ? []
      : this.pool
          .ordered(baseFee, this.config.mining.order)
          .filter((p) => maxFeeOf(p.tx) >= baseFee && maxFeeOf(p.tx) >= this.settings.minGasPrice)
          .map((p) => ({ tx: p.tx, sender: new Address(hexBytes(p.sender)) }));
    const produced = await produceBlock({
      vm: this.vm,
      parent,
      header: {
        timestamp: ts,
        gasLimit: this.settings.gasLimit,
        baseFeePerGas: baseFee,
        coinbase: this.settings.coinbase,
        extraData: this.settings.extraData,
        mixHash: keccak256(parent.hash()),
      },
      candidates,
      modules: this._moduleStores,
    });
    await this._commit(produced);
    for (const s of produced.skipped) if (s.invalid) this.pool.remove(bytesToHex(s.tx.hash()));
    for (const tx of produced.block.transactions) this.pool.remove(bytesToHex(tx.hash()));
    await this.pool.update((s) => this.getNonce(new Address(hexBytes(s))));
    this.settings.nextBaseFee = undefined;
    this.clock.didMine(ts);
    this._lastResults = produced.results;
    const mined = { block: produced.block, receipts: produced.receipts, events: produced.events };
    this.emit("block", mined);
    return mined;
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
      stateRoot: await this.vm.stateManager.getStateRoot(),
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
    const ops: BatchOp[] = [...this._trieDb.drainOps(), ...(await this.store.rewindOps(n))];
    for (const m of this._moduleStores) ops.push(...(await m.store.rewindOps(n)));
    await this.store.kv.batch(ops);
    this.store.didRewind(n);
    for (const m of this._moduleStores) await m.store.loadAt(n);
    this._head = (await this.store.getBlock(n)) as Block;
    await this.vm.stateManager.setStateRoot(stateRoot ?? this._head.header.stateRoot);
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
        .catch(() => undefined)
        .finally(() => this.armIntervalMining());
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
    });
  }

  // ---------------------------------------------------------------- internals

  /** `extra`: more operations for the same batch (the genesis meta record). */
  private async _commit(p: ProducedBlock, extra: BatchOp[] = []): Promise<void> {
    const n = p.block.header.number;
    const ops: BatchOp[] = [...this._trieDb.drainOps(), ...this.store.commitBlockOps(p.block, p.receipts, p.events), ...extra];
    for (const m of this._moduleStores) ops.push(...m.store.commitOps(n));
    await this.store.kv.batch(ops);
    this.store.didCommit(p.block, p.receipts);
    this._head = p.block;
  }

  private async _openOrInit(): Promise<void> {
    const head = await this.store.open();
    if (head >= 0n) {
      // identity first: blocks of another chain id do not even decode (their signatures name it)
      const genesis = await this.store.getBlock(0n);
      if (genesis === undefined) throw new Error(`data directory ${storeName(this.store.kv)} is damaged: its genesis block is missing`);
      const metaOps = await checkGenesisMeta(this.store.kv, this.config.chainId, bytesToHex(genesis.hash()));
      if (metaOps.length > 0) await this.store.kv.batch(metaOps);
      const headBlock = await this.store.getBlock(head);
      if (headBlock === undefined) throw new Error(`data directory ${storeName(this.store.kv)} is damaged: its head block ${head} is missing`);
      this._head = headBlock;
      await this.vm.stateManager.setStateRoot(this._head.header.stateRoot);
      for (const m of this._moduleStores) await m.store.loadAt(head);
      return;
    }
    const timestamp = BigInt(Math.floor((this.config.initialDate?.getTime() ?? Date.now()) / 1000));
    if (this.config.initialDate !== undefined) this.clock.jumpTo(timestamp);
    const sm = this.vm.stateManager;
    await sm.checkpoint();
    for (const a of this.config.accounts) {
      await sm.putAccount(createAddressFromPrivateKey(a.privateKey), createAccount({ balance: a.balance, nonce: 0n }));
    }
    const putCode = async (address: Uint8Array, code: Uint8Array): Promise<void> => {
      const a = new Address(address);
      // nonce 1 keeps the account from being cleared as empty (EIP-161)
      await sm.putAccount(a, createAccount({ nonce: 1n, balance: 0n }));
      await sm.putCode(a, code);
    };
    for (const m of this._moduleStores) await m.module.initGenesis?.({ height: 0n, timestamp, store: m.store, putCode });
    await sm.commit();
    const stateRoot = await sm.getStateRoot();
    const c = this.common;
    const genesis = createBlock(
      {
        header: {
          number: 0n,
          timestamp,
          gasLimit: this.config.blockGasLimit,
          stateRoot,
          coinbase: new Uint8Array(20),
          difficulty: 0n,
          nonce: new Uint8Array(8),
          extraData: new Uint8Array(),
          baseFeePerGas: c.isActivatedEIP(1559) ? this.config.initialBaseFeePerGas : undefined,
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
    const meta = genesisMetaOps({ chainId: this.config.chainId, genesisHash: bytesToHex(genesis.hash()) });
    await this._commit({ block: genesis, receipts: [], results: [], events: { begin: [], end: [] }, skipped: [] }, meta);
  }

  private _trackMessages(): void {
    const evm = this.vm.evm as unknown as { events?: EventEmitter };
    evm.events?.on("beforeMessage", (msg: { caller: Address }, resolve?: () => void) => {
      this._messageStack.push(msg.caller);
      resolve?.();
    });
    evm.events?.on("afterMessage", (_res: unknown, resolve?: () => void) => {
      this._messageStack.pop();
      resolve?.();
    });
  }
}

function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.slice(2), "hex"));
}

function sha256Empty(): Uint8Array {
  // requestsHash of an empty request list (EIP-7685): sha256 of nothing
  return new Uint8Array(Buffer.from("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "hex"));
}
