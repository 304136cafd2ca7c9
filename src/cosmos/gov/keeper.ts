/**
 * x/gov as the Cosmos SDK (v0.50, x/gov/keeper) runs it on this chain's clock, kept in the gov
 * precompile's storage (src/chain/base/records.ts): `params` (src/cosmos/gov/params.ts), `nextId`,
 * `constitution`, and the proposals with their votes, deposits and queues (src/cosmos/gov/proposal-store.ts).
 * Submitting, depositing, voting and cancelling are the precompile's transactions
 * (src/cosmos/gov/precompile.ts); at each block's end a deposit period that ran out drops its
 * proposal (deposits refunded, or burned as the params say) and a voting period that ran out is
 * tallied (quorum, veto and threshold of the bonded stake); a passed proposal's messages then run
 * (src/cosmos/gov/messages.ts). Deposits are the native coin, held by the gov module account.
 */
import { getAddress } from "ethers/address";
import { DEC, decString } from "../common/decimal";
import { parseDec } from "../common/legacy-dec";
import { type Tally, type TallyOutcome, tallyProposal } from "./tally";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError, invalidCoins } from "../common/errors";
import { moduleAddress } from "../common/accounts";
import type { StakingKeeper } from "./expected-keepers";
import { DEFAULT_GOV_PARAMS, type GovParams, validateGovParams } from "./params";
import { ProposalStore } from "./proposal-store";
import { type ProposalRecord, ProposalStatus, type StoredProposal, VoteOption, type WeightedVote } from "./types";

export const GOV_PRECOMPILE = "0x0000000000000000000000000000000000000805" as const;
/** The gov module account: deposits sit here, and proposals' messages act as it. */
export const GOV_MODULE_ACCOUNT = moduleAddress("gov");

export { ProposalStatus, type ProposalRecord, type WeightedVote };
export type { Tally };
/** The SDK's default MaxMetadataLen. */
const MAX_METADATA_LEN = 255;

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

/** x/gov's ErrUnknownProposal. */
const unknownProposal = (id: bigint): ModuleError => new ModuleError(`${id}: unknown proposal`);

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

  private get _store(): ProposalStore {
    return new ProposalStore(this._r);
  }

  /** The ids of the proposals ever written, ascending (some may have been removed since: `proposal` answers undefined). */
  ids(): Promise<bigint[]> {
    return this._store.ids();
  }

  /** A proposal with its votes and deposits, in x/gov's store order (for queries, tallies and refunds: they read every one). */
  proposal(id: bigint): Promise<ProposalRecord | undefined> {
    return this._store.proposal(id);
  }

  /** The proposal with its votes and deposits, or x/gov's unknown-proposal error. */
  async requireProposal(id: bigint): Promise<ProposalRecord> {
    const p = await this.proposal(id);
    if (p === undefined) throw unknownProposal(id);
    return p;
  }

  /** Writes a proposal whole (a new id or a replacement, as a test writes it): its votes and deposits replace the ones it had. */
  setProposal(p: ProposalRecord): Promise<void> {
    return this._store.setProposal(p);
  }

  /** The ids in their deposit or voting period (for state checks, not for block work). */
  queue(): Promise<bigint[]> {
    return this._store.queue();
  }

  /** The earliest end of a queued proposal's period (the block time its end block acts at), if any: two reads, however many are queued. */
  nextDeadline(): Promise<bigint | undefined> {
    return this._store.nextDeadline();
  }

  /** The id the next proposal gets. */
  async nextId(): Promise<bigint> {
    return (await this._r.get<bigint>("nextId")) ?? 1n;
  }

  async setNextId(id: bigint): Promise<void> {
    await this._r.put("nextId", id);
  }

  async constitution(): Promise<string> {
    return (await this._r.get<string>("constitution")) ?? "";
  }

  async setConstitution(text: string): Promise<void> {
    await this._r.put("constitution", text === "" ? undefined : text);
  }

  /** The proposal's own record (no votes or deposits), or x/gov's unknown-proposal error. */
  private _need = async (id: bigint): Promise<StoredProposal> => {
    const p = await this._store.header(id);
    if (p === undefined) throw unknownProposal(id);
    return p;
  };

  /** MsgSubmitProposal (the SDK's msg server and SubmitProposal): the proposal, then its initial deposit. */
  async submit(s: {
    proposer: string;
    messages: Array<{ typeUrl: string; body: Record<string, unknown> }>;
    metadata: string;
    title: string;
    summary: string;
    expedited: boolean;
    deposit: bigint;
  }): Promise<bigint> {
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
    await this._store.putHeader(proposal);
    await this._store.enqueue(proposal);
    if (s.deposit > 0n) await this.deposit(id, s.proposer, s.deposit);
    return id;
  }

  /** AddDeposit: coins to the gov account; enough of them start the voting period. Returns whether they did. */
  async deposit(id: bigint, depositor: string, amount: bigint): Promise<boolean> {
    const p = await this._need(id);
    if (p.status !== ProposalStatus.DepositPeriod && p.status !== ProposalStatus.VotingPeriod) throw new ModuleError(`${id}: inactive proposal`);
    if (amount <= 0n) throw invalidCoins(coins(amount, this._env.denom));
    const params = await this.params();
    const minDeposit = p.expedited === true ? params.expeditedMinDeposit : params.minDeposit;
    if (params.minDepositRatio !== 0n) {
      const threshold = (minDeposit * params.minDepositRatio) / DEC;
      if (amount < threshold) throw new ModuleError(`received ${coins(amount, this._env.denom)} but need at least one of the following: ${threshold}${this._env.denom}: minimum deposit is too small`);
    }
    await this._env.send(depositor, GOV_MODULE_ACCOUNT, amount);
    p.totalDeposit += amount;
    await this._store.putDeposit(id, { depositor, amount: (await this._store.depositOf(p, depositor)) + amount });
    let activated = false;
    if (p.status === ProposalStatus.DepositPeriod && p.totalDeposit >= minDeposit) {
      p.status = ProposalStatus.VotingPeriod;
      p.votingStartTime = this._env.time;
      p.votingEndTime = this._env.time + (p.expedited === true ? params.expeditedVotingPeriod : params.votingPeriod);
      activated = true;
      await this._store.enqueue(p);
    }
    await this._store.putHeader(p);
    return activated;
  }

  /** AddVote: a voter's (weighted) vote on a proposal in its voting period, replacing an earlier one. */
  async vote(id: bigint, voter: string, options: WeightedVote["options"], metadata: string): Promise<void> {
    const p = await this._need(id);
    if (p.status !== ProposalStatus.VotingPeriod) throw new ModuleError(`${id}: inactive proposal`);
    if (metadata.length > MAX_METADATA_LEN) throw new ModuleError("metadata too long");
    validateOptions(options);
    // a proposal written with its votes inline keeps them: they move to records the next time it is written
    if ((p.votes ?? []).length > 0) await this._store.putHeader(p);
    await this._store.putVote(id, { voter: getAddress(voter), options, metadata });
  }

  /** CancelProposal: the proposer withdraws it; the cancel ratio of each deposit is burned (or sent to the cancel destination), the rest refunded. */
  async cancel(id: bigint, proposer: string): Promise<void> {
    const p = await this._need(id);
    if (p.proposer.toLowerCase() !== proposer.toLowerCase()) throw new ModuleError(`invalid proposer ${proposer}: invalid proposer`);
    if (p.status !== ProposalStatus.DepositPeriod && p.status !== ProposalStatus.VotingPeriod)
      throw new ModuleError(`proposal with id ${id} should be in the deposit or voting period: invalid proposal`);
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
    await this._store.remove(id);
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
    await this._store.migrateQueue();
    const params = await this.params();
    const now = this._env.time;
    // the inactive queue: deposit periods that ended (one read when none did)
    for (let e = await this._store.inactive.peek(); e !== undefined && e.key[0] <= now; e = await this._store.inactive.peek()) {
      await this._store.inactive.pop();
      const p = await this.proposal(BigInt(e.member));
      if (p === undefined || p.status !== ProposalStatus.DepositPeriod) continue;
      await this._settleDeposits(p, params.burnProposalDepositPrevote);
      await this._store.remove(p.id);
      out.dropped.push(p.id);
    }
    // the active queue: voting periods that ended
    for (let e = await this._store.active.peek(); e !== undefined && e.key[0] <= now; e = await this._store.active.peek()) {
      await this._store.active.pop();
      const p = await this.proposal(BigInt(e.member));
      if (p === undefined || p.status !== ProposalStatus.VotingPeriod) continue;
      const { passes, burnDeposits, result } = await this.tally(p, staking);
      // an expedited proposal that does not pass keeps its deposits and votes on as a regular one
      if (!passes && p.expedited === true) {
        p.expedited = false;
        p.votingEndTime = p.votingStartTime + params.votingPeriod;
        p.finalTallyResult = result;
        // votes and deposits stay (any still inline move to records)
        await this._store.putHeader(p);
        await this._store.enqueue(p);
        out.expeditedRejected.push(p.id);
        continue;
      }
      await this._settleDeposits(p, burnDeposits);
      await this._store.clearVotes(p.id);
      p.finalTallyResult = result;
      if (passes) {
        out.passed.push(p.id);
      } else {
        p.status = ProposalStatus.Rejected;
        p.failedReason = "proposal did not get enough votes to pass";
        out.rejected.push(p.id);
      }
      await this._store.putHeader({ ...p, votes: undefined, deposits: undefined });
    }
    return out;
  }

  /** A passed proposal's end: Passed when its messages ran, Failed with the first one's error when not. */
  async settle(id: bigint, error: string | undefined): Promise<void> {
    const p = await this._need(id);
    p.status = error === undefined ? ProposalStatus.Passed : ProposalStatus.Failed;
    if (error !== undefined) p.failedReason = error;
    await this._store.putHeader(p);
  }

  /** RefundAndDeleteDeposits or DeleteAndBurnDeposits (`p` read whole, with its deposits). */
  private async _settleDeposits(p: ProposalRecord, burn: boolean): Promise<void> {
    for (const d of p.deposits) {
      if (burn) await this._env.burn(GOV_MODULE_ACCOUNT, d.amount);
      else await this._env.send(GOV_MODULE_ACCOUNT, d.depositor, d.amount);
    }
    await this._store.clearDeposits(p.id);
  }
}

const coins = (amount: bigint, denom: string): string => (amount === 0n ? "" : `${amount}${denom}`);

/** WeightedVoteOptions' checks (the SDK's MsgVoteWeighted.ValidateBasic and ValidWeightedVoteOption). */
function validateOptions(options: WeightedVote["options"]): void {
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

/** The keepers x/gov's block work and precompile run on (src/cosmos/app.ts `Keepers` has them). */
export interface GovKeepers {
  gov: GovKeeper;
  staking: StakingKeeper;
}
