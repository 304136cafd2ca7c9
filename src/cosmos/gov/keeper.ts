/**
 * x/gov as the Cosmos SDK (v0.50, x/gov/keeper) runs it on this chain's clock, kept in the gov
 * precompile's storage (src/chain/records.ts):
 * - `params`, `nextId`, `constitution`;
 * - `proposals`: every id ever written (a removed one is skipped on reading); `proposal/<id>`: the
 *   proposal without its votes and deposits;
 * - `vote/<id>/<voter>` and `deposit/<id>/<depositor>`, one record each, listed by `votes/<id>/<i>`
 *   and `deposits/<id>/<i>` (src/cosmos/common/record-list.ts): a vote or a deposit writes O(1) records;
 * - `inactive` and `active`: the proposals in their deposit and voting periods by the time the period
 *   ends (the SDK's InactiveProposalQueue and ActiveProposalQueue, src/cosmos/common/record-heap.ts),
 *   so the end block reads only the proposals whose period ends. A proposal a test writes
 *   (cosmos_setProposal) is not queued: it stays as written.
 * Submitting, depositing, voting and cancelling are the precompile's transactions
 * (src/cosmos/gov/precompile.ts); at each block's end a deposit period that ran out drops its
 * proposal (deposits refunded, or burned as the params say) and a voting period that ran out is
 * tallied (quorum, veto and threshold of the bonded stake); a passed proposal's messages then run
 * (src/cosmos/gov/messages.ts). Deposits are the native coin, held by the gov module account.
 */
import { getAddress } from "ethers/address";
import { decString } from "../common/decimal";
import { parseDec } from "../common/legacy-dec";
import { type Tally, type TallyOutcome, tallyProposal } from "./tally";
import { type ModuleEnv, ModuleError, byteOrder, moduleAddress } from "../common/ledger";
import { RecordHeap } from "../common/record-heap";
import { RecordList } from "../common/record-list";
import { type StakingKeeper } from "../staking/keeper";
import { DEC } from "../staking/types";

export const GOV_PRECOMPILE = "0x0000000000000000000000000000000000000805" as const;
/** The gov module account: deposits sit here, and proposals' messages act as it. */
export const GOV_MODULE_ACCOUNT = moduleAddress("gov");

/** x/gov's ProposalStatus, numbered as its protobuf enum (0 to 5). */
export enum ProposalStatus { Unspecified, DepositPeriod, VotingPeriod, Passed, Rejected, Failed }

/** x/gov's VoteOption, numbered as its protobuf enum (0 to 4). */
export enum VoteOption { Unspecified, Yes, Abstain, No, NoWithVeto }

export type { Tally };

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

/** The SDK's default MaxMetadataLen. */
export const MAX_METADATA_LEN = 255;

const ZERO_TALLY: Tally = { yes: 0n, abstain: 0n, no: 0n, noWithVeto: 0n };

/** What the end block did to the proposals whose period ran out. */
export interface GovEndBlock {
  /** Deposit period over without enough deposits: deleted. */
  dropped: bigint[];
  /** Tallied and passing: their messages run next (`settle`). */
  passed: bigint[];
  rejected: bigint[];
  /** Expedited, not passing: now regular proposals voting on. */
  expeditedRejected: bigint[];
}

export class GovKeeper {
  constructor(private readonly _env: ModuleEnv) {}

  private get _r() {
    return this._env.records(GOV_PRECOMPILE);
  }

  async params(): Promise<GovParams> {
    return (await this._r.get<GovParams>("params")) ?? DEFAULT_GOV_PARAMS;
  }

  setParams(p: GovParams): Promise<void> {
    validateGovParams(p, this._env.denom);
    return this._r.put("params", p);
  }

  /** The ids of the proposals ever written, ascending (some may have been removed since: `proposal` answers undefined). */
  async ids(): Promise<bigint[]> {
    return (await this._r.get<bigint[]>("proposals")) ?? [];
  }

  /** A proposal with its votes and deposits, in x/gov's store order (for queries, tallies and refunds: they read every one). */
  async proposal(id: bigint): Promise<ProposalRecord | undefined> {
    const p = await this.header(id);
    if (p === undefined) return undefined;
    // a proposal written before votes and deposits were records of their own holds them inline
    const votes = new Map((p.votes ?? []).map((v) => [v.voter.toLowerCase(), v]));
    for (const voter of await this._votes(id).items()) {
      const v = await this._r.get<WeightedVote>(`vote/${id}/${voter}`);
      if (v !== undefined) votes.set(voter, v);
    }
    const deposits = new Map((p.deposits ?? []).map((d) => [d.depositor.toLowerCase(), d]));
    for (const depositor of await this._deposits(id).items()) {
      const d = await this._r.get<{ depositor: string; amount: bigint }>(`deposit/${id}/${depositor}`);
      if (d !== undefined) deposits.set(depositor, d);
    }
    // in x/gov's store order, whatever order they were written in: its vote and deposit keys end in
    // the voter's and the depositor's address, so queries, tallies and refunds go by address, bytewise
    return { ...p, votes: [...votes.values()].sort((a, b) => byteOrder(a.voter, b.voter)), deposits: [...deposits.values()].sort((a, b) => byteOrder(a.depositor, b.depositor)) };
  }

  /** The proposal's own record: what the block work and the messages read (votes and deposits are not in it). */
  async header(id: bigint): Promise<StoredProposal | undefined> {
    const p = await this._r.get<StoredProposal>(`proposal/${id}`);
    if (p !== undefined && p.id !== id) throw new ModuleError(`proposal record ${id} holds proposal ${String(p.id)}`);
    return p;
  }

  private _votes = (id: bigint): RecordList => new RecordList(this._r, `votes/${id}`);
  private _deposits = (id: bigint): RecordList => new RecordList(this._r, `deposits/${id}`);
  private get _inactive(): RecordHeap {
    return new RecordHeap(this._r, "inactive");
  }
  private get _active(): RecordHeap {
    return new RecordHeap(this._r, "active");
  }

  /** Writes a proposal whole (a new id or a replacement, as a test writes it): its votes and deposits replace the ones it had. */
  async setProposal(p: ProposalRecord): Promise<void> {
    await this._clearVotes(p.id);
    await this._clearDeposits(p.id);
    for (const v of p.votes) await this._putVote(p.id, v);
    for (const d of p.deposits) await this._putDeposit(p.id, d);
    await this._putHeader({ ...p, votes: undefined, deposits: undefined });
    // a queued proposal rewritten: queued again by its period's end as now written
    const member = p.id.toString();
    if ((await this._inactive.remove(member)) || (await this._active.remove(member))) {
      if (p.status === ProposalStatus.DepositPeriod || p.status === ProposalStatus.VotingPeriod) await this._enqueue(p);
    }
  }

  /** Writes the proposal's own record; votes or deposits it still holds inline (written before they were records) move to records first. */
  private async _putHeader(p: StoredProposal): Promise<void> {
    for (const v of p.votes ?? []) if ((await this._r.get(`vote/${p.id}/${v.voter.toLowerCase()}`)) === undefined) await this._putVote(p.id, v);
    for (const d of p.deposits ?? []) if ((await this._r.get(`deposit/${p.id}/${d.depositor.toLowerCase()}`)) === undefined) await this._putDeposit(p.id, d);
    const header: StoredProposal = { ...p };
    delete header.votes;
    delete header.deposits;
    const ids = await this.ids();
    if (ids.length === 0 || ids[ids.length - 1] < p.id) await this._r.put("proposals", [...ids, p.id]);
    else if (!ids.includes(p.id)) await this._r.put("proposals", [...ids, p.id].sort((a, b) => (a < b ? -1 : 1)));
    await this._r.put(`proposal/${p.id}`, header);
    if (p.id >= ((await this._r.get<bigint>("nextId")) ?? 1n)) await this._r.put("nextId", p.id + 1n);
  }

  private async _putVote(id: bigint, v: WeightedVote): Promise<void> {
    const voter = v.voter.toLowerCase();
    if ((await this._r.get(`vote/${id}/${voter}`)) === undefined) await this._votes(id).append(voter);
    await this._r.put(`vote/${id}/${voter}`, { ...v, voter: getAddress(v.voter) });
  }

  private async _putDeposit(id: bigint, d: { depositor: string; amount: bigint }): Promise<void> {
    const depositor = d.depositor.toLowerCase();
    if ((await this._r.get(`deposit/${id}/${depositor}`)) === undefined) await this._deposits(id).append(depositor);
    await this._r.put(`deposit/${id}/${depositor}`, { depositor: getAddress(d.depositor), amount: d.amount });
  }

  private async _clearVotes(id: bigint): Promise<void> {
    for (const voter of await this._votes(id).clear()) await this._r.put(`vote/${id}/${voter}`, undefined);
  }

  private async _clearDeposits(id: bigint): Promise<void> {
    for (const depositor of await this._deposits(id).clear()) await this._r.put(`deposit/${id}/${depositor}`, undefined);
  }

  private async _delete(id: bigint): Promise<void> {
    await this._clearVotes(id);
    await this._clearDeposits(id);
    await this._r.put(`proposal/${id}`, undefined);
    await this._inactive.remove(id.toString());
    await this._active.remove(id.toString());
  }

  /** The id the next proposal gets. */
  async nextId(): Promise<bigint> {
    return (await this._r.get<bigint>("nextId")) ?? 1n;
  }

  async setNextId(id: bigint): Promise<void> {
    await this._r.put("nextId", id);
  }

  /** The ids in their deposit or voting period (every entry of both queues: for state checks, not for block work). */
  async queue(): Promise<bigint[]> {
    const legacy = (await this._r.get<bigint[]>("queue")) ?? [];
    const queued = [...(await this._inactive.entries()), ...(await this._active.entries())].map((e) => BigInt(e.member));
    return [...legacy, ...queued].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Queues a proposal by the end of the period it is in (deposit or voting). */
  private async _enqueue(p: StoredProposal): Promise<void> {
    if (p.status === ProposalStatus.DepositPeriod) await this._inactive.push(p.id.toString(), [p.depositEndTime, p.id]);
    else {
      await this._inactive.remove(p.id.toString());
      await this._active.push(p.id.toString(), [p.votingEndTime, p.id]);
    }
  }

  /**
   * Carries the queue of a store written before the queues were indexes (record "queue", every id
   * in one list) into them, once: the first end block on such a store runs it.
   */
  private async _migrateQueue(): Promise<void> {
    const legacy = await this._r.get<bigint[]>("queue");
    if (legacy === undefined) return;
    for (const id of legacy) {
      const p = await this.header(id);
      if (p !== undefined) await this._enqueue(p);
    }
    await this._r.put("queue", undefined);
  }

  async constitution(): Promise<string> {
    return (await this._r.get<string>("constitution")) ?? "";
  }

  async setConstitution(text: string): Promise<void> {
    await this._r.put("constitution", text === "" ? undefined : text);
  }

  /** The earliest end of a queued proposal's period (the block time its end block acts at), if any: two reads, however many are queued. */
  async nextDeadline(): Promise<bigint | undefined> {
    // a store with the old queue: due now, so the end block carries it into the indexes
    if ((await this._r.get<bigint[]>("queue")) !== undefined) return 0n;
    const a = (await this._inactive.peek())?.key[0];
    const b = (await this._active.peek())?.key[0];
    return a === undefined ? b : b === undefined || a < b ? a : b;
  }

  /** The proposal's own record (no votes or deposits), or x/gov's unknown-proposal error. */
  private _need = async (id: bigint): Promise<StoredProposal> => {
    const p = await this.header(id);
    if (p === undefined) throw new ModuleError(`${id}: unknown proposal`);
    return p;
  };

  /** MsgSubmitProposal (the SDK's msg server and SubmitProposal): the proposal, then its initial deposit. */
  async submit(s: { proposer: string; messages: Array<{ typeUrl: string; body: Record<string, unknown> }>; metadata: string; title: string; summary: string; expedited: boolean; deposit: bigint }): Promise<bigint> {
    const params = await this.params();
    if (s.title === "") throw new ModuleError("proposal title cannot be empty: invalid proposal content");
    if (s.summary === "") throw new ModuleError("proposal summary cannot be empty: invalid proposal content");
    if (s.metadata.length > MAX_METADATA_LEN) throw new ModuleError(`metadata too long`);
    // validateInitialDeposit: the ratio of the min deposit, rounded
    const ratio = params.minInitialDepositRatio;
    if (ratio !== 0n) {
      const min = (s.expedited ? params.expeditedMinDeposit : params.minDeposit) * ratio;
      const need = min / DEC + (2n * (min % DEC) >= DEC ? 1n : 0n);
      if (s.deposit < need) throw new ModuleError(`was (${coins(s.deposit, this._env.denom)}), need (${need}${this._env.denom}): minimum deposit is too small`);
    }
    const id = (await this._r.get<bigint>("nextId")) ?? 1n;
    await this._r.put("nextId", id + 1n);
    const now = this._env.time;
    const proposal: ProposalRecord = {
      id,
      messages: s.messages.map((m) => m.typeUrl),
      bodies: s.messages.map((m) => m.body),
      status: ProposalStatus.DepositPeriod,
      finalTallyResult: ZERO_TALLY,
      submitTime: now,
      depositEndTime: now + params.maxDepositPeriod,
      totalDeposit: 0n,
      votingStartTime: 0n,
      votingEndTime: 0n,
      metadata: s.metadata,
      title: s.title,
      summary: s.summary,
      proposer: getAddress(s.proposer),
      expedited: s.expedited,
      votes: [],
      deposits: [],
    };
    await this._putHeader(proposal);
    await this._enqueue(proposal);
    if (s.deposit > 0n) await this.deposit(id, s.proposer, s.deposit);
    return id;
  }

  /** AddDeposit: coins to the gov account; enough of them start the voting period. Returns whether they did. */
  async deposit(id: bigint, depositor: string, amount: bigint): Promise<boolean> {
    const p = await this._need(id);
    if (p.status !== ProposalStatus.DepositPeriod && p.status !== ProposalStatus.VotingPeriod) throw new ModuleError(`${id}: inactive proposal`);
    if (amount <= 0n) throw new ModuleError(`${coins(amount, this._env.denom)}: invalid coins`);
    const params = await this.params();
    const minDeposit = p.expedited === true ? params.expeditedMinDeposit : params.minDeposit;
    if (params.minDepositRatio !== 0n) {
      const threshold = (minDeposit * params.minDepositRatio) / DEC;
      if (amount < threshold) throw new ModuleError(`received ${coins(amount, this._env.denom)} but need at least one of the following: ${threshold}${this._env.denom}: minimum deposit is too small`);
    }
    await this._env.send(depositor, GOV_MODULE_ACCOUNT, amount);
    p.totalDeposit += amount;
    const mine = (await this._r.get<{ amount: bigint }>(`deposit/${id}/${depositor.toLowerCase()}`)) ?? p.deposits?.find((d) => d.depositor.toLowerCase() === depositor.toLowerCase());
    await this._putDeposit(id, { depositor, amount: (mine?.amount ?? 0n) + amount });
    let activated = false;
    if (p.status === ProposalStatus.DepositPeriod && p.totalDeposit >= minDeposit) {
      p.status = ProposalStatus.VotingPeriod;
      p.votingStartTime = this._env.time;
      p.votingEndTime = this._env.time + (p.expedited === true ? params.expeditedVotingPeriod : params.votingPeriod);
      activated = true;
      await this._enqueue(p);
    }
    await this._putHeader(p);
    return activated;
  }

  /** AddVote: a voter's (weighted) vote on a proposal in its voting period, replacing an earlier one. */
  async vote(id: bigint, voter: string, options: WeightedVote["options"], metadata: string): Promise<void> {
    const p = await this._need(id);
    if (p.status !== ProposalStatus.VotingPeriod) throw new ModuleError(`${id}: inactive proposal`);
    if (metadata.length > MAX_METADATA_LEN) throw new ModuleError("metadata too long");
    validateOptions(options);
    // a proposal written with its votes inline keeps them: they move to records the next time it is written
    if ((p.votes ?? []).length > 0) await this._putHeader(p);
    await this._putVote(id, { voter: getAddress(voter), options, metadata });
  }

  /** CancelProposal: the proposer withdraws it; the cancel ratio of each deposit is burned (or sent to the cancel destination), the rest refunded. */
  async cancel(id: bigint, proposer: string): Promise<void> {
    const p = await this._need(id);
    if (p.proposer.toLowerCase() !== proposer.toLowerCase()) throw new ModuleError(`invalid proposer ${proposer}: invalid proposer`);
    if (p.status !== ProposalStatus.DepositPeriod && p.status !== ProposalStatus.VotingPeriod) throw new ModuleError(`proposal with id ${id} should be in the deposit or voting period: invalid proposal`);
    if (p.status === ProposalStatus.VotingPeriod && p.votingEndTime <= this._env.time) throw new ModuleError(`voting period is already ended for this proposal ${id}: invalid proposal`);
    const params = await this.params();
    let charges = 0n;
    for (const d of (await this.proposal(id))?.deposits ?? []) {
      const charge = (d.amount * params.proposalCancelRatio) / DEC;
      charges += charge;
      await this._env.send(GOV_MODULE_ACCOUNT, d.depositor, d.amount - charge);
    }
    if (params.proposalCancelDest === "") await this._env.burn(GOV_MODULE_ACCOUNT, charges);
    else await this._env.send(GOV_MODULE_ACCOUNT, params.proposalCancelDest, charges);
    await this._delete(id);
  }

  /** The tally of a proposal's votes now (src/cosmos/gov/tally.ts). */
  async tally(p: ProposalRecord, staking: StakingKeeper): Promise<TallyOutcome> {
    return tallyProposal(p, await this.params(), staking);
  }

  /**
   * The EndBlocker's first part: deposit periods that ran out drop their proposals; voting periods
   * that ran out are tallied, their deposits refunded or burned, and their votes removed. Passing
   * proposals stay in their voting period until `settle` records how their messages ran.
   */
  async endBlock(staking: StakingKeeper): Promise<GovEndBlock> {
    const out: GovEndBlock = { dropped: [], passed: [], rejected: [], expeditedRejected: [] };
    await this._migrateQueue();
    const params = await this.params();
    const now = this._env.time;
    // the inactive queue: deposit periods that ended (one read when none did)
    for (let e = await this._inactive.peek(); e !== undefined && e.key[0] <= now; e = await this._inactive.peek()) {
      await this._inactive.pop();
      const p = await this.proposal(BigInt(e.member));
      if (p === undefined || p.status !== ProposalStatus.DepositPeriod) continue;
      await this._settleDeposits(p, params.burnProposalDepositPrevote);
      await this._delete(p.id);
      out.dropped.push(p.id);
    }
    // the active queue: voting periods that ended
    for (let e = await this._active.peek(); e !== undefined && e.key[0] <= now; e = await this._active.peek()) {
      await this._active.pop();
      const p = await this.proposal(BigInt(e.member));
      if (p === undefined || p.status !== ProposalStatus.VotingPeriod) continue;
      const { passes, burnDeposits, result } = await this.tally(p, staking);
      // an expedited proposal that does not pass keeps its deposits and votes on as a regular one
      if (!passes && p.expedited === true) {
        p.expedited = false;
        p.votingEndTime = p.votingStartTime + params.votingPeriod;
        p.finalTallyResult = result;
        // votes and deposits stay (any still inline move to records)
        await this._putHeader(p);
        await this._enqueue(p);
        out.expeditedRejected.push(p.id);
        continue;
      }
      await this._settleDeposits(p, burnDeposits);
      await this._clearVotes(p.id);
      p.finalTallyResult = result;
      if (passes) {
        out.passed.push(p.id);
      } else {
        p.status = ProposalStatus.Rejected;
        p.failedReason = "proposal did not get enough votes to pass";
        out.rejected.push(p.id);
      }
      await this._putHeader({ ...p, votes: undefined, deposits: undefined });
    }
    return out;
  }

  /** A passed proposal's end: Passed when its messages ran, Failed with the first one's error when not. */
  async settle(id: bigint, error: string | undefined): Promise<void> {
    const p = await this._need(id);
    p.status = error === undefined ? ProposalStatus.Passed : ProposalStatus.Failed;
    if (error !== undefined) p.failedReason = error;
    await this._putHeader(p);
  }

  /** RefundAndDeleteDeposits or DeleteAndBurnDeposits (`p` read whole, with its deposits). */
  private async _settleDeposits(p: ProposalRecord, burn: boolean): Promise<void> {
    for (const d of p.deposits) {
      if (burn) await this._env.burn(GOV_MODULE_ACCOUNT, d.amount);
      else await this._env.send(GOV_MODULE_ACCOUNT, d.depositor, d.amount);
    }
    await this._clearDeposits(p.id);
  }
}

const coins = (amount: bigint, denom: string): string => (amount === 0n ? "" : `${amount}${denom}`);

/** WeightedVoteOptions' checks (the SDK's MsgVoteWeighted.ValidateBasic and ValidWeightedVoteOption). */
export function validateOptions(options: WeightedVote["options"]): void {
  if (options.length === 0) throw new ModuleError("invalid request: invalid vote option");
  let total = 0n;
  const used = new Set<VoteOption>();
  for (const o of options) {
    const valid = o.option >= VoteOption.Yes && o.option <= VoteOption.NoWithVeto && o.weight > 0n && o.weight <= DEC;
    if (!valid) throw new ModuleError(`option:${o.option} weight:${o.text ?? decString(o.weight)}: invalid vote option`);
    if (used.has(o.option)) throw new ModuleError("Duplicated vote option: invalid vote option");
    used.add(o.option);
    total += o.weight;
  }
  if (total > DEC) throw new ModuleError("Total weight overflow 1.00: invalid vote option");
  if (total < DEC) throw new ModuleError("Total weight lower than 1.00: invalid vote option");
}

/** A weight as a voter writes it ("0.6"); errors name it. */
export function parseWeight(text: string): bigint {
  const w = parseDec(text.trim());
  if (w === undefined) throw new ModuleError(`invalid weight: failed to set decimal string with base 10: ${text}: invalid vote option`);
  return w;
}
