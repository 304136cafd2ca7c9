/** The transports every RPC test file runs on. */
import type { RuntimeOptions } from "../../src/rpc/runtime";
import { type Harness, inProcess } from "./harness";

export interface HarnessFactory {
  name: string;
  create(opts?: Partial<RuntimeOptions>): Promise<Harness>;
}

export function harnesses(): HarnessFactory[] {
  return [{ name: "in-process", create: inProcess }];
}
