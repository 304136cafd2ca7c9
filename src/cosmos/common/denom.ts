/** The Cosmos SDK's coin denoms: their syntax, checked where a denom enters (the bank, x/erc20, the dev methods). */
import { ModuleError } from "./errors";

/** The Cosmos SDK's denom syntax (types/coin.go `reDnmString`): 3–128 characters, a letter first. */
const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

export function isDenom(text: string): boolean {
  return DENOM.test(text);
}

export function validateDenom(denom: string): void {
  if (!isDenom(denom)) throw new ModuleError(`invalid denom: ${denom}`);
}
