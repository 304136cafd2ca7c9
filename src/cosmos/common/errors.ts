/** The errors the Cosmos modules answer with; a precompile reverts with their text (cosmos/evm's `ReturnRevertError`). */
import { PrecompileRevert } from "../../chain/base/precompile";

/** A failure the chain's module returns: the precompile reverts with it as `Error(string)`. */
export class ModuleError extends PrecompileRevert {}

/** The bank's ErrInsufficientFunds for a spend of `amount` from a balance of `have` (x/bank's text, one place). */
export function insufficientFunds(have: bigint, amount: bigint, denom: string): ModuleError {
  return new ModuleError(`spendable balance ${have}${denom} is smaller than ${amount}${denom}: insufficient funds`);
}

/** The SDK's ErrInvalidCoins wrapping what was refused (`5uatom: invalid coins`). */
export function invalidCoins(what: string): ModuleError {
  return new ModuleError(`${what}: invalid coins`);
}
