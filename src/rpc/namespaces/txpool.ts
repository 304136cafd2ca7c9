/** txpool_*: the real pool content in geth's formats (Evmos's are empty stubs, which breaks explorers). */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import { getAddress } from "ethers/address";
import { type PooledTx } from "../../chain";
import type { RpcDeps } from "../deps";
import { type Json, formatTransaction, q } from "../format";
import { method } from "../method";
import { address } from "../params";

/** {checksummed sender: {decimal nonce: value}}, as geth groups pool content. */
function group(entries: PooledTx[], value: (e: PooledTx) => Json): Record<string, Record<string, Json>> {
  const out: Record<string, Record<string, Json>> = {};
  for (const e of entries) {
    const sender = getAddress(e.sender);
    (out[sender] ??= {})[e.tx.nonce.toString()] = value(e);
  }
  return out;
}

function summary(tx: TypedTransaction): string {
  const to = tx.to === undefined ? "contract creation" : getAddress(tx.to.toString());
  const price = "maxFeePerGas" in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`;
}

export function txpoolMethods({ node }: RpcDeps) {
  const full = (e: PooledTx): Json => formatTransaction(e.tx, e.sender);
  return [
    method({
      name: "txpool_content",
      access: "read",
      params: [],
      doc: "Every pooled transaction: `pending` (mineable now) and `queued` (behind a nonce gap), by sender and nonce.",
      handler: () => ({ pending: group(node.pool.pending(), full), queued: group(node.pool.queued(), full) }),
    }),
    method({
      name: "txpool_contentFrom",
      access: "read",
      params: [address],
      doc: "The pooled transactions of one sender, by nonce.",
      handler: ([addr]) => {
        const sender = new Address(addr).toString();
        const mine = (list: PooledTx[]) => list.filter((p) => p.sender === sender);
        return { pending: group(mine(node.pool.pending()), full)[getAddress(sender)] ?? {}, queued: group(mine(node.pool.queued()), full)[getAddress(sender)] ?? {} };
      },
    }),
    method({
      name: "txpool_inspect",
      access: "read",
      params: [],
      doc: "A text summary of each pooled transaction: `<to>: <value> wei + <gas> gas × <price> wei`.",
      handler: () => ({ pending: group(node.pool.pending(), (e) => summary(e.tx)), queued: group(node.pool.queued(), (e) => summary(e.tx)) }),
    }),
    method({
      name: "txpool_status",
      access: "read",
      params: [],
      doc: "Counts of pending and queued transactions, as quantities.",
      handler: () => {
        const { pending, queued } = node.pool.size;
        return { pending: q(pending), queued: q(queued) };
      },
    }),
  ];
}
