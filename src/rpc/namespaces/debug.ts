/**
 * debug_*: node control for now (debug_setHead); tracing arrives with the debug-tracing work.
 * Methods that change the node are private (they need the bearer token on network transports).
 */
import { Address } from "@ethereumjs/util";
import type { RpcDeps } from "../deps";
import { ServerError } from "../errors";
import { method } from "../method";
import { quantity } from "../params";

export function debugMethods({ node }: RpcDeps) {
  return [
    method({
      name: "debug_setHead",
      params: [quantity],
      private: true,
      doc: "Rewinds the chain to block N, durably: head, EVM state, the epochs store and hook registrations, as they were at N. Answers null.",
      async handler([n]) {
        if (n > node.headNumber) throw new ServerError(`block ${n} is above the head ${node.headNumber}`);
        await node.rewindTo(n);
        // pooled transactions whose nonces the rewind made valid again stay; the rest are re-sorted
        await node.pool.update((s) => node.getNonce(new Address(new Uint8Array(Buffer.from(s.slice(2), "hex")))));
        return null;
      },
    }),
  ];
}
