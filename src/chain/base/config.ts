/**
 * The chain's resolved configuration. The Hardhat layer maps `networks.hardhat` settings users
 * already write (chainId, accounts, mining, initialBaseFeePerGas, blockGasLimit, hardfork, …) onto it.
 */
import { type Address, createAddressFromString } from "@ethereumjs/util";
import { deriveHdKeys } from "./hd-keys";
import { addressOfKey } from "./crypto";

export const DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
export const DEFAULT_HD_PATH = "m/44'/60'/0'/0";
export const DEFAULT_ACCOUNT_BALANCE = 10_000n * 10n ** 18n;
/** eth_sendTransaction without gas (docs/json-rpc.md, "Transaction and call objects"). */
export const DEFAULT_SEND_GAS = 2_020_020n;

/** The transaction pool's bounds (geth's txpool flags; app.toml's [txpool]). */
export interface TxPoolLimits {
  globalPending: number;
  accountSlots: number;
  globalQueued: number;
  accountQueued: number;
  priceBump: number;
}

export const DEFAULT_POOL_LIMITS: TxPoolLimits = { globalPending: 5120, accountSlots: 16, globalQueued: 1024, accountQueued: 64, priceBump: 10 };

/** Block-production settings that dev methods change at runtime (and snapshots restore). */
export interface NodeSettings {
  coinbase: Uint8Array;
  gasLimit: bigint;
  extraData: Uint8Array;
  minGasPrice: bigint;
  nextBaseFee: bigint | undefined;
  /** prevRandao (mixHash) of the next block only (hardhat_setPrevRandao); else derived from the parent. */
  nextPrevRandao?: Uint8Array;
  automine: boolean;
  /** miner_stop pauses block production; pending transactions wait. */
  paused: boolean;
  intervalMs: number | [number, number];
}

export interface GenesisAccount {
  privateKey: Uint8Array;
  balance: bigint;
}

export interface MiningConfig {
  /** One block per transaction (Hardhat's automine). */
  auto: boolean;
  /** Interval mining in ms: 0 = off; a pair = a random interval in [min, max]. */
  interval: number | [number, number];
  /** "priority" orders the pool by fee like Hardhat; "fifo" by arrival. */
  order: "priority" | "fifo";
}

export interface ChainConfig {
  chainId: bigint;
  /** The Cosmos chain id a home's genesis.json names (cosmos/evm sets it apart from the EVM's: "9001"); default `evmos_<chainId>-1`. */
  cosmosChainId?: string;
  hardfork: string;
  blockGasLimit: bigint;
  initialBaseFeePerGas: bigint;
  accounts: GenesisAccount[];
  /** Balances a genesis file gives addresses (no keys here); the file's entry wins over a configured account's balance for the address it names. */
  genesisBalances?: Array<{ address: string; balance: bigint }>;
  /**
   * Accounts a genesis file gives a nonce, code or storage (cosmos/evm's `app_state.evm.accounts`,
   * x/auth's sequences): written after the modules' genesis, over what the balances made.
   */
  genesisState?: GenesisAccountState[];
  mining: MiningConfig;
  coinbase: Uint8Array;
  allowUnlimitedContractSize: boolean;
  /** Timestamp of the genesis block; later blocks follow the (movable) clock. */
  initialDate?: Date;
  /** Node minimum gas price (wei per gas), the `minimum-gas-prices` setting. */
  minGasPrice: bigint;
  /** Gas used by eth_sendTransaction when the caller gives none. */
  defaultSendGas: bigint;
  /** eth_call / eth_estimateGas gas cap (`gas-cap`; 0 = no cap). */
  gasCap: bigint;
  allowBlocksWithSameTimestamp: boolean;
  /** Throw on a failed transaction sent through eth_sendTransaction/eth_sendRawTransaction when automining. */
  throwOnTransactionFailures: boolean;
  /** The transaction pool's limits (app.toml's [txpool]; see src/chain/pool/txpool.ts). */
  txPool: TxPoolLimits;
  /** The P-256 verification precompile at 0x100 (Hardhat's `enableRip7212`) before Osaka, which has it (EIP-7951). */
  enableRip7212?: boolean;
}

export interface GenesisAccountState {
  address: string;
  nonce?: bigint;
  code?: Uint8Array;
  storage?: Array<[Uint8Array, Uint8Array]>;
}

export function defaultChainConfig(): ChainConfig {
  return {
    chainId: 9000n,
    hardfork: "osaka",
    blockGasLimit: 60_000_000n,
    initialBaseFeePerGas: 1_000_000_000n,
    accounts: deriveAccounts(DEFAULT_MNEMONIC, DEFAULT_HD_PATH, 20, 0, DEFAULT_ACCOUNT_BALANCE),
    mining: { auto: true, interval: 0, order: "priority" },
    coinbase: new Uint8Array(Buffer.from("c014ba5ec014ba5ec014ba5ec014ba5ec014ba5e", "hex")),
    allowUnlimitedContractSize: false,
    minGasPrice: 0n,
    defaultSendGas: DEFAULT_SEND_GAS,
    gasCap: 25_000_000n,
    allowBlocksWithSameTimestamp: false,
    throwOnTransactionFailures: true,
    txPool: { ...DEFAULT_POOL_LIMITS },
  };
}

/** Every balance at genesis: the configured accounts', then the genesis file's (which win for the addresses they name: the file is the chain). */
export function genesisAllocations(config: Pick<ChainConfig, "accounts" | "genesisBalances">): Array<{ address: Address; balance: bigint }> {
  const out = new Map<string, { address: Address; balance: bigint }>();
  for (const a of config.accounts) {
    const address = addressOfKey(a.privateKey);
    out.set(address.toString(), { address, balance: a.balance });
  }
  const named = new Map<string, { address: Address; balance: bigint }>();
  for (const b of config.genesisBalances ?? []) {
    const address = createAddressFromString(b.address);
    const key = address.toString();
    named.set(key, { address, balance: (named.get(key)?.balance ?? 0n) + b.balance });
  }
  for (const [key, entry] of named) out.set(key, entry);
  return [...out.values()];
}

const derivedCache = new Map<string, Uint8Array[]>();

/** Hardhat's HD accounts: `path/initialIndex+i` of the mnemonic, each funded with `balance`. */
export function deriveAccounts(mnemonic: string, path: string, count: number, initialIndex: number, balance: bigint, passphrase = ""): GenesisAccount[] {
  const cacheKey = `${mnemonic}|${path}|${count}|${initialIndex}|${passphrase}`;
  let keys = derivedCache.get(cacheKey);
  if (keys === undefined) {
    keys = deriveHdKeys(mnemonic, path, count, initialIndex, passphrase);
    derivedCache.set(cacheKey, keys);
  }
  return keys.map((privateKey) => ({ privateKey, balance }));
}

/** Whether `key` is one of the first `count` keys of Hardhat's default mnemonic (so anybody can know it). */
export function isPubliclyKnownKey(key: Uint8Array, count = 20): boolean {
  const known = deriveAccounts(DEFAULT_MNEMONIC, DEFAULT_HD_PATH, Math.max(20, count), 0, DEFAULT_ACCOUNT_BALANCE);
  return known.some((a) => Buffer.from(a.privateKey).equals(key));
}
