/** x/mint's Msg server (x/mint/keeper/msg_server.go): MsgUpdateParams. */
import { ModuleError } from "../common/errors";
import type { MintKeeper, MintParams } from "./keeper";

export const MSG_UPDATE_PARAMS = "/cosmos.mint.v1beta1.MsgUpdateParams";

/** MsgUpdateParams: the fields a message leaves out keep their value; the keeper runs x/mint's Params.Validate. A chain without x/mint routes no such Msg. */
export async function updateParams(k: { mint: MintKeeper }, msg: { params: Partial<MintParams> }): Promise<void> {
  const now = await k.mint.params();
  if (now === undefined) throw new ModuleError(`${MSG_UPDATE_PARAMS}: proposal message not recognized by router`);
  const p = msg.params;
  // in the record's field order (a record's bytes are its JSON)
  const next: MintParams = {
    inflationRateChange: p.inflationRateChange ?? now.inflationRateChange,
    inflationMax: p.inflationMax ?? now.inflationMax,
    inflationMin: p.inflationMin ?? now.inflationMin,
    goalBonded: p.goalBonded ?? now.goalBonded,
    blocksPerYear: p.blocksPerYear ?? now.blocksPerYear,
  };
  await k.mint.init(next, await k.mint.minter());
}
