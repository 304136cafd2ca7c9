/**
 * x/mint's arithmetic (src/cosmos/mint/keeper.ts) against the Cosmos SDK's own vectors
 * (x/mint/types/minter_test.go: TestNextInflation, TestBlockProvision), and LegacyDec's rounding.
 */
import { expect } from "chai";
import { DEFAULT_MINTER, DEFAULT_MINT_PARAMS, blockProvision, bondedRatio, nextAnnualProvisions, nextInflationRate } from "../../../src/cosmos/mint/keeper";
import { decMul, decQuo } from "../../../src/cosmos/common/legacy-dec";

const DEC = 10n ** 18n;
/** math.LegacyNewDecWithPrec(n, prec). */
const prec = (n: bigint, p: number): bigint => (n * DEC) / 10n ** BigInt(p);

describe("x/mint's minter", () => {
  it("moves the inflation as the SDK's TestNextInflation expects", () => {
    const params = DEFAULT_MINT_PARAMS;
    const perBlock = params.blocksPerYear * DEC;
    const one = DEC;
    const cases: Array<[bigint, bigint, bigint]> = [
      // with 0% bonded the inflation rises by InflationRateChange / blocks per year
      [0n, prec(7n, 2), decQuo(params.inflationRateChange, perBlock)],
      // 100% bonded, from 20% down
      [one, prec(20n, 2), decQuo(decMul(one - decQuo(one, params.goalBonded), params.inflationRateChange), perBlock)],
      // 50% bonded, from 10% up
      [prec(5n, 1), prec(10n, 2), decQuo(decMul(one - decQuo(prec(5n, 1), params.goalBonded), params.inflationRateChange), perBlock)],
      // the 7% floor
      [one, prec(7n, 2), 0n],
      [one, prec(700000001n, 10), -prec(1n, 10)],
      // the 20% ceiling
      [0n, prec(20n, 2), 0n],
      [0n, prec(1999999999n, 10), prec(1n, 10)],
      // at the goal nothing changes
      [prec(67n, 2), prec(15n, 2), 0n],
    ];
    for (const [ratio, set, change] of cases) {
      expect(nextInflationRate({ ...DEFAULT_MINTER, inflation: set }, params, ratio) - set, `bonded ${ratio}, inflation ${set}`).to.equal(change);
    }
  });

  it("gives a block its provision as the SDK's TestBlockProvision expects", () => {
    const secondsPerYear = 60n * 60n * 8766n;
    const cases: Array<[bigint, bigint]> = [
      [secondsPerYear / 5n, 1n],
      [secondsPerYear / 5n + 1n, 1n],
      [(secondsPerYear / 5n) * 2n, 2n],
      [secondsPerYear / 5n / 2n, 0n],
    ];
    for (const [annual, expected] of cases) expect(blockProvision({ inflation: prec(1n, 1), annualProvisions: annual * DEC }, DEFAULT_MINT_PARAMS)).to.equal(expected);
  });

  it("takes annual provisions from the supply and the bonded ratio by truncation", () => {
    expect(nextAnnualProvisions({ inflation: prec(13n, 2), annualProvisions: 0n }, 1000n)).to.equal(130n * DEC);
    expect(bondedRatio(1n, 3n)).to.equal(333_333_333_333_333_333n);
    expect(bondedRatio(5n, 0n)).to.equal(0n);
  });

  it("rounds LegacyDec products and quotients half to even, as chopPrecisionAndRound does", () => {
    // 0.5 × 1e-18 = 0.5e-18 → 0 (even); 1.5e-18 → 2e-18
    expect(decMul(DEC / 2n, 1n)).to.equal(0n);
    expect(decMul(3n * (DEC / 2n), 1n)).to.equal(2n);
    expect(decQuo(DEC, 3n * DEC)).to.equal(333_333_333_333_333_333n);
    expect(decQuo(2n * DEC, 3n * DEC)).to.equal(666_666_666_666_666_667n);
    expect(decMul(-3n * (DEC / 2n), 1n)).to.equal(-2n);
  });
});
