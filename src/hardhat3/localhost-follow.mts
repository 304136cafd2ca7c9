/**
 * `--network localhost` on Hardhat 3 reaches this project's running node where it listens, as on
 * Hardhat 2 (src/hardhat/chain-config.ts): when the user gave `localhost` no URL of their own, the
 * config hook points it at the URL in the node's record in the cache (src/host/node/node-files.ts),
 * and the first connection to it says so once.
 */
import nodeFilesModule from "../host/node/node-files.js";
import type { HardhatConfig, HardhatUserConfig, NetworkConnection } from "./hardhat3-api.mjs";

/** Where localhost was pointed at (one config per process), and whether the note was printed. */
let followed: { url: string; cache: string } | undefined;
let told = false;
/** Whether the user's own config gave localhost a URL: read before Hardhat's handler fills in 8545. */
let userGaveUrl = false;

/** Notes, from the user's config as written (the first extendUserConfig handler sees it), whether localhost has a URL of theirs. */
export function noteUserLocalhost(userConfig: HardhatUserConfig): void {
  userGaveUrl = userConfig.networks?.localhost?.url !== undefined;
}

/** `resolved` with localhost at the project's node, when the user set no URL and a node of the project runs. */
export function followProjectNode(resolved: HardhatConfig, resolveVariable: unknown): HardhatConfig {
  const net = resolved.networks.localhost;
  if (userGaveUrl || net === undefined || net.type !== "http") return resolved;
  const url = nodeFilesModule.projectNodeUrl(resolved.paths.cache);
  if (url === undefined) return resolved;
  // Hardhat 3 keeps a network's URL resolved (a configuration variable); its resolver makes one of a string
  const value = typeof resolveVariable === "function" ? (resolveVariable as (v: string) => unknown)(url) : url;
  followed = { url, cache: resolved.paths.cache };
  return { ...resolved, networks: { ...resolved.networks, localhost: { ...net, url: value } } };
}

/** Says once where a connection to `localhost` went, when the config hook pointed it at the project's node. */
export function tellFollowed(conn: NetworkConnection): void {
  if (told || followed === undefined || conn.networkName !== "localhost") return;
  told = true;
  console.warn(nodeFilesModule.followedNodeNote(followed.url, followed.cache));
}
