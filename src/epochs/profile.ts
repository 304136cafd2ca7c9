/**
 * The chains this node behaves as (docs/profiles.md), each in one record: Evmos v20, and a chain on
 * cosmos/evm with the Cosmos SDK's own x/epochs. Every difference between them is a field here; code
 * reads the field, never the profile's name. No imports but types: the plugin's config checks load it.
 */
import type { EpochsProfile, TickRule } from "./types";

interface ChainProfile {
  /** The native coin's bank denom (18 decimals, the EVM balance): Evmos's `aevmos`, evmd's `atest`. */
  denom: string;
  /** The account prefix of the chain's bech32 addresses. */
  bech32Prefix: string;
  /** The tick rule the epochs module runs unless one is set (docs/epochs.md). */
  tickRule: TickRule;
  /**
   * The Cosmos SDK's x/epochs: its default genesis (day, hour, minute, week) and checks, typed
   * events, REST at /cosmos/epochs/v1beta1. Else Evmos's: week and day, plain events, /evmos/epochs/v1.
   */
  sdkEpochs: boolean;
  /**
   * The Cosmos chain id carries the EVM chain id in Ethermint's form (`evmos_9000-1`), so a genesis's
   * `chain_id` must have it; cosmos/evm sets the EVM chain id apart and takes any Cosmos id ("cosmos-1").
   */
  ethermintChainId: boolean;
  /** The Cosmos modules (staking and the modules on it) run unless the config turns them off. */
  cosmosModules: boolean;
  /** The native coin's bank metadata (what its WERC20 answers): Evmos's, and evmd's local_node.sh. */
  nativeMetadata: { name: string; symbol: string; decimals: number };
  /** JSON-RPC methods the chain removed (cosmos/evm's PR #456, to match geth): unknown methods here too. */
  removedMethods: readonly string[];
}

export const PROFILES: Readonly<Record<EpochsProfile, ChainProfile>> = {
  evmos: {
    denom: "aevmos",
    bech32Prefix: "evmos",
    tickRule: "spec",
    sdkEpochs: false,
    ethermintChainId: true,
    cosmosModules: false,
    nativeMetadata: { name: "Evmos", symbol: "EVMOS", decimals: 18 },
    removedMethods: [],
  },
  "cosmos-evm": {
    denom: "atest",
    bech32Prefix: "cosmos",
    tickRule: "sdk",
    sdkEpochs: true,
    ethermintChainId: false,
    cosmosModules: true,
    nativeMetadata: { name: "Test Token", symbol: "TEST", decimals: 18 },
    removedMethods: ["eth_coinbase", "eth_mining", "eth_hashrate", "eth_getPendingTransactions", "debug_seedHash"],
  },
};

export const EPOCHS_PROFILES = Object.keys(PROFILES) as EpochsProfile[];

/** The profiles as a message lists them: `"evmos" or "cosmos-evm"`. */
export const PROFILE_NAMES = EPOCHS_PROFILES.map((p) => JSON.stringify(p)).join(" or ");

export function isProfile(value: unknown): value is EpochsProfile {
  return typeof value === "string" && Object.hasOwn(PROFILES, value);
}
