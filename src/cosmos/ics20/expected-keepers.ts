/** What ICS20 needs of the bank, as types only (ibc-go's transfer/types/expected_keepers.go); src/cosmos/app.ts wires it. */

/** The bank, every denom: escrow and refunds move coins, a voucher going home is burned, one arriving is minted. */
export interface Bank {
  send(from: string, to: string, denom: string, amount: bigint): Promise<void>;
  mint(to: string, denom: string, amount: bigint): Promise<void>;
  burn(from: string, denom: string, amount: bigint): Promise<void>;
}
