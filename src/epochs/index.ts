/**
 * The epochs module as the chain sees it: a BlockModule (genesis, begin-block, end-block), its
 * keeper, its hooks (contracts registered through the precompile, then TypeScript functions), the
 * 0x…0900 precompile, and the queries (EpochInfos with Cosmos pagination, CurrentEpoch).
 */
import type { PrecompileFunc, PrecompileInput } from "@ethereumjs/evm";
import type { BlockModule, GenesisContext } from "../chain/base/module";
import type { ModuleStore } from "../chain/base/module-state";
import { EVMOS_EVENTS, type EpochEvents, SDK_EVENTS, beginBlocker, endBlocker } from "./abci";
import { epochsSteadyWork } from "./steady";
import { ContractHooks, DEFAULT_HOOK_GAS_LIMIT } from "./contract-hooks";
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from "./genesis";
import { MultiEpochHooks, TypeScriptHooks } from "./hooks";
import { PROFILES, PROFILE_NAMES, isProfile } from "./profile";
import { ENDED_MARK_PREFIX, EPOCH_INFO_PREFIX, EpochsKeeper } from "./keeper";
import { decodeEpochInfo } from "./codec";
import { EPOCHS_PRECOMPILE, EPOCHS_PRECOMPILE_BYTES, type PrecompileDeps, createEpochsPrecompile } from "./precompile";
import { EpochNotFoundError, type PageRequest, type PageResult, currentEpoch, epochInfos } from "./query";
import { NANOS, type EpochHooks, type EpochsProfile, type GenesisState, type TickRule, type Time, seconds, toNanos } from "./types";

export * from "./types";
export * from "./profile";
export * from "./codec";
export * from "./keeper";
export * from "./genesis";
export * from "./abci";
export * from "./hooks";
export * from "./contract-hooks";
export * from "./precompile";
export * from "./query";

export const EPOCHS_MODULE = "epochs";

export interface EpochsOptions {
  /** Which chain the module behaves as; default "evmos" (docs/profiles.md). */
  profile?: EpochsProfile;
  /** Default: the profile's (Evmos: week, then day; cosmos-evm: day, hour, minute, week). Validated when the module is created. */
  genesis?: GenesisState;
  /** Default "spec" under evmos, "sdk" under cosmos-evm. */
  tickRule?: TickRule;
  /** Gas limit of each contract hook call; default 3,000,000. */
  hookGasLimit?: bigint;
  /** Time that fills a zero start_time at genesis; default the genesis block's time. */
  genesisTime?: Time;
}

/** How the chain answers the precompile's questions about the execution it runs in. */
interface EpochsPrecompileDeps extends Omit<PrecompileDeps, "infos"> {
  /** The epochs store as that execution's state holds it. */
  store(input: PrecompileInput): Promise<ModuleStore>;
}

/** A custom precompile entry for EthereumJS (`customPrecompiles`). */
interface EpochsPrecompile {
  address: typeof EPOCHS_PRECOMPILE;
  function: PrecompileFunc;
}

export class EpochsModule {
  readonly profile: EpochsProfile;
  readonly tickRule: TickRule;
  /** How epoch starts and ends are written into the block's events: the profile's. */
  readonly events: EpochEvents;
  /** In-process hooks (onBeforeEpochStart / onAfterEpochEnd); they run after the contract hooks. */
  readonly tsHooks = new TypeScriptHooks();
  readonly contractHooks: ContractHooks;
  /** Every member, in order: those added with addHooks `{ first: true }` (the Cosmos modules'), contract hooks, TypeScript hooks, then any added with addHooks. */
  readonly hooks: MultiEpochHooks;
  readonly hookGasLimit: bigint;
  private readonly _genesis: GenesisState;

  constructor(private readonly _opts: EpochsOptions = {}) {
    this.profile = _opts.profile ?? "evmos";
    if (!isProfile(this.profile)) throw new Error(`epochs profile must be ${PROFILE_NAMES}, got ${JSON.stringify(this.profile)}`);
    this.tickRule = _opts.tickRule ?? PROFILES[this.profile].tickRule;
    if (!["spec", "evmos", "sdk"].includes(this.tickRule)) throw new Error(`epochs tick rule must be "spec", "evmos" or "sdk", got ${JSON.stringify(this.tickRule)}`);
    this.events = PROFILES[this.profile].sdkEpochs ? SDK_EVENTS : EVMOS_EVENTS;
    this.hookGasLimit = _opts.hookGasLimit ?? DEFAULT_HOOK_GAS_LIMIT;
    if (this.hookGasLimit <= 0n) throw new Error(`epochs hook gas limit must be positive, got ${this.hookGasLimit}`);
    this._genesis = _opts.genesis ?? defaultGenesis(this.profile);
    validateGenesis(this._genesis, this.profile);
    this.contractHooks = new ContractHooks(this.hookGasLimit);
    this.hooks = new MultiEpochHooks([this.contractHooks, this.tsHooks]);
  }

  /**
   * Adds a Go-style hooks member (another module's), run after the others; `first` runs it before
   * them (a module whose work hooks read, as minting before the contracts that claim rewards).
   */
  addHooks(member: EpochHooks, opts: { first?: boolean } = {}): void {
    this.hooks.add(member, opts);
  }

  /**
   * The block module (the seam in block production). It holds no store: every call works on the
   * store its context brings, read from that execution's state (the live block's, or a replay's),
   * which the chain keeps in the storage of the precompile's account (src/chain/base/module-state.ts).
   */
  get module(): BlockModule {
    return this.blockModule();
  }

  blockModule(): BlockModule {
    return {
      name: EPOCHS_MODULE,
      storeAccount: EPOCHS_PRECOMPILE_BYTES,
      initGenesis: async (ctx: GenesisContext) => {
        // code at the precompile's address, so extcodesize checks pass and its storage can be written (0xfe: never run)
        await ctx.putCode(EPOCHS_PRECOMPILE_BYTES, new Uint8Array([0xfe]));
        initGenesis(new EpochsKeeper(ctx.store), this._genesis, this._opts.genesisTime ?? seconds(ctx.timestamp), ctx.height);
      },
      beginBlock: (ctx) => beginBlocker(ctx, new EpochsKeeper(ctx.store), this.hooks, this.tickRule, this.events),
      endBlock: (ctx) => endBlocker(ctx, new EpochsKeeper(ctx.store), this.hooks, this.tickRule, this.events),
      // its ticks play in reserved runs where no hook would act (src/epochs/steady.ts)
      steady: epochsSteadyWork({ rule: this.tickRule, events: this.events, hooks: this.hooks }),
      checkRecord: checkEpochsRecord,
    };
  }

  /**
   * The precompile, given how the chain tells the current msg.sender, the static flag and the
   * epochs store of the execution it runs in (the live block's, or a call's at its height).
   */
  createPrecompile(deps: EpochsPrecompileDeps): EpochsPrecompile {
    return {
      address: EPOCHS_PRECOMPILE,
      function: createEpochsPrecompile({
        caller: deps.caller,
        isStatic: deps.isStatic,
        delegated: deps.delegated,
        infos: async (input) => new EpochsKeeper(await deps.store(input)).allEpochInfos(),
      }),
    };
  }

  /** CurrentEpoch in `store` (the chain's epochs store: `await node.moduleStore(EPOCHS_MODULE)`); throws EpochNotFoundError `epoch info not found: ID`. */
  currentEpoch(store: ModuleStore, identifier: string): bigint {
    return currentEpoch(new EpochsKeeper(store), identifier);
  }

  /**
   * The block time (whole seconds) at which a block moves `identifier` on: the end of its current
   * epoch, or its start time when it has not started. One second past the end, so that it holds
   * under every tick rule (Evmos's and the SDK's tick strictly after the end). Throws
   * EpochNotFoundError for an unknown identifier.
   */
  nextMoveTime(store: ModuleStore, identifier: string): bigint {
    const { info } = new EpochsKeeper(store).getEpochInfo(identifier);
    if (info === undefined) throw new EpochNotFoundError(identifier);
    if (!info.epochCountingStarted) return (toNanos(info.startTime) + NANOS - 1n) / NANOS;
    return (toNanos(info.currentEpochStartTime) + toNanos(info.duration) + NANOS - 1n) / NANOS + 1n;
  }

  /** EpochInfos in `store` with the Cosmos SDK v0.50 pagination rules. */
  epochInfos(store: ModuleStore, page: PageRequest = {}): PageResult {
    return epochInfos(new EpochsKeeper(store), page);
  }

  exportGenesis(store: ModuleStore): GenesisState {
    return exportGenesis(new EpochsKeeper(store));
  }
}

/** Creates the module; `.module` is its BlockModule, `.tsHooks` the TypeScript hook registry. */
export function createEpochsModule(opts: EpochsOptions = {}): EpochsModule {
  return new EpochsModule(opts);
}

/**
 * Why a record of the epochs store cannot be read (BlockModule.checkRecord): its key must be one of
 * the keeper's (src/epochs/keeper.ts) and its value what the keeper writes there, an EpochInfo that
 * names the key's identifier and passes the genesis checks, or the ended mark.
 */
function checkEpochsRecord(key: Uint8Array, value: Uint8Array): string | undefined {
  const id = Buffer.from(key.subarray(1));
  if (key[0] === EPOCH_INFO_PREFIX) {
    let info;
    try {
      info = decodeEpochInfo(value);
    } catch (err) {
      return `not an EpochInfo record: ${(err as Error).message}`;
    }
    if (!Buffer.from(info.identifier, "utf8").equals(id)) return `the record under identifier ${JSON.stringify(id.toString("utf8"))} names ${JSON.stringify(info.identifier)}`;
    try {
      validateGenesis({ epochs: [info] });
    } catch (err) {
      return (err as Error).message.replace(/^invalid epochs genesis: epochs\[0\]: /, "");
    }
    return undefined;
  }
  if (key[0] === ENDED_MARK_PREFIX) return value.length === 1 && value[0] === 1 ? undefined : "an ended mark's value is the byte 0x01";
  return "not a key of the epochs store (0x01 or 0x02, then the identifier)";
}
