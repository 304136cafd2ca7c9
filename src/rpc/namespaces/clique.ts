/**
 * clique_*: geth's proof-of-authority API, answered with the meaning it has on a single-node dev
 * chain: one block producer, the node itself, whose signer is the coinbase of each block (the
 * address `miner_setEtherbase` sets). Snapshots use geth's shape for one signer; no vote can ever
 * pass, so `clique_propose` / `clique_discard` answer why instead of silently recording a vote.
 */
import type { Block } from "@ethereumjs/block";
import type { Node } from "../../chain";
import type { RpcDeps } from "../deps";
import { NotSupportedError, ServerError } from "../errors";
import { hex } from "../format";
import { method } from "../method";
import { address, blockNumberOrTag, bool, hash } from "../params";
import { resolveBlock } from "../resolve";

const NO_VOTES =
  "a single-node dev chain has one block producer (this node, signing as its coinbase); no other signer can join it, so there is nothing to vote on (change the producer's address with miner_setEtherbase)";

/** The signer of a block: its coinbase; the genesis block (coinbase zero) counts as the configured producer's. */
function signerOf(node: Node, block: Block): string {
  return block.header.number === 0n ? hex(node.config.coinbase) : hex(block.header.coinbase.bytes);
}

/** geth's Snapshot JSON for one signer: number (JSON number), hash, signers {addr: {}}, recents {n: addr}, votes [], tally {}. */
function snapshot(node: Node, block: Block) {
  const n = block.header.number;
  const signer = signerOf(node, block);
  // one signer: the recents window (signers/2 + 1) holds just the latest block
  const recents: Record<string, string> = n === 0n ? {} : { [n.toString()]: signer };
  return { number: Number(n), hash: hex(block.hash()), signers: { [signer]: {} }, recents, votes: [], tally: {} };
}

export function cliqueMethods({ node }: RpcDeps) {
  const byNumber = async (spec: Parameters<typeof resolveBlock>[1] | undefined): Promise<Block> => {
    const b = await resolveBlock(node, spec ?? { tag: "latest" });
    if (b === undefined) throw new ServerError("unknown block");
    return b;
  };
  const byHash = async (h: Uint8Array): Promise<Block> => byNumber({ hash: h, requireCanonical: false });
  return [
    method({
      name: "clique_getSnapshot",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "The signer snapshot at a block (default latest) in geth's shape: the one signer, the block it signed last, no votes. `unknown block` for a height not mined yet.",
      handler: async ([b]) => snapshot(node, await byNumber(b)),
    }),
    method({
      name: "clique_getSnapshotAtHash",
      access: "read",
      params: [hash],
      doc: "The signer snapshot at the block with a hash; `unknown block` when unknown.",
      handler: async ([h]) => snapshot(node, await byHash(h)),
    }),
    method({
      name: "clique_getSigners",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "The authorised signers at a block (default latest): the one block producer, [its coinbase].",
      handler: async ([b]) => [signerOf(node, await byNumber(b))],
    }),
    method({
      name: "clique_getSignersAtHash",
      access: "read",
      params: [hash],
      doc: "The authorised signers at the block with a hash: [its coinbase].",
      handler: async ([h]) => [signerOf(node, await byHash(h))],
    }),
    method({
      name: "clique_proposals",
      access: "read",
      params: [],
      doc: "Always {}: with one producer there is no proposal to vote on.",
      handler: () => ({}),
    }),
    method({
      name: "clique_status",
      access: "read",
      params: [],
      doc: "geth's signing status of the last 64 blocks (before the head): inturnPercent (100: the one producer is always in turn), sealerActivity per signer, numBlocks.",
      async handler() {
        const end = node.headNumber;
        let start = end - 64n;
        let numBlocks = 64n;
        if (numBlocks > end) {
          start = 1n;
          numBlocks = end > 1n ? end - 1n : 0n;
        }
        const activity: Record<string, number> = { [signerOf(node, node.head)]: 0 };
        for (let n = start; n < end; n++) {
          const b = await node.getBlock(n);
          if (b === undefined) throw new ServerError(`missing block ${n}`);
          const s = signerOf(node, b);
          activity[s] = (activity[s] ?? 0) + 1;
        }
        return { inturnPercent: numBlocks === 0n ? 0 : 100, sealerActivity: activity, numBlocks: Number(numBlocks) };
      },
    }),
    method({
      name: "clique_propose",
      params: [address, bool],
      access: "private",
      doc: "Not available: a single-node chain has no other signers to vote in or out.",
      handler: () => {
        throw new NotSupportedError(`clique_propose is not available: ${NO_VOTES}`);
      },
    }),
    method({
      name: "clique_discard",
      params: [address],
      access: "private",
      doc: "Not available: there are never proposals to discard on a single-node chain.",
      handler: () => {
        throw new NotSupportedError(`clique_discard is not available: ${NO_VOTES}`);
      },
    }),
  ];
}
