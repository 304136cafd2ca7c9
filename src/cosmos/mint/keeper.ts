/**
 * x/mint as the Cosmos SDK runs it at each block's start (x/mint/abci.go, x/mint/types/minter.go):
 * the inflation moves toward its goal by the bonded ratio, the annual provisions are the inflation
 * times the staking coin's supply, and the block's provision (annual provisions / blocks per year,
 * truncated) is minted and allocated by distribution (src/cosmos/distribution/keeper.ts), as the
 * fee collector's coins are on the chain. A chain has it when its genesis has `app_state.mint`
 * (cosmos/evm's evmd does); the minter and params are records in the mint module account's storage.
 *
 * Decimals are LegacyDecs (integers scaled by 10^18) with the SDK's rounding: Mul and Quo round the
 * 18th digit half to even (`chopPrecisionAndRound`), QuoInt and TruncateInt truncate.
 */
import { decString } from "../common/decimal";
import { decMul, decQuo } from "../common/legacy-dec";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { moduleAddress } from "../common/accounts";

export const MINT_MODULE_ACCOUNT = moduleAddress("mint");

const DEC = 10n ** 18n;

export interface MintParams {
  /** LegacyDecs. */
  inflationRateChange: bigint;
  inflationMax: bigint;
  inflationMin: bigint;
  goalBonded: bigint;
  blocksPerYear: bigint;
}

export interface Minter {
  /** LegacyDecs. */
  inflation: bigint;
  annualProvisions: bigint;
}

/** The SDK's DefaultParams and DefaultInitialMinter (x/mint/types/params.go, minter.go). */
export const DEFAULT_MINT_PARAMS: MintParams = {
  inflationRateChange: (13n * DEC) / 100n,
  inflationMax: (20n * DEC) / 100n,
  inflationMin: (7n * DEC) / 100n,
  goalBonded: (67n * DEC) / 100n,
  blocksPerYear: 6_311_520n,
};
export const DEFAULT_MINTER: Minter = { inflation: (13n * DEC) / 100n, annualProvisions: 0n };

/**
 * x/mint's Params.Validate (x/mint/types/params.go), in its words: run on every path that sets the
 * params (genesis, a MsgUpdateParams through x/gov), so no block ever divides by a zero goal or
 * mints a negative provision.
 */
export function validateMintParams(p: MintParams): void {
  const fraction = (v: bigint, what: string, positive = false): void => {
    if (positive ? v <= 0n : v < 0n) throw new ModuleError(positive ? `${what} must be positive: ${decString(v)}` : `${what} cannot be negative: ${decString(v)}`);
    if (v > DEC) throw new ModuleError(`${what} too large: ${decString(v)}`);
  };
  fraction(p.inflationRateChange, "inflation rate change");
  fraction(p.inflationMax, "max inflation");
  fraction(p.inflationMin, "min inflation");
  fraction(p.goalBonded, "goal bonded", true);
  if (p.blocksPerYear <= 0n) throw new ModuleError(`blocks per year must be positive: ${p.blocksPerYear}`);
  if (p.blocksPerYear >= 2n ** 64n) throw new ModuleError(`blocks per year must fit a uint64: ${p.blocksPerYear}`);
  if (p.inflationMax < p.inflationMin) throw new ModuleError(`max inflation (${decString(p.inflationMax)}) must be greater than or equal to min inflation (${decString(p.inflationMin)})`);
}

/** x/mint's ValidateMinter: the inflation not negative. */
export function validateMinter(m: Minter): void {
  if (m.inflation < 0n) throw new ModuleError(`mint parameter Inflation should be positive, is ${decString(m.inflation)}`);
  if (m.annualProvisions < 0n) throw new ModuleError(`mint parameter AnnualProvisions should be positive, is ${decString(m.annualProvisions)}`);
}

/** NextInflationRate: (1 − bondedRatio / goalBonded) × inflationRateChange per year, a block's part of it, within [min, max]. */
export function nextInflationRate(minter: Minter, params: MintParams, bondedRatio: bigint): bigint {
  const perYear = decMul(DEC - decQuo(bondedRatio, params.goalBonded), params.inflationRateChange);
  const change = decQuo(perYear, params.blocksPerYear * DEC);
  const inflation = minter.inflation + change;
  if (inflation > params.inflationMax) return params.inflationMax;
  if (inflation < params.inflationMin) return params.inflationMin;
  return inflation;
}

/** NextAnnualProvisions: the inflation times the supply (LegacyDec MulInt). */
export const nextAnnualProvisions = (minter: Minter, totalSupply: bigint): bigint => minter.inflation * totalSupply;

/** BlockProvision: annual provisions / blocks per year (QuoInt), truncated to whole coins. */
export const blockProvision = (minter: Minter, params: MintParams): bigint => minter.annualProvisions / params.blocksPerYear / DEC;

/** BondedRatio: bonded tokens / the staking coin's supply (QuoInt, truncating); 0 without supply. */
export const bondedRatio = (bonded: bigint, supply: bigint): bigint => (supply > 0n ? (bonded * DEC) / supply : 0n);

/** One block of x/mint's BeginBlocker as values: the minter it leaves and the block's provision. */
export function mintStep(before: Minter, params: MintParams, bonded: bigint, supply: bigint): { provision: bigint; minter: Minter; bondedRatio: bigint } {
  const ratio = bondedRatio(bonded, supply);
  const inflation = nextInflationRate(before, params, ratio);
  const minter = { inflation, annualProvisions: nextAnnualProvisions({ ...before, inflation }, supply) };
  return { provision: blockProvision(minter, params), minter, bondedRatio: ratio };
}

export class MintKeeper {
  constructor(private readonly _env: ModuleEnv) {}

  private get _r() {
    return this._env.records(MINT_MODULE_ACCOUNT);
  }

  async params(): Promise<MintParams | undefined> {
    return this._r.get<MintParams>("params");
  }

  async minter(): Promise<Minter> {
    return (await this._r.get<Minter>("minter")) ?? DEFAULT_MINTER;
  }

  /** Writes the params and the minter, checked (validateMintParams, validateMinter): genesis and MsgUpdateParams alike. */
  async init(params: MintParams, minter: Minter): Promise<void> {
    validateMintParams(params);
    validateMinter(minter);
    await this._r.put("params", params);
    await this._r.put("minter", minter);
  }

  setMinter(minter: Minter): Promise<void> {
    return this._r.put("minter", minter);
  }

  /** The BeginBlocker's minter update; returns the block's provision (0 when the chain has no mint params). */
  async beginBlock(bonded: bigint, supply: bigint): Promise<{ provision: bigint; minter: Minter; bondedRatio: bigint }> {
    const params = await this.params();
    const before = await this.minter();
    if (params === undefined) return { provision: 0n, minter: before, bondedRatio: 0n };
    const step = mintStep(before, params, bonded, supply);
    await this.setMinter(step.minter);
    return step;
  }
}
