/**
 * x/erc20 as a block module of the chain (docs/cosmos-precompiles.md, "Token pairs"):
 * - genesis: the native coin's pair at WEVMOS's address with the coin's bank metadata (Evmos's
 *   `aevmos`, evmd's `atest` "Test Token"), and the coins the config lists — minted to their holders,
 *   with their metadata, an IBC voucher (`ibc/<hash>`) paired at its address;
 * - each time the chain's state is opened or replaced, the ERC-20 precompiles of its pairs join the
 *   chain's EVM (`onPairs`: src/chain/engine/evm.ts), so a reopened home or a loaded dump has them;
 * - a loaded state's pair records must read (checkState).
 */
import { getBytes } from "ethers";
import type { BlockModule, GenesisContext, StateReader } from "../chain/module";
import { Bank, type DenomMetadata, validateDenom } from "./coins";
import { ERC20_MODULE_ACCOUNT, Erc20Keeper, type TokenPair, ibcDenomAddress } from "./erc20";
import { ModuleError } from "./ledger";
import { INVALID_CODE, genesisEnv, readEnv } from "./modules";

/** A coin at genesis (the config's `epochs.precompiles.erc20.coins`). */
export interface GenesisCoin {
  denom: string;
  /** Bank metadata; without it the pair's name, symbol and decimals revert, as on the chain. */
  metadata?: DenomMetadata;
  /** Holders and amounts, minted at genesis. */
  balances?: Array<{ address: string; amount: bigint }>;
}

export interface Erc20Settings {
  /** The native coin's pair (WERC20). */
  nativeErc20: string;
  nativeMetadata: DenomMetadata;
  coins: GenesisCoin[];
}

/** The native coin's bank metadata each profile's chain has: Evmos's, and evmd's local_node.sh. */
export const PROFILE_NATIVE_METADATA = {
  evmos: { name: "Evmos", symbol: "EVMOS", decimals: 18 },
  "cosmos-evm": { name: "Test Token", symbol: "TEST", decimals: 18 },
} as const satisfies Record<string, DenomMetadata>;

export const ERC20_MODULE = "erc20";

/** Registers `denom`'s pair (an IBC voucher's, at its address) with code at that address, so callers see a contract. */
export async function registerVoucher(keeper: Erc20Keeper, putCode: (address: string) => Promise<void>, denom: string): Promise<TokenPair> {
  const pair = await keeper.setToken(ibcDenomAddress(denom), denom);
  await putCode(pair.erc20);
  return pair;
}

async function initGenesis(ctx: GenesisContext, settings: Erc20Settings, denom: string): Promise<void> {
  const env = genesisEnv(ctx, denom);
  const keeper = new Erc20Keeper(env);
  // a fork of a chain that has the module keeps the remote's pairs
  if ((await keeper.pair(settings.nativeErc20)) !== undefined) return;
  const putCode = (a: string) => ctx.putCode(getBytes(a), INVALID_CODE);
  await putCode(ERC20_MODULE_ACCOUNT);
  await putCode(settings.nativeErc20);
  const bank = new Bank(env);
  await keeper.setToken(settings.nativeErc20, denom);
  await bank.setMetadata(denom, settings.nativeMetadata);
  for (const c of settings.coins) {
    validateDenom(c.denom);
    if (c.denom === denom) throw new ModuleError(`genesis coin ${c.denom} is the native coin: its balances are the accounts' balances`);
    if (c.metadata !== undefined) await bank.setMetadata(c.denom, c.metadata);
    for (const b of c.balances ?? []) await bank.mint(b.address, c.denom, b.amount);
    if (c.denom.startsWith("ibc/")) await registerVoucher(keeper, putCode, c.denom);
  }
}

export function erc20BlockModule(settings: Erc20Settings, denom: string, onPairs: (pairs: TokenPair[]) => void): BlockModule {
  const pairsIn = (state: StateReader) => new Erc20Keeper(readEnv(state)).pairs();
  return {
    name: ERC20_MODULE,
    initGenesis: (ctx) => initGenesis(ctx, settings, denom),
    stateOpened: async (state) => onPairs(await pairsIn(state)),
    checkState: async (state) => {
      try {
        for (const p of await pairsIn(state)) if (typeof p.denom !== "string" || typeof p.enabled !== "boolean") throw new Error(`pair ${p.erc20} is not a token pair`);
      } catch (err) {
        throw new ModuleError(`the erc20 module's token pairs cannot be read: ${(err as Error).message}`);
      }
    },
  };
}
