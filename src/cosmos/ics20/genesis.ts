/**
 * ICS20's sections of a Cosmos genesis.json, ibc-go's shapes: `app_state.transfer.denoms[] { base,
 * trace[] { port_id, channel_id } }` (the vouchers' traces) and `app_state.ibc.channel_genesis.channels[]`
 * (the transfer port's channels: state, counterparty). Packets in flight, sequences and escrowed
 * amounts are not kept. The app puts the sections together (src/cosmos/coins-genesis.ts).
 */
import { arrayAt } from "../common/genesis-values";
import { CHANNEL_ID, denomHash, denomPath } from "../common/ibc-denom";
import { type IbcChannel, type Ics20Keeper, TRANSFER_PORT } from "./keeper";

type Json = Record<string, unknown>;

/** `app_state.transfer` and `app_state.ibc` of the chain now. */
export async function transferGenesisJson(ics20: Ics20Keeper): Promise<{ transfer: Json; ibc: Json }> {
  const denoms = (await ics20.denoms()).map((d) => ({ base: d.base, trace: d.trace.map((h) => ({ port_id: h.portId, channel_id: h.channelId })) }));
  const channels = (await ics20.channels()).map((c) => ({
    state: c.open ? "STATE_OPEN" : "STATE_CLOSED",
    ordering: "ORDER_UNORDERED",
    counterparty: { port_id: TRANSFER_PORT, channel_id: c.counterpartyChannelId },
    connection_hops: ["connection-0"],
    version: "ics20-1",
    port_id: TRANSFER_PORT,
    channel_id: c.channelId,
    counterparty_chain_id: c.counterpartyChainId,
  }));
  return { transfer: { port_id: TRANSFER_PORT, denoms }, ibc: { channel_genesis: { channels } } };
}

/** The vouchers' traces of a genesis (`app_state.transfer.denoms`): each voucher's denom (`ibc/<hash>`) → its path; errors name the field. */
export function tracesFromGenesis(appState: unknown): Map<string, string> {
  const app = (appState ?? {}) as { transfer?: { denoms?: unknown } };
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
  return paths;
}

/** The transfer port's channels of a genesis (`app_state.ibc.channel_genesis.channels`); errors name the field. */
export function channelsFromGenesis(appState: unknown): IbcChannel[] {
  const app = (appState ?? {}) as { ibc?: { channel_genesis?: { channels?: unknown } } };
  return arrayAt(app.ibc?.channel_genesis?.channels, "app_state.ibc.channel_genesis.channels")
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
}
