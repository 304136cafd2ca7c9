/**
 * Forking as Hardhat users configure it: `networks.hardhat.forking` ({ url, blockNumber,
 * httpHeaders, enabled }) and `npx hardhat node --fork URL [--fork-block-number N] [--fork-rest URL]`.
 * The remote's reads are cached under the project's cache folder (`hardhat-epochs-fork/`); the flags
 * are checked by src/host/settings/fork-settings.ts, as on Hardhat 3; `--fork-rest` is read by the node service
 * (src/host/node/node-service.ts).
 */
import { HARDHAT_NETWORK_NAME } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ForkConfig } from "../chain/setup";
import type { RuntimeOptions } from "../app/runtime";
import { withPluginErrors } from "./plugin-error";
import { forkCacheDir as cacheDirIn, forkFromFlags as parseForkFlags, forkFromSetting } from "../host/settings/fork-settings";

function forkCacheDir(hre: HardhatRuntimeEnvironment): string {
  return cacheDirIn(hre.config.paths.cache);
}

/** The fork of `networks.hardhat.forking`, if it is set and enabled. */
function forkFromConfig(hre: HardhatRuntimeEnvironment): ForkConfig | undefined {
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
