/**
 * `hardhat node` on Hardhat 3: serves the in-process epochs chain over HTTP and WebSocket JSON-RPC
 * (Hardhat's own node task asserts an EDR provider, so this override replaces it). Settings as on
 * Hardhat 2 (src/host/app-config.ts): flags > `<home>/config/app.toml` > hardhat.config.ts > defaults,
 * with Evmos's json-rpc flags spelled `--json-rpc-ws-address` (tasks/node-flags.mts), `--home`,
 * `--minimum-gas-prices`, `--profile`, the saved-state flags, `--quiet`/`--verbose`, `--fork-rest` and
 * Hardhat's `--hostname`/`--port`/`--chain-id`/`--fork`/`--fork-block-number`. The node's log tells
 * requests, transactions, blocks and epochs as on Hardhat 2 (src/host/node-log/), Solidity frames under
 * failures. The bearer token of the private methods is the home's, or kept in the project's cache without one.
 */
import path from "node:path";
import appConfigModule from "../../host/app-config.js";
import homeModule from "../../host/home.js";
import nodeStateModule from "../../host/node-state.js";
import lazyModule from "../../host/lazy.js";
import depsModule from "../../rpc/deps.js";
import accessModule from "../../rpc/access.js";
import authModule from "../../rpc/transport/auth.js";
import serverModule from "../../rpc/transport/server.js";
import runtimeModule from "../../app/runtime.js";
import type { RuntimeOptions } from "../../app/runtime.js";
import logLevelModule from "../../utils/log-level.js";
import nodeLogModule from "../../host/node-log/node-log.js";
import hookFailuresModule from "../../host/hook-failures.js";
import forkSettingsModule from "../../host/fork-settings.js";
import epochsRestModule from "../../host/epochs-rest.js";
import { HARDHAT3_FRAMES, runtimeOptionsFor, watchBuildInfos } from "../in-process-chain.mjs";
import { evmosFlagsOf } from "./node-flags.mjs";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";
import { pluginError } from "../plugin-error.mjs";

interface NodeArgs extends Record<string, unknown> {
  hostname?: string;
  port: number;
  chainId: number;
  home: string;
  minimumGasPrices: string;
  profile: string;
  state: string;
  loadState: string;
  dumpState: string;
  stateInterval: string;
  /** Hardhat's own node options: the remote to fork, its block (-1: the remote's latest). */
  fork?: string;
  forkBlockNumber: number;
  forkRest: string;
  quiet: boolean;
  verbose: boolean;
}

/** The host's errors (a home's, a state file's) read as this plugin's. */
function asPluginError(err: unknown): never {
  if (err instanceof homeModule.HomeError || err instanceof nodeStateModule.NodeStateError || err instanceof forkSettingsModule.ForkSettingsError || err instanceof epochsRestModule.EpochsRestError) {
    throw pluginError(err.message, err);
  }
  // a fork whose remote cannot be read stops the start with the remote's error, not a stack trace
  if (err instanceof Error && (err as { abortsBlock?: unknown }).abortsBlock === true) throw pluginError(err.message, err);
  throw err;
}

export default async function node(args: NodeArgs, hre: HardhatRuntimeEnvironment): Promise<void> {
  const flags: Record<string, string | boolean> = evmosFlagsOf(args);
  if (args.quiet) flags.quiet = true;
  if (args.verbose) flags.verbose = true;
  if (args.hostname !== undefined) flags.hostname = args.hostname;
  flags.port = String(args.port);
  if (args.minimumGasPrices !== "") flags["minimum-gas-prices"] = args.minimumGasPrices;
  if (args.profile !== "") flags.profile = args.profile;
  const given = (v: string): string | undefined => (v === "" ? undefined : v);
  const base = runtimeOptionsFor(hre, args.chainId > 0 ? args.chainId : undefined);
  let epochs = base.epochs === false || base.epochs === undefined ? {} : base.epochs;
  // --fork / --fork-block-number over epochs.network.forking; --fork-rest: the remote's epochs at the fork block
  let fork = base.fork;
  try {
    fork = forkSettingsModule.forkFromFlags(args.fork, args.forkBlockNumber >= 0 ? args.forkBlockNumber : undefined, forkSettingsModule.forkCacheDir(hre.config.paths.cache)) ?? fork;
    if (args.forkRest !== "") {
      if (fork === undefined) throw pluginError("--fork-rest needs a fork: --fork URL or epochs.network.forking");
      epochs = { ...epochs, genesis: { epochs: await epochsRestModule.restEpochs(args.forkRest, fork.blockNumber) } };
    }
  } catch (err) {
    asPluginError(err);
  }
  const files = (() => {
    try {
      return nodeStateModule.stateFilesFromFlags({ state: given(args.state), loadState: given(args.loadState), dumpState: given(args.dumpState), stateInterval: given(args.stateInterval) }, fork !== undefined);
    } catch (err) {
      return asPluginError(err);
    }
  })();
  const configProfile = hre.config.epochs.profile;
  // --home: create/read config/genesis.json and config/app.toml (a new home records the profile)
  let home: ReturnType<typeof homeModule.openHome> | undefined;
  if (args.home !== "") {
    const flagProfile = args.profile === "evmos" || args.profile === "cosmos-evm" ? args.profile : undefined;
    const genesisTime = BigInt(Math.floor((base.chain.initialDate?.getTime() ?? Date.now()) / 1000));
    try {
      home = homeModule.openHome(args.home, {
        chainId: base.chain.chainId,
        genesisTime,
        epochs: (p) => (epochs.genesis ?? lazyModule.epochsModule().defaultGenesis(p)).epochs,
        namespaces: [...depsModule.CORE_NAMESPACES],
        profile: flagProfile ?? configProfile,
        flagProfile,
      });
    } catch (err) {
      asPluginError(err);
    }
  }
  // flags > app.toml > hardhat.config.ts's epochs section > defaults
  const hardhatConfig = { source: "hardhat.config", epochs: { profile: configProfile, tickRule: hre.config.epochs.tickRule, hookGasLimit: BigInt(hre.config.epochs.hookGasLimit) } };
  let config: ReturnType<typeof appConfigModule.resolveAppConfig>;
  try {
    config = appConfigModule.resolveAppConfig({ flags, appToml: home?.appToml, hardhatConfig, defaults: appConfigModule.defaultAppConfig(depsModule.CORE_NAMESPACES) });
  } catch (err) {
    throw pluginError((err as Error).message, err as Error);
  }
  // the node's log: --quiet / --verbose set the verbosity; debug_verbosity and debug_vmodule change it later
  logLevelModule.setVerbosity(appConfigModule.LOG_VERBOSITY[config.log]);
  const log = new nodeLogModule.NodeLog({ write: (text) => process.stdout.write(text), tty: process.stdout.isTTY === true, rpcLog: config.jsonRpc.log, frames: HARDHAT3_FRAMES });
  const settings = appConfigModule.runtimeSettings(config);
  let options: RuntimeOptions = {
    ...base,
    fork,
    chain: { ...base.chain, ...settings.chain, throwOnTransactionFailures: false },
    epochs: { ...epochs, ...settings.epochs },
    rpc: settings.rpc,
    enabledNamespaces: settings.enabledNamespaces,
    maxBatch: settings.maxBatch,
    batch: settings.batch,
    log: (line) => console.log(line),
    onRequest: (method, _ctx, params) => log.onRequest(method, params),
    onResponse: (method, outcome) => log.onResponse(method, outcome),
  };
  if (home !== undefined) options = { ...options, ...(await homeModule.homeRuntimeOptions(home, { chain: options.chain, epochs: options.epochs || {}, rpc: options.rpc, cosmos: options.cosmos })) };
  const runtime = await runtimeModule.createRuntime(options).catch(async (err: unknown) => {
    await options.kv?.close().catch(() => undefined);
    return asPluginError(err);
  });
  // failing epoch hooks in Hardhat's words, from the same registry the log names contracts with
  runtime.node.explainSystemCall = hookFailuresModule.hookFailureExplainer(runtime.deps.contracts, HARDHAT3_FRAMES);
  // the project's contracts (and those compiled while the node runs) name calls and custom errors in the log
  const builds = watchBuildInfos(hre.config.paths.artifacts, runtime);
  log.attach(runtime.node, runtime.deps.contracts);
  try {
    if (files.load !== undefined) await nodeStateModule.loadStateFile(runtime, files.load);
  } catch (err) {
    builds.stop();
    await runtime.close();
    asPluginError(err);
  }
  const { authToken, ...opts } = appConfigModule.serverSettings(config);
  const tokenFile = home?.paths.token ?? path.join(hre.config.paths.cache, "jsonrpc.token");
  const token = authModule.readOrCreateTokenFile(tokenFile, process.env.HARDHAT_EPOCHS_TOKEN ?? authToken);
  const server = new serverModule.JsonRpcServer(runtime.dispatcher, { ...opts, token, log: (line) => console.log(line) });
  runtime.mountRest(server.rest);
  const bound = await server.listen();
  runtime.admin.listeners = server.listeners;
  const host = bound.httpAddress.host.includes(":") ? `[${bound.httpAddress.host}]` : bound.httpAddress.host;
  console.log(`Started HTTP and WebSocket JSON-RPC server at http://${host}:${bound.httpAddress.port}/`);
  console.log(`Chain id ${runtime.node.config.chainId} (evmos_${runtime.node.config.chainId}-1), profile "${config.epochs.profile}", epochs tick rule "${config.epochs.tickRule}"`);
  const forked = runtime.node.fork;
  if (forked !== undefined) {
    const hash = `0x${Buffer.from(forked.block.hash).toString("hex")}`;
    console.log(`Forked chain ${forked.chainId} at block ${forked.block.number} (${hash}) from ${forked.client.name}${forked.pinned ? "" : " (its latest block; pin one with --fork-block-number to cache the remote's reads)"}`);
  }
  if (home !== undefined) console.log(`Home ${home.paths.dir} (block ${runtime.node.headNumber})`);
  if (files.load !== undefined) console.log(`Loaded the state in ${files.load} (block ${runtime.node.headNumber})`);
  console.log(`Bearer token in ${tokenFile}:\n  ${token}`);
  const { declared, raised } = runtime.dispatcher.accessClasses();
  for (const line of accessModule.accessBanner(declared, raised, [...accessModule.DEFAULT_ALLOWED_ORIGINS, ...(opts.allowedOrigins ?? [])], accessModule.beyondLoopback(bound))) console.log(line);
  console.log();
  // private keys only where they are publicly known (Hardhat's default mnemonic), as on Hardhat 2
  for (const line of lazyModule.accountBannerModule().accountBanner(runtime.node.config.accounts)) console.log(line);
  const saver = files.dump !== undefined && files.intervalS !== undefined ? nodeStateModule.saveEvery(runtime, files.dump, files.intervalS) : undefined;
  const stop = (): void => void server.close().catch(() => undefined);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await server.waitUntilClosed();
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    saver?.stop();
    builds.stop();
    if (files.dump !== undefined) {
      try {
        await nodeStateModule.writeStateFile(runtime, files.dump);
        console.log(`Wrote the state to ${files.dump}`);
      } catch (err) {
        console.error(`Could not write the state to ${files.dump}: ${(err as Error).message}`);
      }
    }
    await runtime.close();
  }
}
