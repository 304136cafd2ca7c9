/**
 * ICS20 (IBC fungible token transfers) as ibc-go's transfer module runs it, against a simulated
 * counterparty chain (docs/cosmos-precompiles.md, "ICS20"). Records in the storage of the ICS20
 * precompile's account (0x…0802, src/chain/base/records.ts):
 * - `channels`: the transfer channels (port `transfer`), open or closed, and their counterparty;
 * - `sequence/<channel>`: the next send sequence of a channel (from 1);
 * - `packet/<channel>/<sequence>`: a sent packet, its fate (pending, acknowledged, refunded);
 * - `denom/<HASH>` and `denoms`: the denom traces of the vouchers this chain has seen;
 * - `timeouts`: the pending packets with a timeout timestamp, for the end block that times them out.
 * Sending escrows the coin in the channel's escrow account (ibc-go's `GetEscrowAddress`), or burns a
 * voucher going home (its trace starts with the sending channel); an error acknowledgement or a
 * timeout refunds it (unescrow, or mint back). Receiving mints a voucher `ibc/<sha256 of its path>`
 * with its trace, or unescrows a coin of this chain coming home. No relayer, no proofs: a test (a
 * dev method) decides each packet's fate and sends the incoming packets.
 */
import { createHash } from "node:crypto";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import type { Bank } from "./expected-keepers";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { byteOrder } from "../common/records";
import { RecordHeap } from "../common/record-heap";
import { type IbcDenom, denomFromPath, denomHash, denomPath, ibcDenom } from "../common/ibc-denom";

export const ICS20_PRECOMPILE = "0x0000000000000000000000000000000000000802" as const;
export const TRANSFER_PORT = "transfer";

export interface IbcChannel {
  channelId: string;
  /** The channel's end on the counterparty chain. */
  counterpartyChannelId: string;
  counterpartyChainId: string;
  open: boolean;
}

export type PacketState = "pending" | "acknowledged" | "refunded";

export interface Packet {
  sequence: bigint;
  sourceChannel: string;
  /** The token as the packet carries it: its full path (`transfer/channel-0/uatom`) or a native base denom. */
  denom: string;
  /** The denom on this chain (`atest`, `ibc/…`). */
  localDenom: string;
  amount: bigint;
  sender: string;
  receiver: string;
  memo: string;
  timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  timeoutTimestamp: bigint;
  /** True when the coin was burned (a voucher going home), false when escrowed. */
  burned: boolean;
  state: PacketState;
  /** How a refunded packet ended: "error" (an error acknowledgement) or "timeout". */
  fate?: "ack" | "error" | "timeout";
  /** The error acknowledgement's text. */
  error?: string;
  /** The height the packet was sent at. */
  height: bigint;
}

/** ibc-go's escrow account of a channel: the first 20 bytes of sha256("ics20-1" ‖ 0 ‖ "port/channel"). */
export function escrowAddress(portId: string, channelId: string): string {
  const pre = Buffer.concat([Buffer.from("ics20-1"), Buffer.from([0]), Buffer.from(`${portId}/${channelId}`)]);
  return getAddress(hexlify(createHash("sha256").update(pre).digest().subarray(0, 20)));
}

/** What an outgoing transfer carries (the precompile's `transfer` arguments). */
export interface TransferMsg {
  sourcePort: string;
  sourceChannel: string;
  denom: string;
  amount: bigint;
  sender: string;
  receiver: string;
  timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  timeoutTimestamp: bigint;
  memo: string;
}

/** An incoming transfer from the counterparty (the `cosmos_ibcReceive` dev method). */
export interface IncomingTransfer {
  channelId: string;
  /** The token's path as the sending chain names it (`uatom`, or `transfer/channel-0/atest` for a coin of this chain coming home). */
  denom: string;
  amount: bigint;
  sender: string;
  /** A 0x address or a bech32 address of this chain. */
  receiver: string;
  memo?: string;
}

/** IBC counts time in nanoseconds. */
const NS = 1_000_000_000n;

export class Ics20Keeper {
  constructor(
    private readonly _env: ModuleEnv,
    private readonly _bank: Bank,
  ) {}

  private get _records() {
    return this._env.records(ICS20_PRECOMPILE);
  }

  async channels(): Promise<IbcChannel[]> {
    return (await this._records.get<IbcChannel[]>("channels")) ?? [];
  }

  async setChannels(channels: IbcChannel[]): Promise<void> {
    await this._records.put("channels", channels);
  }

  /** An open channel of the transfer port, with ibc-go's errors for another. */
  async openChannel(port: string, channelId: string): Promise<IbcChannel> {
    const ch = port === TRANSFER_PORT ? (await this.channels()).find((c) => c.channelId === channelId) : undefined;
    if (ch === undefined) throw new ModuleError(`port ID (${port}) channel ID (${channelId}): channel not found`);
    if (!ch.open) throw new ModuleError(`channel (${channelId}) is not open, current state: STATE_CLOSED: invalid channel state`);
    return ch;
  }

  async denom(hash: string): Promise<IbcDenom | undefined> {
    return this._records.get<IbcDenom>(`denom/${hash.toUpperCase()}`);
  }

  /** The IBC denoms this chain has seen, in the transfer module's store order (by hash, bytewise). */
  async denoms(): Promise<IbcDenom[]> {
    const out: IbcDenom[] = [];
    for (const h of ((await this._records.get<string[]>("denoms")) ?? []).sort(byteOrder)) {
      const d = await this.denom(h);
      if (d !== undefined) out.push(d);
    }
    return out;
  }

  /** Records a voucher's trace (once), so the denom queries and transfers know it. */
  async recordDenom(d: IbcDenom): Promise<void> {
    const hash = denomHash(d);
    if ((await this.denom(hash)) !== undefined) return;
    await this._records.put(`denom/${hash}`, d);
    await this._records.put("denoms", [...((await this._records.get<string[]>("denoms")) ?? []), hash]);
  }

  /** The denom of a local coin: a voucher's trace, or a native base. */
  private async _localDenom(denom: string): Promise<IbcDenom> {
    if (!denom.startsWith("ibc/")) return { base: denom, trace: [] };
    const d = await this.denom(denom.slice(4));
    if (d === undefined) throw new ModuleError(`denomination not found for ${denom}: denomination not found`);
    return d;
  }

  async packet(channelId: string, sequence: bigint): Promise<Packet | undefined> {
    return this._records.get<Packet>(`packet/${channelId}/${sequence}`);
  }

  /** Every packet sent on each channel, by channel then sequence. */
  async packets(): Promise<Packet[]> {
    const out: Packet[] = [];
    for (const ch of await this.channels()) {
      const next = (await this._records.get<bigint>(`sequence/${ch.channelId}`)) ?? 1n;
      for (let s = 1n; s < next; s++) {
        const p = await this.packet(ch.channelId, s);
        if (p !== undefined) out.push(p);
      }
    }
    return out;
  }

  /** sendTransfer (after MsgTransfer's checks: src/cosmos/ics20/msg-server.ts): escrows or burns the coin, records the packet; its sequence. */
  async transfer(msg: TransferMsg): Promise<{ sequence: bigint; packet: Packet }> {
    await this.openChannel(msg.sourcePort, msg.sourceChannel);
    const denom = await this._localDenom(msg.denom);
    const bank = this._bank;
    // a voucher whose last hop is this channel goes home: burned; anything else is escrowed
    const home = denom.trace.length > 0 && denom.trace[0].portId === msg.sourcePort && denom.trace[0].channelId === msg.sourceChannel;
    if (home) await bank.burn(msg.sender, msg.denom, msg.amount);
    else await bank.send(msg.sender, escrowAddress(msg.sourcePort, msg.sourceChannel), msg.denom, msg.amount);
    const key = `sequence/${msg.sourceChannel}`;
    const sequence = (await this._records.get<bigint>(key)) ?? 1n;
    await this._records.put(key, sequence + 1n);
    const packet: Packet = {
      sequence,
      sourceChannel: msg.sourceChannel,
      denom: denomPath(denom),
      localDenom: msg.denom,
      amount: msg.amount,
      sender: getAddress(msg.sender),
      receiver: msg.receiver,
      memo: msg.memo,
      timeoutHeight: msg.timeoutHeight,
      timeoutTimestamp: msg.timeoutTimestamp,
      burned: home,
      state: "pending",
      height: this._env.height,
    };
    // ibc-go's SendPacket: a timeout the counterparty's clock has passed is refused (its time is this chain's here)
    const now = this._env.time * NS;
    if (msg.timeoutTimestamp !== 0n && now >= msg.timeoutTimestamp) throw new ModuleError(`latest timestamp: ${now}, timeout timestamp: ${msg.timeoutTimestamp}: packet timeout has elapsed`);
    await this._records.put(`packet/${msg.sourceChannel}/${sequence}`, packet);
    if (msg.timeoutTimestamp !== 0n) await this._timeoutQueue.push(`${msg.sourceChannel}/${sequence}`, [msg.timeoutTimestamp, sequence]);
    return { sequence, packet };
  }

  /** Pending packets by timeout timestamp (ns), then sequence: the end block reads only the first. */
  private get _timeoutQueue(): RecordHeap {
    return new RecordHeap(this._records, "timeoutQueue");
  }

  /** The pending timeouts as a store written before the timeout index kept them (one list, record "timeouts"). */
  private async _legacyTimeouts(): Promise<Array<[string, bigint, bigint]> | undefined> {
    return this._records.get<Array<[string, bigint, bigint]>>("timeouts");
  }

  /** The first block time (Unix seconds) at which a pending packet times out, if one can. */
  async nextTimeout(): Promise<bigint | undefined> {
    // a store with the old list: due now, so the end block carries it into the index
    if ((await this._legacyTimeouts()) !== undefined) return 0n;
    const ns = (await this._timeoutQueue.peek())?.key[0];
    return ns === undefined ? undefined : (ns + NS - 1n) / NS;
  }

  /** Times out (refunds) every pending packet whose timeout timestamp the block's time has reached: the counterparty can no longer receive it. */
  async timeOutExpired(): Promise<Packet[]> {
    const legacy = await this._legacyTimeouts();
    if (legacy !== undefined) {
      for (const [channel, sequence, ns] of legacy) await this._timeoutQueue.push(`${channel}/${sequence}`, [ns, sequence]);
      await this._records.put("timeouts", undefined);
    }
    const now = this._env.time * NS;
    const out: Packet[] = [];
    for (let e = await this._timeoutQueue.peek(); e !== undefined && e.key[0] <= now; e = await this._timeoutQueue.peek()) {
      const [channel, sequence] = e.member.split("/");
      out.push(await this.settle(channel, BigInt(sequence), "timeout"));
    }
    return out;
  }

  /**
   * Ends a pending packet: "ack" (a success acknowledgement: the coins stay on the other side), "error"
   * (an error acknowledgement) or "timeout" — both refund the sender as ibc-go does.
   */
  async settle(channelId: string, sequence: bigint, fate: "ack" | "error" | "timeout", error = "ABCI code: 1: error handling packet: see events for details"): Promise<Packet> {
    const p = await this.packet(channelId, sequence);
    if (p === undefined) throw new ModuleError(`packet commitment not found for port ${TRANSFER_PORT}, channel ${channelId}, sequence ${sequence}: packet commitment not found`);
    if (p.state !== "pending") throw new ModuleError(`packet with sequence (${sequence}) has already been ${p.state === "acknowledged" ? "acknowledged" : "refunded"}: packet already relayed`);
    if (fate === "ack") {
      p.state = "acknowledged";
    } else {
      const bank = this._bank;
      if (p.burned) await bank.mint(p.sender, p.localDenom, p.amount);
      else await bank.send(escrowAddress(TRANSFER_PORT, channelId), p.sender, p.localDenom, p.amount);
      p.state = "refunded";
      if (fate === "error") p.error = error;
    }
    p.fate = fate;
    await this._records.put(`packet/${channelId}/${sequence}`, p);
    await this._timeoutQueue.remove(`${channelId}/${sequence}`);
    const legacy = await this._legacyTimeouts();
    const left = legacy?.filter(([c, s]) => !(c === channelId && s === sequence));
    if (legacy !== undefined && left !== undefined && left.length !== legacy.length) await this._records.put("timeouts", left.length === 0 ? undefined : left);
    return p;
  }

  /**
   * OnRecvPacket of an incoming transfer: a coin of this chain coming home (its path starts with the
   * counterparty's end of the channel) is unescrowed; any other gets a voucher minted, its trace
   * recorded. `receiver` is already decoded. Returns the local denom and whether it is new here.
   */
  async receive(t: IncomingTransfer, receiver: string): Promise<{ denom: string; trace: IbcDenom; newVoucher: boolean }> {
    const ch = await this.openChannel(TRANSFER_PORT, t.channelId);
    if (t.amount <= 0n) throw new ModuleError(`amount must be strictly positive: invalid amount`);
    const sent = denomFromPath(t.denom);
    if (sent.base === "") throw new ModuleError(`invalid denomination: ${t.denom}`);
    const bank = this._bank;
    const first = sent.trace[0];
    if (first !== undefined && first.portId === TRANSFER_PORT && first.channelId === ch.counterpartyChannelId) {
      const local: IbcDenom = { base: sent.base, trace: sent.trace.slice(1) };
      const denom = ibcDenom(local);
      await bank.send(escrowAddress(TRANSFER_PORT, t.channelId), receiver, denom, t.amount);
      return { denom, trace: local, newVoucher: false };
    }
    const voucher: IbcDenom = { base: sent.base, trace: [{ portId: TRANSFER_PORT, channelId: t.channelId }, ...sent.trace] };
    const denom = ibcDenom(voucher);
    const newVoucher = (await this.denom(denomHash(voucher))) === undefined;
    await this.recordDenom(voucher);
    await bank.mint(receiver, denom, t.amount);
    return { denom, trace: voucher, newVoucher };
  }
}

/** The keepers the transfer module's block work and precompile run on (src/cosmos/app.ts `Keepers` has them). */
export interface Ics20Keepers {
  ics20: Ics20Keeper;
}
