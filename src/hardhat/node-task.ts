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
import path from "node:path";
import { task, subtask, types } from "hardhat/config";
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatNetworkAccountsConfig, HardhatRuntimeEnvironment, ParamDefinition, TaskArguments, TaskDefinition } from "hardhat/types";
import { ArgumentsParser } from "hardhat/internal/cli/ArgumentsParser";
import type { Runtime } from "../app/runtime";
import { CORE_NAMESPACES } from "../rpc/deps";
import type { AppConfig, AppConfigLayer } from "../host/settings/app-config";
import { JSON_RPC_FLAGS } from "../host/settings/app-config-keys";
import { CHAIN_FLAGS, type ChainFlags, type HdAccounts } from "../host/settings/chain-flags";
import { hardhat2BuildInfos } from "../host/solidity/compilations";
import type { NodeFlags, NodeHost, NodePlan, StartedServer } from "../host/node/node-service";
import { forkFromFlags } from "./fork";
import { pluginError, withPluginErrors } from "./plugin-error";
import { consoleLogDecoder } from "../host/solidity/console-log-source";
import { type EpochsProvider, createEpochsProvider, runtimeOptionsFor } from "./provider";
import { TASK_NODE, TASK_NODE_CREATE_RUNTIME, TASK_NODE_GET_PROVIDER, TASK_NODE_PRINT_BANNER, TASK_NODE_SERVER_CREATED, TASK_NODE_SERVER_READY, TASK_NODE_START_SERVER } from "./task-names";

/* eslint-disable @typescript-eslint/no-require-imports -- deferred CommonJS loads, as src/host/lazy.ts's */
/** The node service (the chain, its servers) and the settings' resolver load when the node task runs, not with the plugin. */
function nodeServiceModule(): typeof import("../host/node/node-service") {
  return require("../host/node/node-service") as typeof import("../host/node/node-service");
}
function appConfigModule(): typeof import("../host/settings/app-config") {
  return require("../host/settings/app-config") as typeof import("../host/settings/app-config");
}
/* eslint-enable @typescript-eslint/no-require-imports */

// This file loads with the plugin, for every task: the chain, the server (ws), LevelDB and ethers are
// required inside the actions that use them, never at the top.

/** Evmos's `start` flags this node accepts: the [json-rpc] keys of app.toml, from app-config's one table. */
const EVMOS_FLAGS = JSON_RPC_FLAGS;

/** The values of the flags given on the command line, keyed as Evmos spells them; absent = not given. */
type EvmosFlags = Record<string, string | boolean>;

/** The task-argument name Hardhat's parser gives a flag (`json-rpc.ws-address` → `jsonRpc.wsAddress`). */
function flagParamName(flag: string): string {
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
// Anvil's chain flags (src/host/settings/chain-flags.ts): strings, checked by the node service in one place
for (const { name, description } of CHAIN_FLAGS) nodeTask.addOptionalParam(name, description, undefined, types.string);

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
        throw pluginError(`invalid value "${value}" for ${cla}: expected true or false`);
      }
    }
    const parsed = original.call(this, def, rewritten);
    for (const name of falses) parsed[name] = false;
    return parsed;
  };
}

interface NodeArgs extends ChainFlags {
  fork?: string;
  forkBlockNumber?: number;
  forkRest?: string;
}

/** What hardhat.config.ts says about the node's settings (the layer below app.toml). */
function hardhatConfigLayer(hre: HardhatRuntimeEnvironment): AppConfigLayer {
  return {
    source: "hardhat.config",
    minimumGasPrices: { amount: BigInt(hre.config.networks[HARDHAT_NETWORK_NAME].minGasPrice) },
    epochs: { profile: hre.config.epochs.profile, tickRule: hre.config.epochs.tickRule, hookGasLimit: BigInt(hre.config.epochs.hookGasLimit) },
  };
}

/** The node's settings: flags > app.toml > hardhat.config.ts > defaults, resolved once. */
export function resolveNodeConfig(flags: EvmosFlags, appToml: AppConfigLayer | undefined, hre: HardhatRuntimeEnvironment): AppConfig {
  const { resolveAppConfig, defaultAppConfig } = appConfigModule();
  return withPluginErrors(() => resolveAppConfig({ flags, appToml, hardhatConfig: hardhatConfigLayer(hre), defaults: defaultAppConfig(CORE_NAMESPACES) }));
}

/** The HD settings of networks.hardhat.accounts, which `--accounts`/`--mnemonic` derive from; undefined for a key list. */
function hdAccountsOf(accounts: HardhatNetworkAccountsConfig): HdAccounts | undefined {
  if (Array.isArray(accounts)) return undefined;
  return { mnemonic: accounts.mnemonic, path: accounts.path, count: accounts.count, initialIndex: accounts.initialIndex, balance: BigInt(accounts.accountsBalance), passphrase: accounts.passphrase };
}

/** What the node service (src/host/node/node-service.ts) needs from this Hardhat's config. */
async function nodeHost(hre: HardhatRuntimeEnvironment): Promise<NodeHost> {
  return {
    base: await runtimeOptionsFor(hre, { consoleLog: consoleLogDecoder() }),
    hdAccounts: hdAccountsOf(hre.config.networks[HARDHAT_NETWORK_NAME].accounts),
    configLayer: hardhatConfigLayer(hre),
    cacheDir: hre.config.paths.cache,
    compilations: hardhat2BuildInfos(hre.config.paths.artifacts),
    forkSetting: "networks.hardhat.forking",
    ...(hre.config.epochs.genesisFile !== undefined ? { genesisFile: path.resolve(hre.config.paths.root, hre.config.epochs.genesisFile) } : {}),
    // As on evmosd, a valid transaction that reverts is answered with its hash and mined with status 0;
    // a user who wants Hardhat's errors on the node sets networks.hardhat.throwOnTransactionFailures.
    throwOnTransactionFailures: hre.userConfig.networks?.hardhat?.throwOnTransactionFailures ?? false,
  };
}

async function runNode(args: TaskArguments, hre: HardhatRuntimeEnvironment): Promise<void> {
  const { fork, forkBlockNumber, forkRest, chainId, blockTime, accounts, mnemonic, balance } = args as NodeArgs;
  if (hre.network.name !== HARDHAT_NETWORK_NAME && hre.hardhatArguments.network !== undefined) {
    throw pluginError(`the node serves the in-process "${HARDHAT_NETWORK_NAME}" network; --network ${hre.network.name} is not supported`);
  }
  const evmos = evmosFlags(args);
  if (hre.hardhatArguments.verbose) evmos.verbose = true;
  const flags: NodeFlags = { evmos, fork: forkFromFlags(hre, fork, forkBlockNumber), forkRest, chain: { chainId, blockTime, accounts, mnemonic, balance }, state: args };
  const service = nodeServiceModule();
  // Hardhat's node subtasks, for the plugins that hook them (hardhat-deploy deploys in node:get-provider
  // and watches in node:server-ready): the provider is the node's chain, the server ours.
  await withPluginErrors(async () =>
    service.runNode(await nodeHost(hre), flags, {
      createRuntime: async (plan) => (await hre.run(TASK_NODE_CREATE_RUNTIME, { plan })) as Runtime,
      runtimeReady: async () => void (await hre.run(TASK_NODE_GET_PROVIDER, {})),
      startServer: async (runtime, plan) => (await hre.run(TASK_NODE_START_SERVER, { runtime, plan })) as StartedServer,
      serverReady: async (server) => void (await hre.run(TASK_NODE_SERVER_READY, { address: server.address, port: server.port, provider: hre.epochsProvider, server })),
    }),
  );
}

subtask(TASK_NODE_CREATE_RUNTIME, "Builds the chain the node serves")
  .addParam("plan", undefined, undefined, types.any)
  .setAction(async ({ plan }: { plan: NodePlan }, hre) => {
    // The node's chain is also hre.network.provider's, so scripts run in the node process see the same chain.
    const provider: EpochsProvider = hre.epochsProvider ?? createEpochsProvider(hre);
    hre.epochsProvider = provider;
    provider.useRuntimeFactory(() => nodeServiceModule().buildNodeRuntime(plan));
    return withPluginErrors(() => provider.runtime());
  });

// ---------------------------------------------------------------------------------------- server

/**
 * Hardhat's node:get-provider, overridden: the node's chain is already built (epochs:node:create-runtime,
 * with the fork flags applied there), and hre.network.provider serves it. Plugins that override this
 * subtask get that provider from runSuper; what they send through it (deployments) lands in the chain.
 */
subtask(TASK_NODE_GET_PROVIDER).setAction(async (_args: unknown, hre) => {
  if (hre.epochsProvider === undefined) throw pluginError(`${TASK_NODE_GET_PROVIDER} runs inside \`hardhat node\`, after the node's chain is built`);
  return hre.epochsProvider;
});

/** Hardhat's node:server-ready, overridden: the node's banner (addresses, chain, access, accounts). */
subtask(TASK_NODE_SERVER_READY).setAction(async ({ server }: { server: StartedServer }, hre) => {
  await hre.run(TASK_NODE_PRINT_BANNER, { server });
});

subtask(TASK_NODE_START_SERVER, "Starts the HTTP and WebSocket servers")
  .addParam("runtime", undefined, undefined, types.any)
  .addParam("plan", undefined, undefined, types.any)
  .setAction(async ({ runtime, plan }: { runtime: Runtime; plan: NodePlan }, hre) =>
    // Hardhat's node:server-created: the server exists and does not listen yet
    nodeServiceModule().startNodeServer(runtime, plan, async (server) => {
      const { host, port } = appConfigModule().serverSettings(plan.config);
      await hre.run(TASK_NODE_SERVER_CREATED, { hostname: host, port, provider: hre.epochsProvider ?? hre.network.provider, server });
    }),
  );

// ---------------------------------------------------------------------------------------- banner

subtask(TASK_NODE_PRINT_BANNER, "Prints the servers' addresses and the dev accounts")
  .addParam("server", undefined, undefined, types.any)
  .setAction(async ({ server }: { server: StartedServer }) => {
    for (const line of nodeServiceModule().nodeBanner(server)) console.log(line);
  });
