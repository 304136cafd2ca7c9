/**
 * The project's compilations for the chain's contract registry (custom errors named in failures,
 * Solidity stack traces, contracts named in the node's log): every build-info file of the project at
 * start, and while a node runs, the ones compiled after it started (src/host/solidity/build-info-watch.ts).
 * Each host reads its own build-info format through `BuildInfoReader`; the rest is here, once.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { ContractRegistry, SolcInput, SolcOutput } from "../../solidity/registry";
import { type BlockSource, watchBuildInfos } from "./build-info-watch";

export interface Compilation {
  input: SolcInput;
  output: SolcOutput;
}

/** Where a host's build-info files are and how one is read (throws when it cannot be, e.g. partly written). */
export interface BuildInfoReader {
  dir: string;
  read(file: string): Compilation;
}

/** Hardhat 2: one `<id>.json` holding the input and the output. */
export function hardhat2BuildInfos(artifacts: string): BuildInfoReader {
  return { dir: path.join(artifacts, "build-info"), read: (file) => JSON.parse(readFileSync(file, "utf8")) as Compilation };
}

/**
 * Hardhat 3: `<id>.json` with the input, `<id>.output.json` beside it with the output.
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function hardhat3BuildInfos(artifacts: string): BuildInfoReader {
  return {
    dir: path.join(artifacts, "build-info"),
    read: (file) => {
      const { input } = JSON.parse(readFileSync(file, "utf8")) as { input: SolcInput };
      const { output } = JSON.parse(readFileSync(file.replace(/\.json$/, ".output.json"), "utf8")) as { output: SolcOutput };
      return { input, output };
    },
  };
}

/**
 * Build-info files read in this process, by path, with the size and time they had: every Hardhat 3
 * connection (`network.create()`) and every Hardhat 2 chain loads the project's compilations, and
 * reading and parsing them again was a third of a warm connection's start. A file written since is
 * read again.
 */
const readFiles = new Map<string, { size: number; mtimeMs: number; compilation: Compilation }>();

function readCached(reader: BuildInfoReader, file: string): Compilation {
  const { size, mtimeMs } = statSync(file);
  const known = readFiles.get(file);
  if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs) return known.compilation;
  const compilation = reader.read(file);
  readFiles.set(file, { size, mtimeMs, compilation });
  return compilation;
}

/** Every build-info file there is now; a file that cannot be read is skipped (its contracts stay unrecognised). */
export function loadCompilations(reader: BuildInfoReader, contracts: ContractRegistry): void {
  let names: string[];
  try {
    names = readdirSync(reader.dir);
  } catch {
    return; // nothing compiled yet
  }
  for (const name of names) {
    if (!name.endsWith(".json") || name.endsWith(".output.json")) continue;
    try {
      const { input, output } = readCached(reader, path.join(reader.dir, name));
      contracts.addCompilation(input, output);
    } catch {
      // a partly written or foreign file
    }
  }
}

/** Follows the folder while a node runs: compilations made after the start reach the registry. */
export function followCompilations(reader: BuildInfoReader, node: BlockSource, contracts: ContractRegistry): { stop(): void } {
  return watchBuildInfos(reader.dir, node, (file) => {
    const { input, output } = reader.read(file);
    contracts.addCompilation(input, output);
  });
}
