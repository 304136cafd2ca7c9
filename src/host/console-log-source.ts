/**
 * The console.log decoder of a project: built from the console.sol its contracts import (Hardhat's),
 * once per file and process (parsing its signatures is not free, and test suites build many chains).
 */
import { readFileSync } from "node:fs";
import type { ConsoleLogDecoder } from "../chain/dev/console-log";

const decoders = new Map<string, ConsoleLogDecoder>();

/** The decoder for `consoleSol` (a path to Hardhat's console.sol). */
export function consoleLogDecoder(consoleSol: string): ConsoleLogDecoder {
  let decoder = decoders.get(consoleSol);
  if (decoder === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: only a running chain needs it
    const { ConsoleLogDecoder: Decoder } = require("../chain/dev/console-log") as typeof import("../chain/dev/console-log");
    decoder = Decoder.fromSoliditySource(readFileSync(consoleSol, "utf8"));
    decoders.set(consoleSol, decoder);
  }
  return decoder;
}
