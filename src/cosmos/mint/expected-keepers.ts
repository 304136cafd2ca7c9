/**
 * What x/mint's block work needs of the other modules, as types only (x/mint/types/expected_keepers.go):
 * distribution allocates each provision, staking names the validators paid and when its end block is
 * next due (a played run stops before it). src/cosmos/app.ts wires them.
 */
import type { DistributionParams, ValidatorRewards } from "../distribution/keeper";
import type { ValidatorCore } from "../staking/types";

export interface DistributionKeeper {
  params(): Promise<DistributionParams>;
  /** Mints `amount` to the distribution account and allocates it (AllocateTokens). */
  allocate(amount: bigint): Promise<void>;
  validatorRewards(operator: string): Promise<ValidatorRewards>;
  setValidatorRewards(operator: string, r: ValidatorRewards): Promise<void>;
  communityPool(): Promise<bigint>;
  setCommunityPool(dec: bigint): Promise<void>;
}

export interface StakingKeeper {
  bondedValidators(): Promise<ValidatorCore[]>;
  /** When staking's end block next has work (an unbonding completes, a set update is pending); undefined: never. */
  endBlockDue(): Promise<bigint | undefined>;
}
