/**
 * x/gov's Tally (x/gov/keeper/tally.go): each voter's delegations to bonded validators count at the
 * validator's exchange rate, a validator's own vote counts for the shares its delegators did not vote
 * with, and the result decides by quorum (of the bonded stake), veto and threshold (the expedited one
 * for an expedited proposal) whether the proposal passes and whether its deposits burn. LegacyDec
 * arithmetic with the SDK's rounding (src/cosmos/common/legacy-dec.ts); the result's amounts are truncated.
 */
import { DEC } from "../common/decimal";
import { decMul, decQuo } from "../common/legacy-dec";
import type { StakingKeeper } from "./expected-keepers";

/** Whole coins per option (x/gov's TallyResult). */
export interface Tally {
  yes: bigint;
  abstain: bigint;
  no: bigint;
  noWithVeto: bigint;
}

type Options = ReadonlyArray<{ option: number; weight: bigint }>;

/** What the tally reads of a proposal (src/cosmos/gov/keeper.ts's ProposalRecord) and of the params (GovParams). */
interface TallyInput {
  votes: ReadonlyArray<{ voter: string; options: Options }>;
  expedited?: boolean;
}
interface TallyParams {
  quorum: bigint;
  threshold: bigint;
  expeditedThreshold: bigint;
  vetoThreshold: bigint;
  burnVoteQuorum: boolean;
  burnVoteVeto: boolean;
}

export interface TallyOutcome {
  passes: boolean;
  burnDeposits: boolean;
  result: Tally;
}

/** x/gov's vote options (src/cosmos/gov/keeper.ts's VoteOption), as the tally keys its results. */
const YES = 1;
const ABSTAIN = 2;
const NO = 3;
const NO_WITH_VETO = 4;

export async function tallyProposal(p: TallyInput, params: TallyParams, staking: StakingKeeper): Promise<TallyOutcome> {
  const bonded = await staking.bondedValidators();
  const vals = new Map(bonded.map((v) => [v.operator.toLowerCase(), { v, deductions: 0n, vote: undefined as Options | undefined }]));
  const results = new Map<number, bigint>([YES, ABSTAIN, NO, NO_WITH_VETO].map((o) => [o, 0n]));
  let total = 0n;
  const add = (options: Options, power: bigint) => {
    for (const o of options) results.set(o.option, (results.get(o.option) ?? 0n) + decMul(power, o.weight));
    total += power;
  };
  for (const vote of p.votes) {
    const own = vals.get(vote.voter.toLowerCase());
    if (own !== undefined) own.vote = vote.options;
    for (const operator of await staking.delegatorValidators(vote.voter)) {
      const val = vals.get(operator.toLowerCase());
      const shares = await staking.delegationShares(vote.voter, operator);
      if (val === undefined || shares === undefined || val.v.delegatorShares === 0n) continue;
      val.deductions += shares;
      // delegation shares × bonded tokens / the validator's shares
      add(vote.options, decQuo(shares * val.v.tokens, val.v.delegatorShares));
    }
  }
  for (const val of vals.values()) {
    if (val.vote === undefined || val.v.delegatorShares === 0n) continue;
    add(val.vote, decQuo((val.v.delegatorShares - val.deductions) * val.v.tokens, val.v.delegatorShares));
  }
  const r = (o: number) => results.get(o) ?? 0n;
  const result: Tally = { yes: r(YES) / DEC, abstain: r(ABSTAIN) / DEC, no: r(NO) / DEC, noWithVeto: r(NO_WITH_VETO) / DEC };
  const totalBonded = bonded.reduce((s, v) => s + v.tokens, 0n);
  // no stake: the proposal fails
  if (totalBonded === 0n) return { passes: false, burnDeposits: false, result };
  if (decQuo(total, totalBonded * DEC) < params.quorum) return { passes: false, burnDeposits: params.burnVoteQuorum, result };
  // everyone abstained
  const voting = total - r(ABSTAIN);
  if (voting === 0n) return { passes: false, burnDeposits: false, result };
  if (decQuo(r(NO_WITH_VETO), voting) > params.vetoThreshold) return { passes: false, burnDeposits: params.burnVoteVeto, result };
  const threshold = p.expedited === true ? params.expeditedThreshold : params.threshold;
  return { passes: decQuo(r(YES), voting) > threshold, burnDeposits: false, result };
}
