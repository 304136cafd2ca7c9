/**
 * The composition root: builds a running chain and everything that serves it (modules, precompiles,
 * fork, Node, key store, namespaces, REST routes) in one place. The one entry point for both Hardhat
 * hosts (src/host/), `npx hardhat node` and tests; rpc/ below it serves the chain it is given
 * (transports, dispatch, the namespaces) and builds none of it.
 */
import type { EventEmitter } from "node:events";
import { type ChainConfig, genesisAllocations } from "../chain/config";
import { type BlockModule, type ForkConfig, Node, type NodeOptions, type PrecompileContext, type SystemCallExplainer } from "../chain/setup";
import type { ConsoleLogDecoder } from "../solidity/console-log";
import type { CustomPrecompile, PrecompileInput } from "@ethereumjs/evm";
import type { KVStore } from "../storage/kv";
import { ContractRegistry } from "../solidity/registry";
import { type RpcSettings, defaultRpcSettings, type RpcDeps } from "../rpc/deps";
import { type DispatcherOptions, RpcDispatcher } from "../rpc/dispatcher";
import type { MethodSpec } from "../rpc/method";
import { ethMethods } from "../rpc/namespaces/eth";
import { type FilterServices, createFilterServices, filterMethods } from "../rpc/namespaces/eth/filters";
import { evmMethods } from "../rpc/namespaces/evm";
import { hardhatMethods } from "../rpc/namespaces/hardhat";
import { anvilMethods } from "../rpc/namespaces/anvil";
import { erigonMethods } from "../rpc/namespaces/erigon";
import { otsMethods } from "../rpc/namespaces/ots";
import { traceMethods } from "../rpc/namespaces/trace";
import { netMethods } from "../rpc/namespaces/net";
import { web3Methods } from "../rpc/namespaces/web3";
import { txpoolMethods } from "../rpc/namespaces/txpool";
import { type MinerHooks, minerMethods } from "../rpc/namespaces/miner";
import { unsupportedMethods } from "../rpc/namespaces/unsupported";
import { debugMethods } from "../rpc/namespaces/debug";
import { personalMethods } from "../rpc/namespaces/personal";
import { KeyStore, type KeyStoreOptions } from "../keystore";
import { type AdminHooks, adminMethods } from "../rpc/namespaces/admin";
import { cliqueMethods } from "../rpc/namespaces/clique";
import { dbMethods } from "../rpc/namespaces/db";
import type { RequestContext } from "../rpc/types";
import { EPOCHS_MODULE, EpochsModule, type EpochsOptions, PROFILES } from "../epochs";
import { epochsMethods, registerEpochsSubscription } from "../rpc/namespaces/epochs";
import { mountEpochsRest } from "./rest/epochs";
import type { RestRouter } from "../rpc/transport/rest-router";
import type { ListenerControl } from "../rpc/transport/server";
import { mountEpochsPage } from "./rest/epochs-page";
import { CosmosModules, type CosmosPrecompilesOptions } from "../cosmos";
import { mountBankRest, mountErc20Rest, mountGovRest, mountStakingRest } from "./rest/cosmos";
import { exportChainGenesis } from "./genesis-export";
import { cosmosMethods } from "../rpc/namespaces/cosmos";

export interface RuntimeOptions {
  chain: ChainConfig;
  /** Storage backend; in memory when absent. The runtime owns it: `close()`, or a start that fails, closes it. */
  kv?: KVStore;
  /** Sizes of the chain's in-memory caches; the chain's defaults when absent. */
  cacheBounds?: NodeOptions["cacheBounds"];
  /** Fork a remote chain (`networks.hardhat.forking`, `--fork`). */
  fork?: ForkConfig;
  /** Folder of the forks' on-disk cache (hardhat_reset's forks use it too); none when absent. */
  forkCacheDir?: string;
  clientVersion: string;
  rpc?: Partial<RpcSettings>;
  /** Namespaces served (the `json-rpc.api` setting); all when absent. */
  enabledNamespaces?: ReadonlySet<string>;
  maxBatch?: number;
  /** Budgets of one batch: answer bytes (`batch-response-max-size`) and time (`http-timeout`); defaults in src/rpc/limits.ts. */
  batch?: { maxResponseBytes?: number; timeoutMs?: number };
  /** The epochs module's settings; `false` runs the chain without it. Default: Evmos's default genesis, the spec rule. */
  epochs?: EpochsOptions | false;
  /** The Cosmos modules and precompiles (src/cosmos/app-settings.ts); default: each on, with the profile's settings. */
  cosmos?: CosmosPrecompilesOptions;
  /** Extra block modules and their precompiles. */
  modules?: BlockModule[];
  precompiles?: (ctx: PrecompileContext) => CustomPrecompile[];
  /** Decodes console.log calls of contracts; the node then emits `consoleLog` lines. */
  consoleLog?: ConsoleLogDecoder;
  /** How a failing epoch hook is told (the host's words and Solidity frames, from the runtime's contract registry). */
  explainHookFailure?: (contracts: ContractRegistry) => SystemCallExplainer;
  /** Where the chain relays its users' EVM steps while someone listens (a host's emitter: solidity-coverage's seam on Hardhat 2). */
  stepEvents?: EventEmitter;
  /** Relay only these opcodes' steps, minimal ones (what solidity-coverage reads; src/chain/engine/step-relay.ts). */
  stepOpcodes?: readonly string[];
  /** Extra namespaces built over the same deps. */
  namespaces?: Array<(deps: RpcDeps, services: FilterServices) => MethodSpec[]>;
  /** Clock of filter deadlines (tests move it). */
  now?: () => number;
  miner?: MinerHooks;
  /** The personal namespace's key store: `<home>/keystore` with `dir`, else in memory; geth's standard scrypt unless `scrypt` says otherwise. */
  keystore?: KeyStoreOptions;
  /** The node's home directory (admin_datadir); absent = in memory. */
  home?: string;
  /** The node's log (admin_* notes). */
  log?: (line: string) => void;
  onRequest?: (method: string, ctx: RequestContext, params: unknown) => void;
  onResponse?: DispatcherOptions["onResponse"];
  onInternalError?: (method: string, err: unknown) => void;
}

export interface Runtime {
  node: Node;
  dispatcher: RpcDispatcher;
  deps: RpcDeps;
  services: FilterServices;
  epochs: EpochsModule | undefined;
  /** The validator operator address of an account, when the chain runs the staking module (Solidity tests' `validatorAddress` cheat). */
  valoper: ((address: Uint8Array) => string) | undefined;
  keystore: KeyStore;
  /** Mounts the REST routes (the epochs queries at Evmos's paths, the Cosmos bank and staking) on a server's router. */
  mountRest(router: RestRouter): void;
  /**
   * Serves the chain on a server: its REST routes, and its listeners for admin_startHTTP/stopHTTP/
   * startWS/stopWS (the in-process provider has none). One server at a time.
   */
  serve(server: { rest: RestRouter; listeners: ListenerControl }): void;
  close(): Promise<void>;
}

/** Every namespace this node has (the default of `--json-rpc.api`). */
export { CORE_NAMESPACES } from "../rpc/deps";

export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const epochs = opts.epochs === false ? undefined : new EpochsModule(opts.epochs ?? {});
  const profile = epochs?.profile ?? "evmos";
  const genesisAccounts = genesisAllocations(opts.chain).map((a) => ({ address: a.address.toString(), balance: a.balance }));
  // set when the chain makes its VM, before any state is opened
  let precompileCtx: PrecompileContext | undefined;
  // the message that called the precompile is the innermost one of its execution
  const message = (input: PrecompileInput) => {
    const stack = (precompileCtx as PrecompileContext).envOf(input._EVM).messages;
    const top = stack[stack.length - 1];
    if (top === undefined) throw new Error("a precompile ran outside a message");
    return top;
  };
  const cosmosDeps = {
    caller: (input: PrecompileInput) => message(input).caller.bytes,
    isStatic: (input: PrecompileInput) => message(input).isStatic,
    delegated: (input: PrecompileInput) => message(input).delegated,
    value: (input: PrecompileInput) => message(input).value,
    block: (input: PrecompileInput) => {
      const block = (precompileCtx as PrecompileContext).envOf(input._EVM).block;
      if (block === undefined) throw new Error("a Cosmos precompile ran outside a block the chain named");
      return block;
    },
  };
  const cosmos = new CosmosModules(opts.cosmos ?? {}, profile, genesisAccounts, cosmosDeps);
  for (const hooks of cosmos.epochHooks) epochs?.addHooks(hooks, { first: true });
  const modules = [...(epochs !== undefined ? [epochs.blockModule()] : []), ...cosmos.blockModules, ...(opts.modules ?? [])];
  const precompiles = (ctx: PrecompileContext): CustomPrecompile[] => {
    precompileCtx = ctx;
    return [
      ...(epochs !== undefined
        ? [
            epochs.createPrecompile({
              caller: (input) => message(input).caller.bytes,
              isStatic: (input) => message(input).isStatic,
              delegated: (input) => message(input).delegated,
              store: (input) => ctx.envOf(input._EVM).moduleStore(EPOCHS_MODULE),
            }),
          ]
        : []),
      ...cosmos.precompiles(ctx),
      ...(opts.precompiles?.(ctx) ?? []),
    ];
  };
  const cacheDir = opts.fork?.cacheDir ?? opts.forkCacheDir;
  // Node.create opens the fork and closes the store itself when it cannot start (a LevelDB home is unlocked)
  const contracts = new ContractRegistry();
  const node = await Node.create({
    config: opts.chain,
    kv: opts.kv,
    modules,
    precompiles,
    fork: opts.fork !== undefined ? { ...opts.fork, cacheDir } : undefined,
    consoleLog: opts.consoleLog,
    cacheBounds: opts.cacheBounds,
    explainSystemCall: opts.explainHookFailure?.(contracts),
    stepEvents: opts.stepEvents,
    stepOpcodes: opts.stepOpcodes,
  });
  const settings: RpcSettings = { ...defaultRpcSettings(opts.clientVersion), gasCap: opts.chain.gasCap, ...opts.rpc };
  let keystore: KeyStore;
  try {
    keystore = await KeyStore.open(opts.keystore);
  } catch (err) {
    await node.close();
    throw err;
  }
  const resetChain = async (forking: { url: string; blockNumber?: bigint; httpHeaders?: Record<string, string> } | undefined): Promise<void> => {
    await node.reset(forking !== undefined ? { ...forking, cacheDir, timeoutMs: opts.fork?.timeoutMs } : undefined);
  };
  const deps: RpcDeps = { node, settings, keystore, resetChain, contracts, stackTraceFailures: { count: 0 } };
  const services = createFilterServices(deps, opts.now);
  const admin: AdminHooks = { datadir: opts.home, log: opts.log };
  const factories = [ethMethods, netMethods, web3Methods, evmMethods, hardhatMethods, anvilMethods, otsMethods, erigonMethods, traceMethods, ...(opts.namespaces ?? [])];
  const all = [
    ...factories.flatMap((f) => f(deps, services)),
    ...filterMethods(deps, services),
    ...txpoolMethods(deps),
    ...minerMethods(deps, opts.miner),
    ...personalMethods(deps),
    ...unsupportedMethods(),
    ...debugMethods(deps),
    ...dbMethods(deps),
    ...cliqueMethods(deps),
    ...adminMethods(deps, admin, (): string[] => dispatcher.namespaces().filter((ns: string) => opts.enabledNamespaces === undefined || opts.enabledNamespaces.has(ns))),
    ...(epochs !== undefined ? epochsMethods(deps, epochs, { genesis: () => exportChainGenesis(node, cosmos) }) : []),
    ...(cosmos.staking ? cosmosMethods(deps, cosmos) : []),
  ];
  // methods the profile's chain removed: unknown methods there, so here
  const removed = new Set(PROFILES[profile].removedMethods);
  const dispatcher: RpcDispatcher = new RpcDispatcher(
    all.filter((m) => !removed.has(m.name)),
    {
      enabledNamespaces: opts.enabledNamespaces,
      maxBatch: opts.maxBatch,
      maxBatchResponseBytes: opts.batch?.maxResponseBytes,
      batchTimeoutMs: opts.batch?.timeoutMs,
      onRequest: opts.onRequest,
      onResponse: opts.onResponse,
      onInternalError: opts.onInternalError,
    },
  );
  if (epochs !== undefined) registerEpochsSubscription(deps, services.subscriptions);
  node.armIntervalMining();
  const mountRest = (router: RestRouter): void => {
    mountBankRest(router, node, cosmos);
    if (cosmos.staking) mountStakingRest(router, node, cosmos);
    if (cosmos.erc20) mountErc20Rest(router, node, cosmos);
    if (cosmos.gov) mountGovRest(router, node, cosmos);
    if (epochs === undefined) return;
    mountEpochsRest(router, epochs, node);
    mountEpochsPage(router);
  };
  return {
    node,
    dispatcher,
    deps,
    services,
    epochs,
    valoper: cosmos.staking ? (address) => cosmos.valoper(address) : undefined,
    keystore,
    mountRest,
    serve: (server) => {
      mountRest(server.rest);
      admin.listeners = server.listeners;
    },
    close: () => {
      keystore.close();
      return node.close();
    },
  };
}
