/** evm_*: the test-control methods of Hardhat's and Ganache's nodes (time, mining, snapshots). */
import type { RpcDeps } from "../deps";
import { InvalidParamsError } from "../errors";
import { q } from "../format";
import { method } from "../method";
import { ParamError, any, bool, codec, jsonType, numberOrQuantity, quantity } from "../params";

/** evm_setIntervalMining's argument: ms, or [min, max] ms; 0 turns it off. */
const interval = codec((v): number | [number, number] => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number" && Number.isSafeInteger(x) && x >= 0) && v[0] <= v[1]) {
    return [v[0] as number, v[1] as number];
  }
  throw new ParamError(`cannot unmarshal ${jsonType(v)} into an interval: want milliseconds or [min, max]`);
});

export function evmMethods({ node }: RpcDeps) {
  return [
    method({
      name: "evm_snapshot",
      // not a read: each snapshot holds a state root and a copy of the pool until it is reverted
      access: "dev",
      params: [],
      doc: "Takes a snapshot of everything (blocks, EVM state, epochs store and hook registrations, pool, clock); answers its id.",
      handler: async () => q(await node.snapshot()),
    }),
    method({
      name: "evm_revert",
      access: "dev",
      params: [numberOrQuantity],
      doc: "Restores a snapshot and drops it and every later one; false for an unknown id.",
      handler: async ([id]) => node.revert(Number(id)),
    }),
    method({
      name: "evm_mine",
      access: "dev",
      params: [any.opt()],
      doc: "Mines one block from the pool, at the given timestamp (seconds) when one is given.",
      async handler([ts]) {
        let timestamp: bigint | undefined;
        if (ts !== undefined) {
          if (typeof ts === "number" && Number.isSafeInteger(ts) && ts >= 0) timestamp = BigInt(ts);
          else if (typeof ts === "string") timestamp = numberOrQuantity.parse(ts);
          else if (typeof ts === "object" && ts !== null && "timestamp" in ts) timestamp = numberOrQuantity.parse((ts as { timestamp: unknown }).timestamp);
          else throw new InvalidParamsError(`invalid argument 0: cannot unmarshal ${jsonType(ts)} into a timestamp`);
        }
        await node.mineBlock(timestamp);
        return "0x0";
      },
    }),
    method({
      name: "evm_increaseTime",
      access: "dev",
      params: [numberOrQuantity],
      doc: "Moves the clock forward by some seconds; answers the total offset in seconds (decimal text).",
      handler: async ([s]) => (await node.dev.increaseTime(s)).toString(),
    }),
    method({
      name: "evm_setNextBlockTimestamp",
      access: "dev",
      params: [numberOrQuantity],
      doc: "Fixes the timestamp of the next block; it must be after the latest block's.",
      handler: async ([ts]) => {
        await node.dev.setNextTimestamp(ts);
        return ts.toString();
      },
    }),
    method({
      name: "evm_setAutomine",
      access: "dev",
      params: [bool],
      doc: "Turns automine (one block per transaction) on or off; turning it on mines nothing by itself.",
      handler: async ([on]) => {
        await node.dev.configure({ automine: on });
        return true;
      },
    }),
    method({
      name: "evm_setIntervalMining",
      access: "dev",
      params: [interval],
      doc: "Mines a block every N ms (or a random interval in [min, max]); 0 turns it off.",
      handler: async ([iv]) => {
        await node.dev.setIntervalMining(iv);
        return true;
      },
    }),
    method({
      name: "evm_setBlockGasLimit",
      access: "dev",
      params: [quantity],
      doc: "Gas limit of later blocks.",
      handler: async ([limit]) => {
        if (limit === 0n) throw new InvalidParamsError("invalid argument 0: block gas limit must be greater than 0");
        await node.dev.configure({ gasLimit: limit });
        return true;
      },
    }),
  ];
}
