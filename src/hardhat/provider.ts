/**
 * The EIP-1193 provider Hardhat sees as `hre.network.provider` on the `hardhat` network: requests go
 * straight to the runtime's dispatcher, in-process and trusted. The chain is built on the first
 * request, so tasks that never touch the network never build one.
 */
import { EventEmitter } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { EthereumProvider, JsonRpcRequest, JsonRpcResponse, RequestArguments } from "hardhat/types";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import { version as HARDHAT_VERSION } from "hardhat/package.json";
import type { ConsoleLogDecoder } from "../chain/console-log";
import type { Runtime, RuntimeOptions } from "../app/runtime";
import type { SolcInput, SolcOutput } from "../chain/solidity/registry";
import { toChainConfig } from "./chain-config";
import { EpochsProviderError, providerError, toHardhatError, toProviderError } from "./errors";
import type { Connection, JsonRpcNotification, RequestContext } from "../rpc/types";

/** The in-process connection: subscription notifications become EIP-1193 "message" events. */
class ProviderConnection implements Connection {
  private static _next = 1_000_000_000;
  readonly id = ProviderConnection._next++;
  private readonly _closeListeners: Array<() => void> = [];

  constructor(private readonly _emitter: EventEmitter) {}

  notify(message: JsonRpcNotification): void {
    this._emitter.emit("message", { type: "eth_subscription", data: message.params });
    // Hardhat 2's providers also emit the pre-EIP-1193 "notification" event; some libraries listen to it.
    this._emitter.emit("notification", message.params);
  }

  onClose(listener: () => void): void {
    this._closeListeners.push(listener);
  }

  close(): void {
    for (const l of this._closeListeners.splice(0)) l();
  }
}

export { EpochsProviderError, toProviderError };

export class EpochsProvider extends EventEmitter implements EthereumProvider {
  private _runtime: Promise<Runtime> | undefined;
  private readonly _connection = new ProviderConnection(this);
  private readonly _ctx: RequestContext = { transport: "in-process", authenticated: true, connection: this._connection };

  constructor(private _factory: () => Promise<Runtime>) {
    super();
    // Bound, because test code passes `provider.send` around unbound (as Hardhat's adapter allows).
    this.request = this.request.bind(this);
    this.send = this.send.bind(this);
    this.sendAsync = this.sendAsync.bind(this);
  }

  /** True once the chain has been built (or is being built). */
  get started(): boolean {
    return this._runtime !== undefined;
  }

  /**
   * Replaces how the chain is built (the node task builds it with the command line's settings).
   * Only before the first request: a started chain is never swapped under its users.
   */
  useRuntimeFactory(factory: () => Promise<Runtime>): void {
    if (this._runtime !== undefined) throw new Error("the in-process chain has already started");
    this._factory = factory;
  }

  /** The runtime behind this provider, built on first use. */
  runtime(): Promise<Runtime> {
    if (this._runtime === undefined) {
      this._runtime = this._factory();
      // A failed start is not cached, so the next request reports the problem again.
      this._runtime.catch(() => {
        this._runtime = undefined;
      });
    }
    return this._runtime;
  }

  async request(args: RequestArguments): Promise<unknown> {
    if (args === null || typeof args !== "object" || typeof args.method !== "string") {
      throw providerError("invalid request: expected { method, params }", -32600);
    }
    const runtime = await this.runtime();
    try {
      return await runtime.dispatcher.call(args.method, args.params ?? [], this._ctx);
    } catch (err) {
      throw await toHardhatError(err);
    }
  }

  /** Hardhat's legacy `send(method, params)`, which hardhat-ethers uses for every call. */
  send(method: string, params?: unknown[]): Promise<unknown> {
    return this.request({ method, params });
  }

  /**
   * The legacy callback form; errors with a JSON-RPC code come back inside the response, others (a
   * failed execution's SolidityError) as the callback's error, as Hardhat's adapter does.
   */
  sendAsync(payload: JsonRpcRequest, callback: (error: unknown, response: JsonRpcResponse) => void): void {
    const base = { jsonrpc: "2.0", id: payload.id };
    this.request({ method: payload.method, params: payload.params }).then(
      (result) => callback(null, { ...base, result }),
      (err: unknown) => {
        const e = err as { code?: number; message: string; data?: unknown };
        if (typeof e.code !== "number") callback(err, undefined as unknown as JsonRpcResponse);
        else callback(null, { ...base, error: { code: e.code, message: e.message, data: e.data } });
      },
    );
  }

  /** Ends subscriptions and closes the chain (its storage and timers). */
  async close(): Promise<void> {
    this._connection.close();
    const runtime = this._runtime;
    this._runtime = undefined;
    if (runtime !== undefined) await (await runtime).close();
  }
}

/** `HardhatNetwork/<hardhat>/hardhat-epochs/<ours>`: the network helpers only accept a HardhatNetwork client. */
export function clientVersion(): string {
  return `HardhatNetwork/${HARDHAT_VERSION}/hardhat-epochs/${pluginVersion()}`;
}

let version: string | undefined;

/** This package's version, from its package.json (two folders up from source, three from dist/). */
export function pluginVersion(): string {
  if (version !== undefined) return version;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "hardhat-epochs" && pkg.version !== undefined) return (version = pkg.version);
    }
    if (path.dirname(dir) === dir) return (version = "0.0.0");
  }
}

/** Adds to the options every runtime of this project is built with (e.g. the epochs module). */
export type RuntimeOptionsExtender = (opts: RuntimeOptions, hre: HardhatRuntimeEnvironment) => RuntimeOptions | Promise<RuntimeOptions>;

const runtimeExtenders: RuntimeOptionsExtender[] = [];

/** Registers an extender; modules call this when the plugin loads them. */
export function extendRuntimeOptions(extender: RuntimeOptionsExtender): void {
  runtimeExtenders.push(extender);
}

/**
 * The options of the chain behind the hardhat network: `networks.hardhat` mapped onto the chain,
 * then `overrides` (the node task's command line), then every registered extender.
 */
export async function runtimeOptionsFor(hre: HardhatRuntimeEnvironment, overrides: Partial<RuntimeOptions> = {}): Promise<RuntimeOptions> {
  const net = hre.config.networks[HARDHAT_NETWORK_NAME];
  let opts: RuntimeOptions = {
    chain: toChainConfig(net, hre.userConfig.networks?.[HARDHAT_NETWORK_NAME]),
    clientVersion: clientVersion(),
    ...overrides,
  };
  for (const extend of runtimeExtenders) opts = await extend(opts, hre);
  return opts;
}

/** Builds a runtime; the chain code is imported here, on first use, so plain tasks stay fast. */
export async function buildRuntime(opts: RuntimeOptions): Promise<Runtime> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred CommonJS load (import() would be native ESM here)
  const { createRuntime } = require("../app/runtime") as typeof import("../app/runtime");
  const runtime = await createRuntime(opts);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred with the chain
  const { hookFailureExplainer } = require("../host/hook-failures") as typeof import("../host/hook-failures");
  // failing epoch hooks in Hardhat's words, with the same registry that explains failed transactions
  runtime.node.explainSystemCall = hookFailureExplainer(runtime.deps.contracts);
  return runtime;
}

/**
 * The console.log decoder for the console.sol of the installed Hardhat (the file users import), built
 * once, on first use.
 */
let consoleDecoder: ConsoleLogDecoder | undefined;
export function hardhatConsoleLog(): ConsoleLogDecoder {
  if (consoleDecoder === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: only a running chain needs it
    const { ConsoleLogDecoder: Decoder } = require("../chain/console-log") as typeof import("../chain/console-log");
    consoleDecoder = Decoder.fromSoliditySource(readFileSync(require.resolve("hardhat/console.sol"), "utf8"));
  }
  return consoleDecoder;
}

/**
 * Feeds the project's compilations (Hardhat's build-info files) to the runtime's contract registry,
 * so failures get Solidity stack traces. A build-info that cannot be read is skipped.
 */
export async function loadBuildInfos(hre: HardhatRuntimeEnvironment, runtime: Runtime): Promise<void> {
  let paths: string[];
  try {
    paths = await hre.artifacts.getBuildInfoPaths();
  } catch {
    return;
  }
  for (const file of paths) {
    try {
      addBuildInfo(JSON.parse(await readFile(file, "utf8")), runtime);
    } catch {
      // a partly written or foreign file: its contracts stay unrecognised
    }
  }
}

/** One Hardhat 2 build-info (input and output in one file) into the chain's contract registry. */
export function addBuildInfo(info: { input: SolcInput; output: SolcOutput }, runtime: Runtime): void {
  runtime.deps.contracts.addCompilation(info.input, info.output);
}

/** The provider for `hre.network.provider` on the hardhat network; contracts' console.log lines print as in Hardhat's tests. */
export function createEpochsProvider(hre: HardhatRuntimeEnvironment): EpochsProvider {
  return new EpochsProvider(async () => {
    const runtime = await buildRuntime({ ...(await runtimeOptionsFor(hre)), consoleLog: hardhatConsoleLog() });
    runtime.node.on("consoleLog", (line) => console.log(line));
    await loadBuildInfos(hre, runtime);
    return runtime;
  });
}
