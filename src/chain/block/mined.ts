/**
 * What the miner (src/chain/block/miner.ts) gives back for a block it made, and the bounds of one
 * hardhat_mine; the node answers with them (src/chain/reads/node-types.ts names them among its shapes).
 */
import type { Block } from "@ethereumjs/block";
import type { RunTxResult } from "@ethereumjs/vm";
import type { BlockEvents, BlockPhase } from "../base/module";
import type { StoredReceipt } from "../store/chain-store";

/** The most blocks one hardhat_mine may make (reserved or real). */
export const MAX_MINE_BLOCKS = 100_000_000n;
/** The most block time one hardhat_mine may cover (10 years of seconds): its epoch ends are real blocks. */
export const MAX_MINE_SPAN_S = 315_360_000n;

/** Where a console.log line came from. */
export type ConsoleOrigin = { kind: "transaction"; hash: string; height: bigint } | { kind: "block"; phase: BlockPhase; height: bigint } | { kind: "call" };

/** What happened to a transaction in the block mined for it. */
export interface Inclusion {
  mined: MinedBlock;
  result: RunTxResult;
  index: number;
}

export interface MinedBlock {
  block: Block;
  receipts: StoredReceipt[];
  events: BlockEvents;
  /** What running each transaction returned (revert data, VM error): on a block just mined, for the node's log. */
  results?: RunTxResult[];
  /** On a block just mined: the pooled transactions it refused (and the pool dropped), with why; automine answers their senders. */
  refused?: ReadonlyMap<string, string>;
}
