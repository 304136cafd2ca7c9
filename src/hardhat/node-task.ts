/**
 * `npx hardhat node`, overridden: the same chain as the in-process hardhat network, served over HTTP
 * and WebSocket, with Hardhat's `--hostname`/`--port` and Evmos's flags (`--json-rpc.*`,
 * `--minimum-gas-prices`, `--home`) written as Evmos writes them.
 *
 * Evmos's dotted flag names cannot be declared through Hardhat's API (param names must be camelCase),
 * so they are added to the task's param definitions directly, under the name Hardhat's CLI parser
 * derives from the flag (`--json-rpc.ws-address` → `jsonRpc.wsAddress`); `--help` prints them back
 * as written. Hardhat has no `--flag=value` form, which Evmos users write for booleans
 * (`--json-rpc.enable=false`), so the CLI parser is wrapped to accept it for this task only.
 */
import { task, subtask, types } from "hardhat/config";
import { HardhatPluginError, HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment, ParamDefinition, TaskArguments, TaskDefinition } from "hardhat/types";
import { ArgumentsParser } from "hardhat/internal/cli/ArgumentsParser";
import { computeAddress, hexlify } from "ethers";
import { DEFAULT_MNEMONIC, type ChainConfig } from "../chain/config";
import type { Runtime, RuntimeOptions } from "../rpc/runtime";
import { JsonRpcServer } from "../rpc/transport/server";
import { readOrCreateTokenFile } from "../rpc/transport/auth";
import path from "node:path";
import { PLUGIN_NAME } from "./chain-config";
import { type HomeSettings, openHome, parseMinimumGasPrices, writeMinimumGasPrices } from "./home";
import { parseGoDuration, parseHostPort as parseAddress } from "./app-config";
import { LevelKV } from "../storage/level-kv";
import { CORE_NAMESPACES } from "../rpc/runtime";
import { defaultGenesis } from "../epochs";
import { epochsOptionsFromConfig } from "./epochs";
import { forkEpochsOptions, forkFromConfig, forkFromFlags } from "./fork";
import { type EpochsProvider, buildRuntime, createEpochsProvider, runtimeOptionsFor } from "./provider";
import { TASK_NODE, TASK_NODE_CREATE_RUNTIME, TASK_NODE_PRINT_BANNER, TASK_NODE_START_SERVER } from "./task-names";

/** Evmos's `start` flags this node accepts (refs/jsonrpc-reference.md §1.1). */
export const EVMOS_FLAGS: ReadonlyArray<{ flag: string; bool?: true; description: string }> = [
  { flag: "json-rpc.enable", bool: true, description: "Serve JSON-RPC (on by default for this node)" },
  { flag: "json-rpc.address", description: "HTTP JSON-RPC host:port (Evmos's spelling of --hostname/--port)" },
  { flag: "json-rpc.ws-address", description: "WebSocket JSON-RPC host:port (default 0.0.0.0:8546)" },
  { flag: "json-rpc.api", description: "Comma-separated namespaces to serve (default: all)" },
  { flag: "json-rpc.gas-cap", description: "Gas cap of eth_call and eth_estimateGas (0 = none)" },
  { flag: "json-rpc.evm-timeout", description: "Deadline of eth_call (e.g. 5s; 0 = none)" },
  { flag: "json-rpc.txfee-cap", description: "Fee cap of eth_resend, in ether (0 = none)" },
  { flag: "json-rpc.filter-cap", description: "Maximum number of live polled filters" },
  { flag: "json-rpc.logs-cap", description: "Maximum logs in one eth_getLogs answer" },
  { flag: "json-rpc.block-range-cap", description: "Maximum block range of one log query" },
  { flag: "json-rpc.http-timeout", description: "HTTP read/write timeout (e.g. 30s)" },
  { flag: "json-rpc.http-idle-timeout", description: "HTTP keep-alive idle timeout (e.g. 120s)" },
  { flag: "json-rpc.allow-unprotected-txs", bool: true, description: "Accept transactions without an EIP-155 chain id" },
  { flag: "json-rpc.allow-insecure-unlock", bool: true, description: "Allow unlocking accounts over HTTP" },
  { flag: "json-rpc.max-open-connections", description: "Maximum simultaneous HTTP connections (0 = unlimited)" },
  { flag: "json-rpc.enable-indexer", bool: true, description: "Accepted for compatibility (this node always indexes)" },
  { flag: "json-rpc.fix-revert-gas-refund-height", description: "Accepted for compatibility" },
];

/** The values of the Evmos flags given on the command line, keyed by flag name; absent = not given. */
export type EvmosFlags = Record<string, string | boolean>;

/** The task-argument name Hardhat's parser gives a flag (`json-rpc.ws-address` → `jsonRpc.wsAddress`). */
export function flagParamName(flag: string): string {
  return ArgumentsParser.cLAToParamName(`--${flag}`);
}

/** Collects the Evmos flags (dotted and plain) out of the node task's arguments. */
export function evmosFlags(args: TaskArguments): EvmosFlags {
  const out: EvmosFlags = {};
  for (const { flag } of EVMOS_FLAGS) {
    const v: unknown = args[flagParamName(flag)];
    if (typeof v === "string" || typeof v === "boolean") out[flag] = v;
  }
  if (typeof args.home === "string") out.home = args.home;
  if (typeof args.minimumGasPrices === "string") out["minimum-gas-prices"] = args.minimumGasPrices;
  return out;
}

// ---------------------------------------------------------------------------------------- task

const nodeTask = task(TASK_NODE, "Starts the hardhat-epochs dev chain with HTTP and WebSocket JSON-RPC servers")
  .addOptionalParam("home", "Node home directory (like evmosd --home): config/, data/, keystore/", undefined, types.string)
  .addOptionalParam("minimumGasPrices", 'Minimum gas price, Cosmos form (e.g. "20aevmos")', undefined, types.string)
  .addOptionalParam("forkRest", "With --fork: the remote's REST endpoint; the epochs genesis is its epochs at the fork block", undefined, types.string)
  .setAction(async (args: TaskArguments, hre) => runNode(args, hre));

for (const { flag, bool, description } of EVMOS_FLAGS) {
  const name = flagParamName(flag);
  const def: ParamDefinition<unknown> = {
    name,
    // No default: "not given" must stay distinguishable from false, so app.toml can decide.
    defaultValue: undefined,
    type: bool === true ? types.boolean : types.string,
    description,
    isOptional: true,
    isFlag: bool === true,
    isVariadic: false,
  };
  // An override's paramDefinitions are its parent's (Hardhat's node task), the map the CLI parses against.
  (nodeTask as unknown as TaskDefinition).paramDefinitions[name] = def;
}

// Hardhat's own texts for these would be wrong here: we bind loopback by default.
{
  const defs = (nodeTask as unknown as TaskDefinition).paramDefinitions;
  if (defs.hostname !== undefined) defs.hostname.description = "The host to bind the HTTP server to (default 127.0.0.1; also --json-rpc.address)";
  if (defs.fork !== undefined) defs.fork.description = "The JSON-RPC URL of a chain to fork (its state is read lazily at the fork block)";
}

installEqualsForm();

/** Lets the node task's flags be written `--flag=value` (and booleans `--flag=false`), as Evmos's CLI allows. */
function installEqualsForm(): void {
  const proto = ArgumentsParser.prototype;
  const original = proto.parseTaskArguments;
  proto.parseTaskArguments = function (this: ArgumentsParser, def, rawCLAs) {
    if (def.name !== TASK_NODE) return original.call(this, def, rawCLAs);
    const falses: string[] = [];
    const rewritten: string[] = [];
    for (const arg of rawCLAs) {
      const eq = arg.indexOf("=");
      if (!arg.startsWith("--") || eq < 0) {
        rewritten.push(arg);
        continue;
      }
      const [cla, value] = [arg.slice(0, eq), arg.slice(eq + 1)];
      const param = def.paramDefinitions[ArgumentsParser.cLAToParamName(cla)] as ParamDefinition<unknown> | undefined;
      if (param?.isFlag !== true) {
        rewritten.push(cla, value);
      } else if (value === "false") {
        falses.push(param.name);
      } else if (value === "true") {
        rewritten.push(cla);
      } else {
        throw new HardhatPluginError(PLUGIN_NAME, `invalid value "${value}" for ${cla}: expected true or false`);
      }
    }
    const parsed = original.call(this, def, rewritten);
    for (const name of falses) parsed[name] = false;
    return parsed;
  };
}

interface NodeArgs {
  hostname?: string;
  port: number;
  fork?: string;
  forkBlockNumber?: number;
  forkRest?: string;
}

/** Host and port from "host:port" (Evmos's address form), by app-config's rule, with the flag named. */
export function parseHostPort(value: string, flag: string): { host: string; port: number } {
  try {
    return parseAddress(value);
  } catch {
    throw new HardhatPluginError(PLUGIN_NAME, `invalid --${flag} "${value}": expected host:port`);
  }
}

async function runNode(args: TaskArguments, hre: HardhatRuntimeEnvironment): Promise<void> {
  const { hostname, port, fork, forkBlockNumber, forkRest } = args as NodeArgs;
  if (hre.network.name !== HARDHAT_NETWORK_NAME && hre.hardhatArguments.network !== undefined) {
    throw new HardhatPluginError(PLUGIN_NAME, `the node serves the in-process "${HARDHAT_NETWORK_NAME}" network; --network ${hre.network.name} is not supported`);
  }
  const cli = evmosFlags(args);
  // the fork flags travel with the others (the runtime subtask reads them)
  if (fork !== undefined) cli.fork = fork;
  if (forkBlockNumber !== undefined) cli["fork-block-number"] = String(forkBlockNumber);
  if (forkRest !== undefined) cli["fork-rest"] = forkRest;
  // --home: create/read config/genesis.json and config/app.toml; the command line wins over app.toml
  const home = typeof cli.home === "string" ? await openNodeHome(cli.home, hre) : undefined;
  const flags: EvmosFlags = { ...(home?.flags ?? {}), ...cli };
  if (flags["json-rpc.enable"] === false) {
    throw new HardhatPluginError(PLUGIN_NAME, "--json-rpc.enable=false leaves this node nothing to serve; JSON-RPC is its only interface");
  }
  // --hostname/--port win over --json-rpc.address; Hardhat's default host would be 0.0.0.0 in containers, ours stays loopback.
  const address = typeof flags["json-rpc.address"] === "string" ? parseHostPort(flags["json-rpc.address"], "json-rpc.address") : undefined;
  const host = hostname ?? address?.host ?? "127.0.0.1";
  const httpPort = args.port !== 8545 || address === undefined ? port : address.port;

  const runtime = (await hre.run(TASK_NODE_CREATE_RUNTIME, { flags, home })) as Runtime;
  const server = (await hre.run(TASK_NODE_START_SERVER, { runtime, flags, host, port: httpPort })) as StartedServer;
  await hre.run(TASK_NODE_PRINT_BANNER, { runtime, server, flags });
  await waitForShutdown(server, runtime);
}

subtask(TASK_NODE_CREATE_RUNTIME, "Builds the chain the node serves")
  .addParam("flags", undefined, undefined, types.any)
  .addOptionalParam("home", undefined, undefined, types.any)
  .setAction(async ({ flags, home }: { flags: EvmosFlags; home?: HomeSettings }, hre) => {
    const overrides = runtimeOverridesFromFlags(flags);
    const base = await runtimeOptionsFor(hre);
    const minGas = typeof flags["minimum-gas-prices"] === "string" ? parseMinimumGasPrices(flags["minimum-gas-prices"], "minimum-gas-prices") : undefined;
    overrides.chain = { ...base.chain, ...(minGas !== undefined ? { minGasPrice: minGas } : {}) };
    if (home !== undefined) {
      const g = home.genesis;
      overrides.chain = {
        ...overrides.chain,
        ...(g.chainId !== undefined ? { chainId: g.chainId } : {}),
        ...(g.genesisTime !== undefined ? { initialDate: new Date(Number(g.genesisTime.seconds) * 1000) } : {}),
      };
      overrides.epochs = {
        genesis: g.epochs,
        tickRule: home.tickRule ?? hre.config.epochs.tickRule,
        hookGasLimit: home.hookGasLimit ?? BigInt(hre.config.epochs.hookGasLimit),
      };
      overrides.kv = await LevelKV.open(home.paths.data);
      const appToml = home.paths.appToml;
      overrides.miner = { onMinGasPrice: (wei) => writeMinimumGasPrices(appToml, wei) };
    }
    await applyForkFlags(flags, overrides, hre);
    overrides.onRequest = (method) => console.log(method);
    // The node's chain is also hre.network.provider's, so scripts run in the node process see the same chain.
    const provider: EpochsProvider = hre.epochsProvider ?? createEpochsProvider(hre);
    hre.epochsProvider = provider;
    provider.useRuntimeFactory(async () => buildRuntime(await runtimeOptionsFor(hre, overrides)));
    try {
      return await provider.runtime();
    } catch (err) {
      // a fork whose remote cannot be read stops the start with the remote's error, not a stack trace
      if (err instanceof Error && (err as { abortsBlock?: unknown }).abortsBlock === true) throw new HardhatPluginError(PLUGIN_NAME, err.message);
      throw err;
    }
  });

/** `--fork`, `--fork-block-number`, `--fork-rest` → the runtime's fork and (with --fork-rest) its epochs genesis. */
async function applyForkFlags(flags: EvmosFlags, overrides: Partial<RuntimeOptions>, hre: HardhatRuntimeEnvironment): Promise<void> {
  const block = typeof flags["fork-block-number"] === "string" ? Number(flags["fork-block-number"]) : undefined;
  const fork = forkFromFlags(hre, typeof flags.fork === "string" ? flags.fork : undefined, block);
  if (fork !== undefined) overrides.fork = fork;
  const rest = flags["fork-rest"];
  if (typeof rest !== "string") return;
  const active = fork ?? forkFromConfig(hre);
  if (active === undefined) throw new HardhatPluginError(PLUGIN_NAME, "--fork-rest needs a fork: --fork URL or networks.hardhat.forking");
  const base = overrides.epochs === undefined || overrides.epochs === false ? epochsOptionsFromConfig(hre.config.epochs) : overrides.epochs;
  overrides.epochs = await forkEpochsOptions(rest, active.blockNumber, base);
}

/** The runtime options the flags set directly (the rest belongs to the home/app.toml resolution). */
export function runtimeOverridesFromFlags(flags: EvmosFlags): Partial<RuntimeOptions> {
  const out: Partial<RuntimeOptions> = {};
  const api = flags["json-rpc.api"];
  if (typeof api === "string") {
    const names = api.split(",").map((s) => s.trim()).filter((s) => s !== "");
    if (names.length === 0) throw new HardhatPluginError(PLUGIN_NAME, "cannot enable JSON-RPC without defining any API namespace");
    const known: readonly string[] = CORE_NAMESPACES;
    const seen = new Set<string>();
    for (const ns of names) {
      if (seen.has(ns)) throw new HardhatPluginError(PLUGIN_NAME, `repeated API namespace '${ns}'`);
      seen.add(ns);
      if (!known.includes(ns)) throw new HardhatPluginError(PLUGIN_NAME, `unknown JSON-RPC namespace '${ns}' in json-rpc.api (known: ${known.join(", ")})`);
    }
    out.enabledNamespaces = new Set(names);
  }
  const rpc: NonNullable<RuntimeOptions["rpc"]> = {};
  const uint = (flag: string) => (typeof flags[flag] === "string" ? parseUint(flags[flag] as string, flag) : undefined);
  const gasCap = uint("json-rpc.gas-cap");
  if (gasCap !== undefined) rpc.gasCap = gasCap;
  for (const [flag, key] of [
    ["json-rpc.filter-cap", "filterCap"],
    ["json-rpc.feehistory-cap", "feeHistoryCap"],
    ["json-rpc.logs-cap", "logsCap"],
    ["json-rpc.block-range-cap", "blockRangeCap"],
  ] as const) {
    const v = uint(flag);
    if (v !== undefined) rpc[key] = Number(v);
  }
  if (flags["json-rpc.evm-timeout"] !== undefined) rpc.evmTimeoutMs = durationMs(flags["json-rpc.evm-timeout"], 5000);
  if (typeof flags["json-rpc.allow-unprotected-txs"] === "boolean") rpc.allowUnprotectedTxs = flags["json-rpc.allow-unprotected-txs"];
  if (typeof flags["json-rpc.txfee-cap"] === "string") rpc.txFeeCap = Number(flags["json-rpc.txfee-cap"]);
  if (Object.keys(rpc).length > 0) out.rpc = rpc;
  return out;
}

function parseUint(value: string, flag: string): bigint {
  if (!/^\d+$/.test(value)) throw new HardhatPluginError(PLUGIN_NAME, `invalid --${flag} "${value}": expected a non-negative integer`);
  return BigInt(value);
}

/** Opens (creating what is missing) the node's home; the genesis it writes follows hardhat.config.ts. */
async function openNodeHome(dir: string, hre: HardhatRuntimeEnvironment): Promise<HomeSettings> {
  const base = await runtimeOptionsFor(hre);
  const epochs = epochsOptionsFromConfig(hre.config.epochs).genesis ?? defaultGenesis();
  const genesisTime = BigInt(Math.floor((base.chain.initialDate?.getTime() ?? Date.now()) / 1000));
  return openHome(dir, { chainId: base.chain.chainId, genesisTime, epochs: epochs.epochs, namespaces: [...CORE_NAMESPACES] });
}

// ---------------------------------------------------------------------------------------- server

/** What the banner and the shutdown need from the servers. */
export interface StartedServer {
  httpUrl: string;
  wsUrls: string[];
  /** Extra lines for the banner (e.g. the bearer token file, exposure warnings). */
  notes: string[];
  close(): Promise<void>;
  waitUntilClosed(): Promise<void>;
}

subtask(TASK_NODE_START_SERVER, "Starts the HTTP and WebSocket servers")
  .addParam("runtime", undefined, undefined, types.any)
  .addParam("flags", undefined, undefined, types.any)
  .addParam("host", undefined, undefined, types.string)
  .addParam("port", undefined, undefined, types.int)
  .setAction(async ({ runtime, flags, host, port }: { runtime: Runtime; flags: EvmosFlags; host: string; port: number }, hre) => {
    const ws = parseHostPort(typeof flags["json-rpc.ws-address"] === "string" ? flags["json-rpc.ws-address"] : "0.0.0.0:8546", "json-rpc.ws-address");
    // The token of the private namespaces: beside the chain's data with --home, else in the project's cache (the plugin reads it there).
    const tokenFile = typeof flags.home === "string" ? path.resolve(flags.home, "jsonrpc.token") : path.join(hre.config.paths.cache, "jsonrpc.token");
    const token = readOrCreateTokenFile(tokenFile, process.env.HARDHAT_EPOCHS_TOKEN);
    const server = new JsonRpcServer(runtime.dispatcher, {
      host,
      port,
      ws,
      token,
      httpTimeoutMs: durationMs(flags["json-rpc.http-timeout"], 30_000),
      idleTimeoutMs: durationMs(flags["json-rpc.http-idle-timeout"], 120_000),
      maxConnections: typeof flags["json-rpc.max-open-connections"] === "string" ? Number(parseUint(flags["json-rpc.max-open-connections"], "json-rpc.max-open-connections")) : 0,
      log: (line) => console.log(line),
    });
    runtime.mountRest(server.rest);
    const bound = await server.listen();
    const show = (h: string) => (h.includes(":") ? `[${h}]` : h);
    const started: StartedServer = {
      httpUrl: `http://${show(bound.httpAddress.host)}:${bound.httpAddress.port}/`,
      wsUrls: [`ws://${show(bound.httpAddress.host)}:${bound.httpAddress.port}/`, ...(bound.wsAddress ? [`ws://${show(bound.wsAddress.host)}:${bound.wsAddress.port}/`] : [])],
      notes: [`Bearer token for the private namespaces (personal, miner, admin, debug_setHead, db_put*) in ${tokenFile}:`, `  ${token}`],
      close: () => server.close(),
      waitUntilClosed: () => server.waitUntilClosed(),
    };
    return started;
  });

/** Go durations ("30s", "1m30s", "500ms") in ms by app-config's parser; a bare number is seconds. */
export function durationMs(value: string | boolean | undefined, fallback: number): number {
  if (typeof value !== "string") return fallback;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch {
    ms = -1;
  }
  if (ms < 0) throw new HardhatPluginError(PLUGIN_NAME, `invalid duration "${value}": expected e.g. 30s, 1m30s or 500ms`);
  return ms;
}

// ---------------------------------------------------------------------------------------- banner

subtask(TASK_NODE_PRINT_BANNER, "Prints the servers' addresses and the dev accounts")
  .addParam("runtime", undefined, undefined, types.any)
  .addParam("server", undefined, undefined, types.any)
  .addParam("flags", undefined, undefined, types.any)
  .setAction(async ({ runtime, server }: { runtime: Runtime; server: StartedServer }, hre) => {
    console.log(`Started HTTP and WebSocket JSON-RPC server at ${server.httpUrl}`);
    for (const ws of server.wsUrls.slice(1)) console.log(`WebSocket JSON-RPC server at ${ws}`);
    console.log(`Chain id ${runtime.node.config.chainId} (evmos_${runtime.node.config.chainId}-1), epochs tick rule "${hre.config.epochs.tickRule}"`);
    const fork = runtime.node.fork;
    if (fork !== undefined) {
      console.log(`Forked chain ${fork.chainId} at block ${fork.block.number} (${hexlify(fork.block.hash)}) from ${fork.client.name}${fork.pinned ? "" : " (its latest block; pin one with --fork-block-number to cache the remote's reads)"}`);
    }
    for (const note of server.notes) console.log(note);
    console.log();
    printAccounts(runtime.node.config, hre);
  });

function printAccounts(chain: ChainConfig, hre: HardhatRuntimeEnvironment): void {
  const accounts = hre.config.networks[HARDHAT_NETWORK_NAME].accounts;
  // Like Hardhat: private keys are printed only for the publicly known default mnemonic.
  const isDefault = !Array.isArray(accounts) && accounts.mnemonic === DEFAULT_MNEMONIC;
  const warning = [
    "WARNING: These accounts, and their private keys, are publicly known.",
    "Any funds sent to them on Mainnet or any other live network WILL BE LOST.",
  ];
  console.log("Accounts\n========\n");
  if (isDefault) console.log(`${warning.join("\n")}\n`);
  chain.accounts.forEach((a, i) => {
    const key = hexlify(a.privateKey);
    const eth = a.balance / 10n ** 18n;
    console.log(`Account #${i}: ${computeAddress(key)} (${eth} ETH)${isDefault ? `\nPrivate Key: ${key}` : ""}\n`);
  });
  if (isDefault) console.log(`${warning.join("\n")}\n`);
}

/** Runs until the servers close or the process is told to stop; then closes the chain (flushing its store). */
async function waitForShutdown(server: StartedServer, runtime: Runtime): Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= server.close().catch(() => undefined);
    return stopping;
  };
  const onSignal = (): void => void stop();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await server.waitUntilClosed();
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await runtime.close();
  }
}
