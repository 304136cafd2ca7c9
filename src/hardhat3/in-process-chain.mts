/**
 * The epochs chain behind a Hardhat 3 connection to the in-process network: one runtime per
 * connection (as `network.create()` gives a fresh EDR chain), built on its first request. Requests
 * never leave the process: the network hook answers them here (hooks/network.mts).
 */
import { createRequire } from "node:module";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import runtimeModule from "../app/runtime.js";
import type { Runtime, RuntimeOptions } from "../app/runtime.js";
import consoleLogModule from "../chain/console-log.js";
import rpcErrorsModule from "../rpc/errors.js";
import epochsConfigModule from "../host/epochs-config.js";
import buildInfoWatchModule from "../host/build-info-watch.js";
import networkSettingsModule from "../host/network-settings.js";
import forkSettingsModule from "../host/fork-settings.js";
import chainDefaultsModule from "../host/chain-defaults.js";
import solidityErrorModule from "../host/solidity-error.js";
import hookFailuresModule from "../host/hook-failures.js";
import registryModule from "../chain/solidity/registry.js";
import type { SolcInput, SolcOutput } from "../chain/solidity/registry.js";
import type { Connection, JsonRpcNotification, RequestContext } from "../rpc/types.js";
import type { EthereumProvider, HookContext, JsonRpcRequest, JsonRpcResponse } from "./hardhat3-api.mjs";


/** Hardhat 3 compiles the project's files as `project/contracts/X.sol`; its frames say `contracts/X.sol`. */
export const HARDHAT3_FRAMES = { localSourcePrefix: "project/" };

/** Subscription notifications become the provider's EIP-1193 "message" events. */
class ProviderConnection implements Connection {
  private static _next = 2_000_000_000;
  readonly id = ProviderConnection._next++;
  private readonly _closeListeners: Array<() => void> = [];

  constructor(private readonly _provider: EthereumProvider) {}

  notify(message: JsonRpcNotification): void {
    this._provider.emit("message", { type: "eth_subscription", data: message.params });
  }

  onClose(listener: () => void): void {
    this._closeListeners.push(listener);
  }

  close(): void {
    for (const l of this._closeListeners.splice(0)) l();
  }
}

export class InProcessChain {
  private _runtime: Promise<Runtime> | undefined;
  private readonly _connection: ProviderConnection;
  private readonly _ctx: RequestContext;

  constructor(
    private readonly _context: HookContext,
    private readonly _chainId: number,
    provider: EthereumProvider,
  ) {
    this._connection = new ProviderConnection(provider);
    this._ctx = { transport: "in-process", authenticated: true, connection: this._connection };
  }

  runtime(): Promise<Runtime> {
    if (this._runtime === undefined) {
      this._runtime = this._build();
      // a failed start is not kept: the next request reports the problem again
      this._runtime.catch(() => {
        this._runtime = undefined;
      });
    }
    return this._runtime;
  }

  /**
   * One JSON-RPC request answered by the chain. Errors become JSON-RPC errors (Hardhat 3 throws them
   * as its ProviderError), except a failed execution whose Solidity stack trace reaches the project's
   * code: that one is thrown as the SolidityError Hardhat 3's EDR network throws, frames and all.
   */
  async answer(req: JsonRpcRequest): Promise<JsonRpcResponse> {
    const runtime = await this.runtime();
    try {
      const result = await runtime.dispatcher.call(req.method, req.params ?? [], this._ctx);
      return { jsonrpc: "2.0", id: req.id, result };
    } catch (err) {
      return { jsonrpc: "2.0", id: req.id, error: await toJsonRpcError(err, runtime) };
    }
  }

  async close(): Promise<void> {
    this._connection.close();
    const runtime = this._runtime;
    this._runtime = undefined;
    if (runtime !== undefined) await (await runtime.catch(() => undefined))?.close();
  }

  private async _build(): Promise<Runtime> {
    const runtime = await buildRuntime(runtimeOptionsFor(this._context, this._chainId));
    loadBuildInfos(this._context.config.paths.artifacts, runtime);
    return runtime;
  }
}

/** The chain of the in-process network: the config's epochs and `epochs.network` settings; `chainId` (the network's or the node's flag) over theirs. */
export function runtimeOptionsFor(context: HookContext, chainId?: number): RuntimeOptions {
  const config = context.config;
  const settings = networkSettingsModule.parseNetworkSettings(config.epochs.network);
  const chain = networkSettingsModule.chainConfigFromNetworkSettings(settings, chainDefaultsModule.DEFAULT_CHAIN_ID);
  if (chainId !== undefined) chain.chainId = BigInt(chainId);
  // the remote's reads are cached in the project's cache folder (hardhat_reset's forks too)
  const forkCacheDir = forkSettingsModule.forkCacheDir(config.paths.cache);
  return {
    chain,
    fork: settings.fork !== undefined ? { ...settings.fork, cacheDir: forkCacheDir } : undefined,
    forkCacheDir,
    // the network helpers accept a client whose version starts with "hardhat"
    clientVersion: `HardhatNetwork/${context.versions.hardhat}/hardhat-epochs/${pluginVersion()}`,
    epochs: epochsConfigModule.epochsOptionsFromConfig(config.epochs),
    cosmos: epochsConfigModule.cosmosOptionsFromConfig(config.epochs),
    consoleLog: consoleLogDecoder(config.paths.root),
  };
}

/** Builds a runtime whose contracts' console.log lines print as in Hardhat's tests, and whose failing epoch hooks are told in Hardhat's words. */
export async function buildRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const runtime = await runtimeModule.createRuntime(opts);
  runtime.node.on("consoleLog", (line: string) => console.log(line));
  runtime.node.explainSystemCall = hookFailuresModule.hookFailureExplainer(runtime.deps.contracts, HARDHAT3_FRAMES);
  return runtime;
}

/**
 * The project's compilations (Hardhat 3's build-info files and their outputs) for the chain's contract
 * registry: custom errors get their names in failures, and the chain knows its contracts. A file
 * that cannot be read is skipped.
 */
export function loadBuildInfos(artifacts: string, runtime: Runtime): void {
  const dir = path.join(artifacts, "build-info");
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".json") && !f.endsWith(".output.json"));
  } catch {
    return; // nothing compiled yet
  }
  for (const f of files) {
    try {
      addBuildInfo(path.join(dir, f), runtime);
    } catch {
      // a partly written or foreign file: its contracts stay unrecognised
    }
  }
}

/** One Hardhat 3 build-info file (`<id>.json` with the input, `<id>.output.json` beside it) into the registry; throws when unreadable. */
function addBuildInfo(file: string, runtime: Runtime): void {
  const info = JSON.parse(readFileSync(file, "utf8")) as { input: SolcInput };
  const out = JSON.parse(readFileSync(file.replace(/\.json$/, ".output.json"), "utf8")) as { output: SolcOutput };
  runtime.deps.contracts.addCompilation(info.input, out.output);
}

/**
 * A chain error → the JSON-RPC error object, with Hardhat's wording of a failed execution; throws the
 * SolidityError of a failure whose stack trace has Solidity frames. As on EDR, running out of gas
 * has no stack trace.
 */
async function toJsonRpcError(err: unknown, runtime: Runtime): Promise<{ code: number; message: string; data?: unknown }> {
  if (rpcErrorsModule.isRpcError(err)) {
    const execution = err.hardhat?.execution;
    if (execution !== undefined) {
      const named = (data: Uint8Array): string | undefined => {
        const found = runtime.deps.contracts.customError(data);
        return found === undefined ? undefined : registryModule.formatCustomError(found.fragment, found.args);
      };
      const trace = execution.error === "out of gas" ? undefined : await execution.stackTrace();
      const { message, frames } = solidityErrorModule.solidityFailure(execution, trace, named, HARDHAT3_FRAMES);
      const data = `0x${Buffer.from(execution.returnValue).toString("hex")}`;
      if (frames.length > 0) throw new solidityErrorModule.SolidityError(message, data, execution.transactionHash, frames);
      return { code: err.code, message, data };
    }
    return { code: err.code, message: err.hardhat?.message ?? err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  }
  return { code: -32603, message: `internal error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
}

const ownRequire = createRequire(import.meta.url);

let version: string | undefined;
/** This package's version (its package.json is three folders above dist/src/hardhat3). */
function pluginVersion(): string {
  version ??= (JSON.parse(readFileSync(ownRequire.resolve("hardhat-epochs/package.json"), "utf8")) as { version: string }).version;
  return version;
}

/** The console.log decoder for the console.sol of the project's Hardhat (the file contracts import). */
function consoleLogDecoder(root: string): InstanceType<typeof consoleLogModule.ConsoleLogDecoder> | undefined {
  try {
    const file = createRequire(path.join(root, "package.json")).resolve("hardhat/console.sol");
    return consoleLogModule.ConsoleLogDecoder.fromSoliditySource(readFileSync(file, "utf8"));
  } catch {
    return undefined; // no console.sol to decode against: console.log calls stay silent
  }
}

/** A running node follows the build-info folder (src/host/build-info-watch.ts) in Hardhat 3's format. */
export function watchBuildInfos(artifacts: string, runtime: Runtime): { stop(): void } {
  return buildInfoWatchModule.watchBuildInfos(path.join(artifacts, "build-info"), runtime.node, (file) => addBuildInfo(file, runtime));
}
