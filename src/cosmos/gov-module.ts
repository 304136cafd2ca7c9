/**
 * x/gov as a block module of the chain: its genesis (a genesis.json's `app_state.gov`: params, the
 * first proposal id, the constitution) and its end block (src/cosmos/gov.ts): deposit periods that ran
 * out drop their proposals, voting periods that ran out are tallied, and each passed proposal's
 * messages run in a system call of their own, so a message that fails leaves nothing of the others
 * behind (x/gov's cached context) and the proposal is recorded Failed with its error. Blocks before
 * the next period's end are quiet (hardhat_mine reserves them).
 */
import { AbiCoder } from "ethers/abi";
import { getBytes, hexlify } from "ethers/utils";
import type { BlockContext, BlockModule, GenesisContext, StateReader } from "../chain/module";
import { GOV_PRECOMPILE, GovKeeper, type GovParams } from "./gov";
import { GOV_ABI } from "./gov-precompile";
import { ModuleError } from "./ledger";
import { genesisEnv, readEnv } from "./modules";

/** What a genesis sets in x/gov (absent: the SDK's defaults). */
export interface GovGenesis {
  params?: GovParams;
  startingProposalId?: bigint;
  constitution?: string;
}

export const GOV_MODULE = "gov";
/** Gas of the module's own calls: they are not users' transactions. */
const SYSTEM_GAS = 30_000_000n;

/** The reason a chain-only call reverted with (Error(string)), else the failure's text. */
function revertReason(r: { returnValue: Uint8Array; error?: string }): string {
  const data = hexlify(r.returnValue);
  if (data.startsWith("0x08c379a0")) return String(AbiCoder.defaultAbiCoder().decode(["string"], `0x${data.slice(10)}`)[0]);
  return (r.error ?? "unknown").replace(/^execution reverted: /, "");
}

export function govBlockModule(genesis: GovGenesis, denom: string): BlockModule {
  const call = (ctx: BlockContext, method: string, args: unknown[]) =>
    ctx.systemCall({ caller: getBytes(GOV_PRECOMPILE), to: getBytes(GOV_PRECOMPILE), data: getBytes(GOV_ABI.encodeFunctionData(method, args)), gasLimit: SYSTEM_GAS });
  const event = (type: string, id: bigint, result: string, extra: Array<{ key: string; value: string }> = []) => ({
    type,
    attributes: [{ key: "proposal_id", value: id.toString() }, { key: "proposal_result", value: result }, ...extra],
  });
  return {
    name: GOV_MODULE,
    initGenesis: async (ctx: GenesisContext) => {
      const keeper = new GovKeeper(genesisEnv(ctx, denom));
      // a fork of a chain that has the module keeps the remote's
      if ((await keeper.ids()).length > 0) return;
      if (genesis.params !== undefined) await keeper.setParams(genesis.params);
      if (genesis.startingProposalId !== undefined) await keeper.setNextId(genesis.startingProposalId);
      if (genesis.constitution !== undefined) await keeper.setConstitution(genesis.constitution);
    },
    endBlock: async (ctx: BlockContext) => {
      const next = await new GovKeeper(readEnv(ctx)).nextDeadline();
      if (next === undefined || next > ctx.timestamp) return;
      const r = await call(ctx, "endBlock", []);
      // a dev chain goes on: the failure is the block's event, and the proposals wait for the next block
      if (!r.success) return void ctx.emit({ type: "gov_end_block_failed", attributes: [{ key: "reason", value: revertReason(r) }] });
      const [dropped, passed, rejected, expeditedRejected] = GOV_ABI.decodeFunctionResult("endBlock", r.returnValue) as unknown as bigint[][];
      for (const id of dropped) ctx.emit(event("inactive_proposal", id, "proposal_dropped"));
      for (const id of rejected) ctx.emit(event("active_proposal", id, "proposal_rejected"));
      for (const id of expeditedRejected) ctx.emit(event("active_proposal", id, "expedited_proposal_rejected"));
      for (const id of passed) {
        const run = await call(ctx, "executeProposal", [id]);
        const error = run.success ? "" : revertReason(run);
        const settled = await call(ctx, "settleProposal", [id, error]);
        if (!settled.success) throw new ModuleError(`x/gov could not record proposal ${id}'s end: ${revertReason(settled)}`);
        ctx.emit(event("active_proposal", id, error === "" ? "proposal_passed" : "proposal_failed", error === "" ? [] : [{ key: "proposal_log", value: error }]));
      }
    },
    quietBefore: async (_store, state: StateReader) => (await new GovKeeper(readEnv(state)).nextDeadline()) ?? 2n ** 62n,
    checkState: async (state) => {
      const keeper = new GovKeeper(readEnv(state));
      try {
        await keeper.params();
        for (const id of await keeper.queue()) if ((await keeper.proposal(id))?.id !== id) throw new Error(`queued proposal ${id} is not a proposal`);
      } catch (err) {
        throw new ModuleError(`the gov module's records cannot be read: ${(err as Error).message}`);
      }
    },
  };
}
