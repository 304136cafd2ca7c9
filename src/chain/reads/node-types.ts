/**
 * The shapes `Node` (src/chain/node.ts) is made from and answers with: its options, its events, what
 * a submission and a mined block give back. Apart from the class so that the miner
 * (src/chain/block/miner.ts) and the node's readers share them without importing the node.
 */
import type { EventEmitter } from "node:events";
import type { CustomPrecompile } from "@ethereumjs/evm";
import type { TypedTransaction } from "@ethereumjs/tx";
import type { Address } from "@ethereumjs/util";
import type { KVStore } from "../../storage/kv";
import type { SystemCallExplainer } from "../block/block-producer";
import type { ChainConfig } from "../base/config";
import type { ConsoleLogDecoder } from "../../solidity/console-log";
import type { ExecutionRecord } from "../engine/executions";
import type { ForkConfig } from "../fork/index";
import type { BlockModule } from "../base/module";
import type { PrecompileContext } from "../store/chain-state";
import type { CacheBounds } from "../store/cache-bounds";
import type { ConsoleOrigin, Inclusion, MinedBlock } from "../block/mined";

export { type ConsoleOrigin, type Inclusion, type MinedBlock } from "../block/mined";

export interface NodeOptions {
  config: ChainConfig;
  kv?: KVStore;
  modules?: BlockModule[];
  /** Precompiles of modules (the epochs precompile). They reach the node lazily, through `ctx`. */
  precompiles?: (ctx: PrecompileContext) => CustomPrecompile[];
  /** Fork a remote chain: the state reads through to it, the first block is its fork block. `Node.create` opens it. */
  fork?: ForkConfig;
  /** Decodes console.log calls (from console.sol's signatures); without it they are not watched. */
  consoleLog?: ConsoleLogDecoder;
  /** Sizes of the in-memory caches (defaults: `DEFAULT_CACHE_BOUNDS`); tests use small ones to watch eviction. */
  cacheBounds?: Partial<CacheBounds>;
  /** Tells why a system call (an epoch hook) failed, in the host's words; without it, the VM's error. */
  explainSystemCall?: SystemCallExplainer;
  /** Where `steps` relays the EVM's steps (a host's emitter that exists before the chain does); default: its own. */
  stepEvents?: EventEmitter;
  /** Relay only these opcodes' steps, minimal ones, from the opcodes themselves (src/chain/engine/step-relay.ts); default: every step. */
  stepOpcodes?: readonly string[];
}

/**
 * Under automine, how long a send of a transaction behind a nonce gap waits for the gap to be filled
 * and its block mined before it answers with the hash alone (the transaction stays queued). Waiting
 * keeps a burst of concurrent senders (nonces arriving out of order) from running ahead of the gap.
 */
export const QUEUED_WAIT_MS = 2000;

/** What `Node.send` answers: the hash; under automine, the transaction's inclusion (none when it is still queued). */
export interface Sent {
  hash: string;
  included?: Inclusion;
}

/** A transaction to send, and its sender (default: its signer); made by `Node.send`'s `prepare` inside the lock. */
export interface Prepared {
  tx: TypedTransaction;
  sender?: Address;
}

/** A block's time for `Node.mineBlock`: exactly this timestamp, or this one unless the head is already as late. */
export type BlockTime = bigint | { notBefore: bigint };

export interface NodeEvents {
  block: [MinedBlock];
  /** Interval mining failed (it goes on at the next interval). */
  miningError: [Error];
  /** A precompile threw: a bug of the node, which the call met as a revert (src/chain/engine/evm.ts). */
  precompileFault: [string, Error];
  /** A console.log line from contract code, as it runs. */
  consoleLog: [string, ConsoleOrigin];
  /** A statement tag of code instrumented for coverage, as it runs (src/chain/engine/coverage.ts). */
  coverageHit: [Uint8Array];
  /** A user's execution, recorded while someone listens: a mined transaction, an eth_call, a call of block production (src/chain/engine/executions.ts). */
  executed: [ExecutionRecord];
  pendingTransaction: [string];
  /** Emitted after a rewind (evm_revert, debug_setHead) to the new head. */
  rewind: [bigint];
  /** Emitted after hardhat_reset replaced the chain (its new head). */
  reset: [bigint];
  /** A range of empty blocks was reserved (hardhat_mine): first, last, the first one's base fee, the count of each event type its played module work emitted. No "block" event is emitted for them. */
  reserved: [bigint, bigint, bigint | undefined, ReadonlyMap<string, number>];
}
