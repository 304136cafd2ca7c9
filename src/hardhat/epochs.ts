/**
 * The epochs side of the plugin: `epochs` config → the module's options, and `hre.epochs`, the test
 * helpers (all, get, current, advance, registerHooks, blockEvents, onBeforeEpochStart, onAfterEpochEnd).
 * The helpers talk JSON-RPC, so they work in-process and against a running node (`--network`);
 * TypeScript hooks need the in-process chain.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { EIP1193Provider, HardhatRuntimeEnvironment } from "hardhat/types";
import { HardhatPluginError } from "hardhat/plugins";
import type { EpochInfo, EpochInfoJson, Time, EpochsOptions, TsHook } from "../epochs";
import { epochsModule } from "./lazy";
import type { RuntimeOptions } from "../rpc/runtime";
import { PLUGIN_NAME } from "./chain-config";
import type { EpochInfoUserConfig, EpochsConfig } from "./type-extensions";

function toTime(v: number | bigint | string | Date | undefined, field: string): Time | undefined {
  if (v === undefined) return undefined;
  if (v instanceof Date) return epochsModule().seconds(BigInt(Math.floor(v.getTime() / 1000)));
  if (typeof v === "bigint") return epochsModule().seconds(v);
  if (typeof v === "number") return epochsModule().seconds(BigInt(Math.floor(v)));
  if (/^-?\d+$/.test(v)) return epochsModule().seconds(BigInt(v));
  try {
    return epochsModule().parseTime(v);
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, `epochs.genesis: ${field}: ${(err as Error).message}`);
  }
}

function toInt(v: number | bigint | string | undefined): bigint {
  return v === undefined ? 0n : BigInt(v);
}

/** One genesis record of `hardhat.config.ts` (seconds, RFC 3339, Dates or Cosmos durations) → EpochInfo. */
export function epochInfoFromConfig(e: EpochInfoUserConfig, i: number): EpochInfo {
  const where = `epochs[${i}]`;
  const { parseDuration, seconds, newEpochInfo } = epochsModule();
  const duration = typeof e.duration === "string" && e.duration.endsWith("s") ? parseDuration(e.duration) : seconds(BigInt(e.duration));
  const base = newEpochInfo(e.identifier, 0n, toTime(e.startTime, `${where}.startTime`));
  return {
    ...base,
    duration,
    currentEpoch: toInt(e.currentEpoch),
    currentEpochStartTime: toTime(e.currentEpochStartTime, `${where}.currentEpochStartTime`) ?? base.currentEpochStartTime,
    epochCountingStarted: e.epochCountingStarted === true,
    currentEpochStartHeight: toInt(e.currentEpochStartHeight),
  };
}

export function epochsOptionsFromConfig(cfg: EpochsConfig): EpochsOptions {
  return {
    genesis: cfg.genesis === undefined ? undefined : { epochs: cfg.genesis.epochs.map(epochInfoFromConfig) },
    tickRule: cfg.tickRule,
    hookGasLimit: BigInt(cfg.hookGasLimit),
  };
}

/** Adds the epochs module to a runtime's options (genesis from the config unless the home's genesis.json gave one). */
export function withEpochs(opts: RuntimeOptions, hre: HardhatRuntimeEnvironment): RuntimeOptions {
  if (opts.epochs !== undefined) return opts;
  return { ...opts, epochs: epochsOptionsFromConfig(hre.config.epochs) };
}

export interface BlockEventsJson {
  height: string;
  hash: string;
  begin_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
  end_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
}

/** `hre.epochs`. */
export class HardhatEpochs {
  constructor(private readonly _hre: HardhatRuntimeEnvironment) {}

  private get _provider(): EIP1193Provider {
    return this._hre.network.provider;
  }

  private _rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    return this._provider.request({ method, params }) as Promise<T>;
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
    const info = (await this.all()).find((e) => e.identifier === identifier);
    if (info === undefined) throw new HardhatPluginError(PLUGIN_NAME, `epoch info not found: ${identifier}`);
    return info;
  }

  async current(identifier: string): Promise<bigint> {
    const { current_epoch } = await this._rpc<{ current_epoch: string }>("epochs_currentEpoch", [identifier]);
    return BigInt(current_epoch);
  }

  /**
   * Moves the clock and mines the blocks needed to end the current epoch of `identifier` and start
   * the next, `n` times; returns the new epoch number. Every block runs begin/end-block, so hooks fire.
   */
  async advance(identifier: string, n = 1): Promise<bigint> {
    let current = (await this.get(identifier)).currentEpoch;
    for (let step = 0; step < n; step++) {
      const target = current + 1n;
      for (let guard = 0; current < target; guard++) {
        if (guard > 16) throw new HardhatPluginError(PLUGIN_NAME, `epoch "${identifier}" did not advance after ${guard} blocks`);
        const info = await this.get(identifier);
        const latest = await this._rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
        const now = BigInt(latest.timestamp);
        // the first block at or after the epoch's end (strictly after, for the evmos rule: +1 covers both)
        const { toNanos, NANOS } = epochsModule();
        const endNanos = info.epochCountingStarted ? toNanos(info.currentEpochStartTime) + toNanos(info.duration) : toNanos(info.startTime);
        const end = (endNanos + NANOS - 1n) / NANOS + (info.epochCountingStarted ? 1n : 0n);
        const next = end > now ? end : now + 1n;
        await this._rpc("evm_mine", [Number(next)]);
        current = (await this.get(identifier)).currentEpoch;
      }
    }
    return current;
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
    const provider = this._hre.epochsProvider;
    if (provider === undefined) throw new HardhatPluginError(PLUGIN_NAME, "TypeScript epoch hooks need the in-process hardhat network");
    const runtime = await provider.runtime();
    if (runtime.epochs === undefined) throw new HardhatPluginError(PLUGIN_NAME, "this chain runs without the epochs module");
    const list = runtime.epochs.tsHooks[which];
    list.push(fn);
    return () => {
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    };
  }
}
