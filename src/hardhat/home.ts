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
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
// smol-toml ships ES modules only; Node ≥ 20.19 loads them with require()
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require("smol-toml") as { parse: (text: string) => Record<string, unknown> };
import { HardhatPluginError } from "hardhat/plugins";
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

export function defaultAppToml(namespaces: string[]): string {
  return `# hardhat-epochs node configuration (the keys of evmosd's app.toml that this node uses).
# Command-line flags override this file; this file overrides hardhat.config.ts.

# The minimum gas price the node accepts, Cosmos form: "<wei per gas>aevmos".
# miner_setGasPrice writes it here.
minimum-gas-prices = "0aevmos"

[json-rpc]
enable = true
# HTTP JSON-RPC (WebSocket upgrades are accepted on it too)
address = "127.0.0.1:8545"
# a WebSocket-only listener; beyond loopback anyone who can reach it can use the public namespaces
ws-address = "0.0.0.0:8546"
# namespaces served, comma-separated
api = "${namespaces.join(",")}"
gas-cap = 25000000
evm-timeout = "5s"
txfee-cap = 1
filter-cap = 200
feehistory-cap = 100
logs-cap = 10000
block-range-cap = 10000
http-timeout = "30s"
http-idle-timeout = "2m0s"
allow-unprotected-txs = false
max-open-connections = 0

[epochs]
# "spec" (the specification's two-phase rule) or "evmos" (Evmos's code, exactly)
tick-rule = "spec"
hook-gas-limit = 3000000
`;
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
  for (const d of [path.dirname(paths.genesis), paths.data]) mkdirSync(d, { recursive: true });
  mkdirSync(paths.keystore, { recursive: true, mode: 0o700 });
  chmodSync(paths.keystore, 0o700);
  if (!existsSync(paths.genesis)) {
    writeFileSync(paths.genesis, toCosmosGenesis({ genesisTime: seconds(init.genesisTime), chainId: init.chainId, epochs: init.epochs }));
  }
  if (!existsSync(paths.appToml)) writeFileSync(paths.appToml, defaultAppToml(init.namespaces));

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
  if (value.trim() === "") return 0n;
  const m = /^\s*(\d+)(?:\.0*)?aevmos\s*$/.exec(value);
  if (m === null) throw new HardhatPluginError(PLUGIN_NAME, `${where}: expected "<amount>aevmos" (wei per gas), got ${JSON.stringify(value)}`);
  return BigInt(m[1]);
}

/** Writes a new minimum-gas-prices into an existing app.toml, keeping the rest of the file (miner_setGasPrice). */
export function writeMinimumGasPrices(file: string, wei: bigint): void {
  const text = readFileSync(file, "utf8");
  const line = `minimum-gas-prices = "${wei}aevmos"`;
  const next = /^minimum-gas-prices\s*=.*$/m.test(text) ? text.replace(/^minimum-gas-prices\s*=.*$/m, line) : `${line}\n${text}`;
  writeFileSync(file, next);
  readAppToml(file); // the file must still parse
}
