/**
 * What x/erc20 and its ERC-20 precompiles need of the other modules, as types only (cosmos/evm's
 * x/erc20/types/interfaces.go); src/cosmos/app.ts wires them.
 */
import type { Erc20Keeper } from "./keeper";

/** Denom metadata, as far as the ERC-20s read it (x/bank's). */
export interface DenomMetadata {
  name: string;
  symbol: string;
  decimals: number;
}

/** The bank, every denom: the ERC-20s' balances, supply and transfers are the bank's. */
export interface BankKeeper {
  balance(address: string, denom: string): Promise<bigint>;
  supplyOf(denom: string): Promise<bigint>;
  send(from: string, to: string, denom: string, amount: bigint): Promise<void>;
  mint(to: string, denom: string, amount: bigint): Promise<void>;
  metadata(denom: string): Promise<DenomMetadata | undefined>;
  setMetadata(denom: string, metadata: DenomMetadata): Promise<void>;
}

/** ICS20's denom traces: a voucher's base denom names its ERC-20; a voucher registered by its path records its trace. */
export interface TransferKeeper {
  denom(hash: string): Promise<{ base: string } | undefined>;
  recordDenom(d: { base: string; trace: Array<{ portId: string; channelId: string }> }): Promise<unknown>;
}

/** The keepers x/erc20's genesis and precompiles run on (src/cosmos/app.ts `Keepers` has them). */
export interface Erc20Keepers {
  bank: BankKeeper;
  erc20: Erc20Keeper;
  ics20: TransferKeeper;
}
