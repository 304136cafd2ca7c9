/** x/gov's proposals and votes as this chain keeps them (src/cosmos/gov/keeper.ts runs them). */
import type { Tally } from "./tally";

/** x/gov's ProposalStatus, numbered as its protobuf enum (0 to 5). */
export enum ProposalStatus {
  Unspecified,
  DepositPeriod,
  VotingPeriod,
  Passed,
  Rejected,
  Failed,
}

/** x/gov's VoteOption, numbered as its protobuf enum (0 to 4). */
export enum VoteOption {
  Unspecified,
  Yes,
  Abstain,
  No,
  NoWithVeto,
}

export interface WeightedVote {
  voter: string;
  /** Options with their weights (LegacyDecs summing to 1), and the weight as the voter wrote it. */
  options: Array<{ option: VoteOption; weight: bigint; text?: string }>;
  metadata: string;
}

export interface ProposalRecord {
  id: bigint;
  /** The messages' type URLs ("/cosmos.bank.v1beta1.MsgSend", …). */
  messages: string[];
  /** The messages as submitted (proto JSON), which run when the proposal passes; none for a proposal a test wrote. */
  bodies?: Array<Record<string, unknown>>;
  status: ProposalStatus;
  finalTallyResult: Tally;
  submitTime: bigint;
  depositEndTime: bigint;
  totalDeposit: bigint;
  votingStartTime: bigint;
  votingEndTime: bigint;
  metadata: string;
  title: string;
  summary: string;
  proposer: string;
  expedited?: boolean;
  failedReason?: string;
  votes: WeightedVote[];
  deposits: Array<{ depositor: string; amount: bigint }>;
}

/** A proposal's own record: without its votes and deposits (records of their own), or with them inline when written before they were. */
export type StoredProposal = Omit<ProposalRecord, "votes" | "deposits"> & Partial<Pick<ProposalRecord, "votes" | "deposits">>;
