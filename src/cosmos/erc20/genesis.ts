/**
 * x/erc20's section of a Cosmos genesis.json: `app_state.erc20.native_precompiles[]` and
 * `token_pairs[]`, the native coin's WERC20 address (the profile's default when neither names one:
 * WEVMOS's) and the pairs of coins (x/erc20's module-owned pairs, `contract_owner` 1; pairs of ERC-20
 * contracts are refused, naming the field). The app puts the sections together (src/cosmos/coins-genesis.ts).
 */
import { getAddress, isAddress } from "ethers/address";
import { arrayAt } from "../common/genesis-values";
import { type Erc20Keeper, OWNER_MODULE } from "./keeper";
import type { GenesisPair } from "./module";

type Json = Record<string, unknown>;

/** `app_state.erc20` of the chain now. */
export async function erc20GenesisJson(erc20: Erc20Keeper, nativeDenom: string): Promise<Json> {
  const pairs = await erc20.pairs();
  return {
    native_precompiles: pairs.filter((p) => p.denom === nativeDenom).map((p) => p.erc20),
    token_pairs: pairs.map((p) => ({ erc20_address: p.erc20, denom: p.denom, enabled: p.enabled, contract_owner: p.owner === OWNER_MODULE ? "OWNER_MODULE" : "OWNER_EXTERNAL" })),
  };
}

const OWNERS: Readonly<Record<string, number>> = { "1": OWNER_MODULE, OWNER_MODULE, "2": 2, OWNER_EXTERNAL: 2 };

/** `app_state.erc20`: the native precompile's address and the token pairs; errors name the field. */
export function pairsFromGenesis(appState: unknown, nativeDenom: string): { nativeErc20?: string; pairs?: GenesisPair[] } {
  const erc20 = (appState as { erc20?: { native_precompiles?: unknown; token_pairs?: unknown } } | undefined)?.erc20;
  const address = (v: unknown, field: string): string => {
    if (typeof v !== "string" || !isAddress(v)) throw new Error(`${field}: expected a 0x address, got ${JSON.stringify(v)}`);
    return getAddress(v);
  };
  const natives = arrayAt(erc20?.native_precompiles, "app_state.erc20.native_precompiles").map((a, i) => address(a, `app_state.erc20.native_precompiles[${i}]`));
  if (natives.length > 1) throw new Error(`app_state.erc20.native_precompiles: ${natives.length} addresses; this chain has one native coin (${nativeDenom}), so one WERC20`);
  let nativeErc20: string | undefined = natives[0];
  const pairs: GenesisPair[] = [];
  arrayAt(erc20?.token_pairs, "app_state.erc20.token_pairs").forEach((raw, i) => {
    const field = `app_state.erc20.token_pairs[${i}]`;
    const p = raw as { erc20_address?: unknown; denom?: unknown; enabled?: unknown; contract_owner?: unknown };
    const erc20Address = address(p?.erc20_address, `${field}.erc20_address`);
    if (typeof p.denom !== "string" || p.denom === "") throw new Error(`${field}.denom: expected a denom`);
    const owner = OWNERS[String(p.contract_owner ?? "1")];
    if (owner === undefined) throw new Error(`${field}.contract_owner: expected 1 (OWNER_MODULE) or 2 (OWNER_EXTERNAL), got ${JSON.stringify(p.contract_owner)}`);
    if (owner !== OWNER_MODULE) throw new Error(`${field}.contract_owner: pairs of ERC-20 contracts (OWNER_EXTERNAL) are not kept by this chain, only coins' pairs (OWNER_MODULE)`);
    if (p.denom === nativeDenom) {
      if (nativeErc20 !== undefined && nativeErc20 !== erc20Address)
        throw new Error(`${field}: the native coin's pair is at ${erc20Address}, but app_state.erc20.native_precompiles names ${nativeErc20}`);
      nativeErc20 = erc20Address;
      return;
    }
    pairs.push({ erc20: erc20Address, denom: p.denom, enabled: p.enabled !== false });
  });
  return { ...(nativeErc20 !== undefined ? { nativeErc20 } : {}), ...(pairs.length > 0 ? { pairs } : {}) };
}
