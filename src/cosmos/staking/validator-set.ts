/**
 * x/staking's bonded set, as its EndBlocker keeps it (ApplyAndReturnValidatorSetUpdates,
 * UnbondAllMatureValidators in x/staking/keeper/val_state_change.go), over indexes instead of full
 * scans, so the end block reads what changed in the block and what is due, not every validator:
 * - `bonded`: the bonded validators by power, weakest first (at most max_validators of them);
 * - `candidates`: validators with power that are not bonded and not jailed, strongest first (the
 *   SDK's power index less the bonded set);
 * - `valQueue`: unbonding validators by the time their unbonding completes;
 * - `changed`: the validators whose tokens, jail or status a message changed since the last end
 *   block (StakingKeeper.setValidator writes it), which the set update re-indexes.
 * Power is tokens / 10^18 (POWER_REDUCTION); equal powers rank by operator address, lower first
 * (the SDK's power index key holds the inverted address and is read from the top).
 */
import { BONDED_POOL, NOT_BONDED_POOL } from "../common/accounts";
import { type MeteredRecords } from "../common/records";
import { type ModuleEnv } from "../common/module-env";
import { type HeapEntry, RecordHeap } from "../common/record-heap";
import { BondStatus, DEFAULT_MAX_VALIDATORS, POWER_REDUCTION, type StakingParams, type Validator } from "./types";

/** What the set needs of the staking keeper: its validators and params (src/cosmos/staking/keeper.ts). */
interface ValidatorStore {
  validator(operator: string): Promise<Validator | undefined>;
  /** Writes a validator without marking it changed (the set update's own writes). */
  writeValidator(v: Validator): Promise<void>;
  params(): Promise<StakingParams>;
}

const power = (v: Validator): bigint => v.tokens / POWER_REDUCTION;
const addr = (operator: string): bigint => BigInt(operator);

export class ValidatorSet {
  readonly bonded: RecordHeap;
  readonly candidates: RecordHeap;
  readonly queue: RecordHeap;

  constructor(
    private readonly _env: ModuleEnv,
    private readonly _r: MeteredRecords,
    private readonly _store: ValidatorStore,
  ) {
    this.bonded = new RecordHeap(_r, "bonded");
    this.candidates = new RecordHeap(_r, "candidates");
    this.queue = new RecordHeap(_r, "valQueue");
  }

  /** Marks a validator for the next set update (`undefined`: only that one must run, as after a params change). */
  async markChanged(operator?: string): Promise<void> {
    const changed = await this._r.get<string[]>("changed");
    const list = changed ?? [];
    const op = operator?.toLowerCase();
    const listed = op === undefined || list.includes(op);
    if (changed !== undefined && listed) return;
    await this._r.put("changed", listed ? list : [...list, op]);
  }

  /** True when a set update is due (something changed since the last one). */
  async pending(): Promise<boolean> {
    return (await this._r.get<string[]>("changed")) !== undefined;
  }

  /** The earliest time an unbonding validator completes its unbonding; undefined when none is. */
  async nextMaturity(): Promise<bigint | undefined> {
    return (await this.queue.peek())?.key[0];
  }

  /** Puts a validator where its status, jail and power say, in the indexes only. */
  async index(v: Validator): Promise<void> {
    await this.bonded.remove(v.operator);
    await this.candidates.remove(v.operator);
    if (v.jailed || power(v) === 0n) return;
    if (v.status === BondStatus.Bonded) await this.bonded.push(v.operator, [power(v), -addr(v.operator)]);
    else await this.candidates.push(v.operator, [-power(v), addr(v.operator)]);
  }

  /**
   * The end block's set update: re-indexes the validators marked changed, takes bonded validators
   * that were jailed or lost all power out of the set, then fills the set from the strongest
   * candidates up to max_validators, a candidate that outranks the weakest bonded validator taking
   * its place; then completes the unbondings of validators that are due.
   */
  async applyUpdates(): Promise<void> {
    const changed = await this._r.get<string[]>("changed");
    if (changed !== undefined) {
      await this._r.put("changed", undefined);
      for (const op of changed) {
        const v = await this._store.validator(op);
        if (v === undefined) continue;
        if (v.status === BondStatus.Bonded && (v.jailed || power(v) === 0n)) {
          await this._beginUnbonding(v);
        } else await this.index(v);
      }
      const max = (await this._store.params()).maxValidators ?? DEFAULT_MAX_VALIDATORS;
      // a lowered max_validators: the weakest leave first
      while ((await this.bonded.size()) > max) await this._unbondEntry((await this.bonded.peek()) as HeapEntry);
      for (;;) {
        const best = await this.candidates.peek();
        if (best === undefined) break;
        if ((await this.bonded.size()) >= max) {
          const weakest = (await this.bonded.peek()) as HeapEntry;
          if (!outranks(best, weakest)) break;
          await this._unbondEntry(weakest);
        }
        await this._bond(best.member);
      }
    }
    for (let next = await this.queue.peek(); next !== undefined && next.key[0] <= this._env.time; next = await this.queue.peek()) {
      await this.queue.pop();
      const v = await this._store.validator(next.member);
      if (v === undefined || v.status !== BondStatus.Unbonding || v.unbondingTime > this._env.time) continue;
      v.status = BondStatus.Unbonded;
      await this._store.writeValidator(v);
    }
  }

  private async _unbondEntry(e: HeapEntry): Promise<void> {
    await this._beginUnbonding((await this._store.validator(e.member)) as Validator);
  }

  /** bondedToUnbonding: its tokens to the not-bonded pool, its unbonding queued to complete after unbonding_time. */
  private async _beginUnbonding(v: Validator): Promise<void> {
    await this._env.send(BONDED_POOL, NOT_BONDED_POOL, v.tokens);
    v.status = BondStatus.Unbonding;
    v.unbondingHeight = this._env.height;
    v.unbondingTime = this._env.time + (await this._store.params()).unbondingTime;
    await this._store.writeValidator(v);
    await this.queue.push(v.operator, [v.unbondingTime]);
    await this.index(v);
  }

  /** unbondedToBonded / unbondingToBonded: its tokens to the bonded pool, out of the unbonding queue. */
  private async _bond(operator: string): Promise<void> {
    const v = (await this._store.validator(operator)) as Validator;
    await this._env.send(NOT_BONDED_POOL, BONDED_POOL, v.tokens);
    v.status = BondStatus.Bonded;
    v.unbondingHeight = 0n;
    v.unbondingTime = 0n;
    await this._store.writeValidator(v);
    await this.queue.remove(v.operator);
    await this.index(v);
  }
}

/** A candidate (key [−power, address]) outranks a bonded validator (key [power, −address]): more power, or as much and a lower address. */
function outranks(candidate: HeapEntry, bonded: HeapEntry): boolean {
  const p = -candidate.key[0];
  return p > bonded.key[0] || (p === bonded.key[0] && candidate.key[1] < -bonded.key[1]);
}
