/**
 * The IBC transfer module's genesis on this chain (src/cosmos/ics20.ts): code at the ICS20
 * precompile's account (so its records persist and callers see a contract) and the configured
 * channels. A fork of a chain that has them keeps the remote's.
 */
import { getBytes } from "ethers";
import type { BlockModule } from "../chain/module";
import { ICS20_PRECOMPILE, type IbcChannel, Ics20Keeper } from "./ics20";
import { ModuleError } from "./ledger";
import { INVALID_CODE, genesisEnv, readEnv } from "./modules";

export interface Ics20Settings {
  channels: IbcChannel[];
}

/** One open channel to a counterparty, as a two-chain test network has. */
export const DEFAULT_CHANNELS: IbcChannel[] = [{ channelId: "channel-0", counterpartyChannelId: "channel-0", counterpartyChainId: "counterparty-1", open: true }];

export function ics20BlockModule(settings: Ics20Settings, denom: string): BlockModule {
  return {
    name: "transfer",
    initGenesis: async (ctx) => {
      const keeper = new Ics20Keeper(genesisEnv(ctx, denom));
      if ((await keeper.channels()).length > 0) return;
      await ctx.putCode(getBytes(ICS20_PRECOMPILE), INVALID_CODE);
      await keeper.setChannels(settings.channels);
    },
    checkState: async (state) => {
      try {
        const keeper = new Ics20Keeper(readEnv(state));
        for (const c of await keeper.channels()) if (typeof c.channelId !== "string" || typeof c.open !== "boolean") throw new Error(`channel ${JSON.stringify(c)} is not a channel`);
        await keeper.packets();
        await keeper.denoms();
      } catch (err) {
        throw new ModuleError(`the transfer module's records cannot be read: ${(err as Error).message}`);
      }
    },
  };
}
