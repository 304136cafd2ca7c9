/**
 * A running node follows the project's build-info folder, as Hardhat's node does: contracts compiled
 * after the start (`hardhat compile`, the compilation a `hardhat test --network localhost` or a deploy
 * makes) are named in its log and its failures. Looked for every `everyMs`, and before each block is
 * told when the folder changed since the last look (its modification time) or a file could not be
 * read yet: a deploy that follows its compilation at once is named, and a block costs one `stat`
 * when nothing is new (listing the folder at every block was 2.5 % of a node's time under a stream of
 * transfers). Each host reads its own build-info format (`addFile`). No Hardhat import.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What the watcher needs of the node: its block event. */
export interface BlockSource {
  on(event: "block", listener: () => void): unknown;
  off(event: "block", listener: () => void): unknown;
}

/**
 * Calls `addFile` once for every build-info file of `dir` (the `.output.json` halves of Hardhat 3's
 * pairs aside), now and as they appear. A file `addFile` cannot read yet (partly written) is tried
 * again at the next look. Register it before the node's log, so its block listener runs first.
 */
export function watchBuildInfos(dir: string, node: BlockSource, addFile: (file: string) => void, everyMs = 2000): { stop(): void } {
  const seen = new Set<string>();
  /** The folder's modification time at the last look and when that look was, and whether a file was left unread. */
  let last: { mtime: number | undefined; at: number } = { mtime: undefined, at: 0 };
  let unread = false;
  // nothing compiled yet, or the folder was cleaned: undefined. Without `throwIfNoEntry: false` a
  // missing folder cost an ENOENT error object at every block (~0.1 ms, 2 % of a node's time under
  // a stream of transfers in a project with no artifacts).
  const modified = (): number | undefined => {
    try {
      return statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
    } catch {
      return undefined; // not readable
    }
  };
  const look = (mtime = modified()): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    last = { mtime, at: Date.now() };
    unread = false;
    for (const name of names) {
      // a build-info file's name is its id: the same name is the same compilation
      if (!name.endsWith(".json") || name.endsWith(".output.json") || seen.has(name)) continue;
      try {
        addFile(path.join(dir, name));
        seen.add(name);
      } catch {
        unread = true; // partly written, or not a build-info: looked at again next time
      }
    }
  };
  // a file added within the same timestamp tick as the last look leaves the time unchanged: a folder
  // changed less than a second before that look is looked at again
  const onBlock = (): void => {
    const mtime = modified();
    if (unread || mtime !== last.mtime || (mtime !== undefined && last.at - mtime < 1000)) look(mtime);
  };
  look();
  const timer = setInterval(() => look(), everyMs);
  timer.unref();
  node.on("block", onBlock);
  return {
    stop: () => {
      clearInterval(timer);
      node.off("block", onBlock);
    },
  };
}
