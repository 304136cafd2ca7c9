/**
 * Genesis of the epochs module: Evmos's defaults (week, then day), validation with Evmos's texts
 * (plus a refusal of negative durations), InitGenesis/ExportGenesis, and the Cosmos genesis.json form.
 */
import { type EpochInfo, type GenesisState, type Time, formatTime, fromJson, isZeroTime, newEpochInfo, parseTime, toJson, toNanos, formatDuration } from "./epoch-info";
import type { EpochsKeeper } from "./epochs-keeper";

export function defaultGenesis(): GenesisState {
  return { epochs: [newEpochInfo("week", 604_800n), newEpochInfo("day", 86_400n)] };
}

/** Throws `invalid epochs genesis: …` naming the record by index where Evmos's text does not. */
export function validateGenesis(gs: GenesisState): void {
  const seen = new Set<string>();
  gs.epochs.forEach((e, i) => {
    const fail = (msg: string): never => {
      throw new Error(`invalid epochs genesis: ${msg}`);
    };
    // Evmos checks duplicates before the record's own fields
    if (seen.has(e.identifier)) fail(`duplicated epoch entry ${e.identifier}`);
    seen.add(e.identifier);
    if (e.identifier.trim() === "") fail(`epochs[${i}]: epoch identifier cannot be blank`);
    const d = toNanos(e.duration);
    if (d === 0n) fail(`epochs[${i}]: epoch duration cannot be 0`);
    if (d < 0n) fail(`epochs[${i}]: epoch duration cannot be negative: ${formatDuration(e.duration)}`);
    // Evmos prints the start height in this text (an upstream bug); we print the epoch number
    if (e.currentEpoch < 0n) fail(`epochs[${i}]: current epoch cannot be negative: ${e.currentEpoch}`);
    if (e.currentEpochStartHeight < 0n) fail(`epochs[${i}]: current epoch start height cannot be negative: ${e.currentEpochStartHeight}`);
  });
}

/** Stores the records; a zero start_time becomes the genesis time, the start height the genesis height. */
export function initGenesis(keeper: EpochsKeeper, gs: GenesisState, genesisTime: Time, height: bigint): void {
  for (const e of gs.epochs) {
    keeper.setEpochInfo({ ...e, startTime: isZeroTime(e.startTime) ? genesisTime : e.startTime, currentEpochStartHeight: height });
  }
}

export function exportGenesis(keeper: EpochsKeeper): GenesisState {
  return { epochs: keeper.allEpochInfos() };
}

// ------------------------------------------------------------------------------------- genesis.json

export interface CosmosGenesis {
  genesisTime?: Time;
  /** From "evmos_9000-1" → 9000. */
  chainId?: bigint;
  epochs: GenesisState;
}

/** Reads `<home>/config/genesis.json` text; errors name the field. */
export function parseCosmosGenesis(text: string): CosmosGenesis {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== "object") throw new Error("expected a JSON object");
  const d = doc as { genesis_time?: unknown; chain_id?: unknown; app_state?: { epochs?: { epochs?: unknown } } };
  let chainId: bigint | undefined;
  if (d.chain_id !== undefined) {
    const m = typeof d.chain_id === "string" ? /^[a-z0-9]+_(\d+)-\d+$/.exec(d.chain_id) : null;
    if (m === null) throw new Error(`chain_id ${JSON.stringify(d.chain_id)}: expected the Ethermint form "<name>_<evm chain id>-<version>", e.g. "evmos_9000-1"`);
    chainId = BigInt(m[1]);
  }
  let genesisTime: Time | undefined;
  if (d.genesis_time !== undefined) {
    if (typeof d.genesis_time !== "string") throw new Error("genesis_time: expected an RFC 3339 string");
    try {
      genesisTime = parseTime(d.genesis_time);
    } catch (err) {
      throw new Error(`genesis_time: ${(err as Error).message}`);
    }
  }
  const list = d.app_state?.epochs?.epochs;
  if (list === undefined) return { genesisTime, chainId, epochs: defaultGenesis() };
  if (!Array.isArray(list)) throw new Error("app_state.epochs.epochs: expected an array");
  return { genesisTime, chainId, epochs: { epochs: list.map((e, i) => fromJson(e, `app_state.epochs.epochs[${i}]`)) } };
}

export function toCosmosGenesis(opts: { genesisTime: Time; chainId: bigint; epochs: EpochInfo[] }): string {
  const doc = {
    genesis_time: formatTime(opts.genesisTime),
    chain_id: `evmos_${opts.chainId}-1`,
    initial_height: "1",
    app_state: { epochs: { epochs: opts.epochs.map(toJson) } },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

