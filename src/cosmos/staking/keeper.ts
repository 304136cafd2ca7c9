/**
 * The staking module's state and messages, as the Cosmos SDK's x/staking keeps and runs them, over
 * records in the staking precompile's storage (src/chain/base/records.ts). Shares and commission rates are
 * Cosmos `LegacyDec`s: integers scaled by 10^18 (what cosmos/evm's precompile returns for them).
 *
 * Simulated, not run: there is no consensus. The bonded set is x/staking's: the strongest
 * max_validators validators by power, updated by the end block (src/cosmos/staking/validator-set.ts);
 * tokens move only through the messages here and what a test sets (jail, slash: src/cosmos/admin.ts).
 * Unbonding and redelegation entries mature in the end block of the first block whose time reaches
 * their completion time (staking's EndBlocker), so `time.increase` then a block completes them.
 */
import { getAddress } from "ethers/address";
import { BONDED_POOL, NOT_BONDED_POOL } from "../common/accounts";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { byteOrder } from "../common/records";
import { MaturityQueue } from "./maturity-queue";
import { invalidExRate, sharesFromTokens, tokensFromShares } from "./shares";
import {
  BondStatus,
  type DelegationHooks,
  ERR_NO_DELEGATION,
  type Description,
  EMPTY_DESCRIPTION,
  type RedelegationEntry,
  STAKING_PRECOMPILE,
  type StakingParams,
  type UnbondingEntry,
  type Validator,
  type ValidatorCore,
  validateStakingParams,
} from "./types";
import { ValidatorSet } from "./validator-set";

/**
 * The staking store's index version: 2 has the validator set's indexes (src/cosmos/staking/validator-set.ts)
 * and the maturity index (src/cosmos/staking/maturity-queue.ts). A store written before them (no record "indexed") is indexed
 * once, by the first end block that runs on it (`migrate`); reads on such a store scan as before.
 */
const INDEXED = 2;

const key = (...parts: string[]): string => parts.map((p) => p.toLowerCase()).join("/");

export class StakingKeeper {
  constructor(
    private readonly _env: ModuleEnv,
    private readonly _hooks: DelegationHooks,
  ) {}

  private get _r() {
    return this._env.records(STAKING_PRECOMPILE);
  }

  async params(): Promise<StakingParams> {
    const p = await this._r.get<StakingParams>("params");
    if (p === undefined) throw new ModuleError("staking module has no params: the chain was made without it");
    return p;
  }

  /** Writes the params, checked as x/staking's Params.Validate checks them; the next end block applies a changed max_validators. */
  async setParams(p: StakingParams): Promise<void> {
    validateStakingParams(p);
    await this._r.put("params", p);
    if (await this.indexed()) await this.set.markChanged();
  }

  /** The bonded set and its indexes. */
  get set(): ValidatorSet {
    return new ValidatorSet(this._env, this._r, { validator: (op) => this.validator(op), writeValidator: (v) => this._writeValidator(v), params: () => this.params() });
  }

  private get _maturities(): MaturityQueue {
    return new MaturityQueue(this._r);
  }

  /** True when the store has its indexes (every chain made since they exist; an older one after its first end block). */
  async indexed(): Promise<boolean> {
    return (await this._r.get<number>("indexed")) === INDEXED;
  }

  /**
   * Builds the indexes of a store written without them (one scan, once): every validator into the
   * power index, the maturity list into the maturity index. Genesis runs it after writing the validators.
   */
  async migrate(): Promise<void> {
    if (await this.indexed()) return;
    const set = this.set;
    for (const v of await this.validators()) {
      await set.index(v);
      if (v.status === BondStatus.Unbonding && !(await set.queue.has(v.operator))) await set.queue.push(v.operator, [v.unbondingTime]);
    }
    await this._maturities.carryLegacy();
    await this._r.put("indexed", INDEXED);
  }

  /** The end block's set update (src/cosmos/staking/validator-set.ts). */
  async applyValidatorSetUpdates(): Promise<void> {
    await this.migrate();
    return this.set.applyUpdates();
  }

  async validatorList(): Promise<string[]> {
    return (await this._r.get<string[]>("validators")) ?? [];
  }

  async validator(operator: string): Promise<Validator | undefined> {
    const v = await this._r.get<ValidatorCore & { description?: Description }>(key("validator", operator));
    if (v === undefined) return undefined;
    // a record written before descriptions had a record of their own holds it
    if (v.description !== undefined) return v as Validator;
    return { ...v, description: (await this._r.get<Description>(key("description", operator))) ?? { ...EMPTY_DESCRIPTION } };
  }

  /** A validator without its description (one record of a few words): for the block work. */
  private async _core(operator: string): Promise<ValidatorCore | undefined> {
    return this._r.get<ValidatorCore>(key("validator", operator));
  }

  /** Every validator, in the order the SDK's store keeps them: by operator address bytes. */
  async validators(): Promise<Validator[]> {
    const out: Validator[] = [];
    for (const op of await this.validatorList()) {
      const v = await this.validator(op);
      if (v !== undefined) out.push(v);
    }
    return out.sort((a, b) => byteOrder(a.operator, b.operator));
  }

  /**
   * The bonded set (at most max_validators), by operator address: what the power index holds, so
   * the block work that reads it (allocation, tallies) reads at most that many validators.
   */
  async bondedValidators(): Promise<ValidatorCore[]> {
    if (!(await this.indexed())) return (await this.validators()).filter((v) => v.status === BondStatus.Bonded);
    const out: ValidatorCore[] = [];
    for (const e of await this.set.bonded.entries()) {
      const v = await this._core(e.member);
      if (v !== undefined) out.push(v);
    }
    return out.sort((a, b) => byteOrder(a.operator, b.operator));
  }

  /** Writes a validator; the next end block's set update re-indexes it (its tokens, jail or status may have changed). */
  async setValidator(v: Validator): Promise<void> {
    const list = await this.validatorList();
    if (!list.some((op) => op.toLowerCase() === v.operator.toLowerCase())) await this._r.put("validators", [...list, getAddress(v.operator)]);
    await this._writeValidator(v);
    if (await this.indexed()) await this.set.markChanged(v.operator);
  }

  /** Writes a validator: its description in a record of its own, the rest in another. */
  private async _writeValidator(v: Validator): Promise<void> {
    const { description, ...core } = v;
    await this._r.put(key("validator", v.operator), core);
    await this._r.put(key("description", v.operator), description);
  }

  /** The validator or x/staking's `ErrNoValidatorFound`. */
  async requireValidator(operator: string): Promise<Validator> {
    const v = await this.validator(operator);
    if (v === undefined) throw new ModuleError("validator does not exist");
    return v;
  }

  async delegationShares(delegator: string, operator: string): Promise<bigint | undefined> {
    return (await this._r.get<{ shares: bigint }>(key("delegation", delegator, operator)))?.shares;
  }

  /** A delegation's shares; x/staking's ErrNoDelegation when there is none. */
  async requireDelegationShares(delegator: string, operator: string): Promise<bigint> {
    const shares = await this.delegationShares(delegator, operator);
    if (shares === undefined) throw new ModuleError(ERR_NO_DELEGATION);
    return shares;
  }

  /** Validators the delegator has a delegation with, in x/staking's store order (by operator, bytewise). */
  async delegatorValidators(delegator: string): Promise<string[]> {
    return ((await this._r.get<string[]>(key("delegator", delegator))) ?? []).sort(byteOrder);
  }

  private async _setShares(delegator: string, operator: string, shares: bigint): Promise<void> {
    const list = await this.delegatorValidators(delegator);
    const has = list.some((op) => op.toLowerCase() === operator.toLowerCase());
    if (shares === 0n) {
      await this._r.put(key("delegation", delegator, operator), undefined);
      if (has) {
        const rest = list.filter((op) => op.toLowerCase() !== operator.toLowerCase());
        await this._r.put(key("delegator", delegator), rest.length === 0 ? undefined : rest);
        if (rest.length === 0)
          await this._r.put(
            "delegators",
            (await this.delegators()).filter((d) => d.toLowerCase() !== delegator.toLowerCase()),
          );
      }
      return;
    }
    await this._r.put(key("delegation", delegator, operator), { shares });
    if (!has) await this._r.put(key("delegator", delegator), [...list, getAddress(operator)]);
    if (list.length === 0) await this._r.put("delegators", [...(await this.delegators()), getAddress(delegator)]);
  }

  /** Every account with a delegation, in the order they first delegated (for the genesis export). */
  async delegators(): Promise<string[]> {
    return (await this._r.get<string[]>("delegators")) ?? [];
  }

  /** The exchange rate's rules (src/cosmos/staking/shares.ts), where callers have always found them. */
  static invalidExRate = invalidExRate;
  static tokensFromShares = tokensFromShares;
  static sharesFromTokens = sharesFromTokens;

  private static _pool(v: Validator): string {
    return v.status === BondStatus.Bonded ? BONDED_POOL : NOT_BONDED_POOL;
  }

  /** MsgDelegate: `amount` of the delegator's coins to the validator's pool; returns the new shares. */
  async delegate(delegator: string, operator: string, amount: bigint, from: "account" | "unbonding" = "account"): Promise<bigint> {
    if (amount <= 0n) throw new ModuleError("invalid delegation amount: invalid request");
    const v = await this.requireValidator(operator);
    return this._bond(delegator, v, amount, async () => {
      if (from === "account") await this._env.send(delegator, StakingKeeper._pool(v), amount);
      else if (v.status === BondStatus.Bonded) await this._env.send(NOT_BONDED_POOL, BONDED_POOL, amount);
    });
  }

  /**
   * Adds `amount` tokens to the delegator's delegation with `v` (x/staking's Delegate): its rewards
   * are withdrawn first, then `moveCoins` brings the tokens into the validator's pool, then shares are
   * issued at the validator's rate. Returns the new shares.
   */
  private async _bond(delegator: string, v: Validator, amount: bigint, moveCoins: () => Promise<void>): Promise<bigint> {
    // x/staking's Delegate (MsgDelegate, a redelegation's destination, a cancelled unbonding): a
    // validator slashed to no tokens while it has shares (Validator.InvalidExRate) takes no more
    if (StakingKeeper.invalidExRate(v)) throw new ModuleError("cannot delegate to validators with invalid (zero) ex-rate");
    const before = await this.delegationShares(delegator, v.operator);
    if (before !== undefined) await this._hooks.beforeSharesModified(delegator, v.operator);
    await moveCoins();
    const shares = StakingKeeper.sharesFromTokens(v, amount);
    v.tokens += amount;
    v.delegatorShares += shares;
    await this.setValidator(v);
    await this._setShares(delegator, v.operator, (before ?? 0n) + shares);
    await this._hooks.afterSharesModified(delegator, v.operator);
    return shares;
  }

  /** Shares worth `amount` tokens of a delegation (x/staking's ValidateUnbondAmount). */
  private async _unbondShares(delegator: string, v: Validator, amount: bigint): Promise<bigint> {
    const have = await this.requireDelegationShares(delegator, v.operator);
    // SharesFromTokens and SharesFromTokensTruncated: both truncate (QuoInt, QuoTruncate), so the
    // SDK's cap at the delegation's shares never applies; a validator without tokens has no rate
    if (v.tokens === 0n) throw new ModuleError("insufficient delegation shares: invalid request");
    const shares = (v.delegatorShares * amount) / v.tokens;
    if (shares > have) throw new ModuleError("invalid shares amount: invalid request");
    return shares;
  }

  /** Removes `shares` from a delegation; the tokens they were worth (x/staking's Unbond). */
  private async _unbond(delegator: string, v: Validator, shares: bigint): Promise<bigint> {
    await this._hooks.beforeSharesModified(delegator, v.operator);
    const have = (await this.delegationShares(delegator, v.operator)) ?? 0n;
    if (shares > have) throw new ModuleError("not enough delegation shares");
    const tokens = v.delegatorShares === shares ? v.tokens : StakingKeeper.tokensFromShares(v, shares);
    v.tokens -= tokens;
    v.delegatorShares -= shares;
    await this.setValidator(v);
    await this._setShares(delegator, v.operator, have - shares);
    if (have - shares > 0n) await this._hooks.afterSharesModified(delegator, v.operator);
    return tokens;
  }

  async unbondingEntries(delegator: string, operator: string): Promise<UnbondingEntry[]> {
    return (await this._r.get<UnbondingEntry[]>(key("unbonding", delegator, operator))) ?? [];
  }

  async redelegationEntries(delegator: string, src: string, dst: string): Promise<RedelegationEntry[]> {
    return (await this._r.get<RedelegationEntry[]>(key("redelegation", delegator, src, dst))) ?? [];
  }

  /** Every (src, dst) pair with redelegation entries of the delegator, in x/staking's store order (by source, then destination). */
  async redelegationPairs(delegator: string): Promise<Array<{ src: string; dst: string }>> {
    const pairs = (await this._r.get<Array<{ src: string; dst: string }>>(key("redelegations", delegator))) ?? [];
    return pairs.sort((a, b) => byteOrder(a.src, b.src) || byteOrder(a.dst, b.dst));
  }

  private async _nextUnbondingId(): Promise<bigint> {
    const id = ((await this._r.get<bigint>("lastUnbondingId")) ?? 0n) + 1n;
    await this._r.put("lastUnbondingId", id);
    return id;
  }

  /** The earliest completion time of a pending unbonding or redelegation; undefined when none. */
  async nextMaturity(): Promise<bigint | undefined> {
    return this._maturities.next(!(await this.indexed()));
  }

  /**
   * The first block time at which the end block has work: 0 while the store is not indexed or a set
   * update is pending (the next block), else the earliest completion of a delegation's, a
   * redelegation's or a validator's unbonding; undefined when nothing is due.
   */
  async endBlockDue(): Promise<bigint | undefined> {
    if (!(await this.indexed()) || (await this.set.pending())) return 0n;
    const a = await this.nextMaturity();
    const b = await this.set.nextMaturity();
    return a === undefined ? b : b === undefined || a < b ? a : b;
  }

  /** MsgUndelegate: returns the completion time (Unix seconds) and the tokens unbonding. */
  async undelegate(delegator: string, operator: string, amount: bigint): Promise<{ completionTime: bigint; amount: bigint }> {
    if (amount <= 0n) throw new ModuleError("invalid shares amount: invalid request");
    const v = await this.requireValidator(operator);
    const shares = await this._unbondShares(delegator, v, amount);
    const { unbondingTime, maxEntries } = await this.params();
    const entries = await this.unbondingEntries(delegator, operator);
    if (entries.length >= maxEntries) throw new ModuleError("too many unbonding delegation entries for (delegator, validator) tuple");
    const bonded = v.status === BondStatus.Bonded;
    const tokens = await this._unbond(delegator, v, shares);
    if (bonded) await this._env.send(BONDED_POOL, NOT_BONDED_POOL, tokens);
    const completionTime = this._env.time + unbondingTime;
    const unbondingId = await this._nextUnbondingId();
    entries.push({ creationHeight: this._env.height, completionTime, initialBalance: tokens, balance: tokens, unbondingId });
    await this._r.put(key("unbonding", delegator, operator), entries);
    await this._maturities.push(completionTime, unbondingId, { delegator, validator: operator });
    return { completionTime, amount: tokens };
  }

  /** MsgBeginRedelegate: returns the completion time and the tokens moved. */
  async redelegate(delegator: string, src: string, dst: string, amount: bigint): Promise<{ completionTime: bigint; amount: bigint }> {
    if (amount <= 0n) throw new ModuleError("invalid shares amount: invalid request");
    // in x/staking's order: the amount against the source delegation first (ValidateUnbondAmount), then BeginRedelegation's checks
    const srcV = await this.requireValidator(src);
    const shares = await this._unbondShares(delegator, srcV, amount);
    if (src.toLowerCase() === dst.toLowerCase()) throw new ModuleError("cannot redelegate to the same validator");
    const dstV = await this.validator(dst);
    if (dstV === undefined) throw new ModuleError("redelegation destination validator not found");
    // stake that arrived at src by a redelegation still maturing cannot move on (a slash must find it)
    for (const pair of await this.redelegationPairs(delegator)) {
      if (pair.dst.toLowerCase() !== src.toLowerCase()) continue;
      if ((await this.redelegationEntries(delegator, pair.src, pair.dst)).some((e) => e.completionTime > this._env.time)) {
        throw new ModuleError("redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation");
      }
    }
    const { unbondingTime, maxEntries } = await this.params();
    const entries = await this.redelegationEntries(delegator, src, dst);
    if (entries.length >= maxEntries) throw new ModuleError("too many redelegation entries for (delegator, src-validator, dst-validator) tuple");
    const srcBonded = srcV.status === BondStatus.Bonded;
    const tokens = await this._unbond(delegator, srcV, shares);
    if (tokens === 0n) throw new ModuleError("too few tokens to redelegate (truncates to zero tokens)");
    // the tokens move between the pools when the two validators' statuses differ
    const dstBonded = dstV.status === BondStatus.Bonded;
    const sharesDst = await this._bond(delegator, (await this.validator(dst)) as Validator, tokens, async () => {
      if (srcBonded !== dstBonded) await this._env.send(srcBonded ? BONDED_POOL : NOT_BONDED_POOL, dstBonded ? BONDED_POOL : NOT_BONDED_POOL, tokens);
    });
    const completionTime = this._env.time + unbondingTime;
    const unbondingId = await this._nextUnbondingId();
    entries.push({ creationHeight: this._env.height, completionTime, initialBalance: tokens, sharesDst, unbondingId });
    await this._r.put(key("redelegation", delegator, src, dst), entries);
    const pairs = await this.redelegationPairs(delegator);
    if (!pairs.some((p) => p.src.toLowerCase() === src.toLowerCase() && p.dst.toLowerCase() === dst.toLowerCase())) {
      await this._r.put(key("redelegations", delegator), [...pairs, { src: getAddress(src), dst: getAddress(dst) }]);
    }
    await this._maturities.push(completionTime, unbondingId, { delegator, validator: src, dst });
    return { completionTime, amount: tokens };
  }

  /** MsgCancelUnbondingDelegation: `amount` of the entry made at `creationHeight` goes back to the validator. */
  async cancelUnbonding(delegator: string, operator: string, amount: bigint, creationHeight: bigint): Promise<void> {
    if (amount <= 0n) throw new ModuleError("invalid amount: invalid request");
    await this.requireValidator(operator);
    const entries = await this.unbondingEntries(delegator, operator);
    if (entries.length === 0) throw new ModuleError("no unbonding delegation found");
    const i = entries.findIndex((e) => e.creationHeight === creationHeight && e.completionTime > this._env.time);
    if (i < 0) throw new ModuleError(`unbonding delegation entry is not found at block height ${creationHeight}: not found`);
    const entry = entries[i];
    if (entry.balance < amount) throw new ModuleError("amount is greater than the unbonding delegation entry balance: invalid request");
    await this.delegate(delegator, operator, amount, "unbonding");
    entry.balance -= amount;
    if (entry.balance === 0n) entries.splice(i, 1);
    await this._r.put(key("unbonding", delegator, operator), entries.length === 0 ? undefined : entries);
  }

  /** Staking's EndBlocker: completes every unbonding and redelegation entry due at the block's time. */
  async completeMatured(): Promise<Array<{ delegator: string; validator: string; amount: bigint }>> {
    await this.migrate();
    const paid: Array<{ delegator: string; validator: string; amount: bigint }> = [];
    const seen = new Set<string>();
    const queue = this._maturities;
    for (let item = await queue.popDue(this._env.time); item !== undefined; item = await queue.popDue(this._env.time)) {
      const id = key(item.delegator, item.validator, item.dst ?? "");
      if (seen.has(id)) continue;
      seen.add(id);
      if (item.dst !== undefined) {
        const entries = await this.redelegationEntries(item.delegator, item.validator, item.dst);
        const left = entries.filter((e) => e.completionTime > this._env.time);
        await this._r.put(key("redelegation", item.delegator, item.validator, item.dst), left.length === 0 ? undefined : left);
        if (left.length === 0) {
          const pairs = (await this.redelegationPairs(item.delegator)).filter(
            (p) => !(p.src.toLowerCase() === item.validator.toLowerCase() && p.dst.toLowerCase() === (item.dst as string).toLowerCase()),
          );
          await this._r.put(key("redelegations", item.delegator), pairs.length === 0 ? undefined : pairs);
        }
        continue;
      }
      const entries = await this.unbondingEntries(item.delegator, item.validator);
      let amount = 0n;
      const left: UnbondingEntry[] = [];
      for (const e of entries) {
        if (e.completionTime <= this._env.time) amount += e.balance;
        else left.push(e);
      }
      await this._r.put(key("unbonding", item.delegator, item.validator), left.length === 0 ? undefined : left);
      if (amount > 0n) {
        await this._env.send(NOT_BONDED_POOL, item.delegator, amount);
        paid.push({ delegator: item.delegator, validator: item.validator, amount });
      }
    }
    return paid;
  }
}
