/**
 * The distribution module: rewards minted at an epoch's end (as Evmos's inflation module minted on
 * AfterEpochEnd) and shared among the bonded validators by their tokens; each validator keeps its
 * commission and its delegators share the rest by their shares. Kept in the distribution
 * precompile's storage (src/chain/base/records.ts); the coins sit in the distribution module account until
 * withdrawn.
 *
 * Rewards are LegacyDecs (integers scaled by 10^18), as the chain keeps them; a withdrawal pays the
 * whole coins and leaves the fraction to the community pool, as x/distribution does. The per-share
 * accumulator is the F1 idea in its simplest form: a delegation's rewards are its shares times the
 * growth of its validator's reward-per-share since the delegation last changed or withdrew. As on
 * the chain, changing a delegation withdraws its rewards first.
 */
import { getAddress } from "ethers/address";
import { DEC, decString } from "../common/decimal";
import { DISTRIBUTION_ACCOUNT } from "../common/accounts";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import type { StakingKeeper } from "./expected-keepers";
import type { DelegationHooks, ValidatorCore } from "../staking/types";

export const DISTRIBUTION_PRECOMPILE = "0x0000000000000000000000000000000000000801" as const;

export interface DistributionParams {
  /** LegacyDec share of each minting that goes to the community pool (x/distribution's community_tax). */
  communityTax: bigint;
  /** The epoch whose ends mint rewards. */
  epochIdentifier: string;
  /** Coins minted at each end of that epoch. */
  rewardsPerEpoch: bigint;
}

/** x/distribution's Params.ValidateBasic (validateCommunityTax, x/distribution/types/params.go) in its words, and this chain's epoch rewards not negative. */
export function validateDistributionParams(p: DistributionParams): void {
  if (p.communityTax < 0n) throw new ModuleError(`community tax must be positive: ${decString(p.communityTax)}`);
  if (p.communityTax > DEC) throw new ModuleError(`community tax too large: ${decString(p.communityTax)}`);
  if (p.rewardsPerEpoch < 0n) throw new ModuleError("rewards per epoch cannot be negative");
}

export interface ValidatorRewards {
  /** LegacyDec rewards per LegacyDec share, scaled by another 10^18. */
  perShare: bigint;
  /** LegacyDec commission not yet withdrawn. */
  commission: bigint;
  /** LegacyDec rewards the validator's delegators and commission hold (x/distribution's outstanding rewards). */
  outstanding: bigint;
}

const key = (...parts: string[]): string => parts.map((p) => p.toLowerCase()).join("/");

/** The validators AllocateTokens pays: the bonded ones, not jailed, with tokens. */
export const rewardedValidators = (bonded: readonly ValidatorCore[]): ValidatorCore[] => bonded.filter((v) => !v.jailed && v.tokens > 0n);

/**
 * AllocateTokens' arithmetic on `amount` coins: the community tax, each validator's reward by its
 * share of `validators`' tokens (LegacyDecs), and what rounding leaves added to the community's part.
 */
export function splitAllocation(amount: bigint, communityTax: bigint, validators: readonly ValidatorCore[]): { community: bigint; rewards: bigint[] } {
  const total = amount * DEC;
  const community = (total * communityTax) / DEC;
  const left = total - community;
  const power = validators.reduce((s, v) => s + v.tokens, 0n);
  const rewards = validators.map((v) => (left * v.tokens) / power);
  return { community: community + left - rewards.reduce((s, r) => s + r, 0n), rewards };
}

/** A validator's rewards after it is given `reward` (a LegacyDec): its commission, the rest to its delegators by shares (AllocateTokensToValidator). */
export function rewardValidator(r: ValidatorRewards, v: ValidatorCore, reward: bigint): ValidatorRewards {
  const commission = (reward * v.commissionRate) / DEC;
  // r's own key order, as the record had it (a record's bytes are its JSON)
  const out = { ...r, commission: r.commission + commission, outstanding: r.outstanding + reward };
  if (v.delegatorShares > 0n) out.perShare += ((reward - commission) * DEC) / v.delegatorShares;
  else out.commission += reward - commission;
  return out;
}

export class DistributionKeeper implements DelegationHooks {
  constructor(
    private readonly _env: ModuleEnv,
    private readonly _staking: StakingKeeper,
  ) {}

  private get _r() {
    return this._env.records(DISTRIBUTION_PRECOMPILE);
  }

  async params(): Promise<DistributionParams> {
    const p = await this._r.get<DistributionParams>("params");
    if (p === undefined) throw new ModuleError("distribution module has no params: the chain was made without it");
    return p;
  }

  /** Writes the params, checked (validateDistributionParams) on every path: genesis, MsgUpdateParams, the dev helpers. */
  setParams(p: DistributionParams): Promise<void> {
    validateDistributionParams(p);
    return this._r.put("params", p);
  }

  async validatorRewards(operator: string): Promise<ValidatorRewards> {
    return (await this._r.get<ValidatorRewards>(key("rewards", operator))) ?? { perShare: 0n, commission: 0n, outstanding: 0n };
  }

  async communityPool(): Promise<bigint> {
    return (await this._r.get<bigint>("communityPool")) ?? 0n;
  }

  private async _addCommunity(dec: bigint): Promise<void> {
    if (dec !== 0n) await this._r.put("communityPool", (await this.communityPool()) + dec);
  }

  /** Where a delegator's rewards go: itself unless it set another address. */
  async withdrawAddress(delegator: string): Promise<string> {
    return (await this._r.get<string>(key("withdraw", delegator))) ?? getAddress(delegator);
  }

  async setWithdrawAddress(delegator: string, to: string): Promise<void> {
    await this._r.put(key("withdraw", delegator), to.toLowerCase() === delegator.toLowerCase() ? undefined : getAddress(to));
  }

  /** LegacyDec rewards a delegation holds now. */
  async delegationRewards(delegator: string, operator: string): Promise<bigint> {
    const shares = await this._staking.requireDelegationShares(delegator, operator);
    const r = await this.validatorRewards(operator);
    const start = (await this._r.get<bigint>(key("start", delegator, operator))) ?? 0n;
    return (shares * (r.perShare - start)) / DEC;
  }

  /**
   * Mints `amount` and allocates it (AllocateTokens): the community tax, then each bonded validator
   * by its share of the bonded tokens; what rounding leaves goes to the community pool.
   */
  async allocate(amount: bigint): Promise<void> {
    if (amount <= 0n) return;
    await this._env.mint(DISTRIBUTION_ACCOUNT, amount);
    const { communityTax } = await this.params();
    const validators = rewardedValidators(await this._staking.bondedValidators());
    const { community, rewards } = splitAllocation(amount, communityTax, validators);
    for (const [i, v] of validators.entries()) await this.allocateToValidator(v, rewards[i]);
    await this._addCommunity(community);
  }

  /** Gives a validator `reward` (a LegacyDec): its commission, the rest to its delegators by shares (AllocateTokensToValidator). */
  async allocateToValidator(v: ValidatorCore, reward: bigint): Promise<void> {
    await this.setValidatorRewards(v.operator, rewardValidator(await this.validatorRewards(v.operator), v, reward));
  }

  /** Writes a validator's rewards record (the allocation's, and a played run's end: src/cosmos/played-mint.ts). */
  setValidatorRewards(operator: string, r: ValidatorRewards): Promise<void> {
    return this._r.put(key("rewards", operator), r);
  }

  /** Writes the community pool (a LegacyDec). */
  setCommunityPool(dec: bigint): Promise<void> {
    return this._r.put("communityPool", dec);
  }

  /** MsgCommunityPoolSpend (DistributeFromFeePool): whole coins of `denom` out of the community pool to `recipient`. */
  async spendCommunityPool(recipient: string, amount: bigint, denom = this._env.denom): Promise<void> {
    const pool = await this.communityPool();
    // the pool holds the native coin only: any other is short as well (ErrBadDistribution)
    if (denom !== this._env.denom || pool < amount * DEC) throw new ModuleError("community pool does not have sufficient coins to distribute");
    await this._r.put("communityPool", pool - amount * DEC);
    await this._env.send(DISTRIBUTION_ACCOUNT, recipient, amount);
  }

  /** MsgFundCommunityPool: the depositor's coins to the community pool. */
  async fundCommunityPool(depositor: string, amount: bigint): Promise<void> {
    await this._env.send(depositor, DISTRIBUTION_ACCOUNT, amount);
    await this._addCommunity(amount * DEC);
  }

  /** Pays a delegation's rewards (whole coins) to its withdraw address; returns what was paid. */
  async withdrawDelegationRewards(delegator: string, operator: string): Promise<bigint> {
    await this._staking.requireValidator(operator);
    const dec = await this.delegationRewards(delegator, operator);
    const r = await this.validatorRewards(operator);
    await this._r.put(key("start", delegator, operator), r.perShare);
    if (dec === 0n) return 0n;
    const coins = dec / DEC;
    r.outstanding -= dec;
    await this._r.put(key("rewards", operator), r);
    await this._addCommunity(dec - coins * DEC);
    await this._env.send(DISTRIBUTION_ACCOUNT, await this.withdrawAddress(delegator), coins);
    return coins;
  }

  /** Pays the validator's commission (whole coins) to its operator's withdraw address. */
  async withdrawCommission(operator: string): Promise<bigint> {
    await this._staking.requireValidator(operator);
    const r = await this.validatorRewards(operator);
    const coins = r.commission / DEC;
    if (coins === 0n) throw new ModuleError("no validator commission to withdraw");
    r.commission -= coins * DEC;
    r.outstanding -= coins * DEC;
    await this._r.put(key("rewards", operator), r);
    await this._env.send(DISTRIBUTION_ACCOUNT, await this.withdrawAddress(operator), coins);
    return coins;
  }

  async beforeSharesModified(delegator: string, operator: string): Promise<void> {
    await this.withdrawDelegationRewards(delegator, operator);
  }

  async afterSharesModified(delegator: string, operator: string): Promise<void> {
    await this._r.put(key("start", delegator, operator), (await this.validatorRewards(operator)).perShare);
  }
}
