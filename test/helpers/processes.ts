/**
 * Child processes for tests that run `npx hardhat …` for real: each starts in its own process group
 * (detached), which is always killed as a whole, so an `npx` wrapper never leaves its node behind.
 */
import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/** This repository's root, and Hardhat's CLI entry (spawned directly: killing an `npx` leaves its child). */
export const ROOT = path.resolve(__dirname, "../..");

/** Set for a test process whose parent built dist/ for it (test/package/node22.test.ts): no second build. */
const DIST_BUILT = "HARDHAT_EPOCHS_TEST_DIST_BUILT";
let distBuilt = process.env[DIST_BUILT] === "1";

/** Builds dist/ (the package as users load it) once per test process: every test that needs it shares the build. */
export function buildDist(): void {
  if (distBuilt) return;
  const r = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8", timeout: 180_000 });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}${r.stderr}`);
  distBuilt = true;
}

/** Builds dist/ if this process has not, and answers the environment that tells a child test process it is built. */
export function builtDistEnv(): Record<string, string> {
  buildDist();
  return { [DIST_BUILT]: "1" };
}

export const BOOTSTRAP = path.join(ROOT, "node_modules/hardhat/internal/cli/bootstrap.js");
/** The repository's project with the plugin from dist/ and a JavaScript config (no ts-node in the child). */
export const BUILT_CONFIG = path.join(ROOT, "test/fixture-projects/repo-built/hardhat.config.js");

/**
 * Arguments that run Hardhat's CLI (`process.execPath` first) on this repository's project as a user's
 * project runs it: the plugin from dist/, built once per test process, no TypeScript compiler. A child
 * started so reaches its banner ~4 s sooner than through hardhat.config.ts, which compiles src/ on
 * load; test/e2e/node-task.test.ts starts the repository's own `npx hardhat node` that way.
 */
export function hardhatCli(...args: string[]): string[] {
  buildDist();
  return [BOOTSTRAP, "--config", BUILT_CONFIG, ...args];
}

export interface Started {
  child: ChildProcess;
  /** The HTTP URL the node printed in its banner. */
  url: string;
  output: () => string;
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a node command and resolves once its banner names the HTTP server; rejects if it exits first or after `timeoutMs`. */
export function startNodeProcess(command: string, args: string[], opts: SpawnOptions & { timeoutMs?: number } = {}): Promise<Started> {
  const child = spawn(command, args, { ...opts, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopProcessGroup(child);
      reject(new Error(`no server banner within ${opts.timeoutMs ?? 90_000} ms:\n${out}`));
    }, opts.timeoutMs ?? 90_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/\S+)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before starting:\n${out}`));
    });
  });
}

/** `npx hardhat node ARGS` of this repository's project (hardhatCli), in its own process group. */
export function startHardhatNode(args: string[]): Promise<Started> {
  return startNodeProcess(process.execPath, hardhatCli("node", ...args), { cwd: ROOT });
}

/** SIGTERM to the child's process group, SIGKILL after 5 s; resolves when every process of the group has exited (SIGKILL to the rest after 10 s more). */
export async function stopProcessGroup(child: ChildProcess | undefined): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const kill = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone already
    }
  };
  kill("SIGTERM");
  const timer = setTimeout(() => kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
  // the leader (npx, a shell) may exit before the node under it has finished writing its state: wait for the whole group
  const groupAlive = (): boolean => {
    try {
      process.kill(-pid, 0);
    } catch {
      return false;
    }
    // an orphan that exited stays a zombie until init reaps it: only running members count (Linux's /proc)
    if (!existsSync("/proc/self/stat")) return true;
    return readdirSync("/proc").some((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        // "pid (comm) state ppid pgrp …": comm may hold spaces, so read after its closing parenthesis
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(pgrp) === pid && state !== "Z";
      } catch {
        return false;
      }
    });
  };
  const deadline = Date.now() + 10_000;
  while (groupAlive()) {
    if (Date.now() > deadline) {
      kill("SIGKILL");
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the process's output holds `text` (the banner arrives in several chunks); fails after 20 s. */
export async function waitForOutput(started: Started, text: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!started.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(text)} in the output:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
