/**
 * A fake chain for the epochs unit tests: an in-memory module store, a BlockContext per phase, and a
 * driver that runs beginBlocker/endBlocker over (height, time) pairs, recording hook calls and events.
 */
import type { BlockContext, BlockPhase, ModuleEvent, SystemCallArgs, SystemCallResult } from "../../src/chain/base/module";
import { EVMOS_EVENTS, type EpochEvents, beginBlocker, endBlocker } from "../../src/epochs/abci";
import { initGenesis } from "../../src/epochs/genesis";
import { EpochsKeeper } from "../../src/epochs/keeper";
import { type EpochHooks, type EpochInfo, type TickRule, newEpochInfo, seconds } from "../../src/epochs/types";
import { MemoryModuleStore } from "../../src/chain/base/module-state";

export interface RecordedEvent {
  height: number;
  phase: BlockPhase;
  event: ModuleEvent;
}

export interface FakeChainOptions {
  systemCall?: (a: SystemCallArgs) => Promise<SystemCallResult>;
  /** EVM storage as hex(address) + hex(slot) → 32-byte value. */
  storage?: Map<string, Uint8Array>;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export class FakeChain {
  readonly store = MemoryModuleStore.writable();
  readonly keeper = new EpochsKeeper(this.store);
  readonly events: RecordedEvent[] = [];
  readonly storage: Map<string, Uint8Array>;

  constructor(private readonly _opts: FakeChainOptions = {}) {
    this.storage = _opts.storage ?? new Map();
  }

  ctx(height: number, time: number, phase: BlockPhase): BlockContext {
    return {
      height: BigInt(height),
      timestamp: BigInt(time),
      phase,
      store: this.store,
      replay: false,
      emit: (event) => this.events.push({ height, phase, event }),
      systemCall: this._opts.systemCall ?? (() => Promise.reject(new Error("no EVM in this test"))),
      getStorage: (address, key) => Promise.resolve(this.storage.get(hex(address) + hex(key)) ?? new Uint8Array(32)),
      // no EVM state in these tests: the epochs keeper works on its store
      state: undefined as unknown as BlockContext["state"],
      // as the chain's: the store's writes and the events undone on a throw (no EVM here)
      isolated: async (run) => {
        const events = this.events.length;
        const entries = this.store.mark();
        try {
          return await run();
        } catch (err) {
          this.store.restore(entries);
          this.events.length = events;
          throw err;
        }
      },
    };
  }

  /** One block: begin-block, (no transactions), end-block, commit. */
  async block(height: number, time: number, hooks: EpochHooks, rule: TickRule, events: EpochEvents = EVMOS_EVENTS): Promise<void> {
    await beginBlocker(this.ctx(height, time, "begin_block"), this.keeper, hooks, rule, events);
    await endBlocker(this.ctx(height, time, "end_block"), this.keeper, hooks, rule, events);
  }
}

/** Compact event text: "3:end_block:epoch_end:epoch_number=1,identifier=e". */
export const eventText = (e: RecordedEvent): string => `${e.height}:${e.phase}:${e.event.type}:${e.event.attributes.map((a) => `${a.key}=${a.value}`).join(",")}`;

export interface Run {
  /** Hook calls: "e:B1@1" = BeforeEpochStart(e, 1) in block 1; "A" for AfterEpochEnd. */
  calls: string[];
  /** The current_epoch a hook read from the store for its own identifier during the call. */
  seen: string[];
  events: string[];
  chain: FakeChain;
}

export async function run(rule: TickRule, records: EpochInfo[], blocks: Array<[number, number]>, genesisTime = 0, events: EpochEvents = EVMOS_EVENTS, genesisHeight = 0): Promise<Run> {
  const chain = new FakeChain();
  initGenesis(chain.keeper, { epochs: records }, seconds(BigInt(genesisTime)), BigInt(genesisHeight));
  const out: Run = { calls: [], seen: [], events: [], chain };
  let height = 0;
  const note = (kind: string) => (_ctx: BlockContext, id: string, n: bigint) => {
    const call = `${id}:${kind}${n}@${height}`;
    out.calls.push(call);
    out.seen.push(`${call} saw ${chain.keeper.getEpochInfo(id).info?.currentEpoch}`);
  };
  const hooks: EpochHooks = { afterEpochEnd: note("A"), beforeEpochStart: note("B") };
  for (const [h, t] of blocks) {
    height = h;
    await chain.block(h, t, hooks, rule, events);
  }
  out.events = chain.events.map(eventText);
  return out;
}

/** A record with whole-second times. */
export const rec = (id: string, duration: number, start: number, extra: Partial<EpochInfo> = {}): EpochInfo => ({
  ...newEpochInfo(id, BigInt(duration), seconds(BigInt(start))),
  ...extra,
});
