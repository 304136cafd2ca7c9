/**
 * The epochs module's ticks played in a reserved run (src/chain/base/module.ts, `SteadyWork`): a tick
 * whose hooks would all do nothing (no contract registered, no TypeScript function, the Cosmos
 * modules' hooks idle for that timer) writes only the module's store and emits its events, so
 * hardhat_mine need not make its block. The player runs the module's own begin and end blocks
 * (src/epochs/abci.ts) on a copy of the store, and refuses the first block where a hook that is not
 * idle would run: that block is made, with its hooks.
 */
import type { StateManagerInterface } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { utf8ToBytes, bytesToUtf8 } from "@ethereumjs/util";
import type { BlockContext, BlockEvents, BlockPhase, ModuleEvent, SteadyPlayer, SteadyWork } from "../chain/base/module";
import { MemoryModuleStore, slotReader, writeModuleStore } from "../chain/base/module-state";
import { type EpochEvents, beginBlocker, endBlocker, quietBefore } from "./abci";
import { EpochsKeeper } from "./keeper";
import { EPOCHS_PRECOMPILE_BYTES } from "./precompile";
import type { EpochHooks, TickRule } from "./types";

interface EpochsRun {
  rule: TickRule;
  events: EpochEvents;
  hooks: EpochHooks;
}

class EpochsPlayer implements SteadyPlayer {
  constructor(
    private readonly _run: EpochsRun,
    /** Timers whose hooks are idle: their ticks play. */
    private readonly _idle: ReadonlySet<string>,
    /** The store record's bytes in the run's start state (undefined: none there), so a write-back writes only what differs. */
    private readonly _stateBytes: Uint8Array | undefined,
    private readonly _store: MemoryModuleStore,
  ) {}

  quietUntil(): bigint {
    return quietBefore(new EpochsKeeper(this._store), this._run.rule);
  }

  async step(block: { number: bigint; timestamp: bigint }): Promise<BlockEvents | undefined> {
    if (block.timestamp < this.quietUntil()) return { begin: [], end: [] };
    const keeper = new EpochsKeeper(this._store);
    let refused = false;
    const refuse = (_ctx: BlockContext, identifier: string): void => {
      if (!this._idle.has(identifier)) refused = true;
    };
    const hooks: EpochHooks = { afterEpochEnd: refuse, beforeEpochStart: refuse };
    const events: BlockEvents = { begin: [], end: [] };
    await beginBlocker(playContext(block, "begin_block", this._store, events.begin), keeper, hooks, this._run.rule, this._run.events);
    if (refused) return undefined;
    await endBlocker(playContext(block, "end_block", this._store, events.end), keeper, hooks, this._run.rule, this._run.events);
    return refused ? undefined : events;
  }

  async write(state: StateManagerInterface): Promise<void> {
    if (!this._store.changed) return;
    // a write-back against the start's bytes: the same words as the blocks' own write-backs leave
    const store = this._copyStore();
    store.stateBytes = { bytes: this._stateBytes };
    await writeModuleStore(state, EPOCHS_PRECOMPILE_BYTES, store);
  }

  copy(): SteadyPlayer {
    return new EpochsPlayer(this._run, this._idle, this._stateBytes, this._copyStore());
  }

  private _copyStore(): MemoryModuleStore {
    const changed = this._store.changed;
    const copy = MemoryModuleStore.writable(this._store.snapshot());
    copy.changed = changed;
    return copy;
  }
}

/** What a played phase gives the module's code: the block, its store, its events; nothing that runs code or touches other state. */
function playContext(block: { number: bigint; timestamp: bigint }, phase: BlockPhase, store: MemoryModuleStore, sink: ModuleEvent[]): BlockContext {
  const refuse = (): never => {
    throw new Error("a played block runs no hook");
  };
  return {
    height: block.number,
    timestamp: block.timestamp,
    phase,
    store,
    replay: false,
    emit: (e) => sink.push(e),
    systemCall: refuse,
    getStorage: refuse,
    get state(): never {
      return refuse();
    },
    isolated: refuse,
  };
}

/** The epochs module's steady work: its ticks, where their hooks are idle. */
export function epochsSteadyWork(run: EpochsRun): SteadyWork {
  return {
    start: async (state, store) => {
      const reader = slotReader(state);
      const idle: Uint8Array[] = [];
      for (const info of new EpochsKeeper(store).readEpochInfos()) if (run.hooks.idle !== undefined && (await run.hooks.idle(reader, info.identifier))) idle.push(utf8ToBytes(info.identifier));
      const memory = store instanceof MemoryModuleStore ? store : MemoryModuleStore.readOnly(store.entries());
      const stateBytes = memory.stateBytes?.bytes;
      return RLP.encode([memory.encode(), idle, stateBytes === undefined ? [] : [stateBytes]]);
    },
    player: (bytes) => {
      const [entries, idle, stateBytes] = RLP.decode(bytes) as unknown as [Uint8Array, Uint8Array[], Uint8Array[]];
      const store = MemoryModuleStore.writable(MemoryModuleStore.decode(entries));
      return new EpochsPlayer(run, new Set(idle.map((b) => bytesToUtf8(b))), stateBytes[0], store);
    },
  };
}
