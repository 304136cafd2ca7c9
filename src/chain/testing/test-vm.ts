/**
 * The VM a Solidity test contract runs in: a VM of its own over the chain's head state (the
 * precompiles, module stores and hooks of the chain live in it), with forge's cheatcodes
 * (src/chain/testing/cheats.ts) and the chain's own (src/chain/testing/chain-cheats.ts). The runner
 * (src/host/solidity-tests/runner.ts) deploys the test contract, calls `setUp()`, and runs each test
 * from the state `setUp` left (`mark` / `rewind`); nothing reaches the chain itself.
 */
import type { Block } from "@ethereumjs/block";
import type { EVMResult } from "@ethereumjs/evm";
import { Message } from "@ethereumjs/evm";
import { Account, Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import type { ExecEnv } from "../engine/context";
import { ChainEVM } from "../engine/evm";
import { ChainCommon } from "../engine/common";
import { checkpointDepth, revertToDepth } from "../engine/isolation";
import type { NodeReads } from "../reads/node-reads";
import { TestBlockEnv, liveBlock } from "./cheat-env";
import type { CheatContext } from "./cheat-handlers";
import { CheatFailure } from "./cheat-failure";
import { Cheats, VM_ADDRESS } from "./cheats";
import { type EpochClock, ChainCheats } from "./chain-cheats";
import { LogWatch } from "./log-watch";

/** forge's sender of test calls and deployer of test contracts. */
export const TEST_SENDER = new Address(hexToBytes("0x1804c8AB1F12E6bbf3894d4083f33e07309d1f38"));
/** Gas a test call may use (forge's default gas limit for a test). */
const TEST_GAS = 1n << 60n;

interface TestVmOptions {
  /** Creation or deployed bytecode of a project contract (vm.getCode and deployCode); throws when unknown. */
  artifactCode(name: string, deployed: boolean): Uint8Array;
  environment: Readonly<Record<string, string | undefined>>;
  /** The epochs module's clock, for the chain's own cheats (undefined: a chain without it). */
  epochs?: EpochClock;
  /** The validator operator address of an account (undefined: a chain without staking). */
  valoper?(address: Uint8Array): string;
  /** Each console.log call's data. */
  console?(data: Uint8Array): void;
}

interface CallOutcome {
  success: boolean;
  returnValue: Uint8Array;
  gasUsed: bigint;
  createdAddress?: Address;
}

export class TestVm {
  readonly cheats: Cheats;
  private _snapshots = new Map<bigint, { depth: number; env: TestBlockEnv; chainId?: bigint }>();
  private _nextSnapshot = 0n;

  private constructor(
    readonly vm: VM,
    private readonly _env: ExecEnv,
    readonly blockEnv: TestBlockEnv,
    private readonly _common: ChainCommon,
    opts: TestVmOptions,
    chainCheats: ChainCheats,
  ) {
    const evm = vm.evm as ChainEVM;
    const ctx: Omit<CheatContext, "cheats" | "depth" | "fn" | "caller"> = {
      state: vm.stateManager,
      setOrigin: (origin) => evm.setTxFields({ origin }),
      setGasPrice: (gasPrice) => void evm.setTxFields({ gasPrice }),
      setChainId: (id) => {
        this._common.chainIdOverride = id;
      },
      artifactCode: (name, deployed) => {
        try {
          return opts.artifactCode(name, deployed);
        } catch (err) {
          throw new CheatFailure((err as Error).message);
        }
      },
      create: (caller, initcode, value, depth) => this._create(caller, initcode, value, depth),
      snapshot: () => this._snapshot(),
      revertTo: (id, remove) => this._revertTo(id, remove),
      deleteSnapshot: (id) => {
        if (id === undefined) {
          this._snapshots.clear();
          return true;
        }
        return this._snapshots.delete(id);
      },
      environment: opts.environment,
    };
    this.cheats = new Cheats(blockEnv, ctx as Omit<CheatContext, "cheats">, new LogWatch(vm.evm.events), {
      address: chainCheats.address,
      run: (data) => chainCheats.run(data),
      running: () => chainCheats.running,
    });
    evm.interceptor = this.cheats;
  }

  /** A test VM over `node`'s head. */
  static async open(node: NodeReads, opts: TestVmOptions): Promise<TestVm> {
    const { vm, env, head, modules, moduleStores } = await node.testContext();
    if (!(vm.evm instanceof ChainEVM) || !(vm.common instanceof ChainCommon)) throw new Error("a test VM runs the chain's EVM");
    const blockEnv = new TestBlockEnv(nextBlock(head));
    liveBlock(env, blockEnv);
    if (opts.console !== undefined) env.console = opts.console;
    // calls to the cheatcode address must see code there (Solidity checks a callee has code)
    await vm.stateManager.putAccount(new Address(hexToBytes(VM_ADDRESS)), new Account());
    await vm.stateManager.putCode(new Address(hexToBytes(VM_ADDRESS)), new Uint8Array([0x00]));
    const chainCheats = new ChainCheats(vm, env, blockEnv, modules, moduleStores, opts.epochs, opts.valoper?.bind(opts));
    await vm.stateManager.putAccount(new Address(chainCheats.address), new Account());
    await vm.stateManager.putCode(new Address(chainCheats.address), new Uint8Array([0x00]));
    const sender = (await vm.stateManager.getAccount(TEST_SENDER)) ?? new Account();
    sender.balance = 2n ** 96n;
    await vm.stateManager.putAccount(TEST_SENDER, sender);
    return new TestVm(vm, env, blockEnv, vm.common, opts, chainCheats);
  }

  /** Runs a top-level call (or a creation, `to` undefined) from `from` in the test's block. */
  async call(from: Address, to: Address | undefined, data: Uint8Array, value = 0n): Promise<CallOutcome> {
    const depth = checkpointDepth(this.vm);
    let r: EVMResult;
    try {
      r = await this.vm.evm.runCall({ caller: from, origin: from, to, data, value, gasLimit: TEST_GAS, gasPrice: this.blockEnv.gasPrice, block: this.blockEnv.block(), skipBalance: true });
    } finally {
      this._env.messages.length = 0;
      liveBlock(this._env, this.blockEnv);
    }
    const ex = r.execResult;
    // a call that took a snapshot leaves a checkpoint its frames did not close: kept or undone with the call
    if (ex.exceptionError !== undefined) await revertToDepth(this.vm, depth);
    else while (checkpointDepth(this.vm) > depth) await this.vm.stateManager.commit();
    return { success: ex.exceptionError === undefined, returnValue: ex.returnValue, gasUsed: ex.executionGasUsed, createdAddress: r.createdAddress };
  }

  /** Sets an account's balance (the test contract's, once deployed). */
  async setBalance(address: Address, balance: bigint): Promise<void> {
    const acc = (await this.vm.stateManager.getAccount(address)) ?? new Account();
    acc.balance = balance;
    await this.vm.stateManager.putAccount(address, acc);
  }

  /** Bounds the next calls to `ms` milliseconds of running (0: none): past it the call ends with the chain's execution timeout. */
  setDeadline(ms: number): void {
    this._env.deadline = ms > 0 ? Date.now() + ms : undefined;
    this._env.timeoutMs = ms;
  }

  /** A mark of the state, the block env and the cheats' settings to come back to (`rewind`). */
  async mark(): Promise<{ depth: number; env: TestBlockEnv; chainId?: bigint }> {
    const depth = checkpointDepth(this.vm);
    await this.vm.stateManager.checkpoint();
    return { depth, env: this.blockEnv.copy(), chainId: this._common.chainIdOverride };
  }

  /** Back to `mark`, which stays usable. */
  async rewind(m: { depth: number; env: TestBlockEnv; chainId?: bigint }): Promise<void> {
    await revertToDepth(this.vm, m.depth);
    await this.vm.stateManager.checkpoint();
    Object.assign(this.blockEnv, m.env.copy());
    this._common.chainIdOverride = m.chainId;
    this.cheats.reset();
    this._snapshots.clear();
    this.vm.evm.journal.cleanJournal();
  }

  private async _create(caller: Address, initcode: Uint8Array, value: bigint, depth: number): Promise<Address | Uint8Array> {
    const sm = this.vm.stateManager;
    const acc = (await sm.getAccount(caller)) ?? new Account();
    acc.nonce += 1n;
    await sm.putAccount(caller, acc);
    const message = new Message({ caller, data: initcode, value, gasLimit: TEST_GAS, depth, selfdestruct: new Map(), createdAddresses: new Set() });
    const r = await this.vm.evm.runCall({ message });
    if (r.execResult.exceptionError !== undefined || r.createdAddress === undefined) return r.execResult.returnValue;
    return r.createdAddress;
  }

  /**
   * `vm.snapshotState`: a checkpoint of the state manager under the test frame's own, which the
   * test's later frames open and close above; `vm.revertToState` reverts down to it (and opens it
   * again). Taken and reverted to from the same frame, as tests do; a snapshot whose checkpoint a
   * returning frame closed is gone (`revertToState` answers false).
   */
  private async _snapshot(): Promise<bigint> {
    const depth = checkpointDepth(this.vm);
    await this.vm.stateManager.checkpoint();
    const id = this._nextSnapshot++;
    this._snapshots.set(id, { depth, env: this.blockEnv.copy(), chainId: this._common.chainIdOverride });
    return id;
  }

  private async _revertTo(id: bigint, remove: boolean): Promise<boolean> {
    const s = this._snapshots.get(id);
    if (s === undefined || checkpointDepth(this.vm) <= s.depth) return false;
    await revertToDepth(this.vm, s.depth);
    for (const [other, o] of this._snapshots) if (o.depth > s.depth) this._snapshots.delete(other);
    if (remove) this._snapshots.delete(id);
    else await this.vm.stateManager.checkpoint();
    Object.assign(this.blockEnv, s.env.copy());
    this._common.chainIdOverride = s.chainId;
    return true;
  }
}

/** The block after `head`: the one a test's calls run in (one second later). */
function nextBlock(head: Block): Block {
  const h = head.header;
  return Object.create(head, {
    header: {
      value: Object.create(h, { number: { value: h.number + 1n }, timestamp: { value: h.timestamp + 1n } }),
    },
  }) as Block;
}
