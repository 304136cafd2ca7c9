/**
 * x/bank's sections of a Cosmos genesis.json: `app_state.bank.balances[] { address, coins[] }` and
 * `denom_metadata[]`, the coins other than the native one (native balances are the accounts' EVM
 * balances, configured with the accounts). Read when a node's home has them, written by
 * `cosmos_exportGenesis`; the app puts the sections together (src/cosmos/coins-genesis.ts).
 */
import { getBytes } from "ethers/utils";
import { type Bech32Prefixes, toBech32 } from "../common/address-codec";
import { arrayAt, hexOf } from "../common/genesis-values";
import type { Bank, DenomMetadata } from "./keeper";

type Json = Record<string, unknown>;

/** The largest math.Int (and EVM balance): 2^256 − 1. */
const MAX_AMOUNT = 2n ** 256n - 1n;

/** A coin of the genesis: its holders and its metadata (a voucher named by `nameOf`: its path when its trace is known). */
interface BankGenesisCoin {
  denom: string;
  metadata?: DenomMetadata;
  balances: Array<{ address: string; amount: bigint }>;
}

/** `app_state.bank` of the chain now: the balances of coins other than `nativeDenom`, and the denoms' metadata. */
export async function bankGenesisJson(bank: Bank, nativeDenom: string, prefixes: Bech32Prefixes): Promise<Json> {
  const balances: Json[] = [];
  for (const holder of await bank.holders()) {
    const coins = (await bank.balances(holder)).filter((c) => c.denom !== nativeDenom);
    if (coins.length > 0) balances.push({ address: toBech32(prefixes.account, getBytes(holder)), coins: coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() })) });
  }
  const metadata: Json[] = [];
  for (const denom of await bank.denoms()) {
    const m = await bank.metadata(denom);
    if (m === undefined) continue;
    const display = m.symbol.toLowerCase();
    metadata.push({
      description: "",
      denom_units: [
        { denom, exponent: 0, aliases: [] },
        { denom: display, exponent: m.decimals, aliases: [] },
      ],
      base: denom,
      display,
      name: m.name,
      symbol: m.symbol,
      uri: "",
      uri_hash: "",
    });
  }
  return { balances, denom_metadata: metadata };
}

/**
 * `app_state.bank` of a genesis: its coins other than the native one (each named by `nameOf`) and the
 * native coin's balances (EVM balances); errors name the field.
 */
export function bankFromGenesis(
  appState: unknown,
  prefixes: Bech32Prefixes,
  nativeDenom: string,
  nameOf: (denom: string) => string,
): { coins: BankGenesisCoin[]; native: Array<{ address: string; amount: bigint }> } {
  const app = (appState ?? {}) as { bank?: { balances?: unknown; denom_metadata?: unknown } };
  const native: Array<{ address: string; amount: bigint }> = [];
  const metadata = new Map<string, DenomMetadata>();
  arrayAt(app.bank?.denom_metadata, "app_state.bank.denom_metadata").forEach((raw, i) => {
    const m = raw as { base?: unknown; display?: unknown; name?: unknown; symbol?: unknown; denom_units?: unknown };
    const field = `app_state.bank.denom_metadata[${i}]`;
    if (typeof m?.base !== "string") throw new Error(`${field}.base: expected a denom`);
    const units = arrayAt(m.denom_units, `${field}.denom_units`) as Array<{ denom?: unknown; exponent?: unknown }>;
    const display = typeof m.display === "string" ? (m.display.split("/").pop() as string) : undefined;
    const unit =
      units.find((u) => u.denom === display) ??
      units.reduce<{ exponent?: unknown } | undefined>((best, u) => (best === undefined || Number(u.exponent ?? 0) > Number(best.exponent ?? 0) ? u : best), undefined);
    const decimals = Number(unit?.exponent ?? 0);
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new Error(`${field}.denom_units: the display unit's exponent must be 0–255`);
    metadata.set(m.base, { name: typeof m.name === "string" ? m.name : m.base, symbol: typeof m.symbol === "string" ? m.symbol : m.base, decimals });
  });
  const byDenom = new Map<string, Array<{ address: string; amount: bigint }>>();
  arrayAt(app.bank?.balances, "app_state.bank.balances").forEach((raw, i) => {
    const b = raw as { address?: unknown; coins?: unknown };
    const field = `app_state.bank.balances[${i}]`;
    if (typeof b?.address !== "string") throw new Error(`${field}.address: expected a ${prefixes.account}1… address`);
    const address = hexOf(b.address, prefixes.account, `${field}.address`);
    arrayAt(b.coins, `${field}.coins`).forEach((c, j) => {
      const coin = c as { denom?: unknown; amount?: unknown };
      if (typeof coin?.denom !== "string" || typeof coin.amount !== "string" || !/^\d+$/.test(coin.amount)) throw new Error(`${field}.coins[${j}]: expected { denom, amount } with an integer amount`);
      // math.Int's bound (256 bits), which is also an EVM balance's
      if (BigInt(coin.amount) > MAX_AMOUNT) throw new Error(`${field}.coins[${j}].amount: integer out of range: ${coin.amount}`);
      if (BigInt(coin.amount) === 0n) return;
      // the native coin's balances are the accounts' EVM balances
      if (coin.denom === nativeDenom) return void native.push({ address, amount: BigInt(coin.amount) });
      byDenom.set(coin.denom, [...(byDenom.get(coin.denom) ?? []), { address, amount: BigInt(coin.amount) }]);
    });
  });
  // a coin's supply is a math.Int too: the SDK's InitGenesis adds the balances up and overflows past 256 bits
  for (const [denom, list] of [[nativeDenom, native] as const, ...byDenom.entries()]) {
    const supply = list.reduce((sum, b) => sum + b.amount, 0n);
    if (supply > MAX_AMOUNT) throw new Error(`app_state.bank.balances: the ${denom} balances add up to ${supply}, past 2^256 − 1: Int overflow`);
  }
  const denoms = new Set([...byDenom.keys(), ...[...metadata.keys()].filter((d) => d !== nativeDenom)]);
  const coins: BankGenesisCoin[] = [...denoms].map((denom) => ({
    denom: nameOf(denom),
    ...(metadata.has(denom) ? { metadata: metadata.get(denom) } : {}),
    balances: byDenom.get(denom) ?? [],
  }));
  return { coins, native };
}
