/**
 * The params sections of a Cosmos genesis.json as the chain holds them now, written by
 * `cosmos_exportGenesis` beside staking's and the coins' (src/cosmos/staking/genesis.ts,
 * src/cosmos/coins-genesis.ts), so an exported chain starts again (src/cosmos/app-genesis.ts reads them)
 * with the same community tax, x/mint (when it has one) and x/gov params, first id and constitution.
 */
import { getBytes } from "ethers/utils";
import { type Bech32Prefixes, toBech32 } from "./common/address-codec";
import { decString } from "./common/decimal";
import { keepers } from "./app";
import type { ModuleEnv } from "./common/module-env";
import type { CosmosQueries } from "./query";

type Json = Record<string, unknown>;

export async function paramsGenesisJson(env: ModuleEnv, prefixes: Bech32Prefixes): Promise<Json> {
  const out: Json = {};
  const k = keepers(env);
  const distribution = await k.distribution.params().catch(() => undefined);
  if (distribution !== undefined) out.distribution = { params: { community_tax: decString(distribution.communityTax) } };
  const mint = k.mint;
  const mintParams = await mint.params();
  if (mintParams !== undefined) {
    const minter = await mint.minter();
    out.mint = {
      minter: { inflation: decString(minter.inflation), annual_provisions: decString(minter.annualProvisions) },
      params: {
        mint_denom: env.denom,
        inflation_rate_change: decString(mintParams.inflationRateChange),
        inflation_max: decString(mintParams.inflationMax),
        inflation_min: decString(mintParams.inflationMin),
        goal_bonded: decString(mintParams.goalBonded),
        blocks_per_year: mintParams.blocksPerYear.toString(),
      },
    };
  }
  const gov = k.gov;
  const p = await gov.params();
  const coins = (amount: bigint) => [{ denom: env.denom, amount: amount.toString() }];
  out.gov = {
    starting_proposal_id: (await gov.nextId()).toString(),
    params: {
      min_deposit: coins(p.minDeposit),
      max_deposit_period: `${p.maxDepositPeriod}s`,
      voting_period: `${p.votingPeriod}s`,
      quorum: decString(p.quorum),
      threshold: decString(p.threshold),
      veto_threshold: decString(p.vetoThreshold),
      min_initial_deposit_ratio: decString(p.minInitialDepositRatio),
      proposal_cancel_ratio: decString(p.proposalCancelRatio),
      proposal_cancel_dest: p.proposalCancelDest === "" ? "" : toBech32(prefixes.account, getBytes(p.proposalCancelDest)),
      expedited_voting_period: `${p.expeditedVotingPeriod}s`,
      expedited_threshold: decString(p.expeditedThreshold),
      expedited_min_deposit: coins(p.expeditedMinDeposit),
      burn_vote_quorum: p.burnVoteQuorum,
      burn_proposal_deposit_prevote: p.burnProposalDepositPrevote,
      burn_vote_veto: p.burnVoteVeto,
      min_deposit_ratio: decString(p.minDepositRatio),
    },
    constitution: await gov.constitution(),
  };
  return out;
}

/** `app_state.staking` of the chain now: the params, the validators and every delegation. */
export async function stakingGenesisJson(q: CosmosQueries): Promise<Record<string, unknown>> {
  const summary = (await q.summary()) as { staking_params: { unbonding_time: string; max_entries: number; max_validators: number; bond_denom: string }; validators: Array<Record<string, unknown>> };
  const delegations: unknown[] = [];
  for (const delegator of await q.delegators()) {
    for (const d of (await q.delegations(delegator)) as Array<{ delegation: Record<string, string> }>) delegations.push(d.delegation);
  }
  return {
    params: {
      unbonding_time: summary.staking_params.unbonding_time,
      max_entries: summary.staking_params.max_entries,
      max_validators: summary.staking_params.max_validators,
      bond_denom: summary.staking_params.bond_denom,
    },
    validators: summary.validators,
    delegations,
  };
}
