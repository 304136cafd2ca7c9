/**
 * What the staking and distribution modules need of the chain while one of their precompiles runs:
 * the block (height, time), the module records (EVM storage of the precompile accounts, see
 * src/chain/base/records.ts), coins (the native coin is the EVM balance, 18 decimals), and the gas meter. Coins
 * held by a module sit in its module account, at the address the Cosmos SDK gives it
 * (`authtypes.NewModuleAddress(name)`: the first 20 bytes of sha256(name)), so the chain's supply
 * stays whole and `eth_getBalance` of a pool shows what it holds.
 */
import { MAX_INTEGER } from "@ethereumjs/util";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { GasMeter, OutOfGas, PrecompileRevert } from "../../chain/base/precompile";
import { StorageRecords, decodeRecord, encodeRecord } from "../../chain/base/records";
import { moduleAddress as moduleAccount } from "../../chain/base/module-state";

/** The Cosmos SDK's module account address of `name` (src/chain/base/module-state.ts's), checksummed. */
export function moduleAddress(name: string): string {
  return getAddress(hexlify(moduleAccount(name)));
}

/**
 * Two hex strings of one length (addresses, hashes) in byte order: the order in which the SDK's stores
 * list what their keys end in (validators by operator, a delegator's delegations and redelegations by
 * validator, signing infos by consensus address, votes by voter, deposits by depositor, IBC denoms and token pairs by hash).
 */
export function byteOrder(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export const BONDED_POOL = moduleAddress("bonded_tokens_pool");
export const NOT_BONDED_POOL = moduleAddress("not_bonded_tokens_pool");
export const DISTRIBUTION_ACCOUNT = moduleAddress("distribution");

/** Where the bank precompile lives; its storage keeps the native coin's supply (record "supply"). */
export const BANK_PRECOMPILE = "0x0000000000000000000000000000000000000804" as const;

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

/** A failure the chain's module returns: the precompile reverts with it as `Error(string)` (cosmos/evm's `ReturnRevertError`). */
export class ModuleError extends PrecompileRevert {}

/** The Cosmos SDK's KV gas (storetypes.KVGasConfig): what a module's store reads and writes cost. */
export const KV_GAS = { readFlat: 1_000n, readPerByte: 3n, writeFlat: 2_000n, writePerByte: 30n } as const;

export { GasMeter, OutOfGas };

/** What module records a piece of work read: counted where the modules' block work runs (src/cosmos/common/module-env.ts, blockWork). */
export interface RecordTally {
  reads: number;
  bytes: number;
}

/** Module records whose reads and writes are charged as the SDK's KV store charges them. */
export class MeteredRecords {
  private readonly _records: StorageRecords;

  constructor(
    io: ConstructorParameters<typeof StorageRecords>[0],
    private readonly _gas: GasMeter,
    private readonly _tally?: RecordTally,
  ) {
    this._records = new StorageRecords(io);
  }

  async get<T>(name: string): Promise<T | undefined> {
    const bytes = await this._records.getBytes(name);
    if (this._tally !== undefined) {
      this._tally.reads++;
      this._tally.bytes += bytes?.length ?? 0;
    }
    this._gas.charge(KV_GAS.readFlat + KV_GAS.readPerByte * BigInt(bytes?.length ?? 0));
    return bytes === undefined ? undefined : decodeRecord<T>(bytes);
  }

  async put(name: string, value: unknown): Promise<void> {
    const bytes = value === undefined ? undefined : encodeRecord(value);
    this._gas.charge(KV_GAS.writeFlat + KV_GAS.writePerByte * BigInt(bytes?.length ?? 0));
    await this._records.putBytes(name, bytes);
  }
}

/** One execution of a module precompile: its block, caller, records, coins and gas. */
export interface ModuleEnv {
  height: bigint;
  /** Block time, Unix seconds. */
  time: bigint;
  gas: GasMeter;
  /** The records of the module at `account` (a precompile address). */
  records(account: string): MeteredRecords;
  balance(address: string): Promise<bigint>;
  /** Moves native coins; throws the bank's insufficient-funds error when `from` has too few. */
  send(from: string, to: string, amount: bigint): Promise<void>;
  /** Creates coins in `to` (the distribution module's minting). */
  mint(to: string, amount: bigint): Promise<void>;
  /** Destroys coins of `from` (a slash); throws when it holds fewer. */
  burn(from: string, amount: bigint): Promise<void>;
  /** The native coin's denom (aevmos, atest). */
  denom: string;
}
