/**
 * Forking as Hardhat users configure it: `networks.hardhat.forking` ({ url, blockNumber,
 * httpHeaders, enabled }) and `npx hardhat node --fork URL [--fork-block-number N] [--fork-rest URL]`.
 * The remote's reads are cached under the project's cache folder (`hardhat-epochs-fork/`); the flags
 * are checked by src/host/fork-settings.ts, as on Hardhat 3.
 */
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ForkConfig } from "../chain/fork";
import type { EpochsOptions } from "../epochs";
import type { RuntimeOptions } from "../app/runtime";
import { withPluginErrors } from "./plugin-error";
import { restEpochs } from "./epochs-rest";
import { forkCacheDir as cacheDirIn, forkFromFlags as parseForkFlags, forkFromSetting } from "../host/fork-settings";

export function forkCacheDir(hre: HardhatRuntimeEnvironment): string {
  return cacheDirIn(hre.config.paths.cache);
}

/** The fork of `networks.hardhat.forking`, if it is set and enabled. */
export function forkFromConfig(hre: HardhatRuntimeEnvironment): ForkConfig | undefined {
  return withPluginErrors(() => forkFromSetting(hre.config.networks[HARDHAT_NETWORK_NAME].forking, forkCacheDir(hre), "networks.hardhat.forking"));
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
  return withPluginErrors(() => parseForkFlags(fork, blockNumber, forkCacheDir(hre)));
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
