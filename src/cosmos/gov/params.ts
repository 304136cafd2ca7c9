/**
 * x/gov's params (x/gov/types/v1/params.go): their defaults and their one check, which every path
 * that sets them runs (genesis, a MsgUpdateParams through a proposal: GovKeeper.setParams).
 */
import { DEC } from "../common/decimal";
import { ModuleError } from "../common/errors";

/** x/gov's params; deposits in the native coin, periods in seconds, ratios LegacyDecs. */
export interface GovParams {
  minDeposit: bigint;
  maxDepositPeriod: bigint;
  votingPeriod: bigint;
  quorum: bigint;
  threshold: bigint;
  vetoThreshold: bigint;
  minInitialDepositRatio: bigint;
  proposalCancelRatio: bigint;
  /** Where cancellation charges go: "" burns them. */
  proposalCancelDest: string;
  expeditedVotingPeriod: bigint;
  expeditedThreshold: bigint;
  expeditedMinDeposit: bigint;
  burnVoteQuorum: boolean;
  burnProposalDepositPrevote: boolean;
  burnVoteVeto: boolean;
  minDepositRatio: bigint;
}

/** The SDK's DefaultParams (x/gov/types/v1/params.go). */
export const DEFAULT_GOV_PARAMS: GovParams = {
  minDeposit: 10_000_000n,
  maxDepositPeriod: 172_800n,
  votingPeriod: 172_800n,
  quorum: (334n * DEC) / 1000n,
  threshold: DEC / 2n,
  vetoThreshold: (334n * DEC) / 1000n,
  minInitialDepositRatio: 0n,
  proposalCancelRatio: DEC / 2n,
  proposalCancelDest: "",
  expeditedVotingPeriod: 86_400n,
  expeditedThreshold: (667n * DEC) / 1000n,
  expeditedMinDeposit: 50_000_000n,
  burnVoteQuorum: false,
  burnProposalDepositPrevote: false,
  burnVoteVeto: true,
  minDepositRatio: DEC / 100n,
};

/**
 * x/gov's Params.ValidateBasic (x/gov/types/v1/params.go), in its words: run by every path that sets
 * the params (genesis, MsgUpdateParams through a proposal: GovKeeper.setParams).
 */
export function validateGovParams(p: GovParams, denom: string): void {
  const fraction = (v: bigint, what: string, positive = false) => {
    if (v < 0n || (positive && v === 0n)) throw new ModuleError(`${what} must be positive: ${v}`);
    if (v > DEC) throw new ModuleError(`${what} too large: ${v}`);
  };
  if (p.minDeposit <= 0n) throw new ModuleError(`invalid minimum deposit: ${p.minDeposit}${denom}`);
  if (p.expeditedMinDeposit < p.minDeposit) throw new ModuleError(`expedited minimum deposit must be greater than or equal to minimum deposit: ${p.expeditedMinDeposit}${denom}`);
  fraction(p.quorum, "quorom");
  fraction(p.threshold, "vote threshold", true);
  fraction(p.expeditedThreshold, "expedited threshold", true);
  if (p.expeditedThreshold <= p.threshold) throw new ModuleError("expedited threshold must be greater than the threshold");
  fraction(p.vetoThreshold, "veto threshold", true);
  if (p.maxDepositPeriod <= 0n) throw new ModuleError(`maximum deposit period must be positive: ${p.maxDepositPeriod}s`);
  if (p.votingPeriod <= 0n) throw new ModuleError(`voting period must be positive: ${p.votingPeriod}s`);
  if (p.expeditedVotingPeriod <= 0n) throw new ModuleError(`expedited voting period must be positive: ${p.expeditedVotingPeriod}s`);
  if (p.expeditedVotingPeriod >= p.votingPeriod) throw new ModuleError(`expedited voting period ${p.expeditedVotingPeriod}s must be strictly less that the regular voting period ${p.votingPeriod}s`);
  fraction(p.minInitialDepositRatio, "mininum initial deposit ratio of proposal");
  fraction(p.proposalCancelRatio, "proposal cancel ratio");
  fraction(p.minDepositRatio, "min deposit ratio");
}
