/**
 * One chain instance: its VM and live state, its block store and trie database, its modules (whose
 * stores are EVM state: src/chain/base/module-state.ts), and the read-only states and execution contexts served from them. hardhat_reset swaps the whole
 * instance (src/chain/node.ts); blocks move it forward through src/chain/block/commit.ts.
 *
 * Reads and executions that keep nothing (calls, estimates, traces, state reads) run here without
 * the node's lock: on a read-only state at a committed root (`stateAt`) or in an execution context
 * (`contextAt`). Only block production and dev changes touch the live VM, inside the lock.
 */
import type { Block } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { CustomPrecompile, PrecompileFunc } from "@ethereumjs/evm";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import { type Account, Address, KECCAK256_RLP, ValueEncoding, createAccountFromRLP, equalsBytes, createAddressFromString } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { DynamicPrecompiles, type PrecompileFaults, copyChainVM, createChainVM } from "../engine/evm";
import type { KVStore } from "../../storage/kv";
import { readLegacyModuleSet } from "../../storage/legacy-module-log";
import { TrieDB } from "../../storage/trie-db";
import { SteadyRuns } from "./steady-runs";
import { ChainStore } from "./chain-store";
import type { ChainConfig } from "../base/config";
import { type ContextOptions, type ExecEnv, type ExecutionContext, VmPool, bindEnv, chainOpcodes, envOf, trackMessages } from "../engine/context";
import type { StepRelay } from "../engine/step-relay";
import { ChainError } from "../base/errors";
import type { Fork } from "../fork";
import { installJumpAnalysisCache } from "../engine/jump-analysis";
import type { BlockModule } from "../base/module";
import { MemoryModuleStore, type ModuleStore, readModuleStore, slotReader, writeModuleStore } from "../base/module-state";
import { AddressIndex } from "./address-index";
import { ModuleStores } from "./module-stores";
import { Preimages } from "../engine/preimages";
import { ChainStateManager } from "../engine/state-manager";
import { checkpointDepth } from "../engine/isolation";
import type { CacheBounds, CacheSizes } from "./cache-bounds";

/** What a module's precompile may ask of the chain while it executes. */
export interface PrecompileContext {
  /**
   * The env of the execution that runs the precompile, found from its EVM (`PrecompileInput._EVM`):
   * the message stack (msg.sender, static or not) and the module stores of that execution's height.
   */
  envOf(evm: object): ExecEnv;
  /**
   * Adds a precompile while the chain runs (x/erc20's token pairs, as they are registered): `make` is
   * called once, and an address already added keeps its function. The set is the node's, shared by every
   * chain it opens (a reset's, a state load's, one an evm_revert brings back): a precompile answers from
   * the state it runs in, so on a chain without its pair it acts as none.
   */
  addPrecompile(address: string, make: () => PrecompileFunc): void;
}

export interface ChainStateOptions {
  config: ChainConfig;
  common: Common;
  kv: KVStore;
  modules: BlockModule[];
  precompiles?: (ctx: PrecompileContext) => CustomPrecompile[];
  /** The precompiles added while the chain runs (src/chain/engine/evm.ts): the node's set, shared by the chains it opens. */
  added: DynamicPrecompiles;
  fork?: Fork;
  /** A chain that starts at a later block than 0 without a remote: a loaded state dump's (src/chain/dev/state-dump.ts). */
  start?: ChainStart;
  cacheBounds: CacheBounds;
  /**
   * Receives console.log data: of the live VM (block production; no origin, the node knows what
   * runs) and of contexts that asked for it (`origin` "call").
   */
  console(data: Uint8Array, call?: true): void;
  /** Receives coverage tags: of the live VM and of the contexts that report console.log. */
  coverage(tag: Uint8Array): void;
  /** Relays the step events of the same executions, while someone listens (src/chain/engine/step-relay.ts). */
  steps?: StepRelay;
  /** Told of a precompile that threw: the node's bug, which its call met as a revert (src/chain/engine/evm.ts). */
  precompileFault?: PrecompileFaults;
}

/** Where a chain without a remote starts when not at block 0: the number and time of its first block. */
export interface ChainStart {
  number: bigint;
  timestamp: bigint;
}

export class ChainState {
  /**
   * The head block; undefined only before the genesis block is written (src/chain/block/open-chain.ts).
   * Moved by src/chain/block/commit.ts.
   */
  head!: Block;
  /**
   * The root of the live state as committed: the head's state root plus any hardhat_set* changes
   * made since (they are written with the next block). Contexts and reads at the head use it.
   */
  liveRoot: Uint8Array = KECCAK256_RLP;
  /** A read-only state at `liveRoot` for reads at the head (rebuilt when the root moves). */
  private _reader: { root: Uint8Array; sm: MerkleStateManager } | undefined;
  /** Changes of the live state under way (`changingLive`): while one runs, the live caches hold values not yet committed. */
  private _liveChanges = 0;
  /** The chain's modules, in the order their phases run. */
  readonly modules: readonly BlockModule[];
  /**
   * Set when the store's head had lost its state (a block committed by an earlier version whose trie
   * nodes never reached the store): the chain opened at block `at` instead of `head`, whose blocks
   * above were dropped (src/chain/block/open-chain.ts).
   */
  recovered: { head: bigint; at: bigint } | undefined;
  /** Where the modules' stores live in the state, and the ones last committed (src/chain/store/module-stores.ts). */
  readonly moduleStores: ModuleStores;
  /** Addresses and slots behind the state trie's hashed keys (src/chain/engine/preimages.ts). */
  readonly preimages: Preimages;
  /** Which transactions touch each address (src/chain/store/address-index.ts). */
  readonly addressIndex: AddressIndex;
  private readonly _vms: VmPool;

  private constructor(
    readonly config: ChainConfig,
    readonly common: Common,
    readonly vm: VM,
    readonly store: ChainStore,
    readonly trieDb: TrieDB,
    /** The live state manager's read-through caches (see `boundCaches` in src/chain/block/commit.ts). */
    readonly caches: Caches,
    readonly cacheBounds: CacheBounds,
    readonly fork: Fork | undefined,
    readonly start: ChainStart | undefined,
    modules: BlockModule[],
    private readonly _console: ChainStateOptions["console"],
    private readonly _coverage: ChainStateOptions["coverage"],
    private readonly _steps: StepRelay | undefined,
  ) {
    this.modules = modules;
    store.steadyRuns = new SteadyRuns(
      () => this.modules,
      (root) => this._stateAtRoot(root),
    );
    this.moduleStores = new ModuleStores(store.kv);
    this.preimages = new Preimages(store.kv);
    if (vm.stateManager instanceof ChainStateManager) vm.stateManager.preimages = this.preimages;
    this.addressIndex = new AddressIndex(store.kv);
    this.addressIndex.attach(vm);
    this._vms = new VmPool(vm, 8, cacheBounds.liveEntries);
    // the live VM's precompiles see the block being built: the module stores as its state holds them
    bindEnv(vm, {
      messages: [],
      moduleStore: (name) => this.moduleStores.readModuleStore(this.module(name), vm.stateManager, this.headNumber),
      console: (data) => this._console(data),
      coverage: this._coverage,
      stepTap: _steps?.tap,
    });
    _steps?.watchLive(vm);
  }

  /** Builds the VM over `opts.kv` (nothing is read yet: src/chain/block/open-chain.ts opens or initialises it). */
  static async create(opts: ChainStateOptions): Promise<ChainState> {
    const { config, common, kv } = opts;
    // in memory the store is the cache: a node cache there would only hold second copies
    const trieDb = new TrieDB(kv, { cacheSize: kv.inMemory ? 0 : opts.cacheBounds.trieNodes });
    const trie = new MerklePatriciaTrie({ db: trieDb, useKeyHashing: true, common, valueEncoding: ValueEncoding.Bytes });
    // read-through caches: without them every account read walks the trie (keccak + RLP per node)
    const caches = new Caches();
    const stateManager = opts.fork !== undefined ? opts.fork.stateManager({ trie, common, caches }) : new ChainStateManager({ trie, common, caches });
    const store = new ChainStore(kv, common, opts.cacheBounds.blocks);
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
    const customPrecompiles = opts.precompiles?.({ envOf: requireEnv, addPrecompile: (address, make) => opts.added.add(address, make) }) ?? [];
    installJumpAnalysisCache();
    const vm = await createChainVM({
      common,
      stateManager,
      blockchain,
      evmOpts: { allowUnlimitedContractSize: config.allowUnlimitedContractSize, customPrecompiles, customOpcodes: chainOpcodes(common, opts.steps?.opcodes) },
      dynamic: opts.added,
      faults: opts.precompileFault,
    });
    trackMessages(vm);
    return new ChainState(config, common, vm, store, trieDb, caches, opts.cacheBounds, opts.fork, opts.start, opts.modules, opts.console, opts.coverage, opts.steps);
  }

  get headNumber(): bigint {
    return this.head.header.number;
  }

  /** The chain's first block: 0, the fork block of a forked chain, or a loaded dump's block. */
  get firstBlock(): bigint {
    return this.fork?.block.number ?? this.start?.number ?? 0n;
  }

  async getBlock(n: bigint): Promise<Block | undefined> {
    return n === this.headNumber ? this.head : this.store.getBlock(n);
  }

  module(name: string): BlockModule {
    const m = this.modules.find((x) => x.name === name);
    if (m === undefined) throw new Error(`no module ${name}`);
    return m;
  }

  /**
   * Writes into the live state, as a hardhat_set* change is (the next block carries it, every block
   * header stays what it was), the store of each module whose store is logged beside the chain
   * (`moduleStores.legacyLogs`) and whose record the live state does not hold: when a data directory of an older
   * version opens, and after a rewind to one of its blocks. From then on the state holds the store,
   * so blocks made after a rewind never read the log's later heights (they belong to blocks the
   * rewind dropped).
   */
  async adoptLoggedStores(): Promise<void> {
    if (this.moduleStores.legacyLogs.size === 0) return;
    const modules = this.modules.filter((m) => this.moduleStores.legacyLogs.has(m.name));
    const missing: BlockModule[] = [];
    for (const module of modules) if ((await readModuleStore(slotReader(this.vm.stateManager), this.moduleStores.storeAccount(module))) === undefined) missing.push(module);
    if (missing.length === 0) return;
    await this.modifyState(async (sm) => {
      for (const module of missing) {
        const logged = MemoryModuleStore.readOnly(await readLegacyModuleSet(this.store.kv, module.name, this.headNumber));
        await writeModuleStore(sm, this.moduleStores.storeAccount(module), MemoryModuleStore.writable(logged));
      }
    });
  }

  /** Module `name`'s store at block `height` (the live state at the head), read-only. */
  async moduleStoreAt(name: string, height: bigint): Promise<ModuleStore> {
    const h = height > this.headNumber ? this.headNumber : height;
    const root = h === this.headNumber ? this.liveRoot : (await this.getBlock(h))?.header.stateRoot;
    return this.moduleStores.readModuleStore(this.module(name), await this.stateAt(h), h, root);
  }

  /**
   * A read-only state at block `n` (at the head: the live state as committed, hardhat_set* changes
   * included). Safe without the lock: it reads a committed root, and trie nodes are never deleted.
   */
  async stateAt(n: bigint): Promise<MerkleStateManager> {
    if (n >= this.headNumber) {
      const root = this.liveRoot;
      const r = this._reader;
      if (r !== undefined && equalsBytes(r.root, root)) {
        // a read-only state: emptying its caches loses nothing, and keeps many reads at one head bounded
        if (r.sm instanceof ChainStateManager && r.sm.cacheEntries() > this.cacheBounds.liveEntries) r.sm.clearCaches();
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
   * An account in the live state as committed, for reads the node makes between blocks (pending
   * nonces, the sender check of a submitted transaction). Never through the live state manager: its
   * caches record every read and flush it into the next block's trie, which on a fork would put the
   * remote's accounts into that block's state root. An account the live caches hold (as a block or
   * hardhat_set* left it) is decoded from them without changing them; any other is read from the
   * read-only state at the head. The caches are read only while no change of the live state is under
   * way (`changingLive`): a read that comes in while a block is produced answers from the last
   * committed state, never from the block's unfinished one.
   */
  async accountAtHead(address: Address): Promise<Account | undefined> {
    const cached = this._liveChanges === 0 ? this.caches.account?.get(address) : undefined;
    if (cached !== undefined) return cached.accountRLP === undefined ? undefined : createAccountFromRLP(cached.accountRLP);
    return (await this.stateAt(this.headNumber)).getAccount(address);
  }

  /**
   * Runs a change of the live state (block production, a rewind, `modifyState`): until it ends, reads
   * at the head (`accountAtHead`, `codeAtHead`) go to the committed state at `liveRoot` instead of
   * the live caches, which hold the change's values before they are committed.
   */
  async changingLive<T>(fn: () => Promise<T>): Promise<T> {
    this._liveChanges++;
    try {
      return await fn();
    } finally {
      this._liveChanges--;
    }
  }

  /** An account's nonce at the head, read as `accountAtHead` reads it; a pooled sender may be given as its hex (the pool's key). */
  async nonceAtHead(address: Address | string): Promise<bigint> {
    return (await this.accountAtHead(typeof address === "string" ? createAddressFromString(address) : address))?.nonce ?? 0n;
  }

  /**
   * A contract's code in the live state as committed, read as `accountAtHead` reads accounts: from the
   * live caches when they hold the account (and its code), else from the read-only state at the head.
   * Spares building a head reader for a block that nothing else reads (the node's log names the
   * contract of every mined transaction).
   */
  async codeAtHead(address: Address): Promise<Uint8Array> {
    if (this._liveChanges > 0) return (await this.stateAt(this.headNumber)).getCode(address);
    const cached = this.caches.code?.get(address);
    if (cached !== undefined) return cached.code ?? new Uint8Array();
    const account = this.caches.account?.get(address);
    if (account !== undefined && (account.accountRLP === undefined || !createAccountFromRLP(account.accountRLP).isContract())) return new Uint8Array();
    return (await this.stateAt(this.headNumber)).getCode(address);
  }

  /**
   * An execution context at block `height` (the head's live state for the head): a VM of its own
   * and an optional deadline. Release it after use.
   */
  async contextAt(height: bigint, opts: ContextOptions = {}): Promise<ExecutionContext> {
    const head = this.head;
    if (height >= head.header.number) return this.context(head, this.liveRoot, opts);
    if (this.fork !== undefined && height < this.fork.block.number) {
      throw new ChainError(`block ${height} is below the fork block ${this.fork.block.number}: calls run at the fork block or later (state reads of older blocks go to the remote)`);
    }
    const block = await this.getBlock(height);
    if (block === undefined) throw new ChainError("header not found");
    return this.context(block, block.header.stateRoot, opts);
  }

  /** A context over state `root` after `block`; its precompiles read the module stores of that state. */
  async context(block: Block, root: Uint8Array, opts: ContextOptions): Promise<ExecutionContext> {
    const { vm, touched } = await this._vms.acquire(root);
    const timeoutMs = opts.timeoutMs ?? 0;
    const moduleStore = (name: string): Promise<ModuleStore> => this.moduleStores.readModuleStore(this.module(name), vm.stateManager, block.header.number);
    const env: ExecEnv = { messages: [], moduleStore, deadline: timeoutMs > 0 ? Date.now() + timeoutMs : undefined, timeoutMs };
    let unrelay: (() => void) | undefined;
    if (opts.consoleLog === true) {
      env.console = (data) => this._console(data, true);
      env.coverage = this._coverage;
      env.stepTap = this._steps?.tap;
      unrelay = this._steps?.during(vm);
    }
    bindEnv(vm, env);
    let released = false;
    const ctx: ExecutionContext = {
      height: block.header.number,
      block,
      vm,
      env,
      touched,
      release: () => {
        if (released) return;
        released = true;
        unrelay?.();
        // a VM whose execution was cut short may hold an open checkpoint: never reuse it
        this._vms.release(vm, root, env.messages.length === 0 && checkpointDepth(vm) === 0, ctx.touched);
      },
    };
    return ctx;
  }

  /**
   * A VM of its own over the head's state, never pooled nor released (a Solidity test run,
   * src/chain/testing/test-vm.ts), its env bound, and what runs the modules' block phases on it.
   */
  async testContext(): Promise<{ vm: VM; env: ExecEnv; head: Block; modules: readonly BlockModule[]; moduleStores: ModuleStores }> {
    const head = this.head;
    const vm = await copyChainVM(this.vm, { allowUnlimitedContractSize: true, allowUnlimitedInitCodeSize: true });
    trackMessages(vm);
    await vm.stateManager.setStateRoot(this.liveRoot);
    const moduleStore = (name: string): Promise<ModuleStore> => this.moduleStores.readModuleStore(this.module(name), vm.stateManager, head.header.number);
    const env: ExecEnv = { messages: [], moduleStore };
    bindEnv(vm, env);
    return { vm, env, head, modules: this.modules, moduleStores: this.moduleStores };
  }

  /**
   * Changes the live state outside a block (hardhat_set*, epochs_registerHooks): all of `change` or
   * nothing, then published to reads at the head. Run inside the lock.
   */
  modifyState(change: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    return this.changingLive(() => this._modifyState(change));
  }

  private async _modifyState(change: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    const sm = this.vm.stateManager as MerkleStateManager;
    await sm.checkpoint();
    try {
      // a write into a module's store (hardhat_setStorageAt on its account) must leave it readable,
      // as a loaded dump must: an undecodable store would halt block production at every block
      const written = sm instanceof ChainStateManager ? await sm.watchingStorage(() => change(sm)) : (await change(sm), undefined);
      for (const module of this.modules) {
        if (written !== undefined && !written.has(new Address(this.moduleStores.storeAccount(module)).toString())) continue;
        const why = await this.moduleStores.checkModuleState(module, slotReader(sm));
        if (why !== undefined) throw new ChainError(`refused, as it would leave the state unreadable: ${why}`);
      }
      await sm.commit();
    } catch (err) {
      await sm.revert();
      throw err;
    }
    this.liveRoot = await sm.getStateRoot();
    await this.preimages.flush();
  }

  /** How full the live state's caches and the trie node cache are (bounded by `cacheBounds`). */
  cacheSizes(): CacheSizes {
    const c = this.caches;
    const reader = this._reader?.sm;
    return {
      account: c.account?.size() ?? 0,
      storage: c.storage?.size() ?? 0,
      code: c.code?.size() ?? 0,
      trieNodes: this.trieDb.cacheCount,
      reader: reader instanceof ChainStateManager ? reader.cacheEntries() : 0,
      blocks: this.store.cachedBlocks,
    };
  }
}

function requireEnv(evm: object): ExecEnv {
  const env = envOf(evm);
  if (env === undefined) throw new Error("a precompile ran in an EVM the chain did not make");
  return env;
}
