/**
 * Network hooks: a connection to the in-process network (the `default` network the config hook
 * declares) is answered by an InProcessChain, never by HTTP; every connection gets `epochs`, the
 * epoch helpers over its provider (against a node too, e.g. `--network localhost`).
 */
import epochsHelpersModule from "../../host/epochs-helpers.js";
import chainDefaultsModule from "../../host/chain-defaults.js";
import { InProcessChain } from "../in-process-chain.mjs";
import { IN_PROCESS_URL } from "../in-process-url.mjs";
import type { HookContext, JsonRpcRequest, JsonRpcResponse, NetworkConnection } from "../hardhat3-api.mjs";
import { pluginError } from "../plugin-error.mjs";

/** Each connection's chain, or null for a connection to another network. */
const chains = new WeakMap<NetworkConnection, InProcessChain | null>();

/**
 * Connections to the epochs chain under an option it cannot serve, and why: their requests are
 * refused. Not at `network.create()`: a test file that awaits it at its top level would then fail
 * to load, and mocha (12) reports that as ERR_REQUIRE_ASYNC_MODULE, hiding the message.
 */
const refusals = new WeakMap<NetworkConnection, string>();

/** The resolved URL: a string, or Hardhat 3's resolved configuration variable. */
async function urlOf(conn: NetworkConnection): Promise<string | undefined> {
  const url = conn.networkConfig.url;
  if (typeof url === "string") return url;
  if (url !== null && typeof url === "object" && typeof (url as { get?: unknown }).get === "function") return (url as { get(): Promise<string> }).get();
  return undefined;
}

/** The connection's chain, made on first use (a request may come before newConnection returns). */
async function chainOf(context: HookContext, conn: NetworkConnection): Promise<InProcessChain | undefined> {
  let chain = chains.get(conn);
  if (chain === undefined) {
    const ours = conn.networkConfig.type === "http" && (await urlOf(conn)) === IN_PROCESS_URL;
    // another request may have made it while the URL was read
    chain = chains.get(conn) ?? (ours ? new InProcessChain(context, conn.networkConfig.chainId ?? chainDefaultsModule.DEFAULT_CHAIN_ID, conn.provider) : null);
    chains.set(conn, chain);
  }
  return chain ?? undefined;
}

/**
 * What Hardhat collects inside EDR's provider that the epochs chain does not report yet: gas
 * statistics. Rather than a silent empty table, a connection to it under those options is refused.
 * (Coverage is reported: src/hardhat3/in-process-chain.mts.)
 */
function edrOnlyOptions(context: HookContext): string[] {
  const g = context.globalOptions ?? {};
  return [g.gasStats === true ? "--gas-stats" : "", g.gasStatsJson !== undefined ? "--gas-stats-json" : ""].filter((o) => o !== "");
}

export default async () => ({
  async newConnection(context: HookContext, next: (ctx: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection> {
    const conn = await next(context);
    const chain = await chainOf(context, conn);
    const refused = chain !== undefined ? edrOnlyOptions(context) : [];
    if (refused.length > 0) {
      refusals.set(
        conn,
        `${refused.join(" and ")} ${refused.length > 1 ? "are" : "is"} collected by Hardhat's EDR network, and the epochs chain ` +
          `(the default network with hardhat-epochs listed) cannot report ${refused.length > 1 ? "them" : "it"}. Run without ${refused.join(" and ")}, ` +
          `or give the tests that need it an EDR network: networks: { edr: { type: "edr-simulated" } } and network.create("edr").`,
      );
    }
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
    const refusal = refusals.get(conn);
    if (refusal !== undefined) throw pluginError(refusal);
    const chain = await chainOf(context, conn);
    return chain === undefined ? next(context, conn, request) : chain.answer(request);
  },

  async closeConnection(context: HookContext, conn: NetworkConnection, next: (ctx: HookContext, conn: NetworkConnection) => Promise<void>): Promise<void> {
    await chains.get(conn)?.close();
    chains.delete(conn);
    return next(context, conn);
  },
});
