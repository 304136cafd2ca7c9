/** Coin amounts and the native coin's supply as the Cosmos chain counts them. */
import { MAX_INTEGER } from "@ethereumjs/util";
import { ModuleError } from "./errors";
import type { MeteredRecords } from "./records";

/**
 * `amount` as a coin amount: every balance and supply the modules write goes through here, so none
 * passes 2^256−1 (EthereumJS's MAX_INTEGER: the SDK's `math.Int` panics with "Int overflow" past 256
 * bits; an EVM balance past them could not even be read by the BALANCE opcode).
 */
export function coinAmount(amount: bigint): bigint {
  if (amount > MAX_INTEGER) throw new ModuleError("Int overflow");
  return amount;
}

/**
 * The native coin's supply as the Cosmos chain counts it: the genesis balances, plus what the
 * modules minted (rewards, self-bonds of added validators), less what they burned (slashes). Fees
 * are not burned on a Cosmos chain, so the EVM's base-fee burn is not counted (docs/cosmos-precompiles.md).
 */
export async function addSupply(records: MeteredRecords, delta: bigint): Promise<void> {
  await records.put("supply", coinAmount(((await records.get<bigint>("supply")) ?? 0n) + delta));
}
