/**
 * Forking as Hardhat users configure it: `networks.hardhat.forking` ({ url, blockNumber,
 * httpHeaders, enabled }) and `npx hardhat node --fork URL [--fork-block-number N] [--fork-rest URL]`.
 * The remote's reads are cached under the project's cache folder (`hardhat-epochs-fork/`).
 */
import path from "node:path";
import { HardhatPluginError, HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ForkConfig } from "../chain/fork";
import type { EpochsOptions } from "../epochs";
import type { RuntimeOptions } from "../rpc/runtime";
import { PLUGIN_NAME } from "./chain-config";
import { restEpochs } from "./epochs-rest";

export const FORK_CACHE_FOLDER = "hardhat-epochs-fork";

export function forkCacheDir(hre: HardhatRuntimeEnvironment): string {
  return path.join(hre.config.paths.cache, FORK_CACHE_FOLDER);
}

/** The fork of `networks.hardhat.forking`, if it is set and enabled. */
export function forkFromConfig(hre: HardhatRuntimeEnvironment): ForkConfig | undefined {
  const f = hre.config.networks[HARDHAT_NETWORK_NAME].forking;
  if (f === undefined || f.enabled === false || f.url === undefined || f.url === "") return undefined;
  return { url: f.url, blockNumber: f.blockNumber !== undefined ? BigInt(f.blockNumber) : undefined, httpHeaders: f.httpHeaders, cacheDir: forkCacheDir(hre) };
}

/**
 * Runtime-options extender: the configured fork (unless the command line chose one) and the cache
 * folder hardhat_reset's forks use.
 */
export function withFork(opts: RuntimeOptions, hre: HardhatRuntimeEnvironment): RuntimeOptions {
  const out: RuntimeOptions = { ...opts, forkCacheDir: opts.forkCacheDir ?? forkCacheDir(hre) };
  if (opts.fork !== undefined) return out;
  const fork = forkFromConfig(hre);
  return fork === undefined ? out : { ...out, fork };
}

/** `--fork URL [--fork-block-number N]` → the fork; neither → undefined (the config decides). */
export function forkFromFlags(hre: HardhatRuntimeEnvironment, fork: string | undefined, blockNumber: number | undefined): ForkConfig | undefined {
  if (fork === undefined) {
    if (blockNumber !== undefined) throw new HardhatPluginError(PLUGIN_NAME, "--fork-block-number needs --fork URL");
    return undefined;
  }
  if (blockNumber !== undefined && (!Number.isSafeInteger(blockNumber) || blockNumber < 0)) {
    throw new HardhatPluginError(PLUGIN_NAME, `invalid --fork-block-number ${blockNumber}: expected a non-negative integer`);
  }
  let url: URL;
  try {
    url = new URL(fork);
  } catch {
    throw new HardhatPluginError(PLUGIN_NAME, `invalid --fork "${fork}": expected the remote's JSON-RPC URL (http:// or https://)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HardhatPluginError(PLUGIN_NAME, `invalid --fork "${fork}": expected an http:// or https:// JSON-RPC URL`);
  }
  return { url: fork, blockNumber: blockNumber !== undefined ? BigInt(blockNumber) : undefined, cacheDir: forkCacheDir(hre) };
}

/**
 * The epochs genesis of a forked chain from the remote's REST endpoint (`--fork-rest`): its EpochInfos
 * as they are at the fork block (the gateway's height header; the latest when the block is not pinned),
 * with the module's tick rule and hook gas from the local config.
 */
export async function forkEpochsOptions(rest: string, height: bigint | undefined, base: EpochsOptions): Promise<EpochsOptions> {
  const epochs = await restEpochs(rest, height);
  return { ...base, genesis: { epochs } };
}
