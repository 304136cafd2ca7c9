/**
 * The chain's own cheatcodes for Solidity tests, in forge's style (an interface at a fixed address,
 * contracts/test/IEpochsCheats.sol): make blocks inside a test — every module's begin- and end-block
 * work, epoch ticks and the contract hooks they call — and read an epoch's number. The blocks run
 * on the test's own state and block env (`vm.warp` and `vm.roll` move with them); the logs of the
 * hooks they call come back as the logs of the cheatcode call, so `vm.expectEmit` and
 * `vm.recordLogs` see them.
 */
import type { EVMResult } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import type { VM } from "@ethereumjs/vm";
import { Interface } from "ethers/abi";
import { getBytes, hexlify } from "ethers/utils";
import { keccak256 } from "../../utils/keccak";
import type { BlockModule, ModuleEvent } from "../base/module";
import type { ModuleStore } from "../base/module-state";
import { revertData } from "../base/precompile";
import { type ModuleStores, runPhase } from "../block/block-producer";
import type { ExecEnv } from "../engine/context";
import { type TestBlockEnv, liveBlock } from "./cheat-env";

/** What the chain's cheats need of the epochs module (src/epochs/index.ts answers it). */
export interface EpochClock {
  /** The module's name (its store). */
  readonly module: string;
  /** The timer's current epoch number; throws for an unknown one. */
  currentEpoch(store: ModuleStore, identifier: string): bigint;
  /** The block time at which a block moves the timer on. */
  nextMoveTime(store: ModuleStore, identifier: string): bigint;
}

const CHAIN_CHEATS_ABI = new Interface([
  "function advanceEpoch(string identifier) returns (uint256 epochNumber)",
  "function advanceBlocks(uint256 count, uint256 secondsPerBlock)",
  "function currentEpoch(string identifier) view returns (uint256)",
  "function validatorAddress(address operator) view returns (string)",
]);

/** Blocks one advanceEpoch may make before it gives up (a timer a hook or the tick rule keeps from moving). */
const MAX_BLOCKS_PER_EPOCH = 16;

export class ChainCheats {
  /** keccak256("hardhat-epochs cheat code"), last 20 bytes: where tests reach these cheats. */
  readonly address = keccak256(new TextEncoder().encode("hardhat-epochs cheat code")).subarray(12);
  /** Set while blocks run: the hooks' messages are the chain's, not the test's (no prank, no expectation applies). */
  running = false;

  constructor(
    private readonly _vm: VM,
    private readonly _env: ExecEnv,
    private readonly _blockEnv: TestBlockEnv,
    private readonly _modules: readonly BlockModule[],
    private readonly _stores: ModuleStores,
    private readonly _epochs: EpochClock | undefined,
    /** The chain's validator operator address (`…valoper1…`) of an account, as the staking precompile takes it. */
    private readonly _valoper: ((address: Uint8Array) => string) | undefined,
  ) {}

  async run(data: Uint8Array): Promise<EVMResult> {
    let fn;
    try {
      fn = CHAIN_CHEATS_ABI.parseTransaction({ data: hexlify(data) });
    } catch {
      fn = null;
    }
    if (fn === null) return fail("epochs cheats: unknown function");
    try {
      if (fn.name === "advanceBlocks") {
        const [count, seconds] = fn.args as unknown as [bigint, bigint];
        if (count > 10_000n) return fail("epochs cheats: advanceBlocks makes at most 10000 blocks");
        const logs = [];
        for (let i = 0n; i < count; i++) logs.push(...(await this._block(this._blockEnv.timestamp + seconds)));
        return ok(new Uint8Array(), logs);
      }
      if (fn.name === "validatorAddress") {
        if (this._valoper === undefined) return fail("epochs cheats: this chain runs no staking module");
        return ok(getBytes(CHAIN_CHEATS_ABI.encodeFunctionResult(fn.fragment, [this._valoper(getBytes(String(fn.args[0])))])));
      }
      const epochs = this._epochs;
      if (epochs === undefined) return fail("epochs cheats: this chain runs no epochs module");
      const id = String(fn.args[0]);
      const store = (): Promise<ModuleStore> => this._env.moduleStore(epochs.module);
      const before = epochs.currentEpoch(await store(), id);
      if (fn.name === "currentEpoch") return ok(getBytes(CHAIN_CHEATS_ABI.encodeFunctionResult(fn.fragment, [before])));
      const logs = [];
      let now = before;
      for (let blocks = 0; now <= before; blocks++) {
        if (blocks >= MAX_BLOCKS_PER_EPOCH) return fail(`epochs cheats: epoch "${id}" did not advance after ${blocks} blocks`);
        const at = epochs.nextMoveTime(await store(), id);
        logs.push(...(await this._block(at > this._blockEnv.timestamp ? at : this._blockEnv.timestamp + 1n)));
        now = epochs.currentEpoch(await store(), id);
      }
      return ok(getBytes(CHAIN_CHEATS_ABI.encodeFunctionResult(fn.fragment, [now])), logs);
    } catch (err) {
      return fail(`epochs cheats: ${(err as Error).message}`);
    }
  }

  /** One block at `timestamp` on the test's state: every module's begin- and end-block work; the logs of the EVM code it ran. */
  private async _block(timestamp: bigint): Promise<Array<[Uint8Array, Uint8Array[], Uint8Array]>> {
    this._blockEnv.number += 1n;
    this._blockEnv.timestamp = timestamp;
    const block = this._blockEnv.block();
    const stores = { source: this._stores, loaded: new Map() };
    const events: ModuleEvent[] = [];
    const messages = this._env.messages.splice(0);
    this.running = true;
    try {
      await runPhase("begin_block", this._vm, block, this._modules, stores, events, { inExecution: true });
      await runPhase("end_block", this._vm, block, this._modules, stores, events, { inExecution: true });
    } finally {
      this.running = false;
      this._env.messages.push(...messages);
      liveBlock(this._env, this._blockEnv);
    }
    return events.flatMap((e) => (e.logs ?? []).map((l): [Uint8Array, Uint8Array[], Uint8Array] => [l.address, l.topics, l.data]));
  }
}

const ok = (returnValue: Uint8Array, logs: Array<[Uint8Array, Uint8Array[], Uint8Array]> = []): EVMResult => ({
  execResult: { returnValue, executionGasUsed: 0n, ...(logs.length > 0 ? { logs } : {}) },
});
const fail = (reason: string): EVMResult => ({ execResult: { returnValue: revertData(reason), executionGasUsed: 0n, exceptionError: new EVMError(EVMError.errorMessages.REVERT) } });
