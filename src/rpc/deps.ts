/** What namespace factories receive: the chain and the JSON-RPC settings (app.toml [json-rpc] names). */
import type { Node } from "../chain";
import type { ContractRegistry } from "../solidity/registry";
import type { KeyStore } from "../keystore";

export interface RpcSettings {
  /** eth_call / eth_estimateGas gas cap (`gas-cap`). */
  gasCap: bigint;
  /** `evm-timeout` for eth_call, ms; 0 = none. */
  evmTimeoutMs: number;
  /** `txfee-cap` in ether, checked by eth_resend-like paths; 0 = none. */
  txFeeCap: number;
  filterCap: number;
  feeHistoryCap: number;
  logsCap: number;
  blockRangeCap: number;
  allowUnprotectedTxs: boolean;
  /** `allow-insecure-unlock`: when false, the methods that use unlocked accounts refuse (Evmos's list). */
  allowInsecureUnlock: boolean;
  clientVersion: string;
  /** The node's home directory (--home), where debug methods may read and write files besides the working directory. */
  home?: string;
}

/**
 * The defaults of the JSON-RPC settings (the node's app config reads them from here). The gas cap
 * has none here: eth_call reads it from the chain's config, and the runtime copies it from there.
 */
export function defaultRpcSettings(clientVersion: string): Omit<RpcSettings, "gasCap"> {
  return {
    evmTimeoutMs: 5000,
    txFeeCap: 1,
    filterCap: 200,
    feeHistoryCap: 100,
    logsCap: 10_000,
    blockRangeCap: 10_000,
    allowUnprotectedTxs: false,
    allowInsecureUnlock: true,
    clientVersion,
  };
}

/** hardhat_reset's `forking` parameter, resolved. */
export interface ResetForking {
  url: string;
  blockNumber?: bigint;
  httpHeaders?: Record<string, string>;
}

export interface RpcDeps {
  node: Node;
  settings: RpcSettings;
  /** The encrypted key store of the personal namespace (in memory without a home). */
  keystore: KeyStore;
  /** hardhat_reset: a new chain, forked when `forking` is given (absent: the method answers that it cannot). */
  resetChain?: (forking: ResetForking | undefined) => Promise<void>;
  /** The project's compiled contracts (build-info files, hardhat_addCompilationResult), for Solidity stack traces. */
  contracts: ContractRegistry;
  /** Failed executions whose stack trace could not be built (hardhat_getStackTraceFailuresCount). */
  stackTraceFailures: { count: number };
}

/** Every namespace this node has (the default of `json-rpc.api`); here, so config code can name them without loading the chain. */
export const CORE_NAMESPACES = [
  "eth",
  "net",
  "web3",
  "evm",
  "hardhat",
  "anvil",
  "ots",
  "erigon",
  "trace",
  "txpool",
  "miner",
  "shh",
  "les",
  "clique",
  "db",
  "epochs",
  "cosmos",
  "debug",
  "personal",
  "admin",
] as const;
