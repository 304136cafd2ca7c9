/**
 * x/mint's begin block as the chain runs it: each block's provision minted and allocated as
 * distribution allocates (AllocateTokens), a `mint` event with the SDK's attributes; for a run of
 * otherwise quiet blocks it is played (src/cosmos/played-mint.ts). The block's work runs
 * isolated: a failure is the block's `mint_failed` event and the chain goes on.
 */
import { type BlockContext, type ModuleEvent, runIsolated } from "../../chain/base/module";
import { decString } from "../common/decimal";
import { BANK_PRECOMPILE, BONDED_POOL } from "../common/accounts";
import { type ModuleEnv } from "../common/module-env";
import { blockEnv } from "../common/module-env";
import type { DistributionKeeper, StakingKeeper } from "./expected-keepers";
import type { MintKeeper, Minter } from "./keeper";

/** The keepers x/mint's block work runs on (src/cosmos/app.ts `Keepers` has them). */
export interface MintBlockKeepers {
  mint: MintKeeper;
  distribution: DistributionKeeper;
  staking: StakingKeeper;
}

/** The begin block's `mint` event (the SDK's attributes), for a made block and a played one alike. */
export function mintEvent(step: { provision: bigint; minter: Minter; bondedRatio: bigint }, denom: string): ModuleEvent {
  return {
    type: "mint",
    attributes: [
      { key: "bonded_ratio", value: decString(step.bondedRatio) },
      { key: "inflation", value: decString(step.minter.inflation) },
      { key: "annual_provisions", value: decString(step.minter.annualProvisions) },
      { key: "amount", value: `${step.provision}${denom}` },
    ],
  };
}

/** x/mint's begin block: the block's provision minted and allocated (a `mint` event, the SDK's attributes). */
export async function mintBlockProvision(ctx: BlockContext, denom: string, keepers: (env: ModuleEnv) => MintBlockKeepers): Promise<void> {
  await runIsolated(
    ctx,
    async () => {
      const env = blockEnv(ctx, denom);
      const k = keepers(env);
      // x/staking's TotalBondedTokens: the bonded pool's balance (one read, however many validators there are)
      const bonded = await env.balance(BONDED_POOL);
      const supply = (await env.records(BANK_PRECOMPILE).get<bigint>("supply")) ?? 0n;
      const step = await k.mint.beginBlock(bonded, supply);
      await k.distribution.allocate(step.provision);
      ctx.emit(mintEvent(step, denom));
    },
    // a dev chain goes on, as with staking's end block: the failure is the block's event
    (reason) => ctx.emit({ type: "mint_failed", attributes: [{ key: "reason", value: reason }] }),
  );
}
