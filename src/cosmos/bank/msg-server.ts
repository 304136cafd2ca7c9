/** x/bank's Msg server (x/bank/keeper/msg_server.go), as far as this chain routes its Msgs: MsgSend. */
import type { JsonCoin } from "../common/proto-json";
import type { Bank } from "./keeper";

/** MsgSend: each coin from the sender to the receiver (the native coin's as EVM balance). */
export async function send(k: { bank: Bank }, msg: { fromAddress: string; toAddress: string; amount: JsonCoin[] }): Promise<void> {
  for (const c of msg.amount) await k.bank.send(msg.fromAddress, msg.toAddress, c.denom, c.amount);
}
