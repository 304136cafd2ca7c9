/**
 * `hardhat node`, once for both hosts: from the flags the user gave to a chain served over HTTP and
 * WebSocket until the process is told to stop. Settings resolve as flags > `<home>/config/app.toml` >
 * hardhat.config.ts > defaults (src/host/settings/app-config.ts); then the home, the fork's epochs
 * (`--fork-rest`), the chain (src/app/runtime.ts) with the project's compilations and the node's log,
 * a saved state, the bearer token, the server, the banner, the signals and the state written at exit.
 *
 * A host (src/hardhat/node-task.ts, src/hardhat3/tasks/node.mts) maps its arguments and config into
 * `NodeHost` and `NodeFlags` and translates the UserErrors thrown here. Hardhat 2 runs some steps
 * inside its node subtasks, which other plugins hook: `NodeSteps` lets it.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Runtime, type RuntimeOptions, createRuntime } from "../../app/runtime";
import { abortsBlock, type ForkConfig } from "../../chain/setup";
import { CORE_NAMESPACES } from "../../rpc/deps";
import { DEFAULT_ALLOWED_ORIGINS, accessBanner, beyondLoopback } from "../../rpc/access";
import { readOrCreateTokenFile } from "../../rpc/transport/auth";
import { JsonRpcServer } from "../../rpc/transport/server";
import { setVerbosity } from "../../utils/log-level";
import { UserError } from "../../utils/user-error";
import { accountBanner, genesisBalancesBanner } from "./account-banner";
import { keepContractNames } from "./contract-names";
import { type ChainFlags, type HdAccounts, applyChainFlags, given } from "../settings/chain-flags";
import { type AppConfig, type AppConfigLayer, LOG_VERBOSITY, defaultAppConfig, resolveAppConfig, runtimeSettings, serverSettings } from "../settings/app-config";
import { type BuildInfoReader, followCompilations } from "../solidity/compilations";
import { restEpochs } from "../helpers/epochs-rest";
import { withGenesisFile } from "../settings/genesis-file";
import { type HomeSettings, homeRuntimeOptions, openHome } from "./home";
import { hookFailureExplainer } from "../solidity/hook-failures";
import { epochsModule } from "../lazy";
import { PROFILES, isProfile } from "../../epochs/profile";
import { type LocalNodeRecord, NODE_RECORD_FILE_NAME, tokenFilePath } from "./node-files";
import { NodeLog } from "../node-log/node-log";
import { type StateFiles, loadStateFile, saveEvery, stateFilesFromFlags, writeStateFile } from "./node-state";
import type { FrameOptions } from "../solidity/solidity-error";

/** What a host knows from its config. */
export interface NodeHost {
  /** The in-process network's chain as the config gives it (accounts, chain id, epochs, Cosmos, fork, console.log, client version). */
  base: RuntimeOptions;
  /** hardhat.config.ts's layer of the node's settings. */
  configLayer: AppConfigLayer;
  /** The project's cache folder: the token and the node's record without a home. */
  cacheDir: string;
  /** The project's build-info files, in the host's format. */
  compilations: BuildInfoReader;
  /** How Solidity frames name the project's sources (Hardhat 3 drops its `project/` prefix). */
  frames?: FrameOptions;
  /** Where the config sets a fork, for the error of `--fork-rest` without one. */
  forkSetting: string;
  /** The config's HD account settings, which `--accounts`/`--mnemonic` derive from (undefined when it lists keys). */
  hdAccounts?: HdAccounts;
  /** The config's `epochs.genesisFile`, absolute: the genesis a node without `--home` starts from, as the in-process network does. */
  genesisFile?: string;
  /** Hardhat's `throwOnTransactionFailures` for the node (default false: a reverting transaction is mined with status 0, as on evmosd). */
  throwOnTransactionFailures?: boolean;
}

/** What the user gave on the command line, host-independent. */
export interface NodeFlags {
  /** Evmos's flags keyed as Evmos spells them (`json-rpc.ws-address`, `home`, `minimum-gas-prices`, `profile`, `quiet`, `verbose`, `hostname`, `port`). */
  evmos: Record<string, string | boolean>;
  /** `--fork URL [--fork-block-number N]`, checked (src/host/settings/fork-settings.ts). */
  fork?: ForkConfig;
  /** `--fork-rest URL`: the forked chain's epochs genesis from its REST endpoint. */
  forkRest?: string;
  /** Anvil's chain flags: `--chain-id`, `--block-time`, `--accounts`, `--mnemonic`, `--balance` (src/host/settings/chain-flags.ts). */
  chain?: ChainFlags;
  /** The saved-state flags (src/host/node/node-state.ts). */
  state: { state?: unknown; loadState?: unknown; dumpState?: unknown; stateInterval?: unknown };
}

/** A node about to start: its resolved settings and the chain's options. */
export interface NodePlan {
  config: AppConfig;
  home?: HomeSettings;
  files: StateFiles;
  options: RuntimeOptions;
  log: NodeLog;
  host: NodeHost;
}

/** The servers, as the banner, Hardhat's node subtasks and the shutdown see them. */
export interface StartedServer {
  /** The HTTP listener's address and port (Hardhat's node:server-ready arguments). */
  address: string;
  port: number;
  runtime: Runtime;
  settings: AppConfig;
  plan: NodePlan;
  httpUrl: string;
  wsUrls: string[];
  tokenFile: string;
  token: string;
  /** Whether a listener is bound beyond loopback (the banner warns). */
  beyondLoopback: boolean;
  close(): Promise<void>;
  waitUntilClosed(): Promise<void>;
}

/** The steps Hardhat 2 runs inside its node subtasks; each defaults to this module's own. */
interface NodeSteps {
  createRuntime(plan: NodePlan): Promise<Runtime>;
  /** After the chain is built and its saved state loaded, before the server exists. */
  runtimeReady(runtime: Runtime): Promise<void>;
  startServer(runtime: Runtime, plan: NodePlan): Promise<StartedServer>;
  serverReady(server: StartedServer): Promise<void>;
}

/** Resolves everything the start needs; opens (creating what is missing) the home. */
export async function planNode(host: NodeHost, flags: NodeFlags): Promise<NodePlan> {
  const base: RuntimeOptions = flags.chain === undefined ? host.base : { ...host.base, chain: applyChainFlags(host.base.chain, host.hdAccounts, flags.chain) };
  const fork = flags.fork ?? base.fork;
  let epochs = base.epochs === false || base.epochs === undefined ? {} : base.epochs;
  if (flags.forkRest !== undefined) {
    if (fork === undefined) throw new UserError(`--fork-rest needs a fork: --fork URL or ${host.forkSetting}`);
    // the remote's epochs at the fork block (the latest when the block is not pinned)
    epochs = { ...epochs, genesis: { epochs: await restEpochs(flags.forkRest, fork.blockNumber) } };
  }
  const files = stateFilesFromFlags(flags.state, fork !== undefined);
  const home = typeof flags.evmos.home === "string" ? openNodeHome(flags.evmos.home, host, base.chain, epochs, flags.evmos.profile) : undefined;
  let config: AppConfig;
  try {
    config = resolveAppConfig({ flags: flags.evmos, appToml: home?.appToml, hardhatConfig: host.configLayer, defaults: defaultAppConfig(CORE_NAMESPACES) });
  } catch (err) {
    throw new UserError((err as Error).message);
  }
  if (!config.jsonRpc.enable) throw new UserError("json-rpc.enable = false leaves this node nothing to serve; JSON-RPC is its only interface");
  // the node's log: --quiet / --verbose set the verbosity; debug_verbosity and debug_vmodule change it later
  setVerbosity(LOG_VERBOSITY[config.log]);
  const log = new NodeLog({ write: (text) => process.stdout.write(text), tty: process.stdout.isTTY === true, rpcLog: config.jsonRpc.log, frames: host.frames });
  const settings = runtimeSettings(config);
  let options: RuntimeOptions = {
    ...base,
    fork,
    chain: { ...base.chain, ...settings.chain, throwOnTransactionFailures: host.throwOnTransactionFailures ?? false },
    epochs: { ...epochs, ...settings.epochs },
    rpc: settings.rpc,
    enabledNamespaces: settings.enabledNamespaces,
    maxBatch: settings.maxBatch,
    batch: settings.batch,
    explainHookFailure: (contracts) => hookFailureExplainer(contracts, host.frames),
    log: (line) => console.log(line),
    onRequest: (method, _ctx, params) => log.onRequest(method, params),
    onResponse: (method, outcome) => log.onResponse(method, outcome),
  };
  // a home sets the genesis, the data directory, the key store: last, over the rest
  if (home !== undefined) options = { ...options, ...(await homeRuntimeOptions(home, { chain: options.chain, epochs: options.epochs || {}, rpc: options.rpc, cosmos: options.cosmos })) };
  // without a home, the config's genesis file (the one the in-process network starts from)
  else options = withGenesisFile(options, host.genesisFile, process.cwd());
  if (home !== undefined && options.chain.chainId !== base.chain.chainId && given(flags.chain?.chainId)) {
    await options.kv?.close().catch(() => undefined);
    throw new UserError(`--chain-id ${base.chain.chainId}: the home's genesis (${home.paths.genesis}) says chain id ${options.chain.chainId}, fixed when the home was made`);
  }
  return { config, home, files, options, log, host };
}

/** A new home records the profile asked for (`--profile`, else the config's) and the epochs the chain starts with. */
function openNodeHome(
  dir: string,
  host: NodeHost,
  chain: RuntimeOptions["chain"],
  epochs: Exclude<RuntimeOptions["epochs"], false | undefined>,
  flagProfile: string | boolean | undefined,
): HomeSettings {
  const asked = isProfile(flagProfile) ? flagProfile : undefined;
  const configProfile = host.configLayer.epochs?.profile ?? "evmos";
  return openHome(dir, {
    chainId: chain.chainId,
    genesisTime: BigInt(Math.floor((chain.initialDate?.getTime() ?? Date.now()) / 1000)),
    epochs: (p) => (epochs.genesis ?? epochsModule().defaultGenesis(p)).epochs,
    namespaces: [...CORE_NAMESPACES],
    profile: asked ?? configProfile,
    flagProfile: asked,
  });
}

/**
 * Builds the node's chain: the runtime, the project's compilations (custom errors and Solidity frames
 * in failures, names in the log), the log attached. A start that fails releases the home's data
 * directory; a fork whose remote cannot be read stops it with the remote's error.
 */
export async function buildNodeRuntime(plan: NodePlan): Promise<Runtime> {
  let runtime: Runtime;
  try {
    runtime = await createRuntime(plan.options);
  } catch (err) {
    await plan.options.kv?.close().catch(() => undefined);
    if (abortsBlock(err)) throw new UserError((err as Error).message);
    throw err;
  }
  // the project's compilations now, and those compiled while the node runs (as on Hardhat's node);
  // the watcher's block listener goes before the log's, so a contract deployed right after its compilation is named
  const recovered = runtime.node.recovered;
  if (recovered !== undefined)
    console.log(
      `Warning: the data directory's head block ${recovered.head} had lost its state (its trie nodes never reached the disk); the node opened at block ${recovered.at}, the last block whose state is stored, and dropped the blocks above it.`,
    );
  followers.set(runtime, followCompilations(plan.host.compilations, runtime.node, runtime.deps.contracts));
  // a home remembers the contracts' names across restarts (a recompile may leave no build-info that names old code)
  if (plan.home !== undefined) keepContractNames(plan.home.paths.contractNames, runtime.deps.contracts);
  // amounts in the chain's coin (TEST on an atest chain, EVMOS on Evmos)
  const { symbol } = PROFILES[plan.config.epochs.profile].nativeMetadata;
  plan.log.attach(runtime.node, runtime.deps.contracts, { symbol, denom: PROFILES[plan.config.epochs.profile].denom });
  return runtime;
}

/** A listener's address taken by another process, in words that name the flag that moves it; undefined for other errors. */
function addressInUse(err: unknown, opts: { port: number; ws?: { host: string; port: number } }): UserError | undefined {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e.code !== "EADDRINUSE") return undefined;
  const at = `${e.address ?? "?"}:${e.port ?? "?"}`;
  if (opts.ws !== undefined && e.port === opts.ws.port && e.port !== opts.port) {
    return new UserError(`the WebSocket listener's address ${at} is in use (another node?): move it with --json-rpc.ws-address HOST:PORT (Hardhat 3: --json-rpc-ws-address; port 0 takes a free one)`);
  }
  return new UserError(`the HTTP listener's address ${at} is in use (another node?): move it with --port (0 takes a free one for both listeners)`);
}

/** The build-info watcher of each node runtime, stopped when the node stops. */
const followers = new WeakMap<Runtime, { stop(): void }>();

/**
 * The HTTP and WebSocket servers over the runtime, listening; `created` runs before they listen (Hardhat 2's node:server-created).
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export async function startNodeServer(runtime: Runtime, plan: NodePlan, created?: (server: JsonRpcServer) => Promise<void>): Promise<StartedServer> {
  const { config, host } = plan;
  const { authToken, ...opts } = serverSettings(config);
  const tokenFile = tokenFilePath({ home: config.home, cacheDir: host.cacheDir });
  const token = readOrCreateTokenFile(tokenFile, process.env.HARDHAT_EPOCHS_TOKEN ?? authToken);
  const server = new JsonRpcServer(runtime.dispatcher, { ...opts, token, log: (line) => console.log(line) });
  runtime.serve(server);
  await created?.(server);
  const bound = await server.listen().catch((err: unknown) => {
    throw addressInUse(err, opts) ?? err;
  });
  // the project's commands find this node by its record (pid, ports): `--network localhost` goes where it
  // listens, and without a home the plugin adds the cache's token to requests for it (src/hardhat/chain-config.ts)
  const record = path.join(host.cacheDir, NODE_RECORD_FILE_NAME);
  writeNodeRecord(record, [bound.httpAddress.port, ...(bound.wsAddress ? [bound.wsAddress.port] : [])], config.home);
  const show = (h: string): string => (h.includes(":") ? `[${h}]` : h);
  return {
    address: bound.httpAddress.host,
    port: bound.httpAddress.port,
    runtime,
    settings: config,
    plan,
    httpUrl: `http://${show(bound.httpAddress.host)}:${bound.httpAddress.port}/`,
    wsUrls: [`ws://${show(bound.httpAddress.host)}:${bound.httpAddress.port}/`, ...(bound.wsAddress ? [`ws://${show(bound.wsAddress.host)}:${bound.wsAddress.port}/`] : [])],
    tokenFile,
    token,
    beyondLoopback: beyondLoopback(bound),
    close: () => server.close(),
    waitUntilClosed: () => server.waitUntilClosed().finally(() => rmSync(record, { force: true })),
  };
}

function writeNodeRecord(file: string, ports: number[], home: string | undefined): void {
  const record: LocalNodeRecord = { pid: process.pid, ports, ...(home !== undefined ? { home } : {}) };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/** The start banner: addresses, chain, fork, home, saved state, token, access, accounts (private keys only where publicly known). */
export function nodeBanner(server: StartedServer): string[] {
  const { runtime, plan } = server;
  const { node } = runtime;
  const lines = [`Started HTTP and WebSocket JSON-RPC server at ${server.httpUrl}`];
  for (const ws of server.wsUrls.slice(1)) lines.push(`WebSocket JSON-RPC server at ${ws}`);
  const epochs = plan.config.epochs;
  lines.push(`Chain id ${node.config.chainId} (${node.config.cosmosChainId ?? `evmos_${node.config.chainId}-1`}), profile "${epochs.profile}", epochs tick rule "${epochs.tickRule}"`);
  const fork = node.fork;
  if (fork !== undefined) {
    const hash = `0x${Buffer.from(fork.block.hash).toString("hex")}`;
    lines.push(
      `Forked chain ${fork.chainId} at block ${fork.block.number} (${hash}) from ${fork.client.name}${fork.pinned ? "" : " (its latest block; pin one with --fork-block-number to cache the remote's reads)"}`,
    );
  }
  if (plan.home !== undefined) lines.push(`Home ${plan.home.paths.dir} (block ${node.headNumber})`);
  if (plan.files.load !== undefined) lines.push(`Loaded the state in ${plan.files.load} (block ${node.headNumber})`);
  if (runtime.epochs !== undefined) lines.push(`Epochs page: ${new URL("epochs", server.httpUrl).toString()}`);
  // epochs tick inside block production: a node that mines only for transactions leaves its timers still
  const { automine, intervalMs } = node.settings;
  if (runtime.epochs !== undefined && automine && intervalMs === 0) {
    lines.push(
      "Blocks are mined only when a transaction arrives: epoch timers move with blocks, so they wait too. For blocks over time start with --block-time S; to move a timer now, `npx hardhat epochs:advance --identifier ID --network localhost`.",
    );
  }
  lines.push(`Bearer token in ${server.tokenFile}:`, `  ${server.token}`);
  const { declared, raised } = runtime.dispatcher.accessClasses();
  const origins = [...DEFAULT_ALLOWED_ORIGINS, ...plan.config.jsonRpc.allowedOrigins];
  lines.push(...accessBanner(declared, raised, origins, server.beyondLoopback), "");
  lines.push(...accountBanner(node.config.accounts));
  const profile = PROFILES[epochs.profile];
  lines.push(...genesisBalancesBanner(node.config.genesisBalances ?? [], { symbol: profile.nativeMetadata.symbol, denom: profile.denom }));
  return lines;
}

const DEFAULT_STEPS: NodeSteps = {
  createRuntime: buildNodeRuntime,
  runtimeReady: async () => undefined,
  startServer: (runtime, plan) => startNodeServer(runtime, plan),
  serverReady: async (server) => {
    for (const line of nodeBanner(server)) console.log(line);
  },
};

/** Runs the node until its servers close or the process is told to stop; then writes the saved state and closes the chain. */
export async function runNode(host: NodeHost, flags: NodeFlags, steps: Partial<NodeSteps> = {}): Promise<void> {
  const s = { ...DEFAULT_STEPS, ...steps };
  const plan = await planNode(host, flags);
  const runtime = await s.createRuntime(plan);
  const builds = { stop: () => followers.get(runtime)?.stop() };
  try {
    if (plan.files.load !== undefined) await loadStateFile(runtime, plan.files.load);
    await s.runtimeReady(runtime);
  } catch (err) {
    builds.stop();
    await runtime.close();
    throw err;
  }
  let server: StartedServer | undefined;
  try {
    server = await s.startServer(runtime, plan);
    await s.serverReady(server);
  } catch (err) {
    // a start that fails stops what it started: the servers, the watcher, the chain (its store unlocked)
    await server?.close().catch(() => undefined);
    builds.stop();
    await runtime.close();
    throw err;
  }
  const started = server;
  const { dump, intervalS } = plan.files;
  const saver = dump !== undefined && intervalS !== undefined ? saveEvery(runtime, dump, intervalS) : undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): void => {
    stopping ??= started.close().catch(() => undefined);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await started.waitUntilClosed();
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    saver?.stop();
    builds.stop();
    if (dump !== undefined) {
      try {
        await writeStateFile(runtime, dump);
        console.log(`Wrote the state to ${dump}`);
      } catch (err) {
        console.error(`Could not write the state to ${dump}: ${(err as Error).message}`);
      }
    }
    await runtime.close();
  }
}
