/**
 * The IBC transfer module as a block module of the chain (src/cosmos/ics20/keeper.ts):
 * - genesis: code at the ICS20 precompile's account (so its records persist and callers see a
 *   contract) and the configured channels; a fork of a chain that has them keeps the remote's;
 * - end block: pending packets whose timeout timestamp the block's time reaches time out (their
 *   senders refunded: the keeper on the block's state, isolated), each leaving a `timeout_packet`
 *   event; blocks before the next such time are quiet, so hardhat_mine reserves them.
 */
import { getBytes } from "ethers/utils";
import { type BlockContext, type BlockModule, runIsolated } from "../../chain/base/module";
import { ICS20_PRECOMPILE, type IbcChannel, type Ics20Keepers } from "./keeper";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { INVALID_CODE, blockEnv, genesisEnv, readEnv } from "../common/module-env";

export interface Ics20Settings {
  channels: IbcChannel[];
}

/** One open channel to a counterparty, as a two-chain test network has. */
export const DEFAULT_CHANNELS: IbcChannel[] = [{ channelId: "channel-0", counterpartyChannelId: "channel-0", counterpartyChainId: "counterparty-1", open: true }];

export function ics20BlockModule(settings: Ics20Settings, denom: string, keepers: (env: ModuleEnv) => Ics20Keepers): BlockModule {
  return {
    name: "transfer",
    initGenesis: async (ctx) => {
      const keeper = keepers(genesisEnv(ctx, denom)).ics20;
      if ((await keeper.channels()).length > 0) return;
      await ctx.putCode(getBytes(ICS20_PRECOMPILE), INVALID_CODE);
      await keeper.setChannels(settings.channels);
    },
    endBlock: async (ctx: BlockContext) => {
      const next = await keepers(readEnv(ctx)).ics20.nextTimeout();
      if (next === undefined || next > ctx.timestamp) return;
      // a dev chain goes on: a failure is the block's event, and the packets wait for the next block
      await runIsolated(
        ctx,
        async () => {
          for (const p of await keepers(blockEnv(ctx, denom)).ics20.timeOutExpired()) {
            ctx.emit({
              type: "timeout_packet",
              attributes: [
                { key: "packet_src_port", value: "transfer" },
                { key: "packet_src_channel", value: p.sourceChannel },
                { key: "packet_sequence", value: p.sequence.toString() },
              ],
            });
          }
        },
        (reason) => ctx.emit({ type: "transfer_end_block_failed", attributes: [{ key: "reason", value: reason }] }),
      );
    },
    quietBefore: async (_store, state) => (await keepers(readEnv(state)).ics20.nextTimeout()) ?? 2n ** 62n,
    checkState: async (state) => {
      try {
        const keeper = keepers(readEnv(state)).ics20;
        for (const c of await keeper.channels()) if (typeof c.channelId !== "string" || typeof c.open !== "boolean") throw new Error(`channel ${JSON.stringify(c)} is not a channel`);
        await keeper.packets();
        await keeper.denoms();
      } catch (err) {
        throw new ModuleError(`the transfer module's records cannot be read: ${(err as Error).message}`);
      }
    },
  };
}
