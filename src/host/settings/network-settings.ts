/**
 * The in-process network's settings on Hardhat 3 (`epochs.network` in the config): the keys Hardhat 3
 * users write on an `edr-simulated` network, mapped onto the chain's config. Hardhat 2 users keep
 * writing them on `networks.hardhat` (src/hardhat/chain-config.ts). No Hardhat import.
 */
import type { ChainConfig, GenesisAccount } from "../../chain/config";
import type { ForkConfig } from "../../chain/setup";
import type { HdAccounts } from "./chain-flags";
import { chainConfigModule } from "../lazy";
import { EpochsConfigError } from "../../utils/user-error";
import { ForkSettingsError, type ForkingUserConfig, forkFromSetting } from "./fork-settings";
import { booleanValue, hexBytes, safeInteger, shown, wholeNumber } from "../../utils/values";

type Amount = number | bigint | string;

export interface InProcessNetworkUserConfig {
  chainId?: number;
  hardfork?: string;
  blockGasLimit?: Amount;
  initialBaseFeePerGas?: Amount;
  minGasPrice?: Amount;
  coinbase?: string;
  /** The genesis block's time; later blocks follow the clock. */
  initialDate?: string | Date;
  allowUnlimitedContractSize?: boolean;
  allowBlocksWithSameTimestamp?: boolean;
  throwOnTransactionFailures?: boolean;
  mining?: { auto?: boolean; interval?: number | [number, number]; mempool?: { order?: "priority" | "fifo" } };
  accounts?: { mnemonic?: string; path?: string; count?: number; initialIndex?: number; accountsBalance?: Amount; passphrase?: string } | Array<{ privateKey: string; balance: Amount }>;
  /** Fork a remote chain, as an `edr-simulated` network's `forking`. */
  forking?: ForkingUserConfig;
}

const KEYS = new Set([
  "chainId",
  "hardfork",
  "blockGasLimit",
  "initialBaseFeePerGas",
  "minGasPrice",
  "coinbase",
  "initialDate",
  "allowUnlimitedContractSize",
  "allowBlocksWithSameTimestamp",
  "throwOnTransactionFailures",
  "mining",
  "accounts",
  "forking",
]);

/** Hardhat's hardfork names that EthereumJS spells differently. */
const HARDFORK_ALIASES: Record<string, string> = { merge: "paris" };

function fail(key: string, want: string, got: unknown): never {
  throw new EpochsConfigError(`invalid epochs.network.${key} ${shown(got)}: expected ${want}`);
}

function amount(key: string, v: unknown): bigint {
  return wholeNumber(v, { hex: true }) ?? fail(key, "a non-negative integer (number, bigint or decimal/0x string)", v);
}

function flag(key: string, v: unknown): boolean {
  return booleanValue(v) ?? fail(key, "true or false", v);
}

function bytesOf(key: string, v: unknown, length: number): Uint8Array {
  return hexBytes(v, length) ?? fail(key, `a 0x-prefixed ${length}-byte hex string`, v);
}

/** How the genesis accounts are given: keys, or Hardhat's HD settings (derived when the chain is built). */
type AccountsSetting = { keys: GenesisAccount[] } | { mnemonic?: string; path?: string; count?: number; initialIndex?: number; accountsBalance?: bigint; passphrase?: string };

/** `epochs.network`, checked: what the user set, in the chain's types. */
interface NetworkSettings extends Partial<Omit<ChainConfig, "mining" | "accounts">> {
  mining?: Partial<ChainConfig["mining"]>;
  accounts?: AccountsSetting;
  /** The remote to fork (`forking`), without its cache folder. */
  fork?: ForkConfig;
}

function accountsOf(v: unknown): AccountsSetting {
  if (Array.isArray(v)) {
    return {
      keys: v.map((a: unknown, i) => {
        const acc = (a ?? {}) as { privateKey?: unknown; balance?: unknown };
        return { privateKey: bytesOf(`accounts[${i}].privateKey`, acc.privateKey, 32), balance: amount(`accounts[${i}].balance`, acc.balance) };
      }),
    };
  }
  if (v === null || typeof v !== "object") return fail("accounts", "{ mnemonic, path, count, … } or [{ privateKey, balance }]", v);
  const hd = v as Record<string, unknown>;
  const text = (key: string): string | undefined => (hd[key] === undefined || typeof hd[key] === "string" ? (hd[key] as string | undefined) : fail(`accounts.${key}`, "a string", hd[key]));
  const count = (key: string): number | undefined => (hd[key] === undefined ? undefined : (safeInteger(hd[key]) ?? fail(`accounts.${key}`, "a non-negative integer", hd[key])));
  for (const key of Object.keys(hd)) {
    if (!["mnemonic", "path", "count", "initialIndex", "accountsBalance", "passphrase"].includes(key)) throw new EpochsConfigError(`unknown key epochs.network.accounts.${key}`);
  }
  return {
    mnemonic: text("mnemonic"),
    path: text("path"),
    count: count("count"),
    initialIndex: count("initialIndex"),
    accountsBalance: hd.accountsBalance === undefined ? undefined : amount("accounts.accountsBalance", hd.accountsBalance),
    passphrase: text("passphrase"),
  };
}

function miningOf(v: unknown): Partial<ChainConfig["mining"]> {
  if (v === null || typeof v !== "object") return fail("mining", "{ auto, interval, mempool: { order } }", v);
  const m = v as { auto?: unknown; interval?: unknown; mempool?: { order?: unknown } };
  const mining: Partial<ChainConfig["mining"]> = {};
  if (m.auto !== undefined) mining.auto = flag("mining.auto", m.auto);
  if (m.interval !== undefined) {
    const ms = (x: unknown): x is number => safeInteger(x) !== undefined;
    if (ms(m.interval)) mining.interval = m.interval;
    else if (Array.isArray(m.interval) && m.interval.length === 2 && ms(m.interval[0]) && ms(m.interval[1]) && m.interval[0] <= m.interval[1]) mining.interval = [m.interval[0], m.interval[1]];
    else fail("mining.interval", "milliseconds, or a [min, max] pair", m.interval);
  }
  const order = m.mempool?.order;
  if (order !== undefined && order !== "priority" && order !== "fifo") fail("mining.mempool.order", '"priority" or "fifo"', order);
  if (order !== undefined) mining.order = order;
  return mining;
}

/** Checks `epochs.network` (cheap: nothing is derived); an unknown key or a bad value is an EpochsConfigError. */
export function parseNetworkSettings(user: InProcessNetworkUserConfig | undefined): NetworkSettings {
  if (user === undefined) return {};
  if (user === null || typeof user !== "object" || Array.isArray(user)) return fail("", "an object", user);
  for (const key of Object.keys(user)) {
    if (!KEYS.has(key)) throw new EpochsConfigError(`unknown key epochs.network.${key}: expected one of ${[...KEYS].join(", ")}`);
  }
  const s: NetworkSettings = {};
  if (user.chainId !== undefined) {
    if (!Number.isSafeInteger(user.chainId) || user.chainId <= 0) fail("chainId", "a positive integer", user.chainId);
    s.chainId = BigInt(user.chainId);
  }
  if (user.hardfork !== undefined) {
    if (typeof user.hardfork !== "string") fail("hardfork", "a hardfork name", user.hardfork);
    s.hardfork = HARDFORK_ALIASES[user.hardfork] ?? user.hardfork;
  }
  if (user.blockGasLimit !== undefined) s.blockGasLimit = amount("blockGasLimit", user.blockGasLimit);
  if (user.initialBaseFeePerGas !== undefined) s.initialBaseFeePerGas = amount("initialBaseFeePerGas", user.initialBaseFeePerGas);
  if (user.minGasPrice !== undefined) s.minGasPrice = amount("minGasPrice", user.minGasPrice);
  if (user.coinbase !== undefined) s.coinbase = bytesOf("coinbase", user.coinbase, 20);
  if (user.initialDate !== undefined) {
    const date = new Date(user.initialDate);
    if (Number.isNaN(date.getTime())) fail("initialDate", "a date or an RFC 3339 string", user.initialDate);
    s.initialDate = date;
  }
  if (user.allowUnlimitedContractSize !== undefined) s.allowUnlimitedContractSize = flag("allowUnlimitedContractSize", user.allowUnlimitedContractSize);
  if (user.allowBlocksWithSameTimestamp !== undefined) s.allowBlocksWithSameTimestamp = flag("allowBlocksWithSameTimestamp", user.allowBlocksWithSameTimestamp);
  if (user.throwOnTransactionFailures !== undefined) s.throwOnTransactionFailures = flag("throwOnTransactionFailures", user.throwOnTransactionFailures);
  if (user.mining !== undefined) s.mining = miningOf(user.mining);
  if (user.accounts !== undefined) s.accounts = accountsOf(user.accounts);
  try {
    // the cache folder is the host's to add (it knows the project's paths)
    const fork = forkFromSetting(user.forking, "", "epochs.network.forking");
    if (fork !== undefined) s.fork = { url: fork.url, blockNumber: fork.blockNumber, httpHeaders: fork.httpHeaders };
  } catch (err) {
    if (err instanceof ForkSettingsError) throw new EpochsConfigError(err.message);
    throw err;
  }
  return s;
}

/**
 * The HD settings `node --accounts/--mnemonic` derive from (src/host/settings/chain-flags.ts); undefined when the config lists keys.
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function hdAccountsOf(settings: NetworkSettings): HdAccounts | undefined {
  const accounts = settings.accounts;
  if (accounts !== undefined && "keys" in accounts) return undefined;
  return { mnemonic: accounts?.mnemonic, path: accounts?.path, count: accounts?.count, initialIndex: accounts?.initialIndex, balance: accounts?.accountsBalance, passphrase: accounts?.passphrase };
}

/** The chain's config: the defaults (Evmos's chain id unless set), with the settings over them. */
export function chainConfigFromNetworkSettings(settings: NetworkSettings, defaultChainId: number): ChainConfig {
  const { defaultChainConfig, deriveAccounts, DEFAULT_MNEMONIC, DEFAULT_HD_PATH, DEFAULT_ACCOUNT_BALANCE } = chainConfigModule();
  const defaults = defaultChainConfig();
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the fork is the runtime's, not the chain config's
  const { mining, accounts, fork, ...rest } = settings;
  let genesisAccounts = defaults.accounts;
  if (accounts !== undefined && "keys" in accounts) genesisAccounts = accounts.keys;
  else if (accounts !== undefined && Object.values(accounts).some((v) => v !== undefined)) {
    genesisAccounts = deriveAccounts(
      accounts.mnemonic ?? DEFAULT_MNEMONIC,
      accounts.path ?? DEFAULT_HD_PATH,
      accounts.count ?? 20,
      accounts.initialIndex ?? 0,
      accounts.accountsBalance ?? DEFAULT_ACCOUNT_BALANCE,
      accounts.passphrase ?? "",
    );
  }
  return { ...defaults, chainId: BigInt(defaultChainId), ...rest, mining: { ...defaults.mining, ...mining }, accounts: genesisAccounts };
}
