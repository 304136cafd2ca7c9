/** The transports every RPC test file runs on: the in-process provider, real HTTP and real WebSocket. */
import type { RuntimeOptions } from "../../src/app/runtime";
import { type Harness, inProcess } from "./harness";
import { serveHttp, serveWs } from "./http";

export interface HarnessFactory {
  name: string;
  create(opts?: Partial<RuntimeOptions>): Promise<Harness>;
}

export function harnesses(): HarnessFactory[] {
  return [
    { name: "in-process", create: inProcess },
    { name: "http", create: serveHttp },
    { name: "ws", create: serveWs },
  ];
}
