/**
 * debug_*: tracing (geth's tracers over re-executed blocks and calls), raw chain data, the Node.js
 * runtime (memory, GC, stacks, profiles, log level) and node control (debug_setHead). Methods that
 * change the node or touch its files are private (they need the bearer token on network transports).
 */
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { type MethodSpec, method } from "../../method";
import { quantity } from "../../params";
import type { FileRoots } from "./files";
import { rawMethods } from "./raw";
import { runtimeMethods } from "./runtime";
import { tracingMethods } from "./tracing";

export function debugMethods(deps: RpcDeps): MethodSpec[] {
  const { node } = deps;
  const roots: FileRoots = { home: deps.settings.home, cwd: process.cwd() };
  return [
    ...tracingMethods(deps, roots),
    ...rawMethods(deps),
    ...runtimeMethods(roots),
    method({
      name: "debug_setHead",
      params: [quantity],
      access: "private",
      doc: "Rewinds the chain to block N, durably: head, EVM state, the epochs store and hook registrations, as they were at N. Answers null.",
      async handler([n]) {
        if (n > node.headNumber) throw new ServerError(`block ${n} is above the head ${node.headNumber}`);
        await node.setHead(n);
        return null;
      },
    }),
  ];
}
