/** x/gov's Msg server for what a proposal may carry of gov itself (x/gov/keeper/msg_server.go): MsgUpdateParams. */
import type { GovKeeper } from "./keeper";
import type { GovParams } from "./params";

/** MsgUpdateParams: the params whole (decoded against the current ones: src/cosmos/gov/messages.ts govParamsFromJson), validated by the keeper. */
export async function updateParams(k: { gov: GovKeeper }, msg: { params: GovParams }): Promise<void> {
  await k.gov.setParams(msg.params);
}
