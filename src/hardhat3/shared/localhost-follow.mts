/**
 * `--network localhost` on Hardhat 3 reaches this project's running node where it listens, as on
 * Hardhat 2 (src/hardhat/chain-config.ts): when the user gave `localhost` no URL of their own, the
 * config hook points it at the URL in the node's record in the cache (src/host/node/node-files.ts),
 * and the first connection to it says so once. Requests to that node carry its bearer token, with
 * or without `--home`, as on Hardhat 2 (`withProjectNodeToken`).
 */
import nodeFilesModule from "../../host/node/node-files.js";
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

/** Hardhat 3's own `localhost` network's URL, when the user gave it none and no node of the project moved it. */
const HARDHAT3_LOCALHOST = "http://localhost:8545";

/**
 * `resolved` with the bearer token of this project's running node on every http network that reaches
 * it (a loopback URL on one of its ports: src/host/node/node-files.ts, projectNodeToken), unless the
 * user set Authorization. The URLs are read as the user wrote them (Hardhat 3 keeps resolved ones as
 * configuration variables); a configuration variable of the user's is left alone.
 */
export function withProjectNodeToken(resolved: HardhatConfig, userConfig: HardhatUserConfig): HardhatConfig {
  const node = nodeFilesModule.runningNode(resolved.paths.cache);
  if (node === undefined) return resolved;
  const networks = { ...resolved.networks };
  for (const [name, net] of Object.entries(resolved.networks)) {
    if (net.type !== "http") continue;
    // localhost without a URL of the user's (Hardhat's own handler has filled in 8545 by now): where it was pointed
    const written = name === "localhost" && !userGaveUrl ? (followed?.url ?? HARDHAT3_LOCALHOST) : userConfig.networks?.[name]?.url;
    const url = typeof written === "string" ? written : undefined;
    const token = url === undefined ? undefined : nodeFilesModule.projectNodeToken(resolved.paths.cache, url, node);
    const headers = net.httpHeaders ?? {};
    if (token === undefined || Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) continue;
    networks[name] = { ...net, httpHeaders: { ...headers, Authorization: `Bearer ${token}` } };
  }
  return { ...resolved, networks };
}
