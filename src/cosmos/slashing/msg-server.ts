/**
 * x/slashing's Msg server (x/slashing/keeper/msg_server.go): one function per Msg, with the SDK's
 * checks in its order and words. The slashing precompile calls it.
 */
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import type { StakingKeeper } from "./expected-keepers";
import type { SlashingKeeper } from "./keeper";

/** The keepers slashing's Msg server and precompile run on (src/cosmos/app.ts `Keepers` has them). */
export interface SlashingKeepers {
  /** The env the keepers run in (the SDK's context: its block time). */
  env: ModuleEnv;
  slashing: SlashingKeeper;
  staking: StakingKeeper;
}

/** MsgUnjail: a jailed validator whose jail time has passed rejoins (Keeper.Unjail). */
export async function unjail(k: SlashingKeepers, msg: { validatorAddr: string }): Promise<void> {
  const v = await k.staking.validator(msg.validatorAddr);
  if (v === undefined) throw new ModuleError("address is not associated with any known validator");
  if (!v.jailed) throw new ModuleError("validator not jailed; cannot be unjailed");
  const info = await k.slashing.signingInfo(msg.validatorAddr);
  if (info.tombstoned) throw new ModuleError("validator still jailed; cannot be unjailed");
  if (k.env.time < info.jailedUntil) throw new ModuleError("validator still jailed; cannot be unjailed");
  await k.slashing.setJailed(msg.validatorAddr, false);
}
