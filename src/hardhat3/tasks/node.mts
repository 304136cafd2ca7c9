/**
 * `hardhat node` on Hardhat 3: serves the in-process epochs chain over HTTP and WebSocket JSON-RPC
 * (Hardhat's own node task asserts an EDR provider, so this override replaces it). What the node does
 * is src/host/node/node-service.ts, shared with Hardhat 2; this file maps Hardhat 3's options: Evmos's
 * json-rpc flags spelled `--json-rpc-ws-address` (tasks/node-flags.mts), `--home`,
 * `--minimum-gas-prices`, `--profile`, the saved-state flags, `--quiet`/`--verbose`, `--fork-rest`,
 * Anvil's `--block-time`/`--accounts`/`--mnemonic`/`--balance` and Hardhat's `--hostname`/`--port`/
 * `--chain-id`/`--fork`/`--fork-block-number` (undefined or -1: not given); Hardhat's `--chain-type`
 * (EDR's chain kinds) is refused.
 */
import path from "node:path";
import nodeServiceModule from "../../host/node/node-service.js";
import compilationsModule from "../../host/solidity/compilations.js";
import forkSettingsModule from "../../host/settings/fork-settings.js";
import { HARDHAT3_FRAMES, hdAccountsOf, runtimeOptionsFor } from "../shared/in-process-chain.mjs";
import { evmosFlagsOf } from "./node-flags.mjs";
import type { HardhatRuntimeEnvironment } from "../shared/hardhat3-api.mjs";
import { pluginError, withPluginErrors } from "../shared/plugin-error.mjs";

interface NodeArgs extends Record<string, unknown> {
  hostname?: string;
  port: number;
  /** Hardhat's own: -1 = not given. */
  chainId: number;
  /** Hardhat's own, for its EDR chains: refused here. */
  chainType?: string;
  home?: string;
  minimumGasPrices?: string;
  profile?: string;
  state?: string;
  loadState?: string;
  dumpState?: string;
  stateInterval?: string;
  /** Hardhat's own node options: the remote to fork, its block (-1: the remote's latest). */
  fork?: string;
  forkBlockNumber: number;
  forkRest?: string;
  blockTime?: string;
  accounts?: string;
  mnemonic?: string;
  balance?: string;
  quiet: boolean;
  verbose: boolean;
}

export default async function node(args: NodeArgs, hre: HardhatRuntimeEnvironment): Promise<void> {
  const given = (v: string | undefined): string | undefined => (v === "" ? undefined : v);
  const evmos: Record<string, string | boolean> = evmosFlagsOf(args);
  if (args.quiet) evmos.quiet = true;
  if (args.verbose) evmos.verbose = true;
  if (args.hostname !== undefined) evmos.hostname = args.hostname;
  evmos.port = String(args.port);
  for (const [key, value] of [
    ["home", args.home],
    ["minimum-gas-prices", args.minimumGasPrices],
    ["profile", args.profile],
  ] as const) {
    if (given(value) !== undefined) evmos[key] = value as string;
  }
  const cache = hre.config.paths.cache;
  await withPluginErrors(async () => {
    if (args.chainType !== undefined) {
      throw pluginError(`--chain-type does not apply to the epochs chain: its rules are its profile's (--profile evmos or cosmos-evm; docs/profiles.md)`);
    }
    const fork = forkSettingsModule.forkFromFlags(args.fork, args.forkBlockNumber >= 0 ? args.forkBlockNumber : undefined, forkSettingsModule.forkCacheDir(cache));
    const host = {
      base: runtimeOptionsFor(hre),
      hdAccounts: hdAccountsOf(hre),
      configLayer: { source: "hardhat.config", epochs: { profile: hre.config.epochs.profile, tickRule: hre.config.epochs.tickRule, hookGasLimit: BigInt(hre.config.epochs.hookGasLimit) } },
      cacheDir: cache,
      compilations: compilationsModule.hardhat3BuildInfos(hre.config.paths.artifacts),
      frames: HARDHAT3_FRAMES,
      forkSetting: "epochs.network.forking",
      ...(hre.config.epochs.genesisFile !== undefined ? { genesisFile: path.resolve(hre.config.paths.root, hre.config.epochs.genesisFile) } : {}),
    };
    const state = { state: given(args.state), loadState: given(args.loadState), dumpState: given(args.dumpState), stateInterval: given(args.stateInterval) };
    const chain = { chainId: args.chainId, blockTime: args.blockTime, accounts: args.accounts, mnemonic: args.mnemonic, balance: args.balance };
    await nodeServiceModule.runNode(host, { evmos, fork, forkRest: given(args.forkRest), chain, state });
  });
}
