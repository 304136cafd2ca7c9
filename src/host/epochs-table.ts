/** The `epochs:list` table, the same on both Hardhat hosts. */
import type { EpochInfo } from "../epochs";
import { epochsModule } from "./lazy";

/** A plain text table, columns padded to their widest cell. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export function epochsTable(epochs: EpochInfo[]): string {
  if (epochs.length === 0) return "(no epochs)";
  return formatTable([
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
  ]);
}
