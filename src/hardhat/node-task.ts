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
import type { Runtime, RuntimeOptions } from "../app/runtime";
import { CORE_NAMESPACES } from "../rpc/deps";
import { DEFAULT_ALLOWED_ORIGINS, accessBanner, beyondLoopback } from "../rpc/access";
import { readOrCreateTokenFile } from "../rpc/transport/auth";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { watchBuildInfos } from "../host/build-info-watch";
import path from "node:path";
import { type LocalNodeRecord, NODE_RECORD_FILE_NAME, PLUGIN_NAME } from "./chain-config";
import { setVerbosity } from "../utils/log-level";
import { HomeError, type HomeSettings, homeRuntimeOptions, openHome } from "../host/home";
import { type AppConfig, type AppConfigLayer, JSON_RPC_FLAGS, LOG_VERBOSITY, defaultAppConfig, resolveAppConfig, runtimeSettings, serverSettings } from "../host/app-config";
import { epochsOptionsFromConfig } from "./epochs";
import { NodeStateError, type StateFiles, loadStateFile, saveEvery, stateFilesFromFlags, writeStateFile } from "../host/node-state";
import type { ForkConfig } from "../chain/fork";
import { forkEpochsOptions, forkFromConfig, forkFromFlags } from "./fork";
import { accountBannerModule, epochsModule } from "../host/lazy";
import { type EpochsProvider, addBuildInfo, buildRuntime, createEpochsProvider, hardhatConsoleLog, loadBuildInfos, runtimeOptionsFor } from "./provider";
import {
  TASK_NODE,
  TASK_NODE_CREATE_RUNTIME,
  TASK_NODE_GET_PROVIDER,
  TASK_NODE_PRINT_BANNER,
  TASK_NODE_SERVER_CREATED,
  TASK_NODE_SERVER_READY,
  TASK_NODE_START_SERVER,
} from "./task-names";

// This file loads with the plugin, for every task: the chain, the server (ws), LevelDB and ethers are
// required inside the actions that use them, never at the top.

/** Evmos's `start` flags this node accepts: the [json-rpc] keys of app.toml, from app-config's one table. */
export const EVMOS_FLAGS = JSON_RPC_FLAGS;

/** The values of the flags given on the command line, keyed as Evmos spells them; absent = not given. */
export type EvmosFlags = Record<string, string | boolean>;

/** The task-argument name Hardhat's parser gives a flag (`json-rpc.ws-address` → `jsonRpc.wsAddress`). */
export function flagParamName(flag: string): string {
  return ArgumentsParser.cLAToParamName(`--${flag}`);
}

/**
 * Collects the flags the user gave out of the node task's arguments: Evmos's (dotted and plain) and
 * Hardhat's `--hostname`/`--port` (which set json-rpc.address and win over it).
 */
export function evmosFlags(args: TaskArguments): EvmosFlags {
  const out: EvmosFlags = {};
  for (const { flag } of EVMOS_FLAGS) {
    const v: unknown = args[flagParamName(flag)];
    if (typeof v === "string" || typeof v === "boolean") out[flag] = v;
  }
  if (typeof args.home === "string") out.home = args.home;
  if (typeof args.minimumGasPrices === "string") out["minimum-gas-prices"] = args.minimumGasPrices;
  if (typeof args.profile === "string") out.profile = args.profile;
  if (args.quiet === true) out.quiet = true;
  if (typeof args.hostname === "string") out.hostname = args.hostname;
  if (typeof args.port === "number") out.port = String(args.port);
  return out;
}

// ---------------------------------------------------------------------------------------- task

const nodeTask = task(TASK_NODE, "Starts the hardhat-epochs dev chain with HTTP and WebSocket JSON-RPC servers")
  .addOptionalParam("home", "Node home directory (like evmosd --home): config/, data/, keystore/", undefined, types.string)
  .addOptionalParam("minimumGasPrices", 'Minimum gas price, Cosmos form (e.g. "20aevmos")', undefined, types.string)
  .addOptionalParam("profile", 'The chain this node behaves as: "evmos" (default) or "cosmos-evm" (docs/profiles.md); chosen once per chain', undefined, types.string)
  .addOptionalParam("forkRest", "With --fork: the remote's REST endpoint; the epochs genesis is its epochs at the fork block", undefined, types.string)
  // --verbose is Hardhat's own (global) flag: the node reads it from hre.hardhatArguments
  .addFlag("quiet", "Print only errors (failed transactions and hooks) besides the banner; Hardhat's --verbose prints more")
  .addOptionalParam("state", "Saved state (Anvil's): load FILE at start when it exists, write it at exit", undefined, types.string)
  .addOptionalParam("loadState", "Load a state dump (Anvil's format or ours) at start", undefined, types.string)
  .addOptionalParam("dumpState", "Write the state (Anvil's format plus the epochs records) to FILE at exit", undefined, types.string)
  .addOptionalParam("stateInterval", "With --state or --dump-state: also write the state every S seconds", undefined, types.int)
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
  // No default, so a --port the user gives can be told apart and win over app.toml's address.
  if (defs.port !== undefined) {
    defs.port.defaultValue = undefined;
    defs.port.description = "The port to listen on (default 8545; also --json-rpc.address; 0 = a free port)";
  }
}

const EQUALS_FORM = Symbol.for("hardhat-epochs: --flag=value for the node task");
installEqualsForm();

/**
 * Lets the node task's flags be written `--flag=value` (and booleans `--flag=false`), as Evmos's CLI
 * allows. Once per process: the plugin loads again with every fresh Hardhat environment (test
 * suites reset the context), and wrapping the wrapper each time would keep every old copy alive.
 */
function installEqualsForm(): void {
  const proto = ArgumentsParser.prototype as ArgumentsParser & { [EQUALS_FORM]?: true };
  if (proto[EQUALS_FORM] === true) return;
  proto[EQUALS_FORM] = true;
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
  fork?: string;
  forkBlockNumber?: number;
  forkRest?: string;
}

/** The node's fork flags, checked: `--fork`, `--fork-block-number`, `--fork-rest`. */
interface ForkArgs {
  fork?: ForkConfig;
  rest?: string;
}

/** What hardhat.config.ts says about the node's settings (the layer below app.toml). */
export function hardhatConfigLayer(hre: HardhatRuntimeEnvironment): AppConfigLayer {
  return {
    source: "hardhat.config",
    minimumGasPrices: BigInt(hre.config.networks[HARDHAT_NETWORK_NAME].minGasPrice),
    epochs: { profile: hre.config.epochs.profile, tickRule: hre.config.epochs.tickRule, hookGasLimit: BigInt(hre.config.epochs.hookGasLimit) },
  };
}

/** The node's settings: flags > app.toml > hardhat.config.ts > defaults, resolved once. */
export function resolveNodeConfig(flags: EvmosFlags, appToml: AppConfigLayer | undefined, hre: HardhatRuntimeEnvironment): AppConfig {
  try {
    return resolveAppConfig({ flags, appToml, hardhatConfig: hardhatConfigLayer(hre), defaults: defaultAppConfig(CORE_NAMESPACES) });
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, (err as Error).message);
  }
}

async function runNode(args: TaskArguments, hre: HardhatRuntimeEnvironment): Promise<void> {
  const { fork, forkBlockNumber, forkRest } = args as NodeArgs;
  if (hre.network.name !== HARDHAT_NETWORK_NAME && hre.hardhatArguments.network !== undefined) {
    throw new HardhatPluginError(PLUGIN_NAME, `the node serves the in-process "${HARDHAT_NETWORK_NAME}" network; --network ${hre.network.name} is not supported`);
  }
  const forkArgs: ForkArgs = { fork: forkFromFlags(hre, fork, forkBlockNumber), rest: forkRest };
  const flags = evmosFlags(args);
  if (hre.hardhatArguments.verbose) flags.verbose = true;
  // --home: create/read config/genesis.json and config/app.toml
  const home = typeof flags.home === "string" ? await openNodeHome(flags.home, hre, typeof flags.profile === "string" ? flags.profile : undefined) : undefined;
  const config = resolveNodeConfig(flags, home?.appToml, hre);
  if (!config.jsonRpc.enable) {
    throw new HardhatPluginError(PLUGIN_NAME, "json-rpc.enable = false leaves this node nothing to serve; JSON-RPC is its only interface");
  }
  const runtime = (await hre.run(TASK_NODE_CREATE_RUNTIME, { settings: config, home, fork: forkArgs })) as Runtime;
  let files: StateFiles;
  try {
    files = stateFilesFromFlags(args, runtime.node.fork !== undefined);
    if (files.load !== undefined) await loadStateFile(runtime, files.load);
  } catch (err) {
    await runtime.close();
    if (err instanceof NodeStateError) throw new HardhatPluginError(PLUGIN_NAME, err.message);
    throw err;
  }
  // Hardhat's node subtasks, for the plugins that hook them (hardhat-deploy deploys in node:get-provider
  // and watches in node:server-ready): the provider is the node's chain, the server ours.
  const provider = (await hre.run(TASK_NODE_GET_PROVIDER, {})) as EpochsProvider;
  // contracts compiled while the node runs are named in its log, as on Hardhat's node
  const builds = watchBuildInfos(path.join(hre.config.paths.artifacts, "build-info"), runtime.node, (file) => addBuildInfo(JSON.parse(readFileSync(file, "utf8")), runtime));
  const server = (await hre.run(TASK_NODE_START_SERVER, { runtime, settings: config, provider })) as StartedServer;
  await hre.run(TASK_NODE_SERVER_READY, { address: server.address, port: server.port, provider, server });
  if (files.load !== undefined) console.log(`Loaded the state in ${files.load} (block ${runtime.node.headNumber})`);
  const saver = files.dump !== undefined && files.intervalS !== undefined ? saveEvery(runtime, files.dump, files.intervalS) : undefined;
  await waitForShutdown(server, runtime, async () => {
    saver?.stop();
    builds.stop();
    if (files.dump === undefined) return;
    try {
      await writeStateFile(runtime, files.dump);
      console.log(`Wrote the state to ${files.dump}`);
    } catch (err) {
      console.error(`Could not write the state to ${files.dump}: ${(err as Error).message}`);
    }
  });
}

subtask(TASK_NODE_CREATE_RUNTIME, "Builds the chain the node serves")
  .addParam("settings", undefined, undefined, types.any)
  .addOptionalParam("home", undefined, undefined, types.any)
  .addOptionalParam("fork", undefined, undefined, types.any)
  .setAction(async ({ settings: config, home, fork }: { settings: AppConfig; home?: HomeSettings; fork?: ForkArgs }, hre) => {
    const settings = runtimeSettings(config);
    const base = await runtimeOptionsFor(hre);
    const overrides: Partial<RuntimeOptions> = { rpc: settings.rpc, enabledNamespaces: settings.enabledNamespaces, maxBatch: settings.maxBatch, batch: settings.batch };
    overrides.chain = { ...base.chain, ...settings.chain };
    overrides.epochs = { genesis: epochsOptionsFromConfig(hre.config.epochs).genesis, ...settings.epochs };
    if (home !== undefined) Object.assign(overrides, await homeRuntimeOptions(home, { chain: overrides.chain, epochs: overrides.epochs, rpc: overrides.rpc, cosmos: base.cosmos }));
    // As on evmosd, a valid transaction that reverts is answered with its hash and mined with status 0;
    // a user who wants Hardhat's errors on the node sets networks.hardhat.throwOnTransactionFailures.
    overrides.chain = { ...overrides.chain, throwOnTransactionFailures: hre.userConfig.networks?.hardhat?.throwOnTransactionFailures ?? false };
    overrides.consoleLog = hardhatConsoleLog();
    try {
      await applyForkArgs(fork ?? {}, overrides, hre);
      // the node's log: --quiet / --verbose set the verbosity; debug_verbosity and debug_vmodule change it later
      setVerbosity(LOG_VERBOSITY[config.log]);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the log (and ethers) load only when a node starts
      const { NodeLog } = require("../host/node-log/node-log") as typeof import("../host/node-log/node-log");
      const log = new NodeLog({
        write: (text) => process.stdout.write(text),
        tty: process.stdout.isTTY === true,
        rpcLog: config.jsonRpc.log,
      });
      overrides.onRequest = (method, _ctx, params) => log.onRequest(method, params);
      overrides.onResponse = (method, outcome) => log.onResponse(method, outcome);
      overrides.log = (line) => console.log(line);
      // The node's chain is also hre.network.provider's, so scripts run in the node process see the same chain.
      const provider: EpochsProvider = hre.epochsProvider ?? createEpochsProvider(hre);
      hre.epochsProvider = provider;
      provider.useRuntimeFactory(async () => {
        const runtime = await buildRuntime(await runtimeOptionsFor(hre, overrides));
        // the project's compiled contracts, as Hardhat's node starts with them (later compilations arrive by
        // hardhat_addCompilationResult); the same registry names contracts in the log and builds stack traces
        try {
          await loadBuildInfos(hre, runtime);
        } catch (err) {
          await runtime.close();
          throw err;
        }
        log.attach(runtime.node, runtime.deps.contracts);
        return runtime;
      });
      return await provider.runtime();
    } catch (err) {
      // a start that fails releases the home's data directory (closing a store twice is harmless)
      await overrides.kv?.close().catch(() => undefined);
      // a fork whose remote cannot be read stops the start with the remote's error, not a stack trace
      if (err instanceof Error && (err as { abortsBlock?: unknown }).abortsBlock === true) throw new HardhatPluginError(PLUGIN_NAME, err.message);
      throw err;
    }
  });

/** The fork flags → the runtime's fork and (with --fork-rest) its epochs genesis. */
async function applyForkArgs({ fork, rest }: ForkArgs, overrides: Partial<RuntimeOptions>, hre: HardhatRuntimeEnvironment): Promise<void> {
  if (fork !== undefined) overrides.fork = fork;
  if (rest === undefined) return;
  const active = fork ?? forkFromConfig(hre);
  if (active === undefined) throw new HardhatPluginError(PLUGIN_NAME, "--fork-rest needs a fork: --fork URL or networks.hardhat.forking");
  const base = overrides.epochs === undefined || overrides.epochs === false ? epochsOptionsFromConfig(hre.config.epochs) : overrides.epochs;
  overrides.epochs = await forkEpochsOptions(rest, active.blockNumber, base);
}

/** Opens (creating what is missing) the node's home; the genesis it writes follows hardhat.config.ts. */
async function openNodeHome(dir: string, hre: HardhatRuntimeEnvironment, flagProfile: string | undefined): Promise<HomeSettings> {
  const base = await runtimeOptionsFor(hre);
  const { defaultGenesis } = epochsModule();
  const configured = epochsOptionsFromConfig(hre.config.epochs).genesis;
  const genesisTime = BigInt(Math.floor((base.chain.initialDate?.getTime() ?? Date.now()) / 1000));
  // the flag is checked by the config resolution too; here it only picks what a new home records
  const profile = flagProfile === "evmos" || flagProfile === "cosmos-evm" ? flagProfile : hre.config.epochs.profile;
  try {
    return openHome(dir, {
      chainId: base.chain.chainId,
      genesisTime,
      epochs: (p) => (configured ?? defaultGenesis(p)).epochs,
      namespaces: [...CORE_NAMESPACES],
      profile,
      flagProfile: flagProfile === profile ? profile : undefined,
    });
  } catch (err) {
    if (err instanceof HomeError) throw new HardhatPluginError(PLUGIN_NAME, err.message);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------- server

/**
 * Hardhat's node:get-provider, overridden: the node's chain is already built (epochs:node:create-runtime,
 * with the fork flags applied there), and hre.network.provider serves it. Plugins that override this
 * subtask get that provider from runSuper; what they send through it (deployments) lands in the chain.
 */
subtask(TASK_NODE_GET_PROVIDER).setAction(async (_args: unknown, hre) => {
  if (hre.epochsProvider === undefined) throw new HardhatPluginError(PLUGIN_NAME, `${TASK_NODE_GET_PROVIDER} runs inside \`hardhat node\`, after the node's chain is built`);
  return hre.epochsProvider;
});

/** Hardhat's node:server-ready, overridden: the node's banner (addresses, chain, access, accounts). */
subtask(TASK_NODE_SERVER_READY).setAction(async ({ server }: { server: StartedServer }, hre) => {
  await hre.run(TASK_NODE_PRINT_BANNER, { runtime: server.runtime, server, settings: server.settings });
});

/** What the banner, Hardhat's node subtasks and the shutdown need from the servers. */
export interface StartedServer {
  /** The HTTP listener's address and port (Hardhat's node:server-ready arguments). */
  address: string;
  port: number;
  runtime: Runtime;
  settings: AppConfig;
  httpUrl: string;
  wsUrls: string[];
  /** Extra lines for the banner (e.g. the bearer token file, exposure warnings). */
  notes: string[];
  close(): Promise<void>;
  waitUntilClosed(): Promise<void>;
}

subtask(TASK_NODE_START_SERVER, "Starts the HTTP and WebSocket servers")
  .addParam("runtime", undefined, undefined, types.any)
  .addParam("settings", undefined, undefined, types.any)
  .addOptionalParam("provider", undefined, undefined, types.any)
  .setAction(async ({ runtime, settings: config, provider }: { runtime: Runtime; settings: AppConfig; provider?: EpochsProvider }, hre) => {
    const { authToken, ...opts } = serverSettings(config);
    // The token of the private namespaces: beside the chain's data with --home, else in the project's cache (the plugin reads it there).
    const tokenFile = config.home !== undefined ? path.resolve(config.home, "jsonrpc.token") : path.join(hre.config.paths.cache, "jsonrpc.token");
    const token = readOrCreateTokenFile(tokenFile, process.env.HARDHAT_EPOCHS_TOKEN ?? authToken);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server (and ws) load only when a node starts
    const { JsonRpcServer } = require("../rpc/transport/server") as typeof import("../rpc/transport/server");
    const server = new JsonRpcServer(runtime.dispatcher, { ...opts, token, log: (line) => console.log(line) });
    runtime.mountRest(server.rest);
    // Hardhat's node:server-created: the server exists and does not listen yet
    await hre.run(TASK_NODE_SERVER_CREATED, { hostname: opts.host, port: opts.port, provider: provider ?? hre.network.provider, server });
    const bound = await server.listen();
    // the plugin adds the token only to requests for this node: its pid and ports (src/hardhat/chain-config.ts)
    const record = config.home === undefined ? path.join(hre.config.paths.cache, NODE_RECORD_FILE_NAME) : undefined;
    if (record !== undefined) writeNodeRecord(record, [bound.httpAddress.port, ...(bound.wsAddress ? [bound.wsAddress.port] : [])]);
    // admin_startHTTP/stopHTTP/startWS/stopWS act on these listeners
    runtime.admin.listeners = server.listeners;
    const show = (h: string) => (h.includes(":") ? `[${h}]` : h);
    const { declared, raised } = runtime.dispatcher.accessClasses();
    const started: StartedServer = {
      address: bound.httpAddress.host,
      port: bound.httpAddress.port,
      runtime,
      settings: config,
      httpUrl: `http://${show(bound.httpAddress.host)}:${bound.httpAddress.port}/`,
      wsUrls: [`ws://${show(bound.httpAddress.host)}:${bound.httpAddress.port}/`, ...(bound.wsAddress ? [`ws://${show(bound.wsAddress.host)}:${bound.wsAddress.port}/`] : [])],
      notes: [
        `Bearer token in ${tokenFile}:`,
        `  ${token}`,
        ...accessBanner(declared, raised, [...DEFAULT_ALLOWED_ORIGINS, ...(opts.allowedOrigins ?? [])], beyondLoopback(bound)),
      ],
      close: () => server.close(),
      waitUntilClosed: () =>
        server.waitUntilClosed().finally(() => {
          if (record !== undefined) rmSync(record, { force: true });
        }),
    };
    return started;
  });

function writeNodeRecord(file: string, ports: number[]): void {
  const record: LocalNodeRecord = { pid: process.pid, ports };
  writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

// ---------------------------------------------------------------------------------------- banner

subtask(TASK_NODE_PRINT_BANNER, "Prints the servers' addresses and the dev accounts")
  .addParam("runtime", undefined, undefined, types.any)
  .addParam("server", undefined, undefined, types.any)
  .addParam("settings", undefined, undefined, types.any)
  .setAction(async ({ runtime, server, settings: config }: { runtime: Runtime; server: StartedServer; settings: AppConfig }) => {
    console.log(`Started HTTP and WebSocket JSON-RPC server at ${server.httpUrl}`);
    for (const ws of server.wsUrls.slice(1)) console.log(`WebSocket JSON-RPC server at ${ws}`);
    console.log(`Chain id ${runtime.node.config.chainId} (evmos_${runtime.node.config.chainId}-1), profile "${config.epochs.profile}", epochs tick rule "${config.epochs.tickRule}"`);
    const fork = runtime.node.fork;
    if (fork !== undefined) {
      const hash = `0x${Buffer.from(fork.block.hash).toString("hex")}`;
      console.log(`Forked chain ${fork.chainId} at block ${fork.block.number} (${hash}) from ${fork.client.name}${fork.pinned ? "" : " (its latest block; pin one with --fork-block-number to cache the remote's reads)"}`);
    }
    for (const note of server.notes) console.log(note);
    console.log();
    // private keys only where they are publicly known (Hardhat's default mnemonic): src/host/account-banner.ts
    for (const line of accountBannerModule().accountBanner(runtime.node.config.accounts)) console.log(line);
  });

/** Runs until the servers close or the process is told to stop; then `beforeClose` (the saved state), then closes the chain (flushing its store). */
async function waitForShutdown(server: StartedServer, runtime: Runtime, beforeClose: () => Promise<void>): Promise<void> {
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
    await beforeClose();
    await runtime.close();
  }
}
