/** Block-parameter resolution shared by the namespaces (docs/json-rpc.md, "Block parameter"; EIP-1898). */
import type { Block } from "@ethereumjs/block";
import type { Node } from "../chain";
import { ServerError } from "./errors";
import type { BlockSpec } from "./params";

/**
 * The height a block parameter names, or undefined when no such block exists.
 * `earliest` is block 0 (Evmos wrongly maps it to 1); latest/safe/finalized/pending are the head.
 */
export async function resolveHeight(node: Node, spec: BlockSpec | undefined): Promise<bigint | undefined> {
  if (spec === undefined) return node.headNumber;
  if ("tag" in spec) return spec.tag === "earliest" ? 0n : node.headNumber;
  if ("number" in spec) return spec.number <= node.headNumber ? spec.number : undefined;
  return node.store.getBlockNumber(spec.hash);
}

/** For state reads: the height, or -32000 "header not found" (geth's text). */
export async function requireHeight(node: Node, spec: BlockSpec | undefined): Promise<bigint> {
  const n = await resolveHeight(node, spec);
  if (n === undefined) throw new ServerError("header not found");
  return n;
}

export async function resolveBlock(node: Node, spec: BlockSpec): Promise<Block | undefined> {
  const n = await resolveHeight(node, spec);
  return n === undefined ? undefined : node.getBlock(n);
}
