/**
 * Pure config resolution: Hardhat's resolved `networks.hardhat` → the chain's ChainConfig, and the
 * user's `epochs` section → its resolved form. Unit-tested without a Hardhat runtime.
 */
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatConfig, HardhatNetworkConfig, HardhatNetworkUserConfig, HardhatUserConfig } from "hardhat/types";
import type { ChainConfig } from "../chain/config";
import { chainConfigModule } from "../host/lazy";
import { DEFAULT_CHAIN_ID } from "../host/settings/chain-defaults";
import { pluginError, withPluginErrors } from "./plugin-error";
import { type EpochsConfig, type EpochsUserConfig, resolveEpochsConfig as resolveSharedEpochsConfig } from "../host/settings/epochs-config";
import { type LocalNodeRecord, nodeUrl, projectNodeToken, runningNode } from "../host/node/node-files";

export { PLUGIN_NAME } from "./plugin-error";
/** The token file and the record of itself a node (without --home) leaves in the project cache. */
export { NODE_RECORD_FILE_NAME, TOKEN_FILE_NAME } from "../host/node/node-files";
/**
 * The plugin's config extender: resolves `epochs`, and makes 9000 the hardhat network's chain id
 * unless the user chose one (Hardhat has already filled in its own default, 31337, by now).
 */
export function extendEpochsConfig(config: HardhatConfig, userConfig: Readonly<HardhatUserConfig>): void {
  config.epochs = resolveEpochsConfig(userConfig.epochs);
  if (userConfig.networks?.[HARDHAT_NETWORK_NAME]?.chainId === undefined) {
    config.networks[HARDHAT_NETWORK_NAME].chainId = DEFAULT_CHAIN_ID;
  }
  // the project's running node, read once: localhost follows it, and requests to it carry its token
  const node = runningNode(config.paths.cache);
  if (node === undefined) return;
  followProjectNode(config, userConfig, node);
  addLocalBearerToken(config, node);
}

/** The URL `localhost` was pointed at because this project's node listens there (see followProjectNode), per config. */
export const followedNode = new WeakMap<HardhatConfig, string>();

/**
 * `--network localhost` reaches this project's running node where it listens: a node moved with
 * `--port 18545` leaves its record in the cache, and a `localhost` the user did not give a URL goes
 * there instead of 8545 (which may be another process). A URL the user set is never changed.
 */
function followProjectNode(config: HardhatConfig, userConfig: Readonly<HardhatUserConfig>, node: LocalNodeRecord): void {
  const user = userConfig.networks?.localhost as { url?: unknown } | undefined;
  const net = config.networks.localhost;
  if (user?.url !== undefined || net === undefined || !("url" in net)) return;
  const url = nodeUrl(node);
  if (net.url.replace(/\/$/, "") === url) return;
  net.url = url;
  followedNode.set(config, url);
}

/**
 * A node started from this project writes its bearer token (in its home, or the cache) and a record of
 * itself (pid, ports, home) to the cache. Requests from HTTP networks on this machine to that node (a
 * loopback URL on one of its ports, while its process lives) carry the token, unless the user set
 * Authorization (src/host/node/node-files.ts, projectNodeToken). Any other URL gets nothing.
 */
export function addLocalBearerToken(config: HardhatConfig, node: LocalNodeRecord | undefined = runningNode(config.paths.cache)): void {
  if (node === undefined) return; // no live node of this project has left its record
  for (const net of Object.values(config.networks)) {
    if (!("url" in net)) continue;
    const token = projectNodeToken(config.paths.cache, net.url, node);
    if (token === undefined) continue;
    const has = Object.keys(net.httpHeaders).some((h) => h.toLowerCase() === "authorization");
    if (!has) net.httpHeaders = { ...net.httpHeaders, Authorization: `Bearer ${token}` };
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

/** Resolves and checks the `epochs` section (src/host/settings/epochs-config.ts) with Hardhat's error class. */
export function resolveEpochsConfig(user: EpochsUserConfig | undefined): EpochsConfig {
  if (user?.network !== undefined) {
    throw pluginError("epochs.network is Hardhat 3's place for the in-process network's settings; on Hardhat 2 they go on networks.hardhat");
  }
  return withPluginErrors(() => resolveSharedEpochsConfig(user));
}
