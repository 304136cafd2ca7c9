/**
 * The coins, token pairs and IBC state in a Cosmos genesis.json, the Cosmos SDK's and ibc-go's shapes:
 * read when a node's home has them, written by `epochs:export-genesis` (`cosmos_exportGenesis`), so
 * a chain exported here starts again with the same coins, pairs, traces and channels. Each module's
 * sections are its own (src/cosmos/bank/genesis.ts, src/cosmos/erc20/genesis.ts,
 * src/cosmos/ics20/genesis.ts); this puts them together, in the order a genesis is checked.
 *
 * - `app_state.bank.balances[] { address, coins[] }` and `denom_metadata[]`: coins other than the
 *   native one (native balances are the accounts' EVM balances, configured with the accounts);
 * - `app_state.erc20.native_precompiles[]` and `token_pairs[]`: the native coin's WERC20 address (the
 *   profile's default when neither names one: WEVMOS's) and the pairs of coins (x/erc20's module-owned
 *   pairs, `contract_owner` 1; pairs of ERC-20 contracts are refused, naming the field); on import every
 *   voucher without a pair is paired at its hash's address;
 * - `app_state.transfer.denoms[] { base, trace[] { port_id, channel_id } }`: the vouchers' traces;
 * - `app_state.ibc.channel_genesis.channels[]`: the transfer port's channels (state, counterparty).
 * What is not kept: packets in flight, sequences, allowances, escrowed amounts (the escrow accounts'
 * coins are balances like any other).
 */
import { keepers } from "./app";
import { bankFromGenesis, bankGenesisJson } from "./bank/genesis";
import type { Bech32Prefixes } from "./common/address-codec";
import type { ModuleEnv } from "./common/module-env";
import { erc20GenesisJson, pairsFromGenesis } from "./erc20/genesis";
import type { GenesisCoin, GenesisPair } from "./erc20/module";
import { channelsFromGenesis, tracesFromGenesis, transferGenesisJson } from "./ics20/genesis";
import type { IbcChannel } from "./ics20/keeper";

type Json = Record<string, unknown>;

/** The bank, erc20, transfer and ibc sections of the chain now (those whose modules it has). */
export async function coinsGenesisJson(env: ModuleEnv, prefixes: Bech32Prefixes, modules: { erc20: boolean; ics20: boolean }): Promise<Json> {
  const k = keepers(env);
  return {
    bank: await bankGenesisJson(k.bank, env.denom, prefixes),
    ...(modules.erc20 ? { erc20: await erc20GenesisJson(k.erc20, env.denom) } : {}),
    ...(modules.ics20 ? await transferGenesisJson(k.ics20) : {}),
  };
}

/**
 * The genesis coins (bank balances other than the native coin, their metadata, vouchers by path when
 * `transfer.denoms` has their trace), the transfer channels and the token pairs a genesis gives;
 * undefined parts when it has none. Errors name the field.
 */
export function coinsFromGenesis(appState: unknown, prefixes: Bech32Prefixes, nativeDenom: string): GenesisCoins {
  // the traces first: a voucher is named by its path when the genesis has its trace
  const paths = tracesFromGenesis(appState);
  const { coins, native } = bankFromGenesis(appState, prefixes, nativeDenom, (denom) => paths.get(denom) ?? denom);
  const channels = channelsFromGenesis(appState);
  const erc20 = pairsFromGenesis(appState, nativeDenom);
  return { ...(coins.length > 0 ? { coins } : {}), ...(channels.length > 0 ? { channels } : {}), ...(native.length > 0 ? { native } : {}), ...erc20 };
}

/** What a genesis gives the coins' modules; each part absent when the genesis has none. */
export interface GenesisCoins {
  coins?: GenesisCoin[];
  channels?: IbcChannel[];
  /** `app_state.bank.balances` in the native denom: EVM balances. */
  native?: Array<{ address: string; amount: bigint }>;
  /** The native coin's WERC20 address (`erc20.native_precompiles`, or its denom's token pair). */
  nativeErc20?: string;
  /** `erc20.token_pairs` of other coins. */
  pairs?: GenesisPair[];
}
