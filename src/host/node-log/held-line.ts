/**
 * The node log's held line: a line the next identical event extends instead of repeating it (a
 * repeated method, `eth_blockNumber (12)`; a run of empty blocks, `Mined empty blocks #5 - #9`). On a
 * terminal it is shown at once and rewritten in place; elsewhere it waits for its last repeat (or
 * `holdMs`) and is written once.
 */
import { type Paint, emptyBlocksLine } from "./format";

type Held = { kind: "method"; key: string; count: number; printed: boolean } | { kind: "empty"; indent: string; first: bigint; last: bigint; baseFee?: bigint; printed: boolean };

interface HeldLineOptions {
  write(text: string): void;
  tty?: boolean;
  /** How long a held line waits for a repeat off a terminal; default 250 ms. */
  holdMs?: number;
  paint: Paint;
  /** Runs the timed release in the log's order (its queue). */
  enqueue(task: () => void): void;
}

export class HeldLine {
  private _held: Held | undefined;
  private _timer: NodeJS.Timeout | undefined;

  constructor(private readonly _o: HeldLineOptions) {}

  /** A method answered: the held count grows, or this method's line starts (true: a new line). */
  method(method: string): boolean {
    const h = this._held;
    if (h?.kind === "method" && h.key === method) {
      h.count++;
      this._show();
      return false;
    }
    this.release();
    this._held = { kind: "method", key: method, count: 1, printed: false };
    this._show();
    return true;
  }

  /** Empty blocks n … last (one, or a reserved range), joined to the held range they continue (true: a new line). */
  empty(indent: string, n: bigint, baseFee: bigint | undefined, last: bigint): boolean {
    const h = this._held;
    if (h?.kind === "empty" && h.indent === indent && h.last + 1n === n) {
      h.last = last;
      this._show();
      return false;
    }
    this.release();
    this._held = { kind: "empty", indent, first: n, last, baseFee, printed: false };
    this._show();
    return true;
  }

  /** Writes the held line if it is not on screen yet, and holds nothing. */
  release(): void {
    const h = this._held;
    this._held = undefined;
    if (this._timer !== undefined) clearTimeout(this._timer);
    this._timer = undefined;
    if (h !== undefined && !h.printed) this._o.write(`${text(h)}\n`);
  }

  private _show(): void {
    const h = this._held;
    if (h === undefined) return;
    if (this._o.tty === true) {
      // cursor up one line and clear it, then the new text
      this._o.write(`${h.printed ? "\u001b[1A\u001b[2K" : ""}${this._o.paint.green(text(h))}\n`);
      h.printed = true;
      return;
    }
    if (this._timer !== undefined) clearTimeout(this._timer);
    this._timer = setTimeout(() => this._o.enqueue(() => this.release()), this._o.holdMs ?? 250);
    this._timer.unref();
  }
}

function text(h: Held): string {
  return h.kind === "method" ? (h.count === 1 ? h.key : `${h.key} (${h.count})`) : `${h.indent}${emptyBlocksLine(h.first, h.last, h.baseFee)}`;
}
