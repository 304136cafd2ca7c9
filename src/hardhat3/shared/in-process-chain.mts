/**
 * The epochs chain behind a Hardhat 3 connection to the in-process network: one runtime per
 * connection (as `network.create()` gives a fresh EDR chain), built on its first request
 * (src/host/in-process.ts). Requests never leave the process: the network hook answers them here
 * (hooks/network.mts), with Hardhat 3's errors.
 */
import type { Runtime, RuntimeOptions } from "../../app/runtime.js";
import rpcErrorsModule from "../../rpc/errors.js";
import epochsConfigModule from "../../host/settings/epochs-config.js";
import compilationsModule from "../../host/solidity/compilations.js";
import consoleLogSourceModule from "../../host/solidity/console-log-source.js";
import inProcessModule from "../../host/in-process.js";
import genesisFileModule from "../../host/settings/genesis-file.js";
import pluginVersionModule from "../../host/plugin-version.js";
import networkSettingsModule from "../../host/settings/network-settings.js";
import forkSettingsModule from "../../host/settings/fork-settings.js";
import chainDefaultsModule from "../../host/settings/chain-defaults.js";
import solidityErrorModule from "../../host/solidity/solidity-error.js";
import hookFailuresModule from "../../host/solidity/hook-failures.js";
import registryModule from "../../solidity/registry.js";
import gasMeasurementsModule from "../../host/solidity/gas-measurements.js";
import type { GasMeasurement } from "../../host/solidity/gas-measurements.js";
import type { EthereumProvider, HookContext, JsonRpcRequest, JsonRpcResponse } from "./hardhat3-api.mjs";

/** Hardhat 3 compiles the project's files as `project/contracts/X.sol`; its frames say `contracts/X.sol`. */
export const HARDHAT3_FRAMES = { localSourcePrefix: "project/" };

export class InProcessChain {
  private readonly _chain: InstanceType<typeof inProcessModule.InProcessChain>;
  /**
   * With `--coverage` (Hardhat registers `onCoverageData` handlers): the statement tags the chain's
   * executions hit since the last report, each once (src/chain/engine/coverage.ts). Reported after every
   * request, as EDR reports them after each execution; nothing is collected without the option.
   */
  private _hits: Set<string> | undefined;
  /**
   * With `--gas-stats` or `--gas-stats-json` (Hardhat registers `onGasMeasurement` handlers): one
   * measurement per successful transaction, eth_call and epoch hook since the last report
   * (src/host/solidity/gas-measurements.ts), reported as the hits are.
   */
  private _measured: GasMeasurement[] | undefined;

  constructor(
    private readonly _context: HookContext,
    chainId: number,
    provider: EthereumProvider,
  ) {
    this._chain = new inProcessModule.InProcessChain(
      async () => {
        // the genesis file the config names, as `hardhat node --home` starts from its genesis.json
        const options = genesisFileModule.withGenesisFile(runtimeOptionsFor(_context, chainId), _context.config.epochs.genesisFile, _context.config.paths.root);
        const runtime = await inProcessModule.buildInProcessRuntime(options, compilationsModule.hardhat3BuildInfos(_context.config.paths.artifacts));
        if ((await _context.hooks?.hasHandlers("network", "onCoverageData")) === true) {
          const hits = (this._hits = new Set());
          runtime.node.on("coverageHit", (tag: Uint8Array) => hits.add(Buffer.from(tag).toString("hex")));
        }
        if ((await _context.hooks?.hasHandlers("network", "onGasMeasurement")) === true) {
          const measured: GasMeasurement[] = (this._measured = []);
          runtime.node.on("executed", (e) => {
            // told by block production once the block is written: a measurement that fails is left out, not thrown into mining
            try {
              const m = gasMeasurementsModule.gasMeasurementOf(e, runtime.deps.contracts);
              if (m !== undefined) measured.push(m);
            } catch {
              return;
            }
          });
        }
        return runtime;
      },
      (message) => provider.emit("message", { type: "eth_subscription", data: message.params }),
    );
  }

  runtime(): Promise<Runtime> {
    return this._chain.runtime();
  }

  /**
   * One JSON-RPC request answered by the chain. Errors become JSON-RPC errors (Hardhat 3 throws them
   * as its ProviderError), except a failed execution whose Solidity stack trace reaches the project's
   * code: that one is thrown as the SolidityError Hardhat 3's EDR network throws, frames and all.
   */
  async answer(req: JsonRpcRequest): Promise<JsonRpcResponse> {
    const runtime = await this._chain.runtime();
    try {
      return { jsonrpc: "2.0", id: req.id, result: await this._chain.call(req.method, req.params) };
    } catch (err) {
      return { jsonrpc: "2.0", id: req.id, error: await toJsonRpcError(err, runtime) };
    } finally {
      await this._report();
    }
  }

  /** Hands what was collected since the last report to Hardhat: coverage tags (`onCoverageData`), gas measurements (`onGasMeasurement`). */
  private async _report(): Promise<void> {
    const hooks = this._context.hooks;
    const hits = this._hits;
    if (hits !== undefined && hits.size > 0) {
      const tags = [...hits];
      hits.clear();
      await hooks?.runParallelHandlers("network", "onCoverageData", [tags]);
    }
    const measured = this._measured;
    if (measured !== undefined && measured.length > 0) {
      for (const m of measured.splice(0)) await hooks?.runParallelHandlers("network", "onGasMeasurement", [m]);
    }
  }

  async close(): Promise<void> {
    // blocks mined between requests (interval mining) ran hooks too
    await this._report();
    return this._chain.close();
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
    clientVersion: pluginVersionModule.clientVersion(context.versions.hardhat),
    epochs: epochsConfigModule.epochsOptionsFromConfig(config.epochs),
    cosmos: epochsConfigModule.cosmosOptionsFromConfig(config.epochs),
    consoleLog: consoleLogSourceModule.consoleLogDecoder(config.paths.root),
    explainHookFailure: (contracts) => hookFailuresModule.hookFailureExplainer(contracts, HARDHAT3_FRAMES),
  };
}

/** The config's HD account settings (`epochs.network.accounts`), for `node --accounts/--mnemonic`. */
export function hdAccountsOf(context: HookContext): ReturnType<typeof networkSettingsModule.hdAccountsOf> {
  return networkSettingsModule.hdAccountsOf(networkSettingsModule.parseNetworkSettings(context.config.epochs.network));
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
