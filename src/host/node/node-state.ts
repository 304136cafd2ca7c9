/**
 * The node's saved-state flags, as Anvil has them: `--load-state FILE` (load at start),
 * `--dump-state FILE` (write at exit), `--state FILE` (both: load when the file exists) and
 * `--state-interval S` (also write every S seconds). Files hold the dump's JSON (src/chain/dev/state-dump.ts).
 * Both Hardhats' node tasks use it; no Hardhat import.
 */
import { UserError } from "../../utils/user-error";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Runtime } from "../../app/runtime";

/** A state flag or file the node cannot use (each host shows it as its own plugin error). */
class NodeStateError extends UserError {}

export interface StateFiles {
  load?: string;
  dump?: string;
  intervalS?: number;
}

const fail = (message: string): never => {
  throw new NodeStateError(message);
};

/** The flags, checked: which file to load, which to write, how often. */
export function stateFilesFromFlags(args: { state?: unknown; dumpState?: unknown; loadState?: unknown; stateInterval?: unknown }, forked: boolean): StateFiles {
  const str = (v: unknown, flag: string): string | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string" || v === "") return fail(`${flag}: expected a file name`);
    return path.resolve(v);
  };
  const state = str(args.state, "--state");
  const dump = str(args.dumpState, "--dump-state") ?? state;
  const load = str(args.loadState, "--load-state") ?? (state !== undefined && existsSync(state) ? state : undefined);
  let intervalS: number | undefined;
  if (args.stateInterval !== undefined && args.stateInterval !== null) {
    const n = Number(args.stateInterval);
    if (!Number.isInteger(n) || n <= 0) fail(`--state-interval: expected a whole number of seconds above 0, got ${String(args.stateInterval)}`);
    if (dump === undefined) fail("--state-interval needs a file to write: --state FILE or --dump-state FILE");
    intervalS = n;
  }
  if (dump !== undefined && forked) fail("--state / --dump-state: a forked chain's state cannot be dumped (most of it is the remote's, read on demand)");
  return { load, dump, intervalS };
}

/** Loads `file` into the node's chain (a fresh node takes the dump's height and time). */
export async function loadStateFile(runtime: Runtime, file: string): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    return fail(`--load-state ${file}: ${(err as Error).message}`);
  }
  const { node } = runtime;
  try {
    await node.loadState(text);
  } catch (err) {
    fail(`${file}: ${(err as Error).message}`);
  }
}

/** Writes the node's state to `file` (whole or not at all: a temporary file renamed over it). */
export async function writeStateFile(runtime: Runtime, file: string): Promise<void> {
  const { node } = runtime;
  const dump = await node.dumpState();
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(dump)}\n`);
  renameSync(tmp, file);
}

/** Writes the state every `intervalS` seconds until stopped; failures are printed, the node goes on. */
export function saveEvery(runtime: Runtime, file: string, intervalS: number): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    writeStateFile(runtime, file)
      .catch((err: unknown) => console.error(`Could not write the state to ${file}: ${(err as Error).message}`))
      .finally(() => (running = false));
  }, intervalS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
