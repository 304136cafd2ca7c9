/** The `epochs:list` table, the same on both Hardhat hosts. */
import type { EpochInfo } from "../../epochs";
import { epochsModule } from "../lazy";

/** A plain text table, columns padded to their widest cell. */
function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]))
      .join("  ")
      .trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export function epochsTable(epochs: EpochInfo[]): string {
  if (epochs.length === 0) return "(no epochs)";
  // a new chain's timers start in the first block at or after their start time: before it, epoch 0 at year 1
  const waiting = epochs.filter((e) => !e.epochCountingStarted).map((e) => e.identifier);
  const note = waiting.length === 0 ? "" : `\n(not started yet: ${waiting.join(", ")}: a timer starts counting in the first block mined at or after its start time)`;
  return `${formatTable([
    ["identifier", "duration", "current epoch", "current epoch start", "start height", "counting", "start time"],
    ...epochs.map((e) => [
      e.identifier,
      epochsModule().formatDuration(e.duration),
      e.currentEpoch.toString(),
      epochsModule().formatTime(e.currentEpochStartTime),
      e.currentEpochStartHeight.toString(),
      e.epochCountingStarted ? "yes" : "no",
      epochsModule().formatTime(e.startTime),
    ]),
  ])}${note}`;
}
