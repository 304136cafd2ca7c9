/**
 * The gov precompile at 0x…0805 (contracts/precompiles/IGov.sol): cosmos/evm's queries
 * (precompiles/gov) over proposals, votes and deposits a test sets (cosmos_setProposal). Proposals
 * do not run here — no deposit or voting periods end, no tally is computed, no message executes —
 * so the transactions (submitProposal, vote, …) revert saying so; a contract that reads governance
 * (a proposal's status, a voter's vote) can be tested against any state the test writes. The state
 * is kept in the precompile's storage (records.ts), as the other modules' is.
 */
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes } from "ethers/utils";
import { toBech32 } from "./bech32";
import { decString } from "./decimal";
import { type ModuleEnv, ModuleError } from "./ledger";
import type { MethodHandler } from "./module-precompile";
import { pageOf, paginate } from "./staking-precompile";

export const GOV_PRECOMPILE = "0x0000000000000000000000000000000000000805" as const;

export enum ProposalStatus {
  Unspecified = 0,
  DepositPeriod = 1,
  VotingPeriod = 2,
  Passed = 3,
  Rejected = 4,
  Failed = 5,
}

export enum VoteOption {
  Unspecified = 0,
  Yes = 1,
  Abstain = 2,
  No = 3,
  NoWithVeto = 4,
}

export interface Tally {
  yes: bigint;
  abstain: bigint;
  no: bigint;
  noWithVeto: bigint;
}

export interface WeightedVote {
  voter: string;
  /** Options with their weights (LegacyDecs summing to 1). */
  options: Array<{ option: VoteOption; weight: bigint }>;
  metadata: string;
}

export interface ProposalRecord {
  id: bigint;
  /** The messages' type URLs ("/cosmos.bank.v1beta1.MsgSend", …). */
  messages: string[];
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
  votes: WeightedVote[];
  deposits: Array<{ depositor: string; amount: bigint }>;
}

const COIN = "tuple(string denom, uint256 amount)";
const TALLY = "tuple(string yes, string abstain, string no, string noWithVeto)";
const PROPOSAL = `tuple(uint64 id, string[] messages, uint32 status, ${TALLY} finalTallyResult, uint64 submitTime, uint64 depositEndTime, ${COIN}[] totalDeposit, uint64 votingStartTime, uint64 votingEndTime, string metadata, string title, string summary, address proposer)`;
const VOTE = "tuple(uint64 proposalId, address voter, tuple(uint8 option, string weight)[] options, string metadata)";
const DEPOSIT = `tuple(uint64 proposalId, address depositor, ${COIN}[] amount)`;
const PAGE_REQUEST = "tuple(bytes key, uint64 offset, uint64 limit, bool countTotal, bool reverse)";
const PAGE_RESPONSE = "tuple(bytes nextKey, uint64 total)";

export const GOV_ABI = new Interface([
  `function submitProposal(address proposer, bytes jsonProposal, ${COIN}[] deposit) returns (uint64 proposalId)`,
  "function cancelProposal(address proposer, uint64 proposalId) returns (bool success)",
  `function deposit(address depositor, uint64 proposalId, ${COIN}[] amount) returns (bool success)`,
  "function vote(address voter, uint64 proposalId, uint8 option, string metadata) returns (bool success)",
  "function voteWeighted(address voter, uint64 proposalId, tuple(uint8 option, string weight)[] options, string metadata) returns (bool success)",
  `function getVote(uint64 proposalId, address voter) view returns (${VOTE} vote)`,
  `function getVotes(uint64 proposalId, ${PAGE_REQUEST} pagination) view returns (${VOTE}[] votes, ${PAGE_RESPONSE} pageResponse)`,
  `function getDeposit(uint64 proposalId, address depositor) view returns (${DEPOSIT} deposit)`,
  `function getDeposits(uint64 proposalId, ${PAGE_REQUEST} pagination) view returns (${DEPOSIT}[] deposits, ${PAGE_RESPONSE} pageResponse)`,
  `function getTallyResult(uint64 proposalId) view returns (${TALLY} tallyResult)`,
  `function getProposal(uint64 proposalId) view returns (${PROPOSAL} proposal)`,
  `function getProposals(uint32 proposalStatus, address voter, address depositor, ${PAGE_REQUEST} pagination) view returns (${PROPOSAL}[] proposals, ${PAGE_RESPONSE} pageResponse)`,
  `function getParams() view returns (tuple(int64 votingPeriod, ${COIN}[] minDeposit, int64 maxDepositPeriod, string quorum, string threshold, string vetoThreshold, string minInitialDepositRatio, string proposalCancelRatio, string proposalCancelDest, int64 expeditedVotingPeriod, string expeditedThreshold, ${COIN}[] expeditedMinDeposit, bool burnVoteQuorum, bool burnProposalDepositPrevote, bool burnVoteVeto, string minDepositRatio) params)`,
  "function getConstitution() view returns (string constitution)",
  "event SubmitProposal(address indexed proposer, uint64 proposalId)",
  "event CancelProposal(address indexed proposer, uint64 proposalId)",
  "event Deposit(address indexed depositor, uint64 proposalId, tuple(string denom, uint256 amount)[] amount)",
  "event Vote(address indexed voter, uint64 proposalId, uint8 option)",
  "event VoteWeighted(address indexed voter, uint64 proposalId, tuple(uint8 option, string weight)[] options)",
]);

export const GOV_TRANSACTIONS: ReadonlySet<string> = new Set(["submitProposal", "cancelProposal", "deposit", "vote", "voteWeighted"]);

const D = 10n ** 18n;

export class GovKeeper {
  constructor(private readonly _env: ModuleEnv) {}

  private get _r() {
    return this._env.records(GOV_PRECOMPILE);
  }

  async ids(): Promise<bigint[]> {
    return (await this._r.get<bigint[]>("proposals")) ?? [];
  }

  async proposal(id: bigint): Promise<ProposalRecord | undefined> {
    return this._r.get<ProposalRecord>(`proposal/${id}`);
  }

  /** Writes a proposal (a new id or a replacement). */
  async setProposal(p: ProposalRecord): Promise<void> {
    const ids = await this.ids();
    if (!ids.includes(p.id)) await this._r.put("proposals", [...ids, p.id].sort((a, b) => (a < b ? -1 : 1)));
    await this._r.put(`proposal/${p.id}`, p);
  }

  async constitution(): Promise<string> {
    return (await this._r.get<string>("constitution")) ?? "";
  }

  async setConstitution(text: string): Promise<void> {
    await this._r.put("constitution", text === "" ? undefined : text);
  }
}

const tallyRow = (t: Tally): string[] => [t.yes.toString(), t.abstain.toString(), t.no.toString(), t.noWithVeto.toString()];

export function govHandlers(accountPrefix: string): Record<string, MethodHandler> {
  const bech = (a: string) => toBech32(accountPrefix, getBytes(a));
  const row = (p: ProposalRecord, denom: string): unknown[] => [
    p.id,
    p.messages,
    p.status,
    tallyRow(p.finalTallyResult),
    p.submitTime,
    p.depositEndTime,
    p.totalDeposit === 0n ? [] : [[denom, p.totalDeposit]],
    p.votingStartTime,
    p.votingEndTime,
    p.metadata,
    p.title,
    p.summary,
    p.proposer,
  ];
  const voteRow = (id: bigint, v: WeightedVote): unknown[] => [id, v.voter, v.options.map((o) => [o.option, decString(o.weight)]), v.metadata];
  const depositRow = (id: bigint, d: { depositor: string; amount: bigint }, denom: string): unknown[] => [id, d.depositor, [[denom, d.amount]]];
  const need = async (env: ModuleEnv, id: bigint): Promise<ProposalRecord> => {
    const p = await new GovKeeper(env).proposal(id);
    if (p === undefined) throw new ModuleError(`rpc error: code = NotFound desc = proposal ${id} doesn't exist`);
    return p;
  };
  const refused = async (): Promise<never> => {
    throw new ModuleError("gov transactions are not simulated on this chain, only its queries over state a test sets (cosmos_setProposal)");
  };
  return {
    submitProposal: refused,
    cancelProposal: refused,
    deposit: refused,
    vote: refused,
    voteWeighted: refused,
    getProposal: async (call) => {
      const [id] = call.args as unknown as [bigint];
      return [row(await need(call.env, id), call.env.denom)];
    },
    getProposals: async (call) => {
      const [status, voter, depositor, page] = call.args as unknown as [bigint, string, string, unknown];
      const keeper = new GovKeeper(call.env);
      const zero = (a: string) => /^0x0{40}$/i.test(a);
      const rows: unknown[] = [];
      for (const id of await keeper.ids()) {
        const p = (await keeper.proposal(id)) as ProposalRecord;
        if (status !== 0n && BigInt(p.status) !== status) continue;
        if (!zero(voter) && !p.votes.some((v) => getAddress(v.voter) === getAddress(voter))) continue;
        if (!zero(depositor) && !p.deposits.some((d) => getAddress(d.depositor) === getAddress(depositor))) continue;
        rows.push(row(p, call.env.denom));
      }
      const out = paginate(rows, pageOf(page));
      return [out.items, [out.nextKey, out.total]];
    },
    getTallyResult: async (call) => {
      const [id] = call.args as unknown as [bigint];
      return [tallyRow((await need(call.env, id)).finalTallyResult)];
    },
    getVote: async (call) => {
      const [id, voter] = call.args as unknown as [bigint, string];
      const p = await need(call.env, id);
      const v = p.votes.find((x) => getAddress(x.voter) === getAddress(voter));
      if (v === undefined) throw new ModuleError(`rpc error: code = InvalidArgument desc = voter: ${bech(voter)} not found for proposal: ${id}`);
      return [voteRow(id, v)];
    },
    getVotes: async (call) => {
      const [id, page] = call.args as unknown as [bigint, unknown];
      const p = await need(call.env, id);
      const out = paginate(p.votes.map((v) => voteRow(id, v)), pageOf(page));
      return [out.items, [out.nextKey, out.total]];
    },
    getDeposit: async (call) => {
      const [id, depositor] = call.args as unknown as [bigint, string];
      const p = await need(call.env, id);
      const d = p.deposits.find((x) => getAddress(x.depositor) === getAddress(depositor));
      if (d === undefined) throw new ModuleError(`rpc error: code = InvalidArgument desc = depositer: ${bech(depositor)} not found for proposal: ${id}`);
      return [depositRow(id, d, call.env.denom)];
    },
    getDeposits: async (call) => {
      const [id, page] = call.args as unknown as [bigint, unknown];
      const p = await need(call.env, id);
      const out = paginate(p.deposits.map((d) => depositRow(id, d, call.env.denom)), pageOf(page));
      return [out.items, [out.nextKey, out.total]];
    },
    // the Cosmos SDK's default gov params (x/gov/types/v1/params.go), periods in seconds, deposits in the chain's denom
    getParams: async (call) => [
      [
        172_800n,
        [[call.env.denom, 10_000_000n]],
        172_800n,
        decString((334n * D) / 1000n),
        decString(D / 2n),
        decString((334n * D) / 1000n),
        decString(0n),
        decString(D / 2n),
        "",
        86_400n,
        decString((667n * D) / 1000n),
        [[call.env.denom, 50_000_000n]],
        false,
        false,
        true,
        decString(D / 100n),
      ],
    ],
    getConstitution: async (call) => [await new GovKeeper(call.env).constitution()],
  };
}
