/** erigon_*: the one Erigon method Otterscan calls first (its connection probe). */
import type { RpcDeps } from "../deps";
import { formatBlock } from "../format";
import { method } from "../method";
import { resolveHeight } from "../resolve";
import { otsBlock } from "./ots";

export function erigonMethods({ node }: RpcDeps) {
  return [
    method({
      name: "erigon_getHeaderByNumber",
      access: "read",
      params: [otsBlock],
      doc: 'The block at a number or tag (transaction hashes), as Anvil answers it; null when there is none. Otterscan\'s probe calls it with "latest".',
      handler: async ([b]) => {
        const n = await resolveHeight(node, b);
        const block = n === undefined ? undefined : await node.getBlock(n);
        return block === undefined ? null : formatBlock(block, false, await node.store.getReceipts(block.header.number));
      },
    }),
  ];
}
