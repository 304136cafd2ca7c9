/**
 * Pure config resolution: Hardhat's resolved `networks.hardhat` → the chain's ChainConfig, and the
 * user's `epochs` section → its resolved form. Unit-tested without a Hardhat runtime.
 */
import fs from "node:fs";
import path from "node:path";
import { HardhatPluginError } from "hardhat/plugins";
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatConfig, HardhatNetworkConfig, HardhatNetworkUserConfig, HardhatUserConfig } from "hardhat/types";
import type { ChainConfig } from "../chain/config";
import { chainConfigModule } from "./lazy";
import type { EpochsConfig, EpochsUserConfig } from "./type-extensions";

export const PLUGIN_NAME = "hardhat-epochs";
/** Evmos's local chain id (`evmos_9000-1`); used unless the user sets `networks.hardhat.chainId`. */
export const DEFAULT_CHAIN_ID = 9000;
export const DEFAULT_HOOK_GAS_LIMIT = 3_000_000;

/** The bearer token file `npx hardhat node` writes (in the project cache when it has no --home). */
export const TOKEN_FILE_NAME = "jsonrpc.token";

/**
 * The plugin's config extender: resolves `epochs`, and makes 9000 the hardhat network's chain id
 * unless the user chose one (Hardhat has already filled in its own default, 31337, by now).
 */
export function extendEpochsConfig(config: HardhatConfig, userConfig: Readonly<HardhatUserConfig>): void {
  config.epochs = resolveEpochsConfig(userConfig.epochs);
  if (userConfig.networks?.[HARDHAT_NETWORK_NAME]?.chainId === undefined) {
    config.networks[HARDHAT_NETWORK_NAME].chainId = DEFAULT_CHAIN_ID;
  }
  addLocalBearerToken(config);
}

/**
 * A node started from this project writes its bearer token to the cache; requests to it from HTTP
 * networks on this machine (`--network localhost`) carry it, unless the user set Authorization.
 */
export function addLocalBearerToken(config: HardhatConfig): void {
  const file = path.join(config.paths.cache, TOKEN_FILE_NAME);
  let token: string;
  try {
    token = fs.readFileSync(file, "utf8").trim();
  } catch {
    return; // no local node has written one
  }
  if (token === "") return;
  for (const net of Object.values(config.networks)) {
    if (!("url" in net) || !isLoopbackUrl(net.url)) continue;
    const has = Object.keys(net.httpHeaders).some((h) => h.toLowerCase() === "authorization");
    if (!has) net.httpHeaders = { ...net.httpHeaders, Authorization: `Bearer ${token}` };
  }
}

function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "[::1]" || host.startsWith("127.");
  } catch {
    return false;
  }
}

/** "0x…" hex → bytes (what ethers' getBytes does, without loading ethers with the plugin). */
function getBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/i, ""), "hex"));
}

/** Hardhat's hardfork names that EthereumJS spells differently. */
const HARDFORK_ALIASES: Record<string, string> = { merge: "paris" };

/**
 * Maps the resolved hardhat network config onto the chain's config. `user` is what the user wrote,
 * so values Hardhat filled in by default (the genesis date) can be told apart from chosen ones.
 */
export function toChainConfig(net: HardhatNetworkConfig, user: HardhatNetworkUserConfig = {}): ChainConfig {
  const defaults = chainConfigModule().defaultChainConfig();
  return {
    ...defaults,
    chainId: BigInt(net.chainId),
    hardfork: HARDFORK_ALIASES[net.hardfork] ?? net.hardfork,
    blockGasLimit: BigInt(net.blockGasLimit),
    initialBaseFeePerGas: net.initialBaseFeePerGas !== undefined ? BigInt(net.initialBaseFeePerGas) : defaults.initialBaseFeePerGas,
    accounts: toGenesisAccounts(net.accounts),
    mining: {
      auto: net.mining.auto,
      interval: net.mining.interval,
      order: net.mining.mempool.order === "fifo" ? "fifo" : "priority",
    },
    coinbase: net.coinbase !== undefined ? getBytes(net.coinbase) : defaults.coinbase,
    allowUnlimitedContractSize: net.allowUnlimitedContractSize,
    // Hardhat resolves a missing initialDate to "now"; only a date the user chose pins genesis time.
    initialDate: user.initialDate !== undefined ? new Date(net.initialDate) : undefined,
    minGasPrice: BigInt(net.minGasPrice),
    // Hardhat always resolves `gas` to a number (the tx gas cap); only a value the user wrote replaces the default (docs/json-rpc.md, "Transaction and call objects").
    defaultSendGas: typeof user.gas === "number" ? BigInt(user.gas) : defaults.defaultSendGas,
    allowBlocksWithSameTimestamp: net.allowBlocksWithSameTimestamp ?? false,
    throwOnTransactionFailures: net.throwOnTransactionFailures,
    enableRip7212: net.enableRip7212 ?? false,
  };
}

function toGenesisAccounts(accounts: HardhatNetworkConfig["accounts"]): ChainConfig["accounts"] {
  const { deriveAccounts } = chainConfigModule();
  if (Array.isArray(accounts)) {
    return accounts.map((a) => ({ privateKey: getBytes(a.privateKey), balance: BigInt(a.balance) }));
  }
  return deriveAccounts(accounts.mnemonic, accounts.path, accounts.count, accounts.initialIndex, BigInt(accounts.accountsBalance), accounts.passphrase);
}

/** Resolves and checks the `epochs` section; the genesis records themselves are checked at chain start. */
export function resolveEpochsConfig(user: EpochsUserConfig | undefined): EpochsConfig {
  const tickRule = user?.tickRule ?? "spec";
  if (tickRule !== "spec" && tickRule !== "evmos") {
    throw new HardhatPluginError(PLUGIN_NAME, `invalid epochs.tickRule "${String(tickRule)}": expected "spec" or "evmos"`);
  }
  const hookGasLimit = user?.hookGasLimit ?? DEFAULT_HOOK_GAS_LIMIT;
  if (!Number.isSafeInteger(hookGasLimit) || hookGasLimit <= 0) {
    throw new HardhatPluginError(PLUGIN_NAME, `invalid epochs.hookGasLimit ${String(hookGasLimit)}: expected a positive integer`);
  }
  const genesis = user?.genesis;
  if (genesis !== undefined && (genesis === null || typeof genesis !== "object" || !Array.isArray(genesis.epochs))) {
    throw new HardhatPluginError(PLUGIN_NAME, "invalid epochs.genesis: expected { epochs: [...] }");
  }
  return { genesis, tickRule, hookGasLimit };
}
