/**
 * Distribution's epochs hook (as Evmos's inflation module minted on AfterEpochEnd): at each end of
 * the configured epoch it mints the configured rewards and allocates them to the bonded validators.
 * The node runs it before the contract hooks (src/app/runtime.ts), so a contract hook that claims at
 * the same epoch end sees this epoch's rewards.
 */
import type { EpochHooks } from "../../epochs/types";
import type { ModuleEnv } from "../common/module-env";
import { blockEnv, readEnv } from "../common/module-env";
import type { DistributionKeeper } from "./keeper";

/** Distribution's epochs hook: mints and allocates at each end of its epoch (the identifier in its params, read at the time). */
export function distributionEpochHooks(denom: string, keepers: (env: ModuleEnv) => { distribution: DistributionKeeper }): EpochHooks {
  return {
    beforeEpochStart: async () => undefined,
    // idle at ticks of another epoch, or while the epoch mints nothing (a genesis with x/mint)
    idle: async (state, identifier) => {
      const params = await keepers(readEnv(state))
        .distribution.params()
        .catch(() => undefined);
      return params === undefined || params.epochIdentifier !== identifier || params.rewardsPerEpoch <= 0n;
    },
    // the hooks run isolated (MultiEpochHooks): a throw undoes this hook's work and is the block's event
    afterEpochEnd: async (ctx, identifier) => {
      const { distribution } = keepers(blockEnv(ctx, denom));
      const params = await distribution.params().catch(() => undefined);
      if (params === undefined || params.epochIdentifier !== identifier || params.rewardsPerEpoch <= 0n) return;
      await distribution.allocate(params.rewardsPerEpoch);
      ctx.emit({
        type: "mint",
        attributes: [
          { key: "epoch_identifier", value: identifier },
          { key: "amount", value: `${params.rewardsPerEpoch}` },
        ],
      });
    },
  };
}
