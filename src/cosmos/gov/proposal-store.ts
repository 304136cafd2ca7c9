/**
 * x/gov's proposals as records (src/chain/base/records.ts) in the gov precompile's storage:
 * - `proposals`: every id ever written (a removed one is skipped on reading); `proposal/<id>`: the
 *   proposal without its votes and deposits;
 * - `vote/<id>/<voter>` and `deposit/<id>/<depositor>`, one record each, listed by `votes/<id>/<i>`
 *   and `deposits/<id>/<i>` (src/cosmos/common/record-list.ts): a vote or a deposit writes O(1) records;
 * - `inactive` and `active`: the proposals in their deposit and voting periods by the time the period
 *   ends (the SDK's InactiveProposalQueue and ActiveProposalQueue, src/cosmos/common/record-heap.ts),
 *   so the end block reads only the proposals whose period ends. A proposal a test writes
 *   (cosmos_setProposal) is not queued: it stays as written.
 * A store written before these (one `queue` list, votes and deposits inside the proposal) is read as
 * it is and carried over: the queue by the next end block, a proposal's votes and deposits the next
 * time it is written. src/cosmos/gov/keeper.ts runs x/gov's rules over it.
 */
import { getAddress } from "ethers/address";
import { type MeteredRecords, byteOrder } from "../common/records";
import { ModuleError } from "../common/errors";
import { RecordHeap } from "../common/record-heap";
import { RecordList } from "../common/record-list";
import { type ProposalRecord, ProposalStatus, type StoredProposal, type WeightedVote } from "./types";

export class ProposalStore {
  constructor(private readonly _r: MeteredRecords) {}

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
  get inactive(): RecordHeap {
    return new RecordHeap(this._r, "inactive");
  }
  get active(): RecordHeap {
    return new RecordHeap(this._r, "active");
  }

  /** Writes a proposal whole (a new id or a replacement, as a test writes it): its votes and deposits replace the ones it had. */
  async setProposal(p: ProposalRecord): Promise<void> {
    await this.clearVotes(p.id);
    await this.clearDeposits(p.id);
    for (const v of p.votes) await this.putVote(p.id, v);
    for (const d of p.deposits) await this.putDeposit(p.id, d);
    await this.putHeader({ ...p, votes: undefined, deposits: undefined });
    // a queued proposal rewritten: queued again by its period's end as now written
    const member = p.id.toString();
    if ((await this.inactive.remove(member)) || (await this.active.remove(member))) {
      if (p.status === ProposalStatus.DepositPeriod || p.status === ProposalStatus.VotingPeriod) await this.enqueue(p);
    }
  }

  /** Writes the proposal's own record; votes or deposits it still holds inline (written before they were records) move to records first. */
  async putHeader(p: StoredProposal): Promise<void> {
    for (const v of p.votes ?? []) if ((await this._r.get(`vote/${p.id}/${v.voter.toLowerCase()}`)) === undefined) await this.putVote(p.id, v);
    for (const d of p.deposits ?? []) if ((await this._r.get(`deposit/${p.id}/${d.depositor.toLowerCase()}`)) === undefined) await this.putDeposit(p.id, d);
    const header: StoredProposal = { ...p };
    delete header.votes;
    delete header.deposits;
    const ids = await this.ids();
    if (ids.length === 0 || ids[ids.length - 1] < p.id) await this._r.put("proposals", [...ids, p.id]);
    else if (!ids.includes(p.id))
      await this._r.put(
        "proposals",
        [...ids, p.id].sort((a, b) => (a < b ? -1 : 1)),
      );
    await this._r.put(`proposal/${p.id}`, header);
    if (p.id >= ((await this._r.get<bigint>("nextId")) ?? 1n)) await this._r.put("nextId", p.id + 1n);
  }

  async putVote(id: bigint, v: WeightedVote): Promise<void> {
    const voter = v.voter.toLowerCase();
    if ((await this._r.get(`vote/${id}/${voter}`)) === undefined) await this._votes(id).append(voter);
    await this._r.put(`vote/${id}/${voter}`, { ...v, voter: getAddress(v.voter) });
  }

  /** What `depositor` has deposited on proposal `id` (a record of its own; or inline in a proposal written before). */
  async depositOf(p: StoredProposal, depositor: string): Promise<bigint> {
    const d = await this._r.get<{ amount: bigint }>(`deposit/${p.id}/${depositor.toLowerCase()}`);
    return d?.amount ?? p.deposits?.find((x) => x.depositor.toLowerCase() === depositor.toLowerCase())?.amount ?? 0n;
  }

  async putDeposit(id: bigint, d: { depositor: string; amount: bigint }): Promise<void> {
    const depositor = d.depositor.toLowerCase();
    if ((await this._r.get(`deposit/${id}/${depositor}`)) === undefined) await this._deposits(id).append(depositor);
    await this._r.put(`deposit/${id}/${depositor}`, { depositor: getAddress(d.depositor), amount: d.amount });
  }

  async clearVotes(id: bigint): Promise<void> {
    for (const voter of await this._votes(id).clear()) await this._r.put(`vote/${id}/${voter}`, undefined);
  }

  async clearDeposits(id: bigint): Promise<void> {
    for (const depositor of await this._deposits(id).clear()) await this._r.put(`deposit/${id}/${depositor}`, undefined);
  }

  async remove(id: bigint): Promise<void> {
    await this.clearVotes(id);
    await this.clearDeposits(id);
    await this._r.put(`proposal/${id}`, undefined);
    await this.inactive.remove(id.toString());
    await this.active.remove(id.toString());
  }

  /** The ids in their deposit or voting period (every entry of both queues: for state checks, not for block work). */
  async queue(): Promise<bigint[]> {
    const legacy = (await this._r.get<bigint[]>("queue")) ?? [];
    const queued = [...(await this.inactive.entries()), ...(await this.active.entries())].map((e) => BigInt(e.member));
    return [...legacy, ...queued].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Queues a proposal by the end of the period it is in (deposit or voting). */
  async enqueue(p: StoredProposal): Promise<void> {
    if (p.status === ProposalStatus.DepositPeriod) await this.inactive.push(p.id.toString(), [p.depositEndTime, p.id]);
    else {
      await this.inactive.remove(p.id.toString());
      await this.active.push(p.id.toString(), [p.votingEndTime, p.id]);
    }
  }

  /**
   * Carries the queue of a store written before the queues were indexes (record "queue", every id
   * in one list) into them, once: the first end block on such a store runs it.
   */
  async migrateQueue(): Promise<void> {
    const legacy = await this._r.get<bigint[]>("queue");
    if (legacy === undefined) return;
    for (const id of legacy) {
      const p = await this.header(id);
      if (p !== undefined) await this.enqueue(p);
    }
    await this._r.put("queue", undefined);
  }

  /** The earliest end of a queued proposal's period (the block time its end block acts at), if any: two reads, however many are queued. */
  async nextDeadline(): Promise<bigint | undefined> {
    // a store with the old queue: due now, so the end block carries it into the indexes
    if ((await this._r.get<bigint[]>("queue")) !== undefined) return 0n;
    const a = (await this.inactive.peek())?.key[0];
    const b = (await this.active.peek())?.key[0];
    return a === undefined ? b : b === undefined || a < b ? a : b;
  }
}
