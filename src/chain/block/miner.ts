/**
 * Block production from the pool: one block (`mineBlock`), what automine still owes (`mineWaiting`),
 * hardhat_mine's runs with their quiet blocks reserved instead of made, and the sends that wait for
 * their transaction's block. `Node` (src/chain/node.ts) owns one and calls it inside its lock; the
 * miner asks its host for the node's current chain, pool, clock and settings each time (`parts`),
 * since hardhat_reset, a state load and evm_revert replace them.
 */
import type { Common } from "@ethereumjs/common";
import { bytesToHex, createAddressFromString, equalsBytes } from "@ethereumjs/util";
import { keccak256 } from "../../utils/keccak";
import type { ChainConfig } from "../base/config";
import type { NodeSettings } from "../base/config";
import type { ExecutionRecord } from "../engine/executions";
import { ChainError, abortsBlock } from "../base/errors";
import { slotReader } from "../base/module-state";
import { type ConsoleOrigin, type Inclusion, MAX_MINE_BLOCKS, MAX_MINE_SPAN_S, type MinedBlock } from "./mined";
import { type PooledTx, type TxPool, maxFeeOf } from "../pool/txpool";
import type { ChainState } from "../store/chain-state";
import { type ProduceBlockArgs, type SystemCallExplainer, produceBlock } from "./block-producer";
import { type Clock, timestampRefusal } from "../base/clock";
import { commitBlock, commitPlayedReservation, commitReservation } from "./commit";
import type { Reservation, SteadyRun } from "../store/reserved-blocks";
import { type SteadyRuns, steadyPlayers } from "../store/steady-runs";
import type { BlockEvents, SteadyPlayer } from "../base/module";
import { turnIfDue } from "../../utils/turn";

/** The node's parts a block is made from now; `settings` is the node's record itself (a mined block clears its next-block-only values). */
interface MinerParts {
  chain: ChainState;
  pool: TxPool;
  clock: Clock;
  settings: NodeSettings;
}

/** What the miner needs of its node: the current parts (replaced by a reset) and where to report. */
interface MinerHost {
  readonly config: ChainConfig;
  readonly common: Common;
  parts(): MinerParts;
  readonly explainSystemCall: SystemCallExplainer | undefined;
  /** Whether someone listens for executions (they are recorded only then). */
  recordsExecutions(): boolean;
  /** What the live VM runs now, for console.log lines of block production. */
  setConsoleOrigin(origin: ConsoleOrigin): void;
  mined(block: Required<MinedBlock>, executions: readonly ExecutionRecord[]): void;
  /** `played`: how many events of each type the modules' played work emitted in the range. */
  reserved(first: bigint, last: bigint, baseFee: bigint | undefined, played: ReadonlyMap<string, number>): void;
}

/** Base fee of the next block: the one set by hardhat_setNextBlockBaseFeePerGas, else EIP-1559's rule. */
export function nextBaseFee(host: { chain: ChainState; common: Common; settings: NodeSettings }): bigint {
  if (host.settings.nextBaseFee !== undefined) return host.settings.nextBaseFee;
  return host.common.isActivatedEIP(1559) ? host.chain.head.header.calcNextBaseFee() : 0n;
}

type Outcome = { included?: Inclusion; refused?: string };

export class Miner {
  /** Sends waiting for their transaction's block (see `inclusionOf`), by transaction hash. */
  private readonly _waiters = new Map<string, (outcome: Outcome) => void>();
  /** Who needs a "block" event for every block (a block filter, a newHeads subscription): while one does, hardhat_mine makes each block. */
  private readonly _everyBlockWanted = new Set<() => boolean>();

  constructor(private readonly _host: MinerHost) {}

  /** Resolves with the inclusion of pooled `hash` once mined, rejects if block production refuses it, undefined after `ms`. */
  inclusionOf(hash: string, ms: number): Promise<Inclusion | undefined> {
    const outcome = new Promise<Inclusion | undefined>((resolve, reject) => {
      const timer = setTimeout(() => settle({}), ms);
      timer.unref();
      const settle = (outcome: Outcome): void => {
        clearTimeout(timer);
        if (this._waiters.get(hash) === settle) this._waiters.delete(hash);
        if (outcome.refused !== undefined) reject(new ChainError(outcome.refused));
        else resolve(outcome.included);
      };
      this._waiters.set(hash, settle);
    });
    // a caller that does not wait (one already inside the lock) leaves no unhandled rejection
    outcome.catch(() => undefined);
    return outcome;
  }

  /**
   * Automine for one pooled transaction: mines until `hash` is in a block (earlier pending ones go
   * first, as on Hardhat) and answers where; a transaction block production refused is a ChainError,
   * and one whose block needed a fork's remote that failed leaves the pool with that error (kept, it
   * would stop every later block until the remote is back).
   */
  async mineUntilIncluded(hash: string): Promise<Inclusion | undefined> {
    const pool = (): TxPool => this._host.parts().pool;
    for (let i = 0; i < 1000 && pool().get(hash) !== undefined; i++) {
      let mined: Required<MinedBlock>;
      try {
        mined = await this.mineBlock();
      } catch (err) {
        if (abortsBlock(err)) pool().remove(hash);
        throw err;
      }
      const index = mined.block.transactions.findIndex((t) => bytesToHex(t.hash()) === hash);
      if (index >= 0) return { mined, result: mined.results[index], index };
      const refused = mined.refused.get(hash);
      if (refused !== undefined) throw new ChainError(refused);
    }
    return undefined;
  }

  /** Answers every waiting send with "still queued" (the chain they waited on is gone). */
  releaseWaiters(): void {
    for (const settle of [...this._waiters.values()]) settle({});
  }

  /** Registers a reader that needs each block as it is made (see mineBlocks); `wanted` says whether it does now. */
  wantsEveryBlock(wanted: () => boolean): void {
    this._everyBlockWanted.add(wanted);
  }

  /** Mines one block from the pool at `timestamp` (default: the clock's next block time). */
  async mineBlock(timestamp?: bigint): Promise<Required<MinedBlock>> {
    const { chain, pool, clock, settings } = this._host.parts();
    const config = this._host.config;
    const parent = chain.head;
    const ts = timestamp ?? clock.nextTimestamp(parent.header.timestamp, config.allowBlocksWithSameTimestamp);
    const tooEarly = timestampRefusal(ts, parent.header.timestamp, config.allowBlocksWithSameTimestamp);
    if (tooEarly !== undefined) throw new ChainError(tooEarly);
    const baseFee = nextBaseFee({ chain, settings, common: this._host.common });
    const candidates = settings.paused ? [] : this.mineable(baseFee).map((p) => ({ tx: p.tx, sender: createAddressFromString(p.sender) }));
    const args: ProduceBlockArgs = {
      vm: chain.vm,
      parent,
      header: {
        timestamp: ts,
        gasLimit: settings.gasLimit,
        baseFeePerGas: baseFee,
        coinbase: settings.coinbase,
        extraData: settings.extraData,
        mixHash: settings.nextPrevRandao ?? keccak256(parent.hash()),
      },
      candidates,
      modules: chain.modules,
      stores: chain.moduleStores,
      stateRoot: chain.liveRoot,
      explain: this._host.explainSystemCall,
      recordExecutions: this._host.recordsExecutions(),
      onStep: (step) => {
        const height = parent.header.number + 1n;
        this._host.setConsoleOrigin("tx" in step ? { kind: "transaction", hash: bytesToHex(step.tx.hash()), height } : { kind: "block", phase: step.phase, height });
      },
    };
    // until the block is committed the live caches hold its values: reads at the head meanwhile answer
    // from the last committed state (ChainState.changingLive)
    const produced = await chain.changingLive(async () => {
      const p = await produceBlock(args);
      this._host.setConsoleOrigin({ kind: "call" });
      await commitBlock(chain, p);
      return p;
    });
    // from here on the block is written: memory follows it
    const refused = new Map<string, string>();
    for (const s of produced.skipped) {
      if (!s.invalid) continue;
      const h = bytesToHex(s.tx.hash());
      refused.set(h, s.reason);
      pool.remove(h);
    }
    for (const tx of produced.block.transactions) pool.remove(bytesToHex(tx.hash()));
    await pool.update((s) => chain.nonceAtHead(s));
    settings.nextBaseFee = undefined;
    settings.nextPrevRandao = undefined;
    clock.didMine(ts);
    const mined: Required<MinedBlock> = { block: produced.block, receipts: produced.receipts, events: produced.events, results: produced.results, refused };
    if (this._waiters.size > 0) {
      produced.block.transactions.forEach((t, index) => this._waiters.get(bytesToHex(t.hash()))?.({ included: { mined, result: produced.results[index], index } }));
      for (const [h, reason] of refused) this._waiters.get(h)?.({ refused: reason });
    }
    this._host.mined(mined, produced.executions);
    return mined;
  }

  /**
   * Under automine, mines the pooled transactions that can go in a block now (after mining resumes,
   * or a lowered minimum gas price lets waiting ones in); nothing when none can.
   */
  async mineWaiting(): Promise<void> {
    const { settings, pool } = this._host.parts();
    if (!settings.automine || settings.paused) return;
    for (let i = 0; i < 1000 && this.mineable().length > 0; i++) {
      const before = pool.size.pending;
      await this.mineBlock();
      if (pool.size.pending >= before) return;
    }
  }

  /** Pending transactions the next block would take: fee at least the base fee and the minimum. */
  mineable(baseFee?: bigint): PooledTx[] {
    const { chain, pool, settings } = this._host.parts();
    const fee = baseFee ?? nextBaseFee({ chain, settings, common: this._host.common });
    const min = settings.minGasPrice;
    return pool.ordered(fee, this._host.config.mining.order).filter((p) => maxFeeOf(p.tx) >= fee && maxFeeOf(p.tx) >= min);
  }

  /**
   * hardhat_mine: `count` blocks, `interval` seconds apart (the first at the clock's next time).
   * Runs of blocks in which nothing would happen are reserved, not made (src/chain/store/reserved-blocks.ts):
   * the modules say until when they have nothing to do (the epochs module: its next tick), so the
   * blocks that tick are made for real, with their hooks and events, and the ones between are a record.
   */
  async mineBlocks(count: bigint, interval: bigint): Promise<void> {
    if (interval < 1n && !this._host.config.allowBlocksWithSameTimestamp) throw new ChainError("interval must be at least 1 second");
    // Quiet blocks are reserved at no cost, but every epoch end in the span is a real block: bound
    // the span so that a typo (1e12 blocks) is refused at once instead of holding the node for hours.
    if (count > MAX_MINE_BLOCKS) throw new ChainError(`cannot mine ${count} blocks in one call: at most ${MAX_MINE_BLOCKS} (mine in several calls)`);
    if (count * interval > MAX_MINE_SPAN_S)
      throw new ChainError(`cannot mine ${count} blocks ${interval} s apart in one call: at most ${MAX_MINE_SPAN_S} s of block time (10 years; mine in several calls)`);
    let ts: bigint | undefined;
    for (let left = count; left > 0n;) {
      // the real blocks of a long span give other requests a turn (reads do not wait for the lock)
      await turnIfDue();
      const quiet = await this._quietBlocks(ts, left, interval);
      const reserved = quiet === undefined ? 0n : await this._reserve(quiet.timestamp, quiet.count, interval);
      if (reserved > 0n) {
        left -= reserved;
        ts = this._host.parts().chain.head.header.timestamp + interval;
        continue;
      }
      const b = await this.mineBlock(ts);
      ts = b.block.header.timestamp + interval;
      left--;
    }
    if (ts !== undefined) this._host.parts().clock.jumpTo(ts - interval);
  }

  /**
   * How many of the next `left` blocks (the first at `ts`, or the clock's next time) can be reserved:
   * none while something must happen in the next block (pooled transactions, a set next base fee or
   * prevrandao, state changed since the head, a reader of every block) or a module has work in it.
   * Reserving one block saves nothing: at least two.
   */
  private async _quietBlocks(ts: bigint | undefined, left: bigint, interval: bigint): Promise<{ timestamp: bigint; count: bigint } | undefined> {
    const { chain, settings, clock } = this._host.parts();
    const { config, common } = this._host;
    if (left < 2n || settings.nextBaseFee !== undefined || settings.nextPrevRandao !== undefined) return undefined;
    if (this.mineable().length > 0 || [...this._everyBlockWanted].some((wanted) => wanted())) return undefined;
    const head = chain.head;
    if (!equalsBytes(head.header.stateRoot, chain.liveRoot)) return undefined;
    if (common.isActivatedEIP(4844) && head.header.calcNextExcessBlobGas(common) !== 0n) return undefined;
    const timestamp = ts ?? clock.nextTimestamp(head.header.timestamp, config.allowBlocksWithSameTimestamp);
    if (timestampRefusal(timestamp, head.header.timestamp, config.allowBlocksWithSameTimestamp) !== undefined) return undefined;
    // the first block time at which some module has work; a module that cannot tell makes every block real
    // (the live state is the head's here, checked above, padded as a BlockContext reads it)
    const headState = slotReader(chain.vm.stateManager);
    let until: bigint | undefined;
    for (const module of chain.modules) {
      // a module that plays its work bounds the run through its player (_reserve)
      if (module.steady !== undefined) continue;
      if (module.quietBefore === undefined) return undefined;
      const store = await chain.moduleStores.readModuleStore(module, chain.vm.stateManager, head.header.number);
      const q = await module.quietBefore(store, headState);
      // work in the very next block (a chain that mints every block): no need to ask the others
      if (q <= timestamp) return undefined;
      until = until === undefined || q < until ? q : until;
    }
    let count = left;
    if (until !== undefined) {
      if (timestamp >= until) return undefined;
      if (interval > 0n) {
        const quiet = (until - timestamp + interval - 1n) / interval; // blocks i with timestamp + i·interval < until
        if (quiet < count) count = quiet;
      }
    }
    return count >= 2n ? { timestamp, count } : undefined;
  }

  /**
   * Reserves up to `count` empty blocks above the head, the first at `timestamp` (inside the lock),
   * with the modules' every-block work played in them (src/chain/store/steady-runs.ts) up to a block
   * whose work cannot be played; returns how many (0: the next block is to be made).
   */
  private async _reserve(timestamp: bigint, count: bigint, interval: bigint): Promise<bigint> {
    const { chain, settings, clock } = this._host.parts();
    const head = chain.head;
    const starts: SteadyRun["starts"] = [];
    for (const m of chain.modules) {
      if (m.steady === undefined) continue;
      const store = await chain.moduleStores.readModuleStore(m, chain.vm.stateManager, head.header.number);
      starts.push({ module: m.name, start: await m.steady.start(chain.vm.stateManager, store) });
    }
    let reserved = count;
    let players: SteadyPlayer[] = [];
    const played = new Map<string, number>();
    if (starts.length > 0) {
      const range = { first: head.header.number + 1n, timestamp, interval, stateRoot: head.header.stateRoot };
      const runs = chain.store.steadyRuns as SteadyRuns;
      const tally = (events: BlockEvents): void => {
        for (const e of [...events.begin, ...events.end]) played.set(e.type, (played.get(e.type) ?? 0) + 1);
      };
      players = steadyPlayers(chain.modules, starts);
      // the tally counts only blocks played through: the one refused is not among them
      reserved = await runs.play(range, players, count, tally);
      if (reserved < 2n) return 0n;
      // the players stepped into the block they could not play: the one before it, from the positions kept
      if (reserved < count) players = await runs.playersAt(range, starts, reserved);
    }
    const r: Reservation = {
      first: head.header.number + 1n,
      last: head.header.number + reserved,
      interval,
      timestamp,
      parentHash: head.hash(),
      stateRoot: head.header.stateRoot,
      gasLimit: settings.gasLimit,
      coinbase: settings.coinbase,
      extraData: settings.extraData,
      baseFeePerGas: nextBaseFee({ chain, settings, common: this._host.common }),
    };
    // a run in which nothing was played (no event, so no write) is a plain range: its blocks share the start's state
    if (played.size === 0) await commitReservation(chain, r);
    else
      await chain.changingLive(() =>
        commitPlayedReservation(chain, r, starts, async (state) => {
          for (const p of players) await p.write(state);
        }),
      );
    clock.didMine(chain.head.header.timestamp);
    this._host.reserved(r.first, r.last, this._host.common.isActivatedEIP(1559) ? r.baseFeePerGas : undefined, played);
    return reserved;
  }
}
