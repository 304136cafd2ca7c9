/**
 * The EIP-1193 provider Hardhat sees as `hre.network.provider` on the `hardhat` network: requests go
 * straight to the runtime's dispatcher, in-process and trusted. The chain is built on the first
 * request, so tasks that never touch the network never build one.
 */
import { EventEmitter } from "node:events";
import type { EthereumProvider, JsonRpcRequest, JsonRpcResponse, RequestArguments } from "hardhat/types";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import { version as HARDHAT_VERSION } from "hardhat/package.json";
import type { Runtime, RuntimeOptions } from "../app/runtime";
import { InProcessChain, buildInProcessRuntime } from "../host/in-process";
import { withGenesisFile } from "../host/settings/genesis-file";
import { clientVersion as hostClientVersion } from "../host/plugin-version";
import { consoleLogDecoder } from "../host/solidity/console-log-source";
import { hardhat2BuildInfos } from "../host/solidity/compilations";
import { toChainConfig } from "./chain-config";
import { EpochsProviderError, providerError, toHardhatError } from "./errors";

export { EpochsProviderError };

export class EpochsProvider extends EventEmitter implements EthereumProvider {
  private readonly _chain: InProcessChain;

  /**
   * Hardhat 2's shape for plugins that read the EVM's steps: solidity-coverage walks a provider's
   * `_wrapped` chain down to `_node._vm.evm.events` and listens to `step` there. The chain relays its
   * users' executions' steps into this emitter while someone listens (src/chain/engine/step-relay.ts);
   * src/hardhat/coverage.ts makes this the provider solidity-coverage uses. An own property, since the
   * walk copies each level's own properties.
   */
  readonly _node = { _vm: { evm: { events: new EventEmitter() } } };

  constructor(factory: () => Promise<Runtime>) {
    super();
    this._chain = new InProcessChain(factory, (message) => {
      this.emit("message", { type: "eth_subscription", data: message.params });
      // Hardhat 2's providers also emit the pre-EIP-1193 "notification" event; some libraries listen to it.
      this.emit("notification", message.params);
    });
    // Bound, because test code passes `provider.send` around unbound (as Hardhat's adapter allows).
    this.request = this.request.bind(this);
    this.send = this.send.bind(this);
    this.sendAsync = this.sendAsync.bind(this);
  }

  /** True once the chain has been built (or is being built). */
  get started(): boolean {
    return this._chain.started;
  }

  /** Replaces how the chain is built (the node task builds it with the command line's settings); only before the first request. */
  useRuntimeFactory(factory: () => Promise<Runtime>): void {
    this._chain.useRuntimeFactory(factory);
  }

  /** The runtime behind this provider, built on first use. */
  runtime(): Promise<Runtime> {
    return this._chain.runtime();
  }

  async request(args: RequestArguments): Promise<unknown> {
    if (args === null || typeof args !== "object" || typeof args.method !== "string") {
      throw providerError("invalid request: expected { method, params }", -32600);
    }
    await this._chain.runtime(); // a chain that cannot start fails as it is, not as a JSON-RPC error
    try {
      return await this._chain.call(args.method, args.params);
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
  close(): Promise<void> {
    return this._chain.close();
  }
}

/** `HardhatNetwork/<hardhat>/hardhat-epochs/<ours>`: the network helpers only accept a HardhatNetwork client. */
function clientVersion(): string {
  return hostClientVersion(HARDHAT_VERSION);
}

/** Adds to the options every runtime of this project is built with (e.g. the epochs module). */
type RuntimeOptionsExtender = (opts: RuntimeOptions, hre: HardhatRuntimeEnvironment) => RuntimeOptions | Promise<RuntimeOptions>;

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

/** The provider for `hre.network.provider` on the hardhat network; contracts' console.log lines print as in Hardhat's tests. */
export function createEpochsProvider(hre: HardhatRuntimeEnvironment): EpochsProvider {
  const provider: EpochsProvider = new EpochsProvider(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred with the chain
    const { hookFailureExplainer } = require("../host/solidity/hook-failures") as typeof import("../host/solidity/hook-failures");
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred with the chain
    const { solidityCoverageStepOpcodes } = require("./coverage") as typeof import("./coverage");
    const opts = await runtimeOptionsFor(hre, {
      consoleLog: consoleLogDecoder(),
      explainHookFailure: (contracts) => hookFailureExplainer(contracts),
      stepEvents: provider._node._vm.evm.events,
      stepOpcodes: solidityCoverageStepOpcodes(hre),
    });
    // the genesis file the config names, as `hardhat node --home` starts from its genesis.json
    return buildInProcessRuntime(withGenesisFile(opts, hre.config.epochs.genesisFile, hre.config.paths.root), hardhat2BuildInfos(hre.config.paths.artifacts));
  });
  return provider;
}
