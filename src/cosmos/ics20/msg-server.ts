/**
 * ICS20's Msg server (ibc-go's transfer keeper msg_server.go): MsgTransfer, its ValidateBasic in
 * ibc-go's order and words, then the keeper's send. The ICS20 precompile calls it.
 */
import { ModuleError } from "../common/errors";
import { CHANNEL_ID, PORT_ID } from "../common/ibc-denom";
import type { Ics20Keepers, Packet, TransferMsg } from "./keeper";

/** ibc-go's bounds of a receiver and a memo, in bytes (Go's len), not characters. */
const MAX_RECEIVER = 2048;
const MAX_MEMO = 32768;

export async function transfer(k: Ics20Keepers, msg: TransferMsg): Promise<{ sequence: bigint; packet: Packet }> {
  if (!PORT_ID.test(msg.sourcePort)) throw new ModuleError(`identifier ${msg.sourcePort} has invalid length or characters: invalid identifier: invalid source port ID`);
  if (!CHANNEL_ID.test(msg.sourceChannel)) throw new ModuleError(`invalid channel ID (${msg.sourceChannel}) on v2 packet: invalid channel`);
  if (msg.amount <= 0n) throw new ModuleError(`${msg.amount}${msg.denom}: insufficient funds`);
  if (msg.receiver.trim() === "") throw new ModuleError("missing recipient address: invalid address");
  if (Buffer.byteLength(msg.receiver, "utf8") > MAX_RECEIVER) throw new ModuleError(`recipient address must not exceed ${MAX_RECEIVER} bytes: invalid address`);
  if (Buffer.byteLength(msg.memo, "utf8") > MAX_MEMO) throw new ModuleError(`memo must not exceed ${MAX_MEMO} bytes: invalid memo`);
  if (msg.timeoutHeight.revisionHeight === 0n && msg.timeoutTimestamp === 0n) throw new ModuleError("timeout height and timeout timestamp cannot both be 0: invalid packet timeout");
  return k.ics20.transfer(msg);
}
