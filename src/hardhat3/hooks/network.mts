/**
 * Network hooks: a connection to the in-process network (the `default` network the config hook
 * declares) is answered by an InProcessChain, never by HTTP; every connection gets `epochs`, the
 * epoch helpers over its provider (against a node too, e.g. `--network localhost`), and the project's
 * chai the hook matchers (src/hardhat3/shared/chai-matchers.mts).
 */
import epochsHelpersModule from "../../host/helpers/epochs-helpers.js";
import chainDefaultsModule from "../../host/settings/chain-defaults.js";
import type { InProcessChain } from "../shared/in-process-chain.mjs";
import { IN_PROCESS_URL } from "../shared/in-process-url.mjs";
import type { HookContext, JsonRpcRequest, JsonRpcResponse, NetworkConnection } from "../shared/hardhat3-api.mjs";
import { pluginError } from "../shared/plugin-error.mjs";
import { registerEpochsMatchers } from "../shared/chai-matchers.mjs";
import { tellFollowed } from "../shared/localhost-follow.mjs";

/** Each connection's chain, or null for a connection to another network. */
const chains = new WeakMap<NetworkConnection, InProcessChain | null>();

/** The resolved URL: a string, or Hardhat 3's resolved configuration variable. */
async function urlOf(conn: NetworkConnection): Promise<string | undefined> {
  const url = conn.networkConfig.url;
  if (typeof url === "string") return url;
  if (url !== null && typeof url === "object" && typeof (url as { get?: unknown }).get === "function") return (url as { get(): Promise<string> }).get();
  return undefined;
}

/** Whether `conn` is a connection to the in-process network (the plugin's `default`): its chain is ours, not a node's. */
export async function isInProcess(conn: NetworkConnection): Promise<boolean> {
  return conn.networkConfig.type === "http" && (await urlOf(conn)) === IN_PROCESS_URL;
}

/** The connection's chain, made on first use (a request may come before newConnection returns). */
async function chainOf(context: HookContext, conn: NetworkConnection): Promise<InProcessChain | undefined> {
  let chain = chains.get(conn);
  if (chain === undefined) {
    const ours = await isInProcess(conn);
    // the chain's code (EthereumJS, ethers' ABI coder: ~0.5 s of a cold start) loads for a connection
    // to the in-process network only, never for one to EDR or a node
    const Chain = ours ? (await import("../shared/in-process-chain.mjs")).InProcessChain : undefined;
    // another request may have made it while the URL was read
    chain = chains.get(conn) ?? (Chain !== undefined ? new Chain(context, conn.networkConfig.chainId ?? chainDefaultsModule.DEFAULT_CHAIN_ID, conn.provider) : null);
    chains.set(conn, chain);
  }
  return chain ?? undefined;
}

export default async () => ({
  async newConnection(context: HookContext, next: (ctx: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection> {
    const conn = await next(context);
    const chain = await chainOf(context, conn);
    // the tests that connect can assert what advances did (callEpochHook, failEpochHook)
    await registerEpochsMatchers();
    tellFollowed(conn);
    conn.epochs = new epochsHelpersModule.EpochsHelpers({
      request: (args) => conn.provider.request(args),
      inProcess: () => chain?.runtime(),
      fail: (message) => pluginError(message),
    });
    return conn;
  },

  async onRequest(
    context: HookContext,
    conn: NetworkConnection,
    request: JsonRpcRequest,
    next: (ctx: HookContext, conn: NetworkConnection, request: JsonRpcRequest) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse> {
    const chain = await chainOf(context, conn);
    return chain === undefined ? next(context, conn, request) : chain.answer(request);
  },

  async closeConnection(context: HookContext, conn: NetworkConnection, next: (ctx: HookContext, conn: NetworkConnection) => Promise<void>): Promise<void> {
    await chains.get(conn)?.close();
    chains.delete(conn);
    return next(context, conn);
  },
});
