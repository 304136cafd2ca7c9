/**
 * The epochs module as the chain sees it: a BlockModule (genesis, begin-block, end-block), its
 * precompile, its hooks, and the queries (EpochInfos with Cosmos pagination, CurrentEpoch).
 */
import type { BlockModule, GenesisContext } from "../chain/module";
import type { ModuleStore } from "../storage/module-store";
import { type EpochInfo, type GenesisState, type Time, seconds } from "./epoch-info";
import { defaultGenesis, initGenesis, validateGenesis } from "./epochs-genesis";
import { EpochsKeeper } from "./epochs-keeper";
import { ContractHooks, MultiEpochHooks, TypeScriptHooks } from "./epoch-hooks";
import { EPOCHS_PRECOMPILE, EPOCHS_PRECOMPILE_BYTES, createEpochsPrecompile } from "./hook-registry";
import { type TickRule, beginBlocker, endBlocker } from "./tick-rules";

export const EPOCHS_MODULE = "epochs";

export interface EpochsOptions {
  genesis?: GenesisState;
  tickRule?: TickRule;
  hookGasLimit?: bigint;
  /** Time that fills a zero start_time at genesis; default the genesis block's time. */
  genesisTime?: Time;
}

export interface PageRequest {
  key?: Uint8Array;
  offset?: bigint;
  limit?: bigint;
  countTotal?: boolean;
  reverse?: boolean;
}

export interface PageResult {
  epochs: EpochInfo[];
  nextKey: Uint8Array | null;
  total: bigint;
}

export class EpochNotFoundError extends Error {
  constructor(identifier: string) {
    super(`epoch info not found: ${identifier}`);
  }
}

export class EpochsModule {
  readonly tickRule: TickRule;
  readonly tsHooks = new TypeScriptHooks();
  readonly keeper: EpochsKeeper;
  private _store: ModuleStore | undefined;
  private readonly _hooks: MultiEpochHooks;

  constructor(private readonly _opts: EpochsOptions = {}) {
    this.tickRule = _opts.tickRule ?? "spec";
    const genesis = _opts.genesis ?? defaultGenesis();
    validateGenesis(genesis);
    this.keeper = new EpochsKeeper(() => {
      if (this._store === undefined) throw new Error("the epochs module is not attached to a chain yet");
      return this._store;
    });
    this._hooks = new MultiEpochHooks([new ContractHooks(() => _opts.hookGasLimit ?? 3_000_000n), this.tsHooks]);
  }

  /** Binds the module to the chain's store for it (the node owns versions, snapshots and persistence). */
  attach(store: ModuleStore): void {
    this._store = store;
  }

  /** The block module (the seam in block production). */
  blockModule(): BlockModule {
    return {
      name: EPOCHS_MODULE,
      initGenesis: async (ctx: GenesisContext) => {
        this.attach(ctx.store);
        // code at the precompile's address, so contracts' extcodesize checks pass (0xfe: never executed)
        await ctx.putCode(EPOCHS_PRECOMPILE_BYTES, new Uint8Array([0xfe]));
        initGenesis(this.keeper, this._opts.genesis ?? defaultGenesis(), this._opts.genesisTime ?? seconds(ctx.timestamp), ctx.height);
      },
      beginBlock: (ctx) => {
        this.attach(ctx.store);
        return beginBlocker(ctx, this.keeper, this._hooks, this.tickRule);
      },
      endBlock: (ctx) => {
        this.attach(ctx.store);
        return endBlocker(ctx, this.keeper, this._hooks, this.tickRule);
      },
    };
  }

  precompile() {
    return (deps: { caller(): Uint8Array }) => ({
      address: EPOCHS_PRECOMPILE,
      function: createEpochsPrecompile({ caller: deps.caller, infos: () => this.keeper.allEpochInfos() }),
    });
  }

  currentEpoch(identifier: string): bigint {
    const { info } = this.keeper.getEpochInfo(identifier);
    if (info === undefined) throw new EpochNotFoundError(identifier);
    return info.currentEpoch;
  }

  /** EpochInfos with the Cosmos SDK v0.50 `query.Paginate` rules (refs/epochs-reference.md §7). */
  epochInfos(page: PageRequest = {}): PageResult {
    const enc = new TextEncoder();
    let all = this.keeper.allEpochInfos();
    if (page.reverse === true) all = [...all].reverse();
    const hasKey = page.key !== undefined && page.key.length > 0;
    const offset = page.offset ?? 0n;
    if (hasKey && offset > 0n) throw new Error("invalid request, either offset or key is expected, got both");
    let limit = page.limit ?? 0n;
    let countTotal = page.countTotal === true;
    if (limit === 0n) {
      limit = 100n;
      countTotal = true;
    }
    const keyOf = (e: EpochInfo) => enc.encode(e.identifier);
    const cmp = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    let start: number;
    if (hasKey) {
      const k = page.key as Uint8Array;
      start = all.findIndex((e) => (page.reverse === true ? cmp(keyOf(e), k) <= 0 : cmp(keyOf(e), k) >= 0));
      if (start < 0) start = all.length;
    } else start = Number(offset > BigInt(all.length) ? BigInt(all.length) : offset);
    const epochs = all.slice(start, start + Number(limit));
    const after = all[start + Number(limit)];
    return {
      epochs,
      nextKey: after === undefined ? null : keyOf(after),
      total: hasKey ? 0n : countTotal ? BigInt(all.length) : 0n,
    };
  }
}
