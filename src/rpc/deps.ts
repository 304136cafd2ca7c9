/** What namespace factories receive: the chain and the JSON-RPC settings (app.toml [json-rpc] names). */
import type { Node } from "../chain/node";

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
  clientVersion: string;
}

export function defaultRpcSettings(clientVersion: string): RpcSettings {
  return {
    gasCap: 25_000_000n,
    evmTimeoutMs: 5000,
    txFeeCap: 1,
    filterCap: 200,
    feeHistoryCap: 100,
    logsCap: 10_000,
    blockRangeCap: 10_000,
    allowUnprotectedTxs: false,
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
  /** hardhat_reset: a new chain, forked when `forking` is given (absent: the method answers that it cannot). */
  resetChain?: (forking: ResetForking | undefined) => Promise<void>;
}
