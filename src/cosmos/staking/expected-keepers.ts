/**
 * What the staking module's record check reads of distribution and x/mint, as types only: a loaded
 * state's records must read as those keepers write them (src/cosmos/staking/module.ts checkRecords).
 * src/cosmos/app.ts wires them.
 */

export interface DistributionRecords {
  validatorRewards(operator: string): Promise<unknown>;
  params(): Promise<unknown>;
  communityPool(): Promise<unknown>;
}

export interface MintRecords {
  params(): Promise<object | undefined>;
  minter(): Promise<{ inflation: unknown; annualProvisions: unknown }>;
}
