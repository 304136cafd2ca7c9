/**
 * Bytes a step allocates on V8's heap, collected objects included: V8's sampling heap profiler (one
 * sample every 4 KiB, weighted by V8 so the sum estimates the whole volume) over `n` steps, as
 * scripts/profile-alloc.ts measures it. Allocation volume hardly varies from run to run and is what
 * feeds the garbage collector. A step's native allocations (EDR's, in Rust) are not V8's and do not
 * count: for EDR this is its JavaScript side's.
 */
import { Session } from "node:inspector/promises";

interface SampleNode {
  selfSize: number;
  children: SampleNode[];
}

let session: Session | undefined;

/** KiB allocated per step, over `n` steps (after the caller's warm-up). */
export async function allocKiB(n: number, step: () => Promise<unknown>): Promise<number> {
  if (session === undefined) {
    session = new Session();
    session.connect();
  }
  await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  for (let i = 0; i < n; i++) await step();
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: SampleNode } };
  let total = 0;
  const walk = (node: SampleNode): void => {
    total += node.selfSize;
    for (const c of node.children) walk(c);
  };
  walk(profile.head);
  return total / n / 1024;
}
