/**
 * The files a running node leaves for the tools of its project: the bearer token of the private
 * namespaces (in its home, or in the project's cache without one) and, without a home, a record of
 * the node (pid, ports) in the cache, so the plugin adds the token only to requests for that node
 * (src/hardhat/chain-config.ts). Names in one place; no heavy import.
 */
import path from "node:path";

export const TOKEN_FILE_NAME = "jsonrpc.token";
export const NODE_RECORD_FILE_NAME = "jsonrpc.node.json";

export interface LocalNodeRecord {
  pid: number;
  ports: number[];
}

/** The token file of a node: `<home>/jsonrpc.token`, else `<cache>/jsonrpc.token`. */
export function tokenFilePath(where: { home?: string; cacheDir: string }): string {
  return where.home !== undefined ? path.resolve(where.home, TOKEN_FILE_NAME) : path.join(where.cacheDir, TOKEN_FILE_NAME);
}
