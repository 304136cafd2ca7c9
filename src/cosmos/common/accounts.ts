/**
 * The module accounts: coins held by a module sit at the address the Cosmos SDK gives it
 * (`authtypes.NewModuleAddress(name)`: the first 20 bytes of sha256(name)), so the chain's supply stays
 * whole and `eth_getBalance` of a pool shows what it holds.
 */
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { moduleAddress as moduleAccount } from "../../chain/base/module-state";

/** The Cosmos SDK's module account address of `name` (src/chain/base/module-state.ts's), checksummed. */
export function moduleAddress(name: string): string {
  return getAddress(hexlify(moduleAccount(name)));
}

export const BONDED_POOL = moduleAddress("bonded_tokens_pool");
export const NOT_BONDED_POOL = moduleAddress("not_bonded_tokens_pool");
export const DISTRIBUTION_ACCOUNT = moduleAddress("distribution");

/** Where the bank precompile lives; its storage keeps the native coin's supply (record "supply"). */
export const BANK_PRECOMPILE = "0x0000000000000000000000000000000000000804" as const;
