/**
 * Reserved empty blocks: a run of blocks in which nothing happens (no transaction, no module work
 * but what the modules can play: src/chain/store/steady-runs.ts) is recorded as one range instead of
 * being made block by block, and each block of it is made from the range when someone reads it. `hardhat_mine(1_000_000)` then costs a record, not a million
 * blocks (Hardhat reserves ranges the same way; docs/reserved-blocks.md).
 *
 * A reserved block is exactly the block production would make at its height and time, empty, from
 * the state the range starts from, its played work applied (src/chain/block/block-producer.ts builds both headers), with one
 * difference: only the range's first block names its real parent; inside the range a block's
 * `parentHash` is zero (as in Hardhat's reserved blocks), since chaining a million hashes is the
 * work the range avoids. The block after the range names the range's last block as its parent.
 * Everything else follows from the record, so a block reads the same every time and after a restart.
 */
import { type Block, createBlock } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToUtf8, utf8ToBytes } from "@ethereumjs/util";
import { keccak256 } from "../../utils/keccak";
import { blockHeaderData } from "../base/header";

export interface Reservation {
  first: bigint;
  last: bigint;
  /** Seconds between two blocks of the range (0 with allowBlocksWithSameTimestamp). */
  interval: bigint;
  /** The first block's time; block n's is timestamp + (n - first) × interval. */
  timestamp: bigint;
  /** The hash of block first − 1, the first block's parent. */
  parentHash: Uint8Array;
  /** The state the range starts from (its parent's): every block of a range without steady work has it. */
  stateRoot: Uint8Array;
  gasLimit: bigint;
  coinbase: Uint8Array;
  extraData: Uint8Array;
  /** The first block's base fee; each empty block after it lowers it as EIP-1559 does. */
  baseFeePerGas: bigint;
  /** The modules' every-block work played in the range (x/mint's provision: src/chain/store/steady-runs.ts). */
  steady?: SteadyRun;
}

/** A range's played module work: block n's state is the range's start with blocks first..n played. */
export interface SteadyRun {
  /** Each playing module's start (SteadyWork.start), in the chain's module order. */
  starts: Array<{ module: string; start: Uint8Array }>;
  /** The block the range was played to when reserved (its last then; a rewind may cut the range below it) and that block's state root. */
  endBlock: bigint;
  endRoot: Uint8Array;
}

const ZERO_HASH = new Uint8Array(32);
const big = (b: Uint8Array): bigint => bytesToBigInt(b);

export function encodeReservation(r: Reservation): Uint8Array {
  return RLP.encode([
    bigIntToUnpaddedBytes(r.first),
    bigIntToUnpaddedBytes(r.last),
    bigIntToUnpaddedBytes(r.interval),
    bigIntToUnpaddedBytes(r.timestamp),
    r.parentHash,
    r.stateRoot,
    bigIntToUnpaddedBytes(r.gasLimit),
    r.coinbase,
    r.extraData,
    bigIntToUnpaddedBytes(r.baseFeePerGas),
    ...(r.steady === undefined ? [] : [r.steady.starts.map((s) => [utf8ToBytes(s.module), s.start]), bigIntToUnpaddedBytes(r.steady.endBlock), r.steady.endRoot]),
  ]);
}

export function decodeReservation(bytes: Uint8Array): Reservation {
  const [first, last, interval, timestamp, parentHash, stateRoot, gasLimit, coinbase, extraData, baseFee, starts, endBlock, endRoot] = RLP.decode(bytes) as Uint8Array[];
  const r: Reservation = {
    first: big(first),
    last: big(last),
    interval: big(interval),
    timestamp: big(timestamp),
    parentHash,
    stateRoot,
    gasLimit: big(gasLimit),
    coinbase,
    extraData,
    baseFeePerGas: big(baseFee),
  };
  // a range written before steady work (ten fields) plays nothing
  if (starts === undefined) return r;
  const played = (starts as unknown as Uint8Array[][]).map(([module, start]) => ({ module: bytesToUtf8(module), start }));
  return { ...r, steady: { starts: played, endBlock: big(endBlock), endRoot } };
}

/**
 * The base fee of the empty block `steps` blocks after one with `baseFee`: EIP-1559 takes an eighth
 * (the change denominator) off per empty block, down to where an eighth rounds to nothing, so the
 * walk is at most a few hundred steps whatever `steps` is.
 */
function emptyBlocksBaseFee(common: Common, baseFee: bigint, steps: bigint): bigint {
  if (!common.isActivatedEIP(1559)) return 0n;
  const denominator = common.param("baseFeeMaxChangeDenominator");
  let fee = baseFee;
  for (let i = 0n; i < steps; i++) {
    const next = fee - fee / denominator;
    if (next === fee) break;
    fee = next;
  }
  return fee;
}

/** Block `n` of the range, made as production makes an empty block (see the file's header); `stateRoot`: its state (a played range's block n: src/chain/store/steady-runs.ts). */
export function reservedBlock(common: Common, r: Reservation, n: bigint, stateRoot = r.stateRoot): Block {
  if (n < r.first || n > r.last) throw new RangeError(`block ${n} is not in the reserved range ${r.first}–${r.last}`);
  const parentHash = n === r.first ? r.parentHash : ZERO_HASH;
  const header = blockHeaderData(common, {
    parentHash,
    number: n,
    timestamp: r.timestamp + (n - r.first) * r.interval,
    gasLimit: r.gasLimit,
    coinbase: r.coinbase,
    extraData: r.extraData,
    mixHash: keccak256(parentHash),
    baseFeePerGas: emptyBlocksBaseFee(common, r.baseFeePerGas, n - r.first),
    excessBlobGas: 0n,
  });
  return createBlock({ header: { ...header, stateRoot, gasUsed: 0n }, withdrawals: common.isActivatedEIP(4895) ? [] : undefined }, { common });
}
