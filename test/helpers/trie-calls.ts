/** Counts what the state managers' shared TrieBatch (src/chain/engine/trie-batch.ts) does while a test runs something. */
import { TrieBatch } from "../../src/chain/engine/trie-batch";

/**
 * While `run` runs: "get", the accounts and slots the state managers read from their tries; "put",
 * the keys their flushes write (a test-only spy on TrieBatch's prototype, restored after).
 */
export async function countTrieCalls(method: "get" | "put", run: () => Promise<unknown>): Promise<number> {
  const proto = TrieBatch.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const name = method === "get" ? "get" : "apply";
  const original = proto[name];
  let calls = 0;
  proto[name] = function (this: unknown, ...args: unknown[]) {
    calls += method === "get" ? 1 : (args[2] as unknown[]).length;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto[name] = original;
  }
  return calls;
}
