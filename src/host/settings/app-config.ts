/**
 * The node's app configuration (Evmos's app.toml keys): their defaults, the merge of the sources
 * (src/host/settings/app-config-sources.ts reads them) with precedence command-line flags >
 * `<home>/config/app.toml` > hardhat.config.ts > defaults, and the mapping of the result onto the
 * runtime and server options. `npx hardhat node` resolves its settings here and nowhere else.
 * Pure (no Hardhat imports), so the node task, the tests and tools can share it. The node tasks load
 * it when they run (the plugin loads only the keys' table); it imports nothing heavy at the top
 * either: the defaults' owners load when first asked.
 */
import type { RuntimeOptions } from "../../app/runtime";
import type { ServerOptions } from "../../rpc/transport/server";
import type { TxPoolLimits } from "../../chain/setup";
import { defaultRpcSettings } from "../../rpc/deps";
import { DEFAULT_BATCH_LIMIT, DEFAULT_BATCH_RESPONSE_BYTES, DEFAULT_BODY_LIMIT, DEFAULT_HTTP_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS } from "../../rpc/limits";
import type { EpochsProfile, TickRule } from "../../epochs/types";
import { PROFILES } from "../../epochs/profile";
import { type JsonRpcConfig, boolDefault } from "./app-config-keys";
import { type AppConfigLayer, type EpochsAppConfig, type GasPriceSetting, type NodeLogLevel, checkGasPriceDenom, layerFromFlags } from "./app-config-sources";

export type { EpochsProfile };
export { type JsonRpcConfig };
export {
  type AppConfigLayer,
  type EpochsAppConfig,
  LOG_VERBOSITY,
  type NodeLogLevel,
  TXPOOL_KEYS,
  formatGoDuration,
  layerFromFlags,
  parseAppToml,
  parseHostPort,
  parseMinimumGasPrices,
  readAppToml,
} from "./app-config-sources";
export { parseGoDuration } from "../../utils/go-duration";

export interface AppConfig {
  /** Wei per gas (`minimum-gas-prices = "<amount>aevmos"`, `atest` under cosmos-evm). */
  minimumGasPrices: bigint;
  /** The node's log (`--quiet`, Hardhat's `--verbose`). */
  log: NodeLogLevel;
  jsonRpc: JsonRpcConfig;
  epochs: EpochsAppConfig;
  /** The transaction pool's limits: our own [txpool] table (Evmos has none), geth's names and defaults. */
  txpool: TxPoolLimits;
  home?: string;
}

/**
 * Every setting's default. Values that a lower layer owns come from it, so each number is written
 * once: the RPC limits from the dispatcher's settings, the transport limits from the server, the gas
 * cap from the chain's config (where eth_call reads it).
 */
export function defaultAppConfig(namespaces: readonly string[]): AppConfig {
  const rpc = defaultRpcSettings("");
  // the chain's config module loads ethers: only when the node resolves its settings, not at plugin load
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const chain = (require("../../chain/config") as typeof import("../../chain/config")).defaultChainConfig();
  return {
    minimumGasPrices: chain.minGasPrice,
    log: "normal",
    jsonRpc: {
      enable: boolDefault("enable"),
      address: { host: "127.0.0.1", port: 8545 },
      // beside the HTTP listener unless placed (resolveAppConfig): loopback, Evmos's port
      wsAddress: { host: "127.0.0.1", port: 8546 },
      api: [...namespaces],
      gasCap: chain.gasCap,
      evmTimeoutMs: rpc.evmTimeoutMs,
      txFeeCap: rpc.txFeeCap,
      filterCap: rpc.filterCap,
      feeHistoryCap: rpc.feeHistoryCap,
      logsCap: rpc.logsCap,
      blockRangeCap: rpc.blockRangeCap,
      httpTimeoutMs: DEFAULT_HTTP_TIMEOUT_MS,
      httpIdleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
      allowUnprotectedTxs: boolDefault("allow-unprotected-txs"),
      allowInsecureUnlock: boolDefault("allow-insecure-unlock"),
      maxOpenConnections: 0,
      batchRequestLimit: DEFAULT_BATCH_LIMIT,
      batchResponseMaxSize: DEFAULT_BATCH_RESPONSE_BYTES,
      bodyLimit: DEFAULT_BODY_LIMIT,
      enableIndexer: boolDefault("enable-indexer"),
      log: boolDefault("log"),
      allowedOrigins: [],
      wsOrigins: [],
    },
    epochs: { profile: "evmos", tickRule: PROFILES.evmos.tickRule, hookGasLimit: 3_000_000n },
    txpool: { ...chain.txPool },
  };
}

// ------------------------------------------------------------------------------------------ merge

interface ResolveAppConfigInput {
  /** Flags the user gave, keyed as Evmos spells them (see layerFromFlags). */
  flags?: Record<string, string | boolean>;
  /** readAppToml's result, when there is a home. */
  appToml?: AppConfigLayer;
  /** What hardhat.config.ts sets (epochs tick rule, hook gas limit, …). */
  hardhatConfig?: AppConfigLayer;
  defaults: AppConfig;
  /** Namespaces the node has; default: the default api list (every namespace). */
  knownNamespaces?: readonly string[];
}

/** Flags > app.toml > hardhat.config > defaults, then the checks that need the merged result. */
export function resolveAppConfig(input: ResolveAppConfigInput): AppConfig {
  const flags = input.flags === undefined ? undefined : layerFromFlags(input.flags);
  // lowest precedence first, so later layers overwrite
  const layers = [input.hardhatConfig, input.appToml, flags].filter((l): l is AppConfigLayer => l !== undefined);
  const d = input.defaults;
  const out: AppConfig = { ...d, jsonRpc: { ...d.jsonRpc, address: { ...d.jsonRpc.address }, api: [...d.jsonRpc.api] }, epochs: { ...d.epochs }, txpool: { ...d.txpool } };
  let apiSource = "defaults";
  let gasPrice: { setting: GasPriceSetting; source: string; label: string } | undefined;
  for (const l of layers) {
    if (l.minimumGasPrices !== undefined) gasPrice = { setting: l.minimumGasPrices, source: l.source, label: l === flags ? "--minimum-gas-prices" : "minimum-gas-prices" };
    if (l.home !== undefined) out.home = l.home;
    if (l.log !== undefined) out.log = l.log;
    const { address, ...rest } = l.jsonRpc ?? {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (out.jsonRpc as unknown as Record<string, unknown>)[k] = v;
    if (address?.host !== undefined) out.jsonRpc.address.host = address.host;
    if (address?.port !== undefined) out.jsonRpc.address.port = address.port;
    if (rest.api !== undefined) apiSource = l.source;
    for (const [k, v] of Object.entries(l.epochs ?? {})) if (v !== undefined) (out.epochs as unknown as Record<string, unknown>)[k] = v;
    for (const [k, v] of Object.entries(l.txpool ?? {})) if (v !== undefined) (out.txpool as unknown as Record<string, unknown>)[k] = v;
  }
  if (gasPrice !== undefined) {
    checkGasPriceDenom(gasPrice.setting, out.epochs.profile, `${gasPrice.source}: ${gasPrice.label}`);
    out.minimumGasPrices = gasPrice.setting.amount;
  }
  // a tick rule nobody set is the profile's
  if (layers.every((l) => l.epochs?.tickRule === undefined)) out.epochs.tickRule = PROFILES[out.epochs.profile].tickRule;
  // the WebSocket-only listener nobody placed sits beside the HTTP listener: on its host (a dev node
  // stays local unless asked), at its port + 1 (8545 → Evmos's 8546), so a node moved with --port
  // moves both and two projects' nodes run side by side; --port 0 asks for a free port, for both
  if (layers.every((l) => l.jsonRpc?.wsAddress === undefined)) {
    const { host, port } = out.jsonRpc.address;
    out.jsonRpc.wsAddress = { host, port: port === 0 || port >= 65535 ? 0 : port + 1 };
  }
  const known = input.knownNamespaces ?? d.jsonRpc.api;
  for (const ns of out.jsonRpc.api) {
    if (!known.includes(ns)) throw new Error(`${apiSource}: unknown JSON-RPC namespace '${ns}' in json-rpc.api (known: ${known.join(", ")})`);
  }
  if (out.jsonRpc.enable && out.jsonRpc.api.length === 0) throw new Error(`${apiSource}: cannot enable JSON-RPC without defining any API namespace`);
  return out;
}

// ---------------------------------------------------------------------------------------- mapping

/** What the resolved settings set in the chain, the dispatcher and the epochs module. */
interface AppRuntimeSettings {
  chain: { gasCap: bigint; minGasPrice: bigint; txPool: TxPoolLimits };
  rpc: NonNullable<RuntimeOptions["rpc"]>;
  enabledNamespaces: ReadonlySet<string>;
  maxBatch: number;
  batch: { maxResponseBytes: number; timeoutMs: number };
  epochs: { profile: EpochsProfile; tickRule: TickRule; hookGasLimit: bigint };
}

/** The resolved settings → the runtime's options (the node task merges them over hardhat.config's chain). */
export function runtimeSettings(c: AppConfig): AppRuntimeSettings {
  const j = c.jsonRpc;
  return {
    // eth_call and eth_estimateGas read the cap from the chain's config
    chain: { gasCap: j.gasCap, minGasPrice: c.minimumGasPrices, txPool: { ...c.txpool } },
    rpc: {
      gasCap: j.gasCap,
      evmTimeoutMs: j.evmTimeoutMs,
      txFeeCap: j.txFeeCap,
      filterCap: j.filterCap,
      feeHistoryCap: j.feeHistoryCap,
      logsCap: j.logsCap,
      blockRangeCap: j.blockRangeCap,
      allowUnprotectedTxs: j.allowUnprotectedTxs,
      allowInsecureUnlock: j.allowInsecureUnlock,
    },
    enabledNamespaces: new Set(j.api),
    maxBatch: j.batchRequestLimit,
    batch: { maxResponseBytes: j.batchResponseMaxSize, timeoutMs: j.httpTimeoutMs },
    epochs: { ...c.epochs },
  };
}

/** The resolved settings → the server's options; `authToken` undefined = use or create the token file. */
export function serverSettings(c: AppConfig): Omit<ServerOptions, "token" | "rest" | "log"> & { authToken?: string } {
  const j = c.jsonRpc;
  return {
    host: j.address.host,
    port: j.address.port,
    ws: { ...j.wsAddress },
    bodyLimit: j.bodyLimit,
    batchLimit: j.batchRequestLimit,
    httpTimeoutMs: j.httpTimeoutMs,
    idleTimeoutMs: j.httpIdleTimeoutMs,
    maxConnections: j.maxOpenConnections,
    allowedOrigins: [...j.allowedOrigins],
    ...(j.wsOrigins.length > 0 ? { wsOrigins: [...j.wsOrigins] } : {}),
    authToken: j.authToken,
  };
}
