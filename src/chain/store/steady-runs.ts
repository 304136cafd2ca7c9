/**
 * Reserved ranges with the modules' work played in them (src/chain/base/module.ts, `SteadyWork`: x/mint's
 * provision on a chain that mints every block, epoch ticks no hook acts on). hardhat_mine plays the
 * run once and writes its end state; a block inside the range is made on read as any reserved block
 * is, with its own state (the range's start, its blocks up to it played, written on a copy) and its
 * own events — what making the blocks one by one would have left. Players are kept every CHECKPOINT
 * blocks, so reading one block plays at most that many.
 */
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import { bytesToHex } from "@ethereumjs/util";
import { turnIfDue } from "../../utils/turn";
import { ChainError } from "../base/errors";
import type { BlockEvents, BlockModule, SteadyPlayer } from "../base/module";
import type { Reservation, SteadyRun } from "./reserved-blocks";

const CHECKPOINT = 4096n;
/** Ranges whose checkpoints are kept, and block roots kept (each root costs a state write to find). */
const RANGES = 8;
const ROOTS = 1024;

/** The players of `starts` (one per playing module, by name in `modules`). */
export function steadyPlayers(modules: readonly BlockModule[], starts: SteadyRun["starts"]): SteadyPlayer[] {
  return starts.map(({ module, start }) => {
    const work = modules.find((m) => m.name === module)?.steady;
    if (work === undefined) throw new ChainError(`a reserved range plays module ${module}'s work, which this chain does not run`);
    return work.player(start);
  });
}

/** Plays one block on every player (in the chain's module order, as a made block runs them): its events, or undefined when one cannot play it. */
async function playBlock(players: readonly SteadyPlayer[], block: { number: bigint; timestamp: bigint }): Promise<BlockEvents | undefined> {
  const events: BlockEvents = { begin: [], end: [] };
  for (const p of players) {
    const e = await p.step(block);
    if (e === undefined) return undefined;
    events.begin.push(...e.begin);
    events.end.push(...e.end);
  }
  return events;
}

type RangeTimes = Pick<Reservation, "first" | "timestamp" | "interval">;
/** What makes a range's played blocks what they are: its start state, first block and times. */
type RangeId = RangeTimes & Pick<Reservation, "stateRoot">;
const rangeId = (r: RangeId): string => `${bytesToHex(r.stateRoot)}:${r.first}:${r.timestamp}:${r.interval}`;

/**
 * Plays the range's blocks from step `from` up to step `to` (exclusive; step k is block first + k),
 * skipping blocks before every player's `quietUntil`, and giving other requests turns on long runs;
 * `onEvents` sees each played block's events. Returns the step it stopped at: `to`, or the first
 * block a player refused (the players have then stepped into it: start again to stop before it).
 */
async function playRange(players: readonly SteadyPlayer[], r: RangeTimes, from: bigint, to: bigint, onEvents?: (events: BlockEvents) => void): Promise<bigint> {
  let k = from;
  for (let played = 0; k < to; played++) {
    const t = r.timestamp + k * r.interval;
    let until: bigint | undefined;
    for (const p of players) {
      const q = p.quietUntil?.() ?? t;
      until = until === undefined || q < until ? q : until;
    }
    if (until !== undefined && until > t) {
      // nothing in any block before `until`
      const skip = r.interval === 0n ? to - k : (until - t + r.interval - 1n) / r.interval;
      k = k + skip < to ? k + skip : to;
      continue;
    }
    const events = await playBlock(players, rangeBlock(r, r.first + k));
    if (events === undefined) return k;
    onEvents?.(events);
    k++;
    if (played % 1024 === 1023) await turnIfDue();
  }
  return k;
}

/** Block `n`'s number and time in range `r`. */
const rangeBlock = (r: RangeTimes, n: bigint): { number: bigint; timestamp: bigint } => ({ number: n, timestamp: r.timestamp + (n - r.first) * r.interval });

export class SteadyRuns {
  /** Per range (rangeId): players after k·CHECKPOINT blocks. */
  private readonly _checkpoints = new Map<string, Map<bigint, SteadyPlayer[]>>();
  private readonly _roots = new Map<string, Uint8Array>();
  private _last: { id: string; steps: bigint; players: SteadyPlayer[] } | undefined;

  constructor(
    private readonly _modules: () => readonly BlockModule[],
    /** A writable copy of the state at `root`, whose trie nodes reach the chain's store. */
    private readonly _stateAt: (root: Uint8Array) => Promise<MerkleStateManager>,
  ) {}

  /** Block n's state root. */
  async root(r: Reservation & { steady: SteadyRun }, n: bigint): Promise<Uint8Array> {
    if (n === r.steady.endBlock) return r.steady.endRoot;
    const key = `${bytesToHex(r.steady.endRoot)}:${n}`;
    const known = this._roots.get(key);
    if (known !== undefined) return known;
    const players = await this.playersAt(r, r.steady.starts, n - r.first + 1n);
    const state = await this._stateAt(r.stateRoot);
    for (const p of players) await p.write(state);
    const root = await state.getStateRoot();
    this._roots.set(key, root);
    if (this._roots.size > ROOTS) this._roots.delete(this._roots.keys().next().value as string);
    return root;
  }

  /** Block n's events, played. */
  async events(r: Reservation & { steady: SteadyRun }, n: bigint): Promise<BlockEvents> {
    const events = await playBlock(await this.playersAt(r, r.steady.starts, n - r.first), rangeBlock(r, n));
    if (events === undefined) throw new ChainError(`block ${n} of the reserved range ${r.first}–${r.last} cannot be played`);
    return events;
  }

  /**
   * Plays a new range's blocks up to step `to` from `players` at step 0 (hardhat_mine's run), keeping
   * positions every CHECKPOINT blocks, so the first read of a block deep in the range plays few.
   * Returns where it stopped (playRange).
   */
  async play(r: RangeId, players: SteadyPlayer[], to: bigint, onEvents?: (events: BlockEvents) => void): Promise<bigint> {
    return this._advance(
      this._marks(r, () => players),
      r,
      players,
      0n,
      to,
      onEvents,
    );
  }

  /**
   * Players after `steps` blocks of range `r`, whose playing modules started from `starts`, from the
   * nearest position kept (fresh copies: the caller may play them on).
   */
  async playersAt(r: RangeId, starts: SteadyRun["starts"], steps: bigint): Promise<SteadyPlayer[]> {
    const id = rangeId(r);
    const marks = this._marks(r, () => steadyPlayers(this._modules(), starts));
    let at = (steps / CHECKPOINT) * CHECKPOINT;
    while (!marks.has(at)) at -= CHECKPOINT;
    // the last position read, when it is nearer: blocks read in order (eth_feeHistory, a scan) play one block each
    const last = this._last;
    const fromLast = last !== undefined && last.id === id && last.steps <= steps && last.steps > at;
    const players = (fromLast ? last.players : (marks.get(at) as SteadyPlayer[])).map((p) => p.copy());
    if (fromLast) at = last.steps;
    if ((await this._advance(marks, r, players, at, steps)) !== steps) throw new ChainError(`a block of the reserved range from ${r.first} cannot be played`);
    this._last = { id, steps, players: players.map((p) => p.copy()) };
    return players;
  }

  /** The kept positions of range `r`, made with `start` (its players at step 0) when there are none. */
  private _marks(r: RangeId, start: () => SteadyPlayer[]): Map<bigint, SteadyPlayer[]> {
    const id = rangeId(r);
    let marks = this._checkpoints.get(id);
    if (marks === undefined) {
      marks = new Map([[0n, start().map((p) => p.copy())]]);
      this._checkpoints.set(id, marks);
      if (this._checkpoints.size > RANGES) this._checkpoints.delete(this._checkpoints.keys().next().value as string);
    }
    return marks;
  }

  /** Plays `players` from step `at` to `to`, keeping a copy at each multiple of CHECKPOINT passed. */
  private async _advance(marks: Map<bigint, SteadyPlayer[]>, r: RangeTimes, players: SteadyPlayer[], at: bigint, to: bigint, onEvents?: (events: BlockEvents) => void): Promise<bigint> {
    while (at < to) {
      const next = (at / CHECKPOINT + 1n) * CHECKPOINT;
      const until = next < to ? next : to;
      const reached = await playRange(players, r, at, until, onEvents);
      if (reached !== until) return reached;
      at = until;
      if (at % CHECKPOINT === 0n && !marks.has(at))
        marks.set(
          at,
          players.map((p) => p.copy()),
        );
    }
    return at;
  }
}
