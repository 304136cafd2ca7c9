/**
 * Forking as Hardhat users ask for it, checked the same way on both hosts: the node's `--fork URL
 * [--fork-block-number N]` and a network's `forking: { url, blockNumber, httpHeaders, enabled }`.
 * The remote's reads are cached under the project's cache folder (FORK_CACHE_FOLDER). No Hardhat import.
 */
import { UserError } from "../../utils/user-error";
import path from "node:path";
import type { ForkConfig } from "../../chain/setup";
import { wholeNumber } from "../../utils/values";

const FORK_CACHE_FOLDER = "hardhat-epochs-fork";

/** A fork setting that cannot be used; each host words it as its own error. */
export class ForkSettingsError extends UserError {}

export function forkCacheDir(cacheFolder: string): string {
  return path.join(cacheFolder, FORK_CACHE_FOLDER);
}

function remoteUrl(url: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ForkSettingsError(`invalid ${what} "${url}": expected the remote's JSON-RPC URL (http:// or https://)`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ForkSettingsError(`invalid ${what} "${url}": expected an http:// or https:// JSON-RPC URL`);
  return url;
}

/** `--fork URL [--fork-block-number N]` → the fork; neither → undefined (the config decides). */
export function forkFromFlags(fork: string | undefined, blockNumber: number | bigint | undefined, cacheDir: string): ForkConfig | undefined {
  if (fork === undefined) {
    if (blockNumber !== undefined) throw new ForkSettingsError("--fork-block-number needs --fork URL");
    return undefined;
  }
  if (blockNumber !== undefined && wholeNumber(blockNumber) === undefined) {
    throw new ForkSettingsError(`invalid --fork-block-number ${blockNumber}: expected a non-negative integer`);
  }
  return { url: remoteUrl(fork, "--fork"), blockNumber: blockNumber !== undefined ? BigInt(blockNumber) : undefined, cacheDir };
}

/** A network's `forking` section as Hardhat users write it. */
export interface ForkingUserConfig {
  url?: string;
  blockNumber?: number | bigint;
  httpHeaders?: Record<string, string>;
  enabled?: boolean;
}

/** A `forking` section → the fork, or undefined when it is absent, disabled or has no URL. `where` names it in errors. */
export function forkFromSetting(forking: ForkingUserConfig | undefined, cacheDir: string, where: string): ForkConfig | undefined {
  if (forking === undefined || forking.enabled === false || forking.url === undefined || forking.url === "") return undefined;
  if (typeof forking.url !== "string") throw new ForkSettingsError(`invalid ${where}.url: expected the remote's JSON-RPC URL`);
  const n = forking.blockNumber;
  // a number or a bigint: a string is refused, as the config's type says
  if (n !== undefined && ((typeof n !== "number" && typeof n !== "bigint") || wholeNumber(n) === undefined)) {
    throw new ForkSettingsError(`invalid ${where}.blockNumber ${String(n)}: expected a non-negative integer`);
  }
  const headers = forking.httpHeaders;
  if (headers !== undefined && (headers === null || typeof headers !== "object" || Object.values(headers).some((v) => typeof v !== "string"))) {
    throw new ForkSettingsError(`invalid ${where}.httpHeaders: expected an object of strings`);
  }
  return { url: remoteUrl(forking.url, `${where}.url`), blockNumber: n !== undefined ? BigInt(n) : undefined, httpHeaders: headers, cacheDir };
}
