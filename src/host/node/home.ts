/**
 * The node's home directory (`--home DIR`, as `evmosd --home`):
 *
 *   DIR/config/genesis.json   Cosmos form: genesis_time, chain_id ("evmos_9000-1"), app_state.epochs.epochs
 *   DIR/config/app.toml       minimum-gas-prices; [json-rpc] with Evmos's keys; [epochs] profile, tick-rule, hook-gas-limit;
 *                             [txpool] the pool's limits (our own keys, geth's defaults)
 *   DIR/data/                 LevelDB: blocks, receipts, state, module stores
 *   DIR/keystore/             encrypted key files (owner-only)
 *   DIR/contract-names.json   the names of deployed code the node identified (src/host/node/contract-names.ts)
 *
 * Missing files are created with defaults on first start (like `evmosd init`); present ones are read
 * as they are, and a malformed one stops the start naming the file and the problem.
 */
import { TOKEN_FILE_NAME } from "./node-files";
import { UserError } from "../../utils/user-error";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type AppConfigLayer, type EpochsProfile, TXPOOL_KEYS, defaultAppConfig, formatGoDuration, parseAppToml, parseMinimumGasPrices as parseGasPrices, readAppToml } from "../settings/app-config";
import type { EpochInfo, CosmosGenesis, EpochsOptions } from "../../epochs";
import type { ChainConfig } from "../../chain/config";
import type { RuntimeOptions } from "../../app/runtime";
import type { CosmosPrecompilesOptions } from "../../cosmos/app-settings";
import { epochsModule } from "../lazy";
import { genesisRuntimeOptions } from "../settings/genesis-file";
import { PROFILES } from "../../epochs/profile";

/** A home that cannot be opened: its files' problems, naming the file (each host shows it as its own plugin error). */
class HomeError extends UserError {}

export interface HomePaths {
  dir: string;
  genesis: string;
  appToml: string;
  data: string;
  keystore: string;
  token: string;
  contractNames: string;
}

function homePaths(dir: string): HomePaths {
  const d = path.resolve(dir);
  return {
    dir: d,
    genesis: path.join(d, "config", "genesis.json"),
    appToml: path.join(d, "config", "app.toml"),
    data: path.join(d, "data"),
    keystore: path.join(d, "keystore"),
    token: path.join(d, TOKEN_FILE_NAME),
    contractNames: path.join(d, "contract-names.json"),
  };
}

/**
 * The app.toml a new home starts with (like `evmosd init`): every key this node reads, at its default,
 * with a comment. Without `namespaces` the api line stays commented out: absent means every namespace.
 */
export function defaultAppToml(namespaces?: readonly string[], profile: EpochsProfile = "evmos"): string {
  const api = namespaces === undefined ? '# api = "eth,net,web3"' : `api = "${namespaces.join(",")}"`;
  const d = defaultAppConfig(namespaces ?? []);
  const j = d.jsonRpc;
  const addr = (a: { host: string; port: number }) => `${a.host.includes(":") ? `[${a.host}]` : a.host}:${a.port}`;
  return `# hardhat-epochs node configuration: the keys of evmosd's app.toml that this node reads.
# Command-line flags (same names: --json-rpc.gas-cap, --minimum-gas-prices, ...) override this file;
# this file overrides hardhat.config.ts.

# The minimum gas price the node accepts, Cosmos form "<wei per gas>${PROFILES[profile].denom}" ("" = none).
# miner_setGasPrice writes it here.
minimum-gas-prices = "${d.minimumGasPrices}${PROFILES[profile].denom}"

[json-rpc]
# Serve JSON-RPC (Evmos defaults to false; this dev node has no other interface).
enable = ${j.enable}
# HTTP JSON-RPC; it accepts WebSocket upgrades too. Hardhat's --hostname/--port set it as well.
address = "${addr(j.address)}"
# A WebSocket-only listener. Absent: beside the HTTP listener, on its host at its port + 1
# (${addr(j.wsAddress)}). Evmos's default is "0.0.0.0:8546": beyond loopback, anyone who can reach it
# can use the public namespaces.
# ws-address = "${addr(j.wsAddress)}"
# Namespaces served, comma-separated; absent = every namespace this node has.
${api}
# Gas cap of eth_call and eth_estimateGas (0 = none).
gas-cap = ${j.gasCap}
# Deadline of eth_call (Go duration; 0 = none).
evm-timeout = "${formatGoDuration(j.evmTimeoutMs)}"
# Fee cap of eth_resend, in ether (0 = none).
txfee-cap = ${j.txFeeCap}
# Live polled filters.
filter-cap = ${j.filterCap}
# Largest blockCount of eth_feeHistory.
feehistory-cap = ${j.feeHistoryCap}
# Most logs in one eth_getLogs answer.
logs-cap = ${j.logsCap}
# Widest block range of one log query.
block-range-cap = ${j.blockRangeCap}
# Time to receive an HTTP request and answer it.
http-timeout = "${formatGoDuration(j.httpTimeoutMs)}"
# Keep-alive idle time of an HTTP connection.
http-idle-timeout = "${formatGoDuration(j.httpIdleTimeoutMs)}"
# Accept transactions without an EIP-155 chain id.
allow-unprotected-txs = ${j.allowUnprotectedTxs}
# Allow personal_unlockAccount and node-signed transactions over the network.
allow-insecure-unlock = ${j.allowInsecureUnlock}
# Simultaneous TCP connections on the HTTP listener (0 = unlimited); over it, new ones are closed.
max-open-connections = ${j.maxOpenConnections}
# Requests in one batch.
batch-request-limit = ${j.batchRequestLimit}
# Bytes the answers of one batch may take; later requests of the batch answer "response too large".
batch-response-max-size = ${j.batchResponseMaxSize}
# Bytes of one HTTP request body or WebSocket message.
body-limit = ${j.bodyLimit}
# Accepted for compatibility (this node always indexes).
enable-indexer = ${j.enableIndexer}
# Print every JSON-RPC request and its answer in full in the node's log (also --json-rpc.log).
log = ${j.log}
# More browser origins whose pages may call the dev methods (evm_*, hardhat_*) without the token,
# besides localhost, 127.0.0.1 and [::1]: hosts ("app.test", any port) or origins ("http://app.test:3000").
allowed-origins = []
# Origins that may open a WebSocket (cosmos/evm's key); [] = any origin.
ws-origins = []
# Bearer token of the private and code methods (personal, miner, admin, JavaScript tracers, ...);
# "" = generate one and keep it in <home>/jsonrpc.token. See docs/security.md in hardhat-epochs.
auth-token = ""

[epochs]
# The chain this node behaves as, chosen once per chain: "evmos" (Evmos v20) or "cosmos-evm" (a chain on
# cosmos/evm with the Cosmos SDK's x/epochs). See docs/profiles.md in hardhat-epochs.
profile = "${profile}"
# "spec" (the specification's two-phase rule), "evmos" (Evmos's code, exactly) or "sdk" (the Cosmos SDK's).
tick-rule = "${PROFILES[profile].tickRule}"
# Gas limit of each epoch hook call.
hook-gas-limit = ${d.epochs.hookGasLimit}

[txpool]
# This node's own table (evmosd has none): geth's transaction pool limits and defaults (--txpool.*).
# What each refusal means for a script: docs/transaction-pool.md in hardhat-epochs.
${Object.entries(TXPOOL_KEYS)
  .map(([key, spec]) => `# ${spec.description}.\n${key} = ${d.txpool[spec.field]}`)
  .join("\n")}
`;
}

/**
 * Creates what a home lacks (like `evmosd init`): config/app.toml at its defaults, config/genesis.json
 * from `genesisJson()` (called only when the file is missing), data/, and keystore/ (owner-only).
 * Files present are left as they are. Returns the paths and what was created.
 */
export function initHome(dir: string, init: { genesisJson: () => string; namespaces?: readonly string[]; profile?: EpochsProfile }): HomePaths & { created: string[] } {
  const paths = homePaths(dir);
  const created: string[] = [];
  const makeDir = (d: string, mode?: number): void => {
    if (!existsSync(d)) created.push(d);
    mkdirSync(d, { recursive: true, mode });
  };
  const makeFile = (file: string, text: () => string, mode = 0o644): void => {
    if (existsSync(file)) return;
    writeFileSync(file, text(), { flag: "wx", mode }); // "wx": never clobber a file that appeared meanwhile
    created.push(file);
  };
  makeDir(path.dirname(paths.appToml));
  makeDir(paths.data);
  makeDir(paths.keystore, 0o700);
  // keys live there: an existing directory readable by others is narrowed
  if ((statSync(paths.keystore).mode & 0o077) !== 0) chmodSync(paths.keystore, 0o700);
  // app.toml is where `auth-token` goes: owner-only, as the token file; an existing one that holds
  // a token and is readable by others is narrowed
  makeFile(paths.appToml, () => defaultAppToml(init.namespaces, init.profile), 0o600);
  if ((statSync(paths.appToml).mode & 0o077) !== 0 && /^[ \t]*auth-token[ \t]*=/m.test(readFileSync(paths.appToml, "utf8"))) chmodSync(paths.appToml, 0o600);
  makeFile(paths.genesis, init.genesisJson);
  return { ...paths, created };
}

export interface HomeSettings {
  paths: HomePaths;
  genesis: CosmosGenesis;
  /** The genesis file's `app_state` as written (other modules read their sections from it: the staking module's). */
  appState: unknown;
  /** What config/app.toml sets (below the command line, above hardhat.config.ts). */
  appToml: AppConfigLayer;
}

/**
 * Creates what is missing (like `evmosd init`), then reads and checks the files. `profile` is the one
 * asked for (`--profile`, else hardhat.config.ts): a new home records it in app.toml; an existing
 * home keeps the one it records, and a `--profile` (`flagProfile`) that differs is refused.
 */
export function openHome(
  dir: string,
  init: { chainId: bigint; genesisTime: bigint; epochs: (profile: EpochsProfile) => EpochInfo[]; namespaces: string[]; profile: EpochsProfile; flagProfile?: EpochsProfile },
): HomeSettings {
  const { parseCosmosGenesis, toCosmosGenesis, seconds } = epochsModule();
  const paths = homePaths(dir);
  initHome(dir, {
    namespaces: init.namespaces,
    profile: init.profile,
    genesisJson: () => toCosmosGenesis({ genesisTime: seconds(init.genesisTime), chainId: init.chainId, epochs: init.epochs(init.profile) }),
  });

  let appToml: AppConfigLayer;
  try {
    appToml = readAppToml(paths.appToml);
  } catch (err) {
    throw new HomeError((err as Error).message);
  }
  const recorded = appToml.epochs?.profile;
  if (recorded !== undefined && init.flagProfile !== undefined && init.flagProfile !== recorded) {
    throw new HomeError(`--profile ${init.flagProfile}: this home's chain is a "${recorded}" chain (${paths.appToml}, [epochs] profile); a chain's profile is chosen once, when its home is made`);
  }
  let genesis: CosmosGenesis;
  let appState: unknown;
  try {
    const text = readFileSync(paths.genesis, "utf8");
    genesis = parseCosmosGenesis(text, recorded ?? init.profile);
    appState = (JSON.parse(text) as { app_state?: unknown }).app_state;
  } catch (err) {
    throw new HomeError(`${paths.genesis}: ${(err as Error).message}`);
  }
  return { paths, genesis, appState, appToml };
}

/**
 * Sets `minimum-gas-prices` in an existing app.toml (miner_setGasPrice), changing only that line so
 * the comments stay. The new text is parsed back before it replaces the file (write, then rename).
 */
export function writeMinimumGasPrices(file: string, value: bigint | string, denom = PROFILES.evmos.denom): void {
  const wanted = typeof value === "bigint" ? value : parseGasPrices(value).amount;
  const line = `minimum-gas-prices = "${typeof value === "bigint" ? `${value}${denom}` : value.trim()}"`;
  const text = readFileSync(file, "utf8");
  // only the top-level key: the part of the file before the first [table] header
  const header = /^[ \t]*\[/m.exec(text);
  const top = header === null ? text : text.slice(0, header.index);
  const key = /^[ \t]*minimum-gas-prices[ \t]*=.*$/m;
  const nextTop = key.test(top) ? top.replace(key, line) : `${top}${top === "" || top.endsWith("\n") ? "" : "\n"}${line}\n${header === null ? "" : "\n"}`;
  const next = nextTop + text.slice(top.length);
  if (parseAppToml(next, file).minimumGasPrices?.amount !== wanted) throw new Error(`${file}: could not update minimum-gas-prices`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, next, { mode: statSync(file).mode & 0o777 });
  renameSync(tmp, file);
}

/**
 * What a home sets in the node's runtime, over `base` (the options without a home): the genesis'
 * chain id, time and epochs, the LevelDB data directory, the key store, miner_setGasPrice writing
 * app.toml, and the home as a place debug methods may read and write files. Both node tasks use it.
 */
export async function homeRuntimeOptions(
  home: HomeSettings,
  base: { chain: ChainConfig; epochs: EpochsOptions; rpc?: RuntimeOptions["rpc"]; cosmos?: CosmosPrecompilesOptions },
): Promise<Pick<RuntimeOptions, "chain" | "epochs" | "kv" | "keystore" | "home" | "miner" | "rpc" | "cosmos">> {
  // the genesis as the in-process network reads a genesis file (src/host/settings/genesis-file.ts), the file named as the home's
  let fromGenesis: ReturnType<typeof genesisRuntimeOptions>;
  try {
    fromGenesis = genesisRuntimeOptions({ path: home.paths.genesis, genesis: home.genesis, appState: home.appState }, base);
  } catch (err) {
    throw new HomeError((err as Error).message);
  }
  const profile = base.epochs.profile ?? "evmos";
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- LevelDB loads only for a node with a home
  const { LevelKV } = require("../../storage/level-kv") as typeof import("../../storage/level-kv");
  const appToml = home.paths.appToml;
  return {
    ...fromGenesis,
    kv: await LevelKV.open(home.paths.data),
    keystore: { dir: home.paths.keystore, onSkipped: (file, reason) => console.warn(`WARNING: skipped key file ${file}: ${reason}`) },
    home: home.paths.dir,
    miner: { onMinGasPrice: (wei) => writeMinimumGasPrices(appToml, wei, PROFILES[profile].denom) },
    // debug methods that read or write files may use the home besides the working directory
    rpc: { ...base.rpc, home: home.paths.dir },
  };
}
