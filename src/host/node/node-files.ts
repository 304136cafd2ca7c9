/**
 * The files a running node leaves for the tools of its project: the bearer token of the private
 * namespaces (in its home, or in the project's cache without one) and a record of the node (pid,
 * ports, its home) in the cache, so both hosts add the token only to requests for that node
 * (`projectNodeToken`: src/hardhat/chain-config.ts, src/hardhat3/shared/localhost-follow.mts). Names in one place; no heavy import.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isLoopbackHost } from "../../rpc/loopback";

export const TOKEN_FILE_NAME = "jsonrpc.token";
export const NODE_RECORD_FILE_NAME = "jsonrpc.node.json";

export interface LocalNodeRecord {
  pid: number;
  ports: number[];
  /** The node's home when it runs with `--home` (its token lives there, not in the cache). */
  home?: string;
}

/**
 * The URL a node of this project serves JSON-RPC at (its first port), where `--network localhost`
 * goes when the user gave `localhost` no URL of their own (both hosts: src/hardhat/chain-config.ts,
 * src/hardhat3/shared/localhost-follow.mts). A node moved with `--port 18545` leaves its record in the cache,
 * and `localhost` goes there instead of 8545 (which may be another process).
 */
export function nodeUrl(node: LocalNodeRecord): string {
  return `http://127.0.0.1:${node.ports[0]}`;
}

/**
 * `nodeUrl` of the project's running node, if one runs.
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function projectNodeUrl(cacheDir: string): string | undefined {
  const node = runningNode(cacheDir);
  return node === undefined ? undefined : nodeUrl(node);
}

/** What a command that followed the project's node says once: where it went, and how to choose. */
export function followedNodeNote(url: string, cacheDir: string): string {
  return `localhost: this project's node, at ${url} (its record in ${cacheDir}; set networks.localhost.url to choose)`;
}

/** Whether process `pid` lives (a liveness check: signal 0 sends nothing). */
function processLives(pid: unknown): boolean {
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}

/** The node this project runs (its record in `cacheDir`, its process alive), or undefined. */
export function runningNode(cacheDir: string): LocalNodeRecord | undefined {
  let record: LocalNodeRecord;
  try {
    record = JSON.parse(readFileSync(path.join(cacheDir, NODE_RECORD_FILE_NAME), "utf8")) as LocalNodeRecord;
  } catch {
    return undefined;
  }
  return Array.isArray(record.ports) && record.ports.length > 0 && processLives(record.pid) ? record : undefined;
}

/**
 * The warning for a task that changes the in-process chain of its own command while this project's
 * node runs: `--network localhost` was most likely meant. Undefined when no node of the project runs.
 */
export function inProcessWhileNodeRuns(cacheDir: string, task: string): string | undefined {
  const node = runningNode(cacheDir);
  if (node === undefined) return undefined;
  return `warning: ${task} moves this command's own in-process chain, which ends with it, not the node this project runs (pid ${node.pid}, ${nodeUrl(node)}/); to move the node's, add --network localhost`;
}

/** The token file of a node: `<home>/jsonrpc.token`, else `<cache>/jsonrpc.token`. */
export function tokenFilePath(where: { home?: string; cacheDir: string }): string {
  return where.home !== undefined ? path.resolve(where.home, TOKEN_FILE_NAME) : path.join(where.cacheDir, TOKEN_FILE_NAME);
}

/**
 * The bearer token for requests to `url`, when this project's running node serves it: a loopback URL
 * on one of the node's ports while its process lives; read from the node's home when it has one,
 * else from the cache. Any other URL (another project's node, an SSH tunnel to someone else's) gets none.
 */
export function projectNodeToken(cacheDir: string, url: string, node: LocalNodeRecord | undefined = runningNode(cacheDir)): string | undefined {
  if (node === undefined || !servedBy(url, node.ports)) return undefined;
  try {
    const token = readFileSync(tokenFilePath({ home: node.home, cacheDir }), "utf8").trim();
    return token === "" ? undefined : token;
  } catch {
    return undefined;
  }
}

/** A loopback URL on one of `ports` (http's default port is 80, https's 443). */
function servedBy(url: string, ports: number[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const port = u.port !== "" ? Number(u.port) : u.protocol === "https:" ? 443 : 80;
  return isLoopbackHost(u.hostname) && ports.includes(port);
}
