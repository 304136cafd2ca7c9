/**
 * The epoch helpers both Hardhat hosts hand to tests: all, get, current, advance, registerHooks,
 * blockEvents, saveState/loadState, onBeforeEpochStart, onAfterEpochEnd. No Hardhat import.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { EpochInfo, EpochInfoJson, TsHook } from "../../epochs";
import type { Runtime } from "../../app/runtime";
import { type AdvanceReport, type BlockEventsJson, readAdvanceReport, withReport } from "./advance-report";
import type { EpochHookAssertions } from "./hook-assertions";
import { CosmosHelpers } from "./cosmos-helpers";
import { epochsModule } from "../lazy";
import { UserError } from "../../utils/user-error";

/**
 * `epochs:advance`'s options, checked the same on both hosts: `--identifier ID [--count N]`, or
 * `--to-next ID` (the start of the timer's next epoch: one epoch on). Throws a UserError, which each
 * host words as its plugin error.
 */
export function advanceRequest(opts: { identifier?: string; count?: number; toNext?: string }): { identifier: string; count: number } {
  const identifier = opts.identifier === "" ? undefined : opts.identifier;
  const toNext = opts.toNext === "" ? undefined : opts.toNext;
  const count = opts.count ?? 1;
  if (toNext !== undefined) {
    if (identifier !== undefined) throw new UserError("epochs:advance takes --to-next ID or --identifier ID, not both");
    if (count !== 1) throw new UserError("--to-next moves one epoch on; for more, --identifier ID --count N");
    return { identifier: toNext, count: 1 };
  }
  if (identifier === undefined) throw new UserError("epochs:advance needs --identifier ID (or --to-next ID), e.g. week or day");
  if (!Number.isSafeInteger(count) || count < 1) throw new UserError(`--count must be a positive integer, got ${count}`);
  return { identifier, count };
}

/** What the helpers need from a host: a JSON-RPC provider, and the in-process chain when there is one. */
interface EpochsHelpersHost {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  /** The in-process chain's runtime; undefined when the network is a node elsewhere. */
  inProcess(): Promise<Runtime> | undefined;
  /** The host's error for a helper's failure (Hardhat 2's HardhatPluginError, Hardhat 3's plain Error). */
  fail(message: string): Error;
}

/**
 * Epoch queries and test helpers (`hre.epochs` on Hardhat 2, `connection.epochs` on Hardhat 3). They
 * talk JSON-RPC, so they work in-process and against a running node; TypeScript hooks need the
 * in-process chain.
 */
export class EpochsHelpers {
  /** The staking and distribution modules (src/host/helpers/cosmos-helpers.ts): state, validators, rewards. */
  readonly cosmos: CosmosHelpers;
  private _assertions: EpochHookAssertions | undefined;

  /**
   * Assertions on an advance's hook calls for node:test and viem (src/host/helpers/hook-assertions.ts):
   * `await epochs.assertions.hookCalled(epochs.advance("week"), contract, "afterEpochEnd")`. Loaded on
   * first use (they bring ethers' ABI coder, which the config must not load).
   */
  get assertions(): EpochHookAssertions {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: see above
    this._assertions ??= new (require("./hook-assertions") as typeof import("./hook-assertions")).EpochHookAssertions();
    return this._assertions;
  }

  constructor(private readonly _host: EpochsHelpersHost) {
    this.cosmos = new CosmosHelpers((method, params = []) => this._rpc(method, params));
  }

  private _rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    return this._host.request({ method, params }) as Promise<T>;
  }

  /** Every EpochInfo, in identifier-byte order. */
  async all(): Promise<EpochInfo[]> {
    const out: EpochInfo[] = [];
    let key: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const res: { epochs: EpochInfoJson[]; pagination: { next_key: string | null } } = await this._rpc("epochs_epochInfos", [key === null ? { limit: "100" } : { key, limit: "100" }]);
      out.push(...res.epochs.map((e, i) => epochsModule().fromJson(e, `epochs[${i}]`)));
      key = res.pagination.next_key;
      if (key === null) break;
    }
    return out;
  }

  async get(identifier: string): Promise<EpochInfo> {
    const all = await this.all();
    const info = all.find((e) => e.identifier === identifier);
    if (info === undefined) throw this._notFound(identifier, all);
    return info;
  }

  async current(identifier: string): Promise<bigint> {
    return this._epochOf(identifier, "epochs_currentEpoch", [identifier]);
  }

  /** A method answering `{current_epoch}` about one timer; an unknown identifier told with the known ones. */
  private async _epochOf(identifier: string, method: string, params: unknown[]): Promise<bigint> {
    let answer: { current_epoch: string };
    try {
      answer = await this._rpc<{ current_epoch: string }>(method, params);
    } catch (err) {
      if ((err as Error).message === `epoch info not found: ${identifier}`) throw this._notFound(identifier, await this.all());
      throw err;
    }
    return BigInt(answer.current_epoch);
  }

  /** The chain's words for an unknown identifier, then the identifiers it has. */
  private _notFound(identifier: string, all: EpochInfo[]): Error {
    const known = all.map((e) => e.identifier);
    return this._host.fail(`epoch info not found: ${identifier} (known: ${known.length === 0 ? "none" : known.join(", ")})`);
  }

  /**
   * Moves the clock and mines the blocks needed to end the current epoch of `identifier` and start
   * the next, `n` times (the chain's epochs_advance); returns the new epoch number. Every block runs
   * begin/end-block, so hooks fire.
   */
  advance(identifier: string, n = 1): Promise<bigint> {
    const run = this._advance(identifier, n);
    // the promise can tell the hook matchers (src/host/helpers/epochs-matchers.ts) what the advance
    // did; the blocks' events are read only when one asks
    return withReport(
      run.then((r) => r.epoch),
      () => run.then((r) => this._report(identifier, r)),
    );
  }

  /**
   * `advance`, answering what it did (src/host/helpers/advance-report.ts): the blocks it mined, each
   * epoch tick and each hook call with its contract, gas, success and, for a failure, its reason,
   * revert data and Hardhat's message and frames.
   */
  async advanceWithReport(identifier: string, n = 1): Promise<AdvanceReport> {
    return this._report(identifier, await this._advance(identifier, n));
  }

  /** epochs_advance, with the heights around it. */
  private async _advance(identifier: string, n: number): Promise<{ epoch: bigint; before: bigint; after: bigint }> {
    const before = BigInt(await this._rpc<string>("eth_blockNumber"));
    const epoch = await this._epochOf(identifier, "epochs_advance", [identifier, n]);
    const after = BigInt(await this._rpc<string>("eth_blockNumber"));
    return { epoch, before, after };
  }

  private _report(identifier: string, r: { epoch: bigint; before: bigint; after: bigint }): Promise<AdvanceReport> {
    return readAdvanceReport(identifier, r.epoch, r.before + 1n, r.after, (b) => this.blockEvents(b));
  }

  /** Registers a contract implementing IEpochHooks (as IEpochs.registerHooks() would for it). */
  registerHooks(address: string): Promise<boolean> {
    return this._rpc<boolean>("epochs_registerHooks", [address]);
  }

  unregisterHooks(address: string): Promise<boolean> {
    return this._rpc<boolean>("epochs_unregisterHooks", [address]);
  }

  hooks(): Promise<string[]> {
    return this._rpc<string[]>("epochs_hooks");
  }

  /**
   * The chain's state (accounts, code, storage, epochs records and hooks) as a dump in Anvil's
   * format (hardhat_dumpState); written to `file` as JSON when given. Load it with `loadState`.
   */
  async saveState(file?: string): Promise<string> {
    const dump = await this._rpc<string>("hardhat_dumpState");
    if (file !== undefined) {
      const json = gunzipSync(Buffer.from(dump.slice(2), "hex")).toString("utf8");
      writeFileSync(file, `${json}\n`);
    }
    return dump;
  }

  /**
   * The chain at its head as a Cosmos genesis.json (epochs_exportGenesis: timers, the modules'
   * sections, balances, nonces, contracts, hooks, the Cosmos chain id); written to `file` when given.
   * A node started from it (`--home` with it as config/genesis.json, or `epochs.genesisFile`) has
   * the same state.
   */
  async exportGenesis(file?: string): Promise<Record<string, unknown>> {
    const doc = await this._rpc<Record<string, unknown>>("epochs_exportGenesis");
    if (file !== undefined) writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    return doc;
  }

  /** Loads a dump (what `saveState` returned, a file it wrote, or Anvil's) at the head (hardhat_loadState). */
  async loadState(dumpOrFile: string): Promise<void> {
    const dump = dumpOrFile.startsWith("0x") ? dumpOrFile : `0x${Buffer.from(readFileSync(dumpOrFile)).toString("hex")}`;
    await this._rpc<boolean>("hardhat_loadState", [dump]);
  }

  /** The begin-block and end-block events of a block (number, tag or "latest"). */
  blockEvents(block: number | bigint | string = "latest"): Promise<BlockEventsJson | null> {
    const tag = typeof block === "string" ? block : `0x${BigInt(block).toString(16)}`;
    return this._rpc<BlockEventsJson | null>("epochs_blockEvents", [tag]);
  }

  /** A TypeScript hook run inside begin-block when an epoch starts (in-process chain only). */
  async onBeforeEpochStart(fn: TsHook): Promise<() => void> {
    return this._addTsHook("before", fn);
  }

  /** A TypeScript hook run when an epoch ends (in-process chain only). */
  async onAfterEpochEnd(fn: TsHook): Promise<() => void> {
    return this._addTsHook("after", fn);
  }

  private async _addTsHook(which: "before" | "after", fn: TsHook): Promise<() => void> {
    const inProcess = this._host.inProcess();
    if (inProcess === undefined) throw this._host.fail("TypeScript epoch hooks need the in-process chain");
    const runtime = await inProcess;
    if (runtime.epochs === undefined) throw this._host.fail("this chain runs without the epochs module");
    const list = runtime.epochs.tsHooks[which];
    list.push(fn);
    return () => {
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    };
  }
}
