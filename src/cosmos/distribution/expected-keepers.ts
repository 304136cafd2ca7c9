/**
 * What distribution needs of the other modules, as types only (the SDK's x/distribution/types/expected_keepers.go):
 * the wiring file (src/cosmos/app.ts) hands over the keepers that have these.
 */
import type { ValidatorCore } from "../staking/types";

/** Staking, as distribution reads it: a delegation's shares, the bonded validators, a validator that must exist. */
export interface StakingKeeper {
  delegationShares(delegator: string, operator: string): Promise<bigint | undefined>;
  /** A delegation's shares; staking's own error when there is none. */
  requireDelegationShares(delegator: string, operator: string): Promise<bigint>;
  bondedValidators(): Promise<ValidatorCore[]>;
  requireValidator(operator: string): Promise<unknown>;
}
