/**
 * The console.log decoder of a project: built from the console.sol its contracts import (Hardhat's),
 * once per place and process. Finding the file (a module resolution) and parsing its ~400
 * signatures are not free, and test suites build many chains (Hardhat 3: one per connection).
 * Both hosts ask here.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ConsoleLogDecoder } from "../../solidity/console-log";

/** Decoders by console.sol file (two projects on one Hardhat share it). */
const byFile = new Map<string, ConsoleLogDecoder>();
/** Decoders (or none) by the place console.sol was looked for from. */
const byPlace = new Map<string, ConsoleLogDecoder | undefined>();

/**
 * The decoder for the console.sol of the Hardhat installed where `projectRoot` is (its
 * `hardhat/console.sol`, the file its contracts import), or of the Hardhat this plugin sees when no
 * root is given. Undefined when there is none: console.log calls then stay silent.
 */
export function consoleLogDecoder(projectRoot?: string): ConsoleLogDecoder | undefined {
  const place = projectRoot ?? "";
  if (byPlace.has(place)) return byPlace.get(place);
  let decoder: ConsoleLogDecoder | undefined;
  try {
    const resolve = projectRoot === undefined ? require.resolve : createRequire(path.join(projectRoot, "package.json")).resolve;
    decoder = decoderOf(resolve("hardhat/console.sol"));
  } catch {
    decoder = undefined;
  }
  byPlace.set(place, decoder);
  return decoder;
}

function decoderOf(consoleSol: string): ConsoleLogDecoder {
  let decoder = byFile.get(consoleSol);
  if (decoder === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: only a running chain needs it
    const { ConsoleLogDecoder: Decoder } = require("../../solidity/console-log") as typeof import("../../solidity/console-log");
    decoder = Decoder.fromSoliditySource(readFileSync(consoleSol, "utf8"));
    byFile.set(consoleSol, decoder);
  }
  return decoder;
}
