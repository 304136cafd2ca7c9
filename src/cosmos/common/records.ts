/**
 * The modules' records as the Cosmos SDK's KV store meters them: each read and write charged its KV
 * gas, in the EVM storage of the module's precompile account (src/chain/base/records.ts).
 */
import { GasMeter } from "../../chain/base/precompile";
import { StorageRecords, decodeRecord, encodeRecord } from "../../chain/base/records";

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

/** The Cosmos SDK's KV gas (storetypes.KVGasConfig): what a module's store reads and writes cost. */
const KV_GAS = { readFlat: 1_000n, readPerByte: 3n, writeFlat: 2_000n, writePerByte: 30n } as const;

export { GasMeter };

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
