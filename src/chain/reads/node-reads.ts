/**
 * What `Node` (src/chain/node.ts) answers without changing anything: the chain instance's blocks,
 * states at committed roots, execution contexts, module stores and the dev settings in force. The
 * node's changing half extends it; nothing here takes the node's lock or needs it.
 */
import { EventEmitter } from "node:events";
import type { Block } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import type { Account, Address } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { type FeeHistory, feeHistory } from "../block/fee-history";
import { nextBaseFee } from "../block/miner";
import { type ReplayObserver, type ReplayResult, replayBlock } from "../block/replay";
import type { ChainConfig } from "../base/config";
import type { NodeSettings } from "../base/config";
import type { ContextOptions, ExecutionContext } from "../engine/context";
import { addressOfKey } from "../base/crypto";
import type { Fork } from "../fork/index";
import type { ModuleStore } from "../base/module-state";
import type { NodeEvents } from "./node-types";
import type { AddressIndex } from "../store/address-index";
import type { ChainState } from "../store/chain-state";
import type { CacheSizes } from "../store/cache-bounds";
import type { ChainStore, StoredReceipt } from "../store/chain-store";

/** A function's parameters after its first, the node's read half: what a service on the node (`node.calls`, `node.traces`) forwards. */
export type AfterNode<F> = F extends (node: NodeReads, ...rest: infer R) => unknown ? R : never;

export class NodeReads extends EventEmitter<NodeEvents> {
  /** The chain instance; replaced only inside the lock (hardhat_reset, a state load on a fresh node, evm_revert back over one). */
  protected _chain!: ChainState;
  protected _settings: NodeSettings;
  /** Dev accounts (funded at genesis) whose keys the node holds. */
  readonly keys = new Map<string, Uint8Array>();
  /** Accounts eth_sendTransaction may send from without their key (hardhat_impersonateAccount). */
  protected readonly _impersonated = new Set<string>();

  protected constructor(
    readonly config: ChainConfig,
    readonly common: Common,
  ) {
    super();
    this._settings = initialSettings(config);
    for (const a of config.accounts) this.keys.set(addressOfKey(a.privateKey).toString(), a.privateKey);
  }

  /** Read-only outside: the node changes it with impersonate / stopImpersonating. */
  get impersonated(): ReadonlySet<string> {
    return this._impersonated;
  }

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

  /**
   * When the store's head had lost its state (see ChainState.recovered), the block the chain opened
   * at instead, and the head it had; undefined when it opened at its head.
   */
  get recovered(): { head: bigint; at: bigint } | undefined {
    return this._chain.recovered;
  }

  /** The dev settings of block production; they change only through the node's setters, which do what each change implies. */
  get settings(): Readonly<NodeSettings> {
    return this._settings;
  }

  getBlock(n: bigint): Promise<Block | undefined> {
    return this._chain.getBlock(n);
  }

  /**
   * A mined transaction by hash: its block, its index there and the block's receipts (the one
   * lookup every by-hash method makes: receipt, logs, raw bytes, traces); undefined when no block
   * of this chain holds it.
   */
  async minedTransaction(hash: Uint8Array): Promise<{ block: Block; index: number; tx: Block["transactions"][number]; receipts: StoredReceipt[] } | undefined> {
    const loc = await this.store.getTxLocation(hash);
    if (loc === undefined) return undefined;
    const [block, receipts] = await Promise.all([this.getBlock(loc.blockNumber), this.store.getReceipts(loc.blockNumber)]);
    const tx = block?.transactions[loc.index];
    if (block === undefined || receipts === undefined || tx === undefined) return undefined;
    return { block, index: loc.index, tx, receipts };
  }

  /** Base fee of the next block: the one set by hardhat_setNextBlockBaseFeePerGas, else EIP-1559's rule. */
  nextBaseFee(): bigint {
    return nextBaseFee({ chain: this._chain, common: this.common, settings: this._settings });
  }

  /** eth_feeHistory's figures for `count` blocks ending at stored block `last` (src/chain/block/fee-history.ts). */
  feeHistory(count: bigint, last: bigint, percentiles?: readonly number[]): Promise<FeeHistory> {
    const source = {
      headNumber: () => this.headNumber,
      firstBlock: this.firstBlock,
      getBlock: (n: bigint) => this.getBlock(n),
      getReceipts: (n: bigint) => this.store.getReceipts(n),
      nextBaseFee: () => this.nextBaseFee(),
    };
    return feeHistory(source, count, last, percentiles);
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
  /** A VM of its own at the head for a Solidity test run (ChainState.testContext). */
  testContext(): ReturnType<ChainState["testContext"]> {
    return this._chain.testContext();
  }

  replayBlock(n: bigint, observer: ReplayObserver = {}, opts: ContextOptions = {}): Promise<ReplayResult> {
    return replayBlock(this._chain, n, observer, opts);
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

  getNonce(address: Address): Promise<bigint> {
    return this._chain.nonceAtHead(address);
  }

  /** Module `name`'s store at block `height` (default and above: the head, with changes made since), read-only. */
  moduleStore(name: string, height: bigint = this.headNumber): Promise<ModuleStore> {
    return this._chain.moduleStoreAt(name, height);
  }

  /** How full the live state's caches and the trie node cache are (bounded by `NodeOptions.cacheBounds`). */
  cacheSizes(): CacheSizes {
    return this._chain.cacheSizes();
  }
}

/** The block-production settings a new chain starts with (from its config). */
export function initialSettings(config: ChainConfig): NodeSettings {
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
