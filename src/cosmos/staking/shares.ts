/**
 * A validator's exchange rate between tokens and delegation shares, as x/staking's Validator
 * computes it (x/staking/types/validator.go). Shares are LegacyDecs (10^18 = one share); tokens whole.
 */
import { DEC, type ValidatorCore } from "./types";

/** x/staking's Validator.InvalidExRate: no tokens left (slashed away) while delegators still hold shares. */
export function invalidExRate(v: ValidatorCore): boolean {
  return v.tokens === 0n && v.delegatorShares > 0n;
}

/**
 * Tokens that `shares` of `v` are worth, truncated: Validator.TokensFromShares, a LegacyDec `Quo`
 * (the quotient to 18 decimals, rounded half to even), then TruncateInt. Shares are LegacyDec
 * (10^18 = one share); tokens whole.
 */
export function tokensFromShares(v: ValidatorCore, shares: bigint): bigint {
  if (v.delegatorShares === 0n) return 0n;
  return roundHalfEven((shares * v.tokens * DEC * DEC) / v.delegatorShares, DEC) / DEC;
}

/**
 * Shares issued for `amount` tokens (Validator.AddTokensFromDel): one per token for the first
 * delegation (no shares yet), else SharesFromTokens, a LegacyDec QuoInt (truncated).
 */
export function sharesFromTokens(v: ValidatorCore, amount: bigint): bigint {
  if (v.delegatorShares === 0n) return amount * DEC;
  return (v.delegatorShares * amount) / v.tokens;
}

/** `n / unit`, rounded half to even (LegacyDec's chopPrecisionAndRound for unit 10^18); n ≥ 0. */
function roundHalfEven(n: bigint, unit: bigint): bigint {
  const q = n / unit;
  const r = n % unit;
  const twice = 2n * r;
  if (twice < unit) return q;
  if (twice > unit) return q + 1n;
  return q % 2n === 0n ? q : q + 1n;
}
