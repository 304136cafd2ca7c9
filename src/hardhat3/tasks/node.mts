/**
 * `hardhat node` on Hardhat 3: serves the in-process epochs chain over HTTP and WebSocket JSON-RPC
 * (Hardhat's own node task asserts an EDR provider, so this override replaces it). The settings are
 * app.toml's defaults (src/host/app-config.ts), Evmos's json-rpc flags (as `--json-rpc-ws-address`,
 * tasks/node-flags.mts) and Hardhat's `--hostname` and `--port`; the bearer
 * token of the private methods is written to the project's cache, as on Hardhat 2.
 */
import path from "node:path";
import appConfigModule from "../../host/app-config.js";
import depsModule from "../../rpc/deps.js";
import accessModule from "../../rpc/access.js";
import authModule from "../../rpc/transport/auth.js";
import serverModule from "../../rpc/transport/server.js";
import { buildRuntime, runtimeOptionsFor } from "../in-process-chain.mjs";
import { evmosFlagsOf } from "./node-flags.mjs";
import type { HardhatRuntimeEnvironment } from "../hardhat3-api.mjs";

interface NodeArgs extends Record<string, unknown> {
  hostname?: string;
  port: number;
  chainId: number;
}

export default async function node(args: NodeArgs, hre: HardhatRuntimeEnvironment): Promise<void> {
  const flags: Record<string, string> = evmosFlagsOf(args);
  if (typeof args.profile === "string" && args.profile !== "") flags.profile = args.profile;
  if (args.hostname !== undefined) flags.hostname = args.hostname;
  flags.port = String(args.port);
  // flags > hardhat.config.ts's epochs section > defaults (as on Hardhat 2, without app.toml: no --home yet)
  const hardhatConfig = { source: "hardhat.config", epochs: { profile: hre.config.epochs.profile, tickRule: hre.config.epochs.tickRule, hookGasLimit: BigInt(hre.config.epochs.hookGasLimit) } };
  const config = appConfigModule.resolveAppConfig({ flags, hardhatConfig, defaults: appConfigModule.defaultAppConfig(depsModule.CORE_NAMESPACES) });
  const settings = appConfigModule.runtimeSettings(config);
  const base = runtimeOptionsFor(hre, args.chainId > 0 ? args.chainId : undefined);
  const runtime = await buildRuntime({
    ...base,
    chain: { ...base.chain, ...settings.chain, throwOnTransactionFailures: false },
    epochs: base.epochs === false || base.epochs === undefined ? base.epochs : { ...base.epochs, ...settings.epochs },
    rpc: settings.rpc,
    enabledNamespaces: settings.enabledNamespaces,
    maxBatch: settings.maxBatch,
    log: (line) => console.log(line),
  });
  const { authToken, ...opts } = appConfigModule.serverSettings(config);
  const tokenFile = path.join(hre.config.paths.cache, "jsonrpc.token");
  const token = authModule.readOrCreateTokenFile(tokenFile, process.env.HARDHAT_EPOCHS_TOKEN ?? authToken);
  const server = new serverModule.JsonRpcServer(runtime.dispatcher, { ...opts, token, log: (line) => console.log(line) });
  runtime.mountRest(server.rest);
  const bound = await server.listen();
  runtime.admin.listeners = server.listeners;
  const host = bound.httpAddress.host.includes(":") ? `[${bound.httpAddress.host}]` : bound.httpAddress.host;
  console.log(`Started HTTP and WebSocket JSON-RPC server at http://${host}:${bound.httpAddress.port}/`);
  console.log(`Chain id ${runtime.node.config.chainId} (evmos_${runtime.node.config.chainId}-1), profile "${config.epochs.profile}", epochs tick rule "${config.epochs.tickRule}"`);
  console.log(`Bearer token in ${tokenFile}:\n  ${token}`);
  const { declared, raised } = runtime.dispatcher.accessClasses();
  for (const line of accessModule.accessBanner(declared, raised, [...accessModule.DEFAULT_ALLOWED_ORIGINS, ...(opts.allowedOrigins ?? [])], accessModule.beyondLoopback(bound))) console.log(line);
  console.log("\nAccounts\n========\n");
  console.log("WARNING: These accounts, and their private keys, are publicly known.\nAny funds sent to them on Mainnet or any other live network WILL BE LOST.\n");
  for (const [i, [address, key]] of [...runtime.node.keys].entries()) console.log(`Account #${i}: ${address}\nPrivate Key: 0x${Buffer.from(key).toString("hex")}\n`);
  const stop = (): void => void server.close().catch(() => undefined);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await server.waitUntilClosed();
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await runtime.close();
  }
}
