/**
 * The [json-rpc] keys of app.toml, which are also `npx hardhat node`'s `--json-rpc.<key>` flags: one
 * table (field, kind, description, Evmos's validation text, default). Light on purpose: both hosts
 * load it with the plugin to declare the flags; the resolver that reads it (src/host/settings/app-config.ts)
 * loads when the node starts.
 */
import type { RpcSettings } from "../../rpc/deps";
import type { HostPort } from "../../rpc/transport/server";

/** The [json-rpc] table: the dispatcher's settings (src/rpc/deps.ts) and the transport's. */
export interface JsonRpcConfig extends Omit<RpcSettings, "clientVersion" | "home"> {
  enable: boolean;
  /** HTTP (and WebSocket upgrade) listener; Hardhat's --hostname/--port set it too. */
  address: HostPort;
  wsAddress: HostPort;
  api: string[];
  httpTimeoutMs: number;
  httpIdleTimeoutMs: number;
  /** 0 = unlimited. */
  maxOpenConnections: number;
  batchRequestLimit: number;
  /** Bytes the answers of one batch may take; later members answer `response too large`. */
  batchResponseMaxSize: number;
  /** Bytes of one HTTP body or WebSocket message. */
  bodyLimit: number;
  enableIndexer: boolean;
  /** The node's log prints every request and its answer in full (`--json-rpc.log`). */
  log: boolean;
  /** Bearer token of the private namespaces; undefined = generated and kept in `<home>/jsonrpc.token`. */
  authToken?: string;
  /** Browser origins whose pages may call `dev` methods without the token, besides localhost's (docs/security.md). */
  allowedOrigins: string[];
  /** cosmos/evm's `ws-origins`: origins that may open a WebSocket; empty = any origin. */
  wsOrigins: string[];
}

export type Kind = "bool" | "address" | "api" | "origins" | "uint64" | "int" | "float" | "duration" | "token";
export interface KeySpec {
  field: keyof JsonRpcConfig;
  kind: Kind;
  /** What it does (`npx hardhat node --help` prints it, and the default app.toml as a comment). */
  description: string;
  /** Evmos's text for a negative value (or for 0 too, when `positive`). */
  negative?: string;
  positive?: true;
  /** Not a command-line flag (a secret does not belong in the process list). */
  fileOnly?: true;
  /** A boolean key's default (the default app.toml's value; Hardhat 3's `node --help` shows it). */
  default?: boolean;
}

/** The [json-rpc] keys of app.toml, which are also the `--json-rpc.<key>` flags of `npx hardhat node`. */
export const JSON_RPC_KEYS: Record<string, KeySpec> = {
  // Evmos v14+ defaults to false; a dev node exists to serve JSON-RPC
  enable: { field: "enable", kind: "bool", default: true, description: "Serve JSON-RPC (on by default for this node)" },
  address: { field: "address", kind: "address", description: "HTTP JSON-RPC host:port; it accepts WebSocket upgrades too (Evmos's spelling of --hostname/--port)" },
  "ws-address": {
    field: "wsAddress",
    kind: "address",
    description:
      "A WebSocket-only listener, host:port (default: beside the HTTP listener, on its host at its port + 1: 127.0.0.1:8546; with --port 0, a free port; Evmos's own default is 0.0.0.0:8546)",
  },
  api: { field: "api", kind: "api", description: "Comma-separated namespaces to serve (default: all)" },
  "gas-cap": { field: "gasCap", kind: "uint64", description: "Gas cap of eth_call and eth_estimateGas (0 = none)" },
  "evm-timeout": { field: "evmTimeoutMs", kind: "duration", description: "Deadline of eth_call (e.g. 5s; 0 = none)", negative: "JSON-RPC EVM timeout duration cannot be negative" },
  "txfee-cap": { field: "txFeeCap", kind: "float", description: "Fee cap of eth_resend, in ether (0 = none)", negative: "JSON-RPC tx fee cap cannot be negative" },
  "filter-cap": { field: "filterCap", kind: "int", description: "Maximum number of live polled filters", negative: "JSON-RPC filter-cap cannot be negative" },
  "feehistory-cap": { field: "feeHistoryCap", kind: "int", description: "Largest blockCount of eth_feeHistory", negative: "JSON-RPC feehistory-cap cannot be negative or 0", positive: true },
  "logs-cap": { field: "logsCap", kind: "int", description: "Maximum logs in one eth_getLogs answer", negative: "JSON-RPC logs cap cannot be negative" },
  "block-range-cap": { field: "blockRangeCap", kind: "int", description: "Maximum block range of one log query", negative: "JSON-RPC block range cap cannot be negative" },
  "http-timeout": { field: "httpTimeoutMs", kind: "duration", description: "Time to receive an HTTP request and answer it (e.g. 30s)", negative: "JSON-RPC HTTP timeout duration cannot be negative" },
  "http-idle-timeout": { field: "httpIdleTimeoutMs", kind: "duration", description: "HTTP keep-alive idle timeout (e.g. 120s)", negative: "JSON-RPC HTTP idle timeout duration cannot be negative" },
  "allow-unprotected-txs": { field: "allowUnprotectedTxs", kind: "bool", default: false, description: "Accept transactions without an EIP-155 chain id" },
  "allow-insecure-unlock": { field: "allowInsecureUnlock", kind: "bool", default: true, description: "Allow unlocking accounts over HTTP" },
  "max-open-connections": {
    field: "maxOpenConnections",
    kind: "int",
    description: "Maximum simultaneous HTTP connections (0 = unlimited)",
    negative: "JSON-RPC max-open-connections cannot be negative",
  },
  "batch-request-limit": { field: "batchRequestLimit", kind: "int", description: "Requests in one batch", negative: "JSON-RPC batch-request-limit must be greater than 0", positive: true },
  "batch-response-max-size": {
    field: "batchResponseMaxSize",
    kind: "int",
    description: "Bytes the answers of one batch may take",
    negative: "JSON-RPC batch-response-max-size must be greater than 0",
    positive: true,
  },
  "body-limit": { field: "bodyLimit", kind: "int", description: "Bytes of one HTTP request body or WebSocket message", negative: "JSON-RPC body-limit must be greater than 0", positive: true },
  "enable-indexer": { field: "enableIndexer", kind: "bool", default: false, description: "Accepted for compatibility (this node always indexes)" },
  log: { field: "log", kind: "bool", default: false, description: "Print every JSON-RPC request and its answer in full in the node's log" },
  "allowed-origins": {
    field: "allowedOrigins",
    kind: "origins",
    description: "More browser origins whose pages may call the dev methods (evm_*, hardhat_*) without the token, besides localhost, 127.0.0.1 and [::1]; a bare host matches any port",
  },
  "ws-origins": { field: "wsOrigins", kind: "origins", description: "Origins that may open a WebSocket (cosmos/evm's key; default: any)" },
  "auth-token": { field: "authToken", kind: "token", description: "Bearer token of the private namespaces (app.toml only)", fileOnly: true },
};

/** A boolean [json-rpc] key's default, from the table above. */
export function boolDefault(key: string): boolean {
  const value = JSON_RPC_KEYS[key].default;
  if (value === undefined) throw new Error(`json-rpc.${key} has no default`);
  return value;
}

/** The `--json-rpc.<key>` flags of `npx hardhat node`, from the table above. */
export const JSON_RPC_FLAGS: ReadonlyArray<{ flag: string; bool: boolean; description: string; defaultValue?: boolean }> = Object.entries(JSON_RPC_KEYS)
  .filter(([, spec]) => spec.fileOnly !== true)
  .map(([key, spec]) => ({ flag: `json-rpc.${key}`, bool: spec.kind === "bool", description: spec.description, ...(spec.default !== undefined ? { defaultValue: spec.default } : {}) }))
  .concat([{ flag: "json-rpc.fix-revert-gas-refund-height", bool: false, description: "Accepted for compatibility" }]);

/** Evmos/cosmos-evm [json-rpc] keys that mean nothing on this node; accepted so their app.toml loads. */
export const IGNORED_JSON_RPC_KEYS = new Set(["metrics-address", "fix-revert-gas-refund-height", "allow-indexer-gap", "enable-profiling"]);
