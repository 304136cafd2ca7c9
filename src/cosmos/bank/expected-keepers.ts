/** What the bank precompile needs of x/erc20, as types only (cosmos/evm's precompiles/bank/types); src/cosmos/app.ts wires it. */
import type { Bank } from "./keeper";

/** A coin's ERC-20 address, as x/erc20's token pairs name it. */
interface TokenPairRef {
  erc20: string;
  denom: string;
}

/** x/erc20's token pairs, read: the bank precompile answers in ERC-20 addresses. */
export interface Erc20Keeper {
  pair(erc20: string): Promise<TokenPairRef | undefined>;
  pairOfDenom(denom: string): Promise<TokenPairRef | undefined>;
  pairs(): Promise<TokenPairRef[]>;
}

/** The keepers the bank precompile runs on (src/cosmos/app.ts `Keepers` has them). */
export interface BankKeepers {
  bank: Bank;
  erc20: Erc20Keeper;
}
