/**
 * A running node follows the project's build-info folder, as Hardhat's node does: contracts compiled
 * after the start (`hardhat compile`, the compilation a `hardhat test --network localhost` or a deploy
 * makes) are named in its log and its failures. Looked for every `everyMs` and before each block is
 * told (a deploy that follows its compilation at once is named); a listing of the folder is all a
 * look costs when nothing is new. Each host reads its own build-info format (`addFile`). No Hardhat import.
 */
import { readdirSync } from "node:fs";
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
  const look = (): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // nothing compiled yet, or the folder was cleaned
    }
    for (const name of names) {
      // a build-info file's name is its id: the same name is the same compilation
      if (!name.endsWith(".json") || name.endsWith(".output.json") || seen.has(name)) continue;
      try {
        addFile(path.join(dir, name));
        seen.add(name);
      } catch {
        // partly written, or not a build-info: looked at again next time
      }
    }
  };
  look();
  const timer = setInterval(look, everyMs);
  timer.unref();
  node.on("block", look);
  return {
    stop: () => {
      clearInterval(timer);
      node.off("block", look);
    },
  };
}
