/**
 * The gov precompile at 0x…0805 (cosmos/evm's precompiles/gov, contracts/precompiles/IGov.sol): the
 * transactions (submitProposal, deposit, vote, voteWeighted, cancelProposal) run x/gov's keeper
 * (src/cosmos/gov/keeper.ts) for the caller, and the queries read its state, a proposal in its voting
 * period tallied as it stands. The module's end block is src/cosmos/gov/module.ts.
 */
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes } from "ethers/utils";
import { type Bech32Prefixes, toBech32 } from "../common/address-codec";
import { decString } from "../common/decimal";
import { type GovKeepers, type ProposalRecord, ProposalStatus, type Tally, type WeightedVote, parseWeight } from "./keeper";
import type { MsgRouter } from "./expected-keepers";
import { parseProposalJson } from "./messages";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { type MethodHandler, requireSender } from "../common/module-precompile";
import { pageOf, paginate } from "../common/paging";

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

const tallyRow = (t: Tally): string[] => [t.yes.toString(), t.abstain.toString(), t.no.toString(), t.noWithVeto.toString()];

/** Coins an argument carries, in the native coin only (deposits are); errors in x/gov's words. */
function nativeAmount(env: ModuleEnv, coins: Array<[string, bigint]>, minDenom: string): bigint {
  let total = 0n;
  for (const [denom, amount] of coins) {
    if (denom !== minDenom) throw new ModuleError(`deposited ${coins.map(([d, a]) => `${a}${d}`).join(",")}, but gov accepts only the following denom(s): [${minDenom}]: invalid deposit denom`);
    total += amount;
  }
  return total;
}

export function govHandlers(prefixes: Bech32Prefixes, keepers: (env: ModuleEnv) => GovKeepers, router: MsgRouter): Record<string, MethodHandler> {
  const bech = (a: string) => toBech32(prefixes.account, getBytes(a));
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
  const voteRow = (id: bigint, v: WeightedVote): unknown[] => [id, v.voter, v.options.map((o) => [o.option, o.text ?? decString(o.weight)]), v.metadata];
  const depositRow = (id: bigint, d: { depositor: string; amount: bigint }, denom: string): unknown[] => [id, d.depositor, [[denom, d.amount]]];
  const need = async (env: ModuleEnv, id: bigint): Promise<ProposalRecord> => {
    const p = await keepers(env).gov.proposal(id);
    if (p === undefined) throw new ModuleError(`rpc error: code = NotFound desc = proposal ${id} doesn't exist`);
    return p;
  };
  const nonzero = (a: string, what: string) => {
    if (/^0x0{40}$/i.test(a)) throw new ModuleError(`${what} ${a}`);
  };
  return {
    submitProposal: async (call) => {
      const [proposer, json, deposit] = call.args as unknown as [string, string, Array<[string, bigint]>];
      nonzero(proposer, "invalid proposer");
      requireSender(call, proposer);
      const keeper = keepers(call.env).gov;
      const proposal = parseProposalJson(getBytes(json), prefixes, router);
      const id = await keeper.submit({ ...proposal, proposer, deposit: nativeAmount(call.env, deposit, call.env.denom) });
      call.emit("SubmitProposal", [proposer, id]);
      return [id];
    },
    deposit: async (call) => {
      const [depositor, id, amount] = call.args as unknown as [string, bigint, Array<[string, bigint]>];
      nonzero(depositor, "invalid depositor address:");
      requireSender(call, depositor);
      await keepers(call.env).gov.deposit(id, depositor, nativeAmount(call.env, amount, call.env.denom));
      call.emit("Deposit", [depositor, id, amount.map(([d, a]) => [d, a])]);
      return [true];
    },
    cancelProposal: async (call) => {
      const [proposer, id] = call.args as unknown as [string, bigint];
      nonzero(proposer, "invalid proposer");
      requireSender(call, proposer);
      await keepers(call.env).gov.cancel(id, proposer);
      call.emit("CancelProposal", [proposer, id]);
      return [true];
    },
    vote: async (call) => {
      const [voter, id, option, metadata] = call.args as unknown as [string, bigint, bigint, string];
      nonzero(voter, "invalid voter address:");
      requireSender(call, voter);
      await keepers(call.env).gov.vote(id, voter, [{ option: Number(option), weight: 10n ** 18n }], metadata);
      call.emit("Vote", [voter, id, option]);
      return [true];
    },
    voteWeighted: async (call) => {
      const [voter, id, options, metadata] = call.args as unknown as [string, bigint, Array<[bigint, string]>, string];
      nonzero(voter, "invalid voter address:");
      requireSender(call, voter);
      const parsed = options.map(([option, weight]) => ({ option: Number(option), weight: parseWeight(weight), text: weight }));
      await keepers(call.env).gov.vote(id, voter, parsed, metadata);
      call.emit("VoteWeighted", [voter, id, options.map(([o, w]) => [o, w])]);
      return [true];
    },
    getProposal: async (call) => {
      const [id] = call.args as unknown as [bigint];
      return [row(await need(call.env, id), call.env.denom)];
    },
    getProposals: async (call) => {
      const [status, voter, depositor, page] = call.args as unknown as [bigint, string, string, unknown];
      const keeper = keepers(call.env).gov;
      const zero = (a: string) => /^0x0{40}$/i.test(a);
      const rows: unknown[] = [];
      for (const id of await keeper.ids()) {
        const p = await keeper.proposal(id);
        // a dropped or cancelled proposal's id stays in the list
        if (p === undefined) continue;
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
      const p = await need(call.env, id);
      // x/gov's TallyResult query: a proposal in its voting period is tallied as it stands
      if (p.status !== ProposalStatus.VotingPeriod) return [tallyRow(p.finalTallyResult)];
      return [tallyRow((await keepers(call.env).gov.tally(p, keepers(call.env).staking)).result)];
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
      const out = paginate(
        p.votes.map((v) => voteRow(id, v)),
        pageOf(page),
      );
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
      const out = paginate(
        p.deposits.map((d) => depositRow(id, d, call.env.denom)),
        pageOf(page),
      );
      return [out.items, [out.nextKey, out.total]];
    },
    getParams: async (call) => {
      const p = await keepers(call.env).gov.params();
      const denom = call.env.denom;
      return [
        [
          p.votingPeriod,
          [[denom, p.minDeposit]],
          p.maxDepositPeriod,
          decString(p.quorum),
          decString(p.threshold),
          decString(p.vetoThreshold),
          decString(p.minInitialDepositRatio),
          decString(p.proposalCancelRatio),
          p.proposalCancelDest === "" ? "" : bech(p.proposalCancelDest),
          p.expeditedVotingPeriod,
          decString(p.expeditedThreshold),
          [[denom, p.expeditedMinDeposit]],
          p.burnVoteQuorum,
          p.burnProposalDepositPrevote,
          p.burnVoteVeto,
          decString(p.minDepositRatio),
        ],
      ];
    },
    getConstitution: async (call) => [await keepers(call.env).gov.constitution()],
  };
}
