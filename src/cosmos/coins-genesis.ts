/**
 * The coins, token pairs and IBC state in a Cosmos genesis.json, the Cosmos SDK's and ibc-go's shapes:
 * read when a node's home has them, written by `epochs:export-genesis` (`cosmos_exportGenesis`), so
 * a chain exported here starts again with the same coins, pairs, traces and channels.
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
import { getAddress, isAddress } from "ethers/address";
import { getBytes } from "ethers/utils";
import { keepers } from "./app";
import { type Bech32Prefixes, toBech32 } from "./common/address-codec";
import { hexOf } from "./common/genesis-values";
import type { DenomMetadata } from "./bank/keeper";
import { OWNER_MODULE } from "./erc20/keeper";
import type { GenesisCoin, GenesisPair } from "./erc20/module";
import { type IbcChannel, TRANSFER_PORT } from "./ics20/keeper";
import { CHANNEL_ID, denomHash, denomPath } from "./common/ibc-denom";
import type { ModuleEnv } from "./common/module-env";

type Json = Record<string, unknown>;

/** The bank, erc20, transfer and ibc sections of the chain now (those whose modules it has). */
export async function coinsGenesisJson(env: ModuleEnv, prefixes: Bech32Prefixes, modules: { erc20: boolean; ics20: boolean }): Promise<Json> {
  const k = keepers(env);
  const bank = k.bank;
  const balances: Json[] = [];
  for (const holder of await bank.holders()) {
    const coins = (await bank.balances(holder)).filter((c) => c.denom !== env.denom);
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
  const out: Json = { bank: { balances, denom_metadata: metadata } };
  if (modules.erc20) {
    const pairs = await k.erc20.pairs();
    out.erc20 = {
      native_precompiles: pairs.filter((p) => p.denom === env.denom).map((p) => p.erc20),
      token_pairs: pairs.map((p) => ({ erc20_address: p.erc20, denom: p.denom, enabled: p.enabled, contract_owner: p.owner === OWNER_MODULE ? "OWNER_MODULE" : "OWNER_EXTERNAL" })),
    };
  }
  if (modules.ics20) {
    const ics20 = k.ics20;
    out.transfer = { port_id: TRANSFER_PORT, denoms: (await ics20.denoms()).map((d) => ({ base: d.base, trace: d.trace.map((h) => ({ port_id: h.portId, channel_id: h.channelId })) })) };
    out.ibc = {
      channel_genesis: {
        channels: (await ics20.channels()).map((c) => ({
          state: c.open ? "STATE_OPEN" : "STATE_CLOSED",
          ordering: "ORDER_UNORDERED",
          counterparty: { port_id: TRANSFER_PORT, channel_id: c.counterpartyChannelId },
          connection_hops: ["connection-0"],
          version: "ics20-1",
          port_id: TRANSFER_PORT,
          channel_id: c.channelId,
          counterparty_chain_id: c.counterpartyChainId,
        })),
      },
    };
  }
  return out;
}

const arrayAt = (v: unknown, field: string): unknown[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Error(`${field}: expected an array`);
  return v;
};

/**
 * The genesis coins (bank balances other than the native coin, their metadata, vouchers by path when
 * `transfer.denoms` has their trace) and the transfer channels a genesis gives; undefined parts when
 * it has none. Errors name the field.
 */
export function coinsFromGenesis(appState: unknown, prefixes: Bech32Prefixes, nativeDenom: string): GenesisCoins {
  const app = (appState ?? {}) as { bank?: { balances?: unknown; denom_metadata?: unknown }; transfer?: { denoms?: unknown }; ibc?: { channel_genesis?: { channels?: unknown } } };
  const native: Array<{ address: string; amount: bigint }> = [];
  // the traces: a voucher's denom → its path
  const paths = new Map<string, string>();
  arrayAt(app.transfer?.denoms, "app_state.transfer.denoms").forEach((raw, i) => {
    const d = raw as { base?: unknown; trace?: unknown };
    const field = `app_state.transfer.denoms[${i}]`;
    if (typeof d?.base !== "string" || d.base === "") throw new Error(`${field}.base: expected a denom`);
    const trace = arrayAt(d.trace, `${field}.trace`).map((h, j) => {
      const hop = h as { port_id?: unknown; channel_id?: unknown };
      if (typeof hop?.port_id !== "string" || typeof hop.channel_id !== "string") throw new Error(`${field}.trace[${j}]: expected port_id and channel_id`);
      return { portId: hop.port_id, channelId: hop.channel_id };
    });
    if (trace.length > 0) paths.set(`ibc/${denomHash({ base: d.base, trace })}`, denomPath({ base: d.base, trace }));
  });
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
  const coins: GenesisCoin[] = [...denoms].map((denom) => ({
    denom: paths.get(denom) ?? denom,
    ...(metadata.has(denom) ? { metadata: metadata.get(denom) } : {}),
    balances: byDenom.get(denom) ?? [],
  }));
  const channels = arrayAt(app.ibc?.channel_genesis?.channels, "app_state.ibc.channel_genesis.channels")
    .map((raw, i) => {
      const c = raw as { port_id?: unknown; channel_id?: unknown; state?: unknown; counterparty?: { channel_id?: unknown }; counterparty_chain_id?: unknown };
      const field = `app_state.ibc.channel_genesis.channels[${i}]`;
      if (typeof c?.channel_id !== "string" || !CHANNEL_ID.test(c.channel_id)) throw new Error(`${field}.channel_id: expected a channel identifier`);
      return {
        port: c.port_id,
        channel: {
          channelId: c.channel_id,
          counterpartyChannelId: typeof c.counterparty?.channel_id === "string" ? c.counterparty.channel_id : c.channel_id,
          counterpartyChainId: typeof c.counterparty_chain_id === "string" ? c.counterparty_chain_id : "counterparty-1",
          open: c.state === "STATE_OPEN",
        },
      };
    })
    .filter((c) => c.port === TRANSFER_PORT)
    .map((c) => c.channel);
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

/** The largest math.Int (and EVM balance): 2^256 − 1. */
const MAX_AMOUNT = 2n ** 256n - 1n;

const OWNERS: Readonly<Record<string, number>> = { "1": OWNER_MODULE, OWNER_MODULE, "2": 2, OWNER_EXTERNAL: 2 };

/** `app_state.erc20`: the native precompile's address and the token pairs; errors name the field. */
function pairsFromGenesis(appState: unknown, nativeDenom: string): Pick<GenesisCoins, "nativeErc20" | "pairs"> {
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
