/** net_*: a single dev node, listening, with no peers. */
import type { RpcDeps } from "../deps";
import { method } from "../method";

export function netMethods({ node }: RpcDeps) {
  return [
    method({ name: "net_version", access: "read", params: [], doc: "Network id: the chain id in decimal.", handler: () => node.config.chainId.toString() }),
    method({ name: "net_listening", access: "read", params: [], doc: "Always true: the node serves JSON-RPC.", handler: () => true }),
    method({ name: "net_peerCount", access: "read", params: [], doc: "Always 0x0: a dev node has no peers.", handler: () => "0x0" }),
  ];
}
