/**
 * The chain's EVM: EthereumJS's, with precompiles that appear while the chain runs. A Cosmos EVM
 * chain hosts an ERC-20 precompile at the address of every coin registered as a token pair (x/erc20:
 * an IBC voucher gets one when it first arrives), so the set of precompiles is not known when the VM
 * is made. EthereumJS reads its precompiles through the public `precompiles` getter only (its
 * `getPrecompile` for each message, `runTx` to warm them, as cosmos/evm warms the precompile it
 * calls); this subclass answers that getter with the hardfork's and the chain's fixed precompiles
 * plus the ones registered since (`DynamicPrecompiles`), shared by every VM of the chain.
 *
 * `copyChainVM` replaces `VM.shallowCopy` for the chain's VMs: EthereumJS's copy makes a plain EVM
 * (its own TODO says so), which would lose the registered precompiles.
 */
import type { Common, StateManagerInterface } from "@ethereumjs/common";
import { EVM, EVMError, type EVMMockBlockchainInterface, type EVMOpts, type EVMResult, type EVMRunCallOpts, type ExecResult, NobleBN254, type PrecompileFunc } from "@ethereumjs/evm";
import type { Address } from "@ethereumjs/util";
import { type VM, createVM } from "@ethereumjs/vm";
import { endsExecution, errorText } from "../base/errors";
import { revertData } from "../base/precompile";

/** Precompiles registered while the chain runs, by unprefixed lower-case hex address. Never removed: a precompile decides itself whether the state it runs in has it. */
export class DynamicPrecompiles {
  private readonly _byAddress = new Map<string, PrecompileFunc>();
  /** Bumped by each addition, so the VMs rebuild their merged maps. */
  version = 0;

  /** Adds `fn` at `address` (0x-prefixed); an address already registered keeps its function. */
  add(address: string, fn: () => PrecompileFunc): void {
    const key = address.slice(2).toLowerCase();
    if (this._byAddress.has(key)) return;
    this._byAddress.set(key, fn());
    this.version++;
  }

  entries(): IterableIterator<[string, PrecompileFunc]> {
    return this._byAddress.entries();
  }
}

/**
 * What a Solidity test's cheatcodes put around every message of its EVM (src/chain/testing/cheats.ts):
 * `next` runs the message as the EVM would. Only a test's own VM has one.
 */
interface MessageInterceptor {
  runCall(opts: EVMRunCallOpts, next: (opts: EVMRunCallOpts) => Promise<EVMResult>): Promise<EVMResult>;
}

/** Told of each precompile that threw (a fault of the node, not of the call): the precompile's address and the error. */
export type PrecompileFaults = (address: string, err: Error) => void;

export class ChainEVM extends EVM {
  /** Set on a Solidity test's VM only (src/chain/testing/test-vm.ts). */
  interceptor?: MessageInterceptor;
  private _merged?: { base: Map<string, PrecompileFunc>; version: number; map: Map<string, PrecompileFunc> };

  constructor(
    opts: EVMOpts,
    readonly dynamic: DynamicPrecompiles,
    readonly faults?: PrecompileFaults,
  ) {
    // createEVM's one default the chain does not pass itself
    super({ ...opts, bn254: new NobleBN254() });
  }

  /**
   * The EVM's boundary for every precompile of the chain (fixed, custom and registered while it runs):
   * what a precompile throws never leaves the EVM mid-message. A precompile fails its calls with an
   * ExecResult (src/chain/base/precompile.ts); anything else it throws is the node's bug: the call fails
   * as a revert that says so, consuming its gas, and `faults` is told. Only errors that end the whole
   * execution (src/chain/base/errors.ts, `endsExecution`) go on.
   */
  protected override async runPrecompile(code: PrecompileFunc, data: Uint8Array, gasLimit: bigint): Promise<ExecResult> {
    try {
      return await super.runPrecompile(code, data, gasLimit);
    } catch (err) {
      if (endsExecution(err)) throw err;
      const error = err instanceof Error ? err : new Error(String(err));
      const address = [...this.precompiles].find(([, fn]) => fn === code)?.[0];
      const at = address === undefined ? "a precompile" : `the precompile at 0x${address}`;
      this.faults?.(address === undefined ? "" : `0x${address}`, error);
      return { returnValue: revertData(`internal error in ${at}: ${errorText(error)}`), executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
    }
  }

  override runCall(opts: EVMRunCallOpts): Promise<EVMResult> {
    const interceptor = this.interceptor;
    if (interceptor === undefined) return super.runCall(opts);
    return interceptor.runCall(opts, (o) => this._runNested(o));
  }

  /**
   * A message, or a new top-level execution begun while another runs (an epoch hook's system call
   * inside a Solidity test): EthereumJS keeps one block and one origin for the running execution and
   * a top-level runCall replaces them, so the running one gets its own back when the inner one ends.
   */
  private async _runNested(opts: EVMRunCallOpts): Promise<EVMResult> {
    if (opts.message !== undefined) return super.runCall(opts);
    const block = this._block;
    const tx = this._tx;
    try {
      return await super.runCall(opts);
    } finally {
      if (block !== undefined) {
        this._block = block;
        this._tx = tx;
      }
    }
  }

  /**
   * ORIGIN and GASPRICE answer `fields` in frames begun from now (a test's `vm.prank(sender, origin)`,
   * `vm.txGasPrice`), until the returned function puts the running execution's back.
   */
  setTxFields(fields: { origin?: Address; gasPrice?: bigint }): () => void {
    const tx = this._tx;
    if (tx === undefined) return () => {};
    this._tx = { ...tx, ...fields };
    return () => {
      this._tx = tx;
    };
  }

  override get precompiles(): Map<string, PrecompileFunc> {
    const base = super.precompiles;
    const m = this._merged;
    if (m !== undefined && m.base === base && m.version === this.dynamic.version) return m.map;
    const map = new Map(this.dynamic.entries());
    // the fixed ones win an address both have
    for (const [k, v] of base) map.set(k, v);
    this._merged = { base, version: this.dynamic.version, map };
    return map;
  }

  /** A copy over `stateManager`, with the same options (but `overrides`) and the same dynamic precompiles. */
  copy(common: Common, stateManager: StateManagerInterface, blockchain: EVMMockBlockchainInterface, overrides: Partial<EVMOpts> = {}): ChainEVM {
    return new ChainEVM({ ...this._optsCached, ...overrides, common, stateManager, blockchain }, this.dynamic, this.faults);
  }
}

/** The chain's VM: a ChainEVM over `stateManager`. */
export async function createChainVM(opts: {
  common: Common;
  stateManager: StateManagerInterface;
  blockchain: EVMMockBlockchainInterface;
  evmOpts: EVMOpts;
  dynamic: DynamicPrecompiles;
  faults?: PrecompileFaults;
}): Promise<VM> {
  const { common, stateManager, blockchain } = opts;
  const evm = new ChainEVM({ ...opts.evmOpts, common, stateManager, blockchain }, opts.dynamic, opts.faults);
  return createVM({ common, stateManager, blockchain, evm });
}

/**
 * A VM over a copy of `base`'s state manager (its caches not shared: `shallowCopy(false)`), as
 * `VM.shallowCopy(false)` makes one, with a ChainEVM (`overrides`: EVM options of its own, as a
 * Solidity test's VM deploys test contracts of any size, as forge does).
 */
export async function copyChainVM(base: VM, overrides: Partial<EVMOpts> = {}): Promise<VM> {
  const common = base.common.copy();
  common.setHardfork(base.common.hardfork());
  const stateManager = base.stateManager.shallowCopy(false);
  const blockchain = base.blockchain.shallowCopy();
  if (!(base.evm instanceof ChainEVM)) throw new Error("the chain's VMs run a ChainEVM");
  const evm = base.evm.copy(common, stateManager, blockchain, overrides);
  return createVM({ common, stateManager, blockchain, evm });
}
