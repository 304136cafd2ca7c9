/** What slashing needs of staking, as types only (x/slashing/types/expected_keepers.go); src/cosmos/app.ts wires it. */
import type { Validator } from "../staking/types";

export interface StakingKeeper {
  validator(operator: string): Promise<Validator | undefined>;
  validators(): Promise<Validator[]>;
  requireValidator(operator: string): Promise<Validator>;
  setValidator(v: Validator): Promise<void>;
  /** The end block's set update, run at once (a jailing or unjailing moves the validator out of or into the set). */
  applyValidatorSetUpdates(): Promise<unknown>;
}
