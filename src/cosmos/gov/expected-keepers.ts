/**
 * What x/gov needs of the other modules, as types only (x/gov/types/expected_keepers.go); src/cosmos/app.ts
 * wires them: staking for the tally, and the Msg router (src/cosmos/msg-router.ts) that names a
 * proposal message's signer and runs it when the proposal passes.
 */
import type { ModuleEnv } from "../common/module-env";
import type { ValidatorCore } from "../staking/types";

/** Staking, as the tally reads it: the bonded validators and each voter's delegations. */
export interface StakingKeeper {
  bondedValidators(): Promise<ValidatorCore[]>;
  delegatorValidators(delegator: string): Promise<string[]>;
  delegationShares(delegator: string, operator: string): Promise<bigint | undefined>;
}

/** The app's Msg router (baseapp's MsgServiceRouter), as a proposal's messages meet it. */
export interface MsgRouter {
  /** The field of `body` naming its signer (the message's `cosmos.msg.v1.signer` option), undefined when it has none. */
  signerField(typeUrl: string, body: Record<string, unknown>): string | undefined;
  /** Runs the message through its module's Msg server; a message no server takes throws x/gov's ErrUnroutableProposalMsg. */
  handle(env: ModuleEnv, typeUrl: string, body: Record<string, unknown>): Promise<void>;
}
