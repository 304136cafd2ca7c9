/**
 * Genesis of the epochs module: each profile's defaults (Evmos: week, then day; the Cosmos SDK: day,
 * hour, minute, week), validation with the profile's texts and order (plus a refusal of negative
 * durations), InitGenesis/ExportGenesis, and the Cosmos genesis.json form (`genesis_time`,
 * `chain_id`, `app_state.epochs.epochs`), the same JSON for both.
 */
import { formatDuration, formatTime, fromJson, parseTime, toJson } from "./codec";
import type { EpochsKeeper } from "./keeper";
import { type EpochInfo, type EpochsProfile, type GenesisState, type Time, isZeroTime, newEpochInfo, toNanos } from "./types";
import { PROFILES } from "./profile";

const WEEK_EPOCH_ID = "week";
const DAY_EPOCH_ID = "day";

/** The profile's default genesis: Evmos's (week, day) or the SDK's (x/epochs/types/genesis.go: day, hour, minute, week). */
export function defaultGenesis(profile: EpochsProfile = "evmos"): GenesisState {
  if (PROFILES[profile].sdkEpochs) {
    return { epochs: [newEpochInfo(DAY_EPOCH_ID, 86_400n), newEpochInfo("hour", 3_600n), newEpochInfo("minute", 60n), newEpochInfo(WEEK_EPOCH_ID, 604_800n)] };
  }
  return { epochs: [newEpochInfo(WEEK_EPOCH_ID, 604_800n), newEpochInfo(DAY_EPOCH_ID, 86_400n)] };
}

/** Throws `invalid epochs genesis: …` in the profile's words, naming the record by index where they do not. */
export function validateGenesis(gs: GenesisState, profile: EpochsProfile = "evmos"): void {
  if (PROFILES[profile].sdkEpochs) return validateSdkGenesis(gs);
  const seen = new Set<string>();
  gs.epochs.forEach((e, i) => {
    const fail = (msg: string): never => {
      throw new Error(`invalid epochs genesis: ${msg}`);
    };
    // Evmos checks duplicates (exact bytes) before the record's own fields
    if (seen.has(e.identifier)) fail(`duplicated epoch entry ${e.identifier}`);
    seen.add(e.identifier);
    if (e.identifier.trim() === "") fail(`epochs[${i}]: epoch identifier cannot be blank`);
    const d = toNanos(e.duration);
    if (d === 0n) fail(`epochs[${i}]: epoch duration cannot be 0`);
    // Evmos accepts a negative duration (every block would tick); we refuse it
    if (d < 0n) fail(`epochs[${i}]: epoch duration cannot be negative: ${formatDuration(e.duration)}`);
    // Evmos prints the start height in this text (an upstream bug); we print the epoch number
    if (e.currentEpoch < 0n) fail(`epochs[${i}]: current epoch cannot be negative: ${e.currentEpoch}`);
    if (e.currentEpochStartHeight < 0n) fail(`epochs[${i}]: current epoch start height cannot be negative: ${e.currentEpochStartHeight}`);
  });
}

/** The SDK's GenesisState.Validate: each record's own checks first, then uniqueness, in its texts. */
function validateSdkGenesis(gs: GenesisState): void {
  const seen = new Set<string>();
  gs.epochs.forEach((e, i) => {
    const fail = (msg: string): never => {
      throw new Error(`invalid epochs genesis: epochs[${i}]: ${msg}`);
    };
    if (e.identifier === "") fail("epoch identifier should NOT be empty");
    const d = toNanos(e.duration);
    if (d === 0n) fail("epoch duration should NOT be 0");
    // the SDK accepts a negative duration (every block would tick); we refuse it, as under evmos
    if (d < 0n) fail(`epoch duration cannot be negative: ${formatDuration(e.duration)}`);
    if (e.currentEpoch < 0n) fail("epoch CurrentEpoch must be non-negative");
    if (e.currentEpochStartHeight < 0n) fail("epoch CurrentEpochStartHeight must be non-negative");
    if (seen.has(e.identifier)) fail("epoch identifier should be unique");
    seen.add(e.identifier);
  });
}

/**
 * Stores the records in list order (a duplicate would overwrite, as Evmos's plain Set; validate
 * first). A zero start_time becomes the genesis time; current_epoch_start_height becomes the
 * genesis height. Nothing else is changed, no events, no hooks.
 */
export function initGenesis(keeper: EpochsKeeper, gs: GenesisState, genesisTime: Time, height = 0n): void {
  for (const e of gs.epochs) {
    keeper.setEpochInfo({ ...e, startTime: isZeroTime(e.startTime) ? { ...genesisTime } : e.startTime, currentEpochStartHeight: height });
  }
}

/** All records in key order, unchanged (re-importing resumes the count; the height is reset). */
export function exportGenesis(keeper: EpochsKeeper): GenesisState {
  return { epochs: keeper.allEpochInfos() };
}

// ------------------------------------------------------------------------------------- genesis.json

export interface CosmosGenesis {
  genesisTime?: Time;
  /** EVM chain id from an Ethermint chain id: "evmos_9000-1" → 9000. */
  chainId?: bigint;
  /** The Cosmos chain id as written ("evmos_9000-1", or cosmos/evm's any form: local_node.sh's "9001"). */
  cosmosChainId?: string;
  /** The default genesis when the file has no `app_state.epochs.epochs`. */
  epochs: GenesisState;
}

/** Ethermint's chain-id form: `<name>_<EIP-155 id>-<version>`. */
const CHAIN_ID = /^[a-z]+_([1-9][0-9]*)-[1-9][0-9]*$/;

export function parseChainId(chainId: string): bigint {
  const m = CHAIN_ID.exec(chainId);
  if (m === null) throw new Error(`chain_id ${JSON.stringify(chainId)}: expected the Ethermint form "<name>_<evm chain id>-<version>", e.g. "evmos_9000-1"`);
  return BigInt(m[1]);
}

/** Reads `<home>/config/genesis.json` text; errors name the field. */
export function parseCosmosGenesis(text: string, profile: EpochsProfile = "evmos"): CosmosGenesis {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new Error("expected a JSON object");
  const d = doc as { genesis_time?: unknown; chain_id?: unknown; app_state?: unknown };
  let chainId: bigint | undefined;
  if (d.chain_id !== undefined) {
    if (typeof d.chain_id !== "string") throw new Error(`chain_id ${JSON.stringify(d.chain_id)}: expected a string such as "evmos_9000-1"`);
    // where the profile keeps the EVM chain id apart (cosmos/evm), the Cosmos one may have any form
    // ("cosmos-1"); the Ethermint form still gives it
    if (PROFILES[profile].ethermintChainId || CHAIN_ID.test(d.chain_id)) chainId = parseChainId(d.chain_id);
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
  const appState = d.app_state as { epochs?: { epochs?: unknown } } | undefined;
  const list = appState?.epochs?.epochs;
  const cosmosChainId = typeof d.chain_id === "string" ? d.chain_id : undefined;
  if (list === undefined) return { genesisTime, chainId, cosmosChainId, epochs: defaultGenesis(profile) };
  if (!Array.isArray(list)) throw new Error("app_state.epochs.epochs: expected an array");
  return { genesisTime, chainId, cosmosChainId, epochs: { epochs: list.map((e, i) => fromJson(e, `app_state.epochs.epochs[${i}]`)) } };
}

/**
 * A Cosmos genesis.json of the epochs (and `appState`'s other sections): `chain_id` is `cosmosChainId`
 * when given (a chain started from a team's genesis keeps its own), else the Ethermint form of the EVM
 * chain id.
 */
export function cosmosGenesisDoc(opts: {
  genesisTime: Time;
  chainId: bigint;
  epochs: readonly EpochInfo[];
  chainName?: string;
  cosmosChainId?: string;
  appState?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    genesis_time: formatTime(opts.genesisTime),
    chain_id: opts.cosmosChainId ?? `${opts.chainName ?? "evmos"}_${opts.chainId}-1`,
    initial_height: "1",
    // other modules' sections (the staking module's, when the chain has it) beside the epochs'
    app_state: { ...opts.appState, epochs: { epochs: opts.epochs.map(toJson) } },
  };
}

export function toCosmosGenesis(opts: Parameters<typeof cosmosGenesisDoc>[0]): string {
  return `${JSON.stringify(cosmosGenesisDoc(opts), null, 2)}\n`;
}
