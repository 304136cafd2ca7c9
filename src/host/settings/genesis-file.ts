/**
 * A Cosmos genesis.json as the chain's start: the EVM and Cosmos chain ids, the genesis time, the
 * epochs, the native balances and the Cosmos modules' sections (staking with its gentx validators,
 * distribution, mint, gov, bank, erc20, transfer). `hardhat node --home DIR` starts from
 * `DIR/config/genesis.json` (src/host/node/home.ts) and the in-process network from the file
 * `epochs.genesisFile` names: both through `genesisRuntimeOptions`, so tests and the node run one chain.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { RuntimeOptions } from "../../app/runtime";
import type { ChainConfig } from "../../chain/config";
import type { CosmosPrecompilesOptions } from "../../cosmos/app-settings";
import type { CosmosGenesis, EpochsOptions } from "../../epochs";
import { PROFILES } from "../../epochs/profile";
import { UserError } from "../../utils/user-error";
import { epochsModule } from "../lazy";
import type { EpochsProfile } from "./app-config";

/** A genesis file that cannot be read or honoured: the file and the field. */
class GenesisFileError extends UserError {}

interface GenesisFile {
  path: string;
  genesis: CosmosGenesis;
  /** The file's `app_state` as written (the Cosmos modules read their sections from it). */
  appState: unknown;
}

/** Reads and checks a genesis.json under `profile` (its epochs, chain ids and time; the modules' sections are read by genesisRuntimeOptions). */
function readGenesisFile(file: string, profile: EpochsProfile): GenesisFile {
  try {
    const text = readFileSync(file, "utf8");
    return { path: file, genesis: epochsModule().parseCosmosGenesis(text, profile), appState: (JSON.parse(text) as { app_state?: unknown }).app_state };
  } catch (err) {
    throw new GenesisFileError(`${file}: ${(err as Error).message}`);
  }
}

/**
 * What a genesis sets in the chain's options, over `base`: the chain ids and time, the genesis
 * balances, the epochs, and the Cosmos modules its `app_state` has (a module the config turned off
 * stays off). Refusals name the file and the field.
 */
export function genesisRuntimeOptions(
  file: GenesisFile,
  base: { chain: ChainConfig; epochs: EpochsOptions; cosmos?: CosmosPrecompilesOptions },
): Pick<RuntimeOptions, "chain" | "epochs"> & { cosmos?: CosmosPrecompilesOptions } {
  const g = file.genesis;
  // the Cosmos modules load only for a chain that starts from a genesis file
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { readAppGenesis } = require("../../cosmos/app-genesis") as typeof import("../../cosmos/app-genesis");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { bech32Prefixes } = require("../../cosmos/common/address-codec") as typeof import("../../cosmos/common/address-codec");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { chainBech32Prefix } = require("../../cosmos/app-settings") as typeof import("../../cosmos/app-settings");
  const profile = base.epochs.profile ?? "evmos";
  const prefixes = bech32Prefixes(chainBech32Prefix(base.cosmos ?? {}, profile));
  let app: ReturnType<typeof readAppGenesis>;
  try {
    app = readAppGenesis(file.appState, prefixes, PROFILES[profile].denom);
  } catch (err) {
    throw new GenesisFileError(`${file.path}: ${(err as Error).message}`);
  }
  const cosmos: CosmosPrecompilesOptions = {
    ...base.cosmos,
    ...(app.staking !== undefined ? { staking: app.staking } : {}),
    ...(app.gov !== undefined && base.cosmos?.gov !== false ? { gov: app.gov } : {}),
    ...(app.distribution !== undefined && base.cosmos?.distribution !== false
      ? { distribution: { ...(typeof base.cosmos?.distribution === "object" ? base.cosmos.distribution : {}), ...app.distribution } }
      : {}),
    ...(app.erc20 !== undefined && base.cosmos?.erc20 !== false ? { erc20: { ...(typeof base.cosmos?.erc20 === "object" ? base.cosmos.erc20 : {}), ...app.erc20 } } : {}),
    ...(app.ics20 !== undefined && base.cosmos?.ics20 !== false ? { ics20: app.ics20 } : {}),
  };
  const hasModules = app.staking !== undefined || app.distribution !== undefined || app.gov !== undefined || app.erc20 !== undefined || app.ics20 !== undefined;
  return {
    chain: {
      ...base.chain,
      ...(g.chainId !== undefined ? { chainId: g.chainId } : {}),
      ...(g.cosmosChainId !== undefined ? { cosmosChainId: g.cosmosChainId } : {}),
      ...(app.balances !== undefined ? { genesisBalances: app.balances } : {}),
      ...(app.evmAccounts !== undefined ? { genesisState: app.evmAccounts } : {}),
      ...(g.genesisTime !== undefined ? { initialDate: new Date(Number(g.genesisTime.seconds) * 1000) } : {}),
    },
    epochs: { ...base.epochs, genesis: g.epochs },
    ...(hasModules ? { cosmos } : {}),
  };
}

/** `opts` started from the genesis file `file` (absolute, or relative to `root`) when there is one: the in-process network's and a node's without `--home`. */
export function withGenesisFile(opts: RuntimeOptions, file: string | undefined, root: string): RuntimeOptions {
  if (file === undefined || opts.epochs === false) return opts;
  const epochs = opts.epochs ?? {};
  const genesis = readGenesisFile(path.resolve(root, file), epochs.profile ?? "evmos");
  return { ...opts, ...genesisRuntimeOptions(genesis, { chain: opts.chain, epochs, cosmos: opts.cosmos }) };
}
