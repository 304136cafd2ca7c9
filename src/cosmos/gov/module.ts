/**
 * x/gov as a block module of the chain: its genesis (a genesis.json's `app_state.gov`: params, the
 * first proposal id, the constitution) and its end block (src/cosmos/gov/keeper.ts), the keeper run on the
 * block's state: deposit periods that ran out drop their proposals, voting periods that ran out are
 * tallied, and each passed proposal's messages run isolated, so a message that fails leaves nothing of
 * the others behind (x/gov's cached context) and the proposal is recorded Failed with its error.
 * Blocks before the next period's end are quiet (hardhat_mine reserves them).
 */
import { type BlockContext, type BlockModule, type GenesisContext, runIsolated } from "../../chain/base/module";
import type { StateReader } from "../../chain/base/records";
import type { MsgRouter } from "./expected-keepers";
import type { GovEndBlock, GovKeepers } from "./keeper";
import type { GovParams } from "./params";
import { executeProposal } from "./messages";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { blockEnv, genesisEnv, readEnv } from "../common/module-env";

/** What a genesis sets in x/gov (absent: the SDK's defaults). */
export interface GovGenesis {
  params?: GovParams;
  startingProposalId?: bigint;
  constitution?: string;
}

const GOV_MODULE = "gov";

export function govBlockModule(genesis: GovGenesis, denom: string, keepers: (env: ModuleEnv) => GovKeepers, router: MsgRouter): BlockModule {
  const event = (type: string, id: bigint, result: string, extra: Array<{ key: string; value: string }> = []) => ({
    type,
    attributes: [{ key: "proposal_id", value: id.toString() }, { key: "proposal_result", value: result }, ...extra],
  });
  return {
    name: GOV_MODULE,
    initGenesis: async (ctx: GenesisContext) => {
      const keeper = keepers(genesisEnv(ctx, denom)).gov;
      // a fork of a chain that has the module keeps the remote's
      if ((await keeper.ids()).length > 0) return;
      if (genesis.params !== undefined) await keeper.setParams(genesis.params);
      if (genesis.startingProposalId !== undefined) await keeper.setNextId(genesis.startingProposalId);
      if (genesis.constitution !== undefined) await keeper.setConstitution(genesis.constitution);
    },
    endBlock: async (ctx: BlockContext) => {
      const next = await keepers(readEnv(ctx)).gov.nextDeadline();
      if (next === undefined || next > ctx.timestamp) return;
      const env = () => blockEnv(ctx, denom);
      let ended: GovEndBlock | undefined;
      // a dev chain goes on: a failure is the block's event, and the proposals wait for the next block
      await runIsolated(
        ctx,
        async () => {
          const k = keepers(env());
          ended = await k.gov.endBlock(k.staking);
        },
        (reason) => ctx.emit({ type: "gov_end_block_failed", attributes: [{ key: "reason", value: reason }] }),
      );
      if (ended === undefined) return;
      for (const id of ended.dropped) ctx.emit(event("inactive_proposal", id, "proposal_dropped"));
      for (const id of ended.rejected) ctx.emit(event("active_proposal", id, "proposal_rejected"));
      for (const id of ended.expeditedRejected) ctx.emit(event("active_proposal", id, "expedited_proposal_rejected"));
      for (const id of ended.passed) {
        // x/gov's cached context: all of the messages' effects, or none
        let error: string | undefined;
        await runIsolated(
          ctx,
          () => executeProposal(env(), id, keepers, router),
          (reason) => (error = reason),
        );
        const settled = await runIsolated(
          ctx,
          () => keepers(env()).gov.settle(id, error),
          (reason) => ctx.emit({ type: "gov_end_block_failed", attributes: [{ key: "reason", value: reason }] }),
        );
        if (settled) ctx.emit(event("active_proposal", id, error === undefined ? "proposal_passed" : "proposal_failed", error === undefined ? [] : [{ key: "proposal_log", value: error }]));
      }
    },
    quietBefore: async (_store, state: StateReader) => (await keepers(readEnv(state)).gov.nextDeadline()) ?? 2n ** 62n,
    checkState: async (state) => {
      const keeper = keepers(readEnv(state)).gov;
      try {
        await keeper.params();
        for (const id of await keeper.queue()) if ((await keeper.proposal(id))?.id !== id) throw new Error(`queued proposal ${id} is not a proposal`);
      } catch (err) {
        throw new ModuleError(`the gov module's records cannot be read: ${(err as Error).message}`);
      }
    },
  };
}
