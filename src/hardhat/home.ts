/**
 * The node's home directory (`--home DIR`, as `evmosd --home`):
 *
 *   DIR/config/genesis.json   Cosmos form: genesis_time, chain_id ("evmos_9000-1"), app_state.epochs.epochs
 *   DIR/config/app.toml       minimum-gas-prices; [json-rpc] with Evmos's keys; [epochs] tick-rule, hook-gas-limit
 *   DIR/data/                 LevelDB: blocks, receipts, state, module stores
 *   DIR/keystore/             encrypted key files (owner-only)
 *
 * Missing files are created with defaults on first start (like `evmosd init`); present ones are read
 * as they are, and a malformed one stops the start naming the file and the problem.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
// smol-toml ships ES modules only; Node ≥ 20.19 loads them with require()
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require("smol-toml") as { parse: (text: string) => Record<string, unknown> };
import { HardhatPluginError } from "hardhat/plugins";
import { parseAppToml, parseMinimumGasPrices as parseGasPrices, readAppToml as readAppTomlLayer } from "./app-config";
import { type EpochInfo, type CosmosGenesis, parseCosmosGenesis, toCosmosGenesis, seconds } from "../epochs";
import { PLUGIN_NAME } from "./chain-config";
import type { EvmosFlags } from "./node-task";

export interface HomePaths {
  dir: string;
  genesis: string;
  appToml: string;
  data: string;
  keystore: string;
  token: string;
}

export function homePaths(dir: string): HomePaths {
  const d = path.resolve(dir);
  return {
    dir: d,
    genesis: path.join(d, "config", "genesis.json"),
    appToml: path.join(d, "config", "app.toml"),
    data: path.join(d, "data"),
    keystore: path.join(d, "keystore"),
    token: path.join(d, "jsonrpc.token"),
  };
}

/** The [json-rpc] keys app.toml may hold, with the kind of value each takes. */
const JSON_RPC_KEYS: Record<string, "bool" | "string" | "uint" | "number" | "duration"> = {
  enable: "bool",
  address: "string",
  "ws-address": "string",
  api: "string",
  "gas-cap": "uint",
  "evm-timeout": "duration",
  "txfee-cap": "number",
  "filter-cap": "uint",
  "feehistory-cap": "uint",
  "logs-cap": "uint",
  "block-range-cap": "uint",
  "http-timeout": "duration",
  "http-idle-timeout": "duration",
  "allow-unprotected-txs": "bool",
  "allow-insecure-unlock": "bool",
  "max-open-connections": "uint",
  "enable-indexer": "bool",
  "fix-revert-gas-refund-height": "uint",
};

/**
 * The app.toml a new home starts with (like `evmosd init`): every key this node reads, at its default,
 * with a comment. Without `namespaces` the api line stays commented out: absent means every namespace.
 */
export function defaultAppToml(namespaces?: readonly string[]): string {
  const api = namespaces === undefined ? '# api = "eth,net,web3"' : `api = "${namespaces.join(",")}"`;
  return `# hardhat-epochs node configuration: the keys of evmosd's app.toml that this node reads.
# Command-line flags (same names: --json-rpc.gas-cap, --minimum-gas-prices, ...) override this file;
# this file overrides hardhat.config.ts.

# The minimum gas price the node accepts, Cosmos form "<wei per gas>aevmos" ("" = none).
# miner_setGasPrice writes it here.
minimum-gas-prices = "0aevmos"

[json-rpc]
# Serve JSON-RPC (Evmos defaults to false; this dev node has no other interface).
enable = true
# HTTP JSON-RPC; it accepts WebSocket upgrades too. Hardhat's --hostname/--port set it as well.
address = "127.0.0.1:8545"
# A WebSocket-only listener. Beyond loopback, anyone who can reach it can use the public namespaces.
ws-address = "0.0.0.0:8546"
# Namespaces served, comma-separated; absent = every namespace this node has.
${api}
# Gas cap of eth_call and eth_estimateGas (0 = none).
gas-cap = 25000000
# Deadline of eth_call (Go duration; 0 = none).
evm-timeout = "5s"
# Fee cap of eth_resend, in ether (0 = none).
txfee-cap = 1
# Live polled filters.
filter-cap = 200
# Largest blockCount of eth_feeHistory.
feehistory-cap = 100
# Most logs in one eth_getLogs answer.
logs-cap = 10000
# Widest block range of one log query.
block-range-cap = 10000
# Time to receive an HTTP request and answer it.
http-timeout = "30s"
# Keep-alive idle time of an HTTP connection.
http-idle-timeout = "2m0s"
# Accept transactions without an EIP-155 chain id.
allow-unprotected-txs = false
# Allow personal_unlockAccount and node-signed transactions over the network.
allow-insecure-unlock = true
# Simultaneous TCP connections on the HTTP listener (0 = unlimited); over it, new ones are closed.
max-open-connections = 0
# Requests in one batch.
batch-request-limit = 1000
# Bytes of one HTTP request body or WebSocket message.
body-limit = 5242880
# Accepted for compatibility (this node always indexes).
enable-indexer = false
# Bearer token of the private namespaces (personal, miner, admin, ...); "" = generate one and keep
# it in <home>/jsonrpc.token.
auth-token = ""

[epochs]
# "spec" (the specification's two-phase rule) or "evmos" (Evmos's code, exactly).
tick-rule = "spec"
# Gas limit of each epoch hook call.
hook-gas-limit = 3000000
`;
}

/**
 * Creates what a home lacks (like `evmosd init`): config/app.toml at its defaults, config/genesis.json
 * from `genesisJson()` (called only when the file is missing), data/, and keystore/ (owner-only).
 * Files present are left as they are. Returns the paths and what was created.
 */
export function initHome(dir: string, init: { genesisJson: () => string; namespaces?: readonly string[] }): HomePaths & { created: string[] } {
  const paths = homePaths(dir);
  const created: string[] = [];
  const makeDir = (d: string, mode?: number): void => {
    if (!existsSync(d)) created.push(d);
    mkdirSync(d, { recursive: true, mode });
  };
  const makeFile = (file: string, text: () => string): void => {
    if (existsSync(file)) return;
    writeFileSync(file, text(), { flag: "wx" }); // "wx": never clobber a file that appeared meanwhile
    created.push(file);
  };
  makeDir(path.dirname(paths.appToml));
  makeDir(paths.data);
  makeDir(paths.keystore, 0o700);
  // keys live there: an existing directory readable by others is narrowed
  if ((statSync(paths.keystore).mode & 0o077) !== 0) chmodSync(paths.keystore, 0o700);
  makeFile(paths.appToml, () => defaultAppToml(init.namespaces));
  makeFile(paths.genesis, init.genesisJson);
  return { ...paths, created };
}

export interface HomeSettings {
  paths: HomePaths;
  genesis: CosmosGenesis;
  /** app.toml's settings in the node task's flag form (lower precedence than the command line). */
  flags: EvmosFlags;
  tickRule?: "spec" | "evmos";
  hookGasLimit?: bigint;
}

/** Creates what is missing (like `evmosd init`), then reads and checks the files. */
export function openHome(dir: string, init: { chainId: bigint; genesisTime: bigint; epochs: EpochInfo[]; namespaces: string[] }): HomeSettings {
  const paths = homePaths(dir);
  initHome(dir, {
    namespaces: init.namespaces,
    genesisJson: () => toCosmosGenesis({ genesisTime: seconds(init.genesisTime), chainId: init.chainId, epochs: init.epochs }),
  });

  let genesis: CosmosGenesis;
  try {
    genesis = parseCosmosGenesis(readFileSync(paths.genesis, "utf8"));
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, `${paths.genesis}: ${(err as Error).message}`);
  }
  return { paths, genesis, ...readAppToml(paths.appToml) };
}

/** Parses app.toml into flag form; errors name the file and the key. */
export function readAppToml(file: string): Pick<HomeSettings, "flags" | "tickRule" | "hookGasLimit"> {
  const fail = (msg: string): never => {
    throw new HardhatPluginError(PLUGIN_NAME, `${file}: ${msg}`);
  };
  // every key and value is checked by app-config's reader (one set of rules and texts); this
  // function only hands the values on in the node task's flag form
  try {
    readAppTomlLayer(file);
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, (err as Error).message);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (err) {
    return fail(`not valid TOML: ${(err as Error).message.split("\n")[0]}`);
  }
  const flags: EvmosFlags = {};
  const mgp = doc["minimum-gas-prices"];
  if (mgp !== undefined) {
    if (typeof mgp !== "string") fail("minimum-gas-prices: expected a string such as \"20aevmos\"");
    flags["minimum-gas-prices"] = mgp as string;
  }
  const rpc = doc["json-rpc"];
  if (rpc !== undefined) {
    if (typeof rpc !== "object" || rpc === null) fail("[json-rpc] must be a table");
    for (const [k, v] of Object.entries(rpc as Record<string, unknown>)) {
      const kind = JSON_RPC_KEYS[k];
      if (kind === undefined) continue; // Evmos keys this node does not use (metrics-address, …)
      const where = `json-rpc.${k}`;
      if (kind === "bool") {
        if (typeof v !== "boolean") fail(`${where}: expected true or false`);
        flags[where] = v as boolean;
      } else if (kind === "string" || kind === "duration") {
        if (typeof v !== "string") fail(`${where}: expected a string`);
        flags[where] = v as string;
      } else {
        const n = typeof v === "bigint" ? Number(v) : v;
        if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || (kind === "uint" && !Number.isInteger(n))) {
          fail(`${where}: expected a non-negative ${kind === "uint" ? "integer" : "number"}, got ${JSON.stringify(String(v))}`);
        }
        flags[where] = String(n);
      }
    }
  }
  const ep = doc.epochs as Record<string, unknown> | undefined;
  let tickRule: HomeSettings["tickRule"];
  let hookGasLimit: bigint | undefined;
  if (ep !== undefined) {
    const rule = ep["tick-rule"];
    if (rule !== undefined && rule !== "spec" && rule !== "evmos") fail(`epochs.tick-rule: expected "spec" or "evmos", got ${JSON.stringify(rule)}`);
    tickRule = rule as HomeSettings["tickRule"];
    const gas = ep["hook-gas-limit"];
    if (gas !== undefined) {
      if (typeof gas !== "number" && typeof gas !== "bigint") fail("epochs.hook-gas-limit: expected an integer");
      if (BigInt(gas as number) <= 0n) fail("epochs.hook-gas-limit: must be greater than 0");
      hookGasLimit = BigInt(gas as number);
    }
  }
  return { flags, tickRule, hookGasLimit };
}

/** "20aevmos" → 20n (wei per gas); "" → 0n. */
export function parseMinimumGasPrices(value: string, where: string): bigint {
  try {
    return parseGasPrices(value);
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, `${where}: ${(err as Error).message}`);
  }
}

/**
 * Sets `minimum-gas-prices` in an existing app.toml (miner_setGasPrice), changing only that line so
 * the comments stay. The new text is parsed back before it replaces the file (write, then rename).
 */
export function writeMinimumGasPrices(file: string, value: bigint | string): void {
  const wanted = typeof value === "bigint" ? value : parseGasPrices(value);
  const line = `minimum-gas-prices = "${typeof value === "bigint" ? `${value}aevmos` : value.trim()}"`;
  const text = readFileSync(file, "utf8");
  // only the top-level key: the part of the file before the first [table] header
  const header = /^[ \t]*\[/m.exec(text);
  const top = header === null ? text : text.slice(0, header.index);
  const key = /^[ \t]*minimum-gas-prices[ \t]*=.*$/m;
  const nextTop = key.test(top) ? top.replace(key, line) : `${top}${top === "" || top.endsWith("\n") ? "" : "\n"}${line}\n${header === null ? "" : "\n"}`;
  const next = nextTop + text.slice(top.length);
  if (parseAppToml(next, file).minimumGasPrices !== wanted) throw new Error(`${file}: could not update minimum-gas-prices`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, next, { mode: statSync(file).mode & 0o777 });
  renameSync(tmp, file);
}
