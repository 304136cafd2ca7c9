/**
 * eth_resend(args, gasPrice?, gasLimit?): re-signs a transaction still waiting in the pool with a new
 * gas price and/or gas limit and submits it in its place (same sender and nonce). Evmos has the method
 * but it can never work there (CheckTx refuses the reused nonce); here the pool really replaces it.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import { type CallRequest, ChainError, maxFeeOf, type PooledTx } from "../../../chain";
import { keccak256 } from "../../../utils/keccak";
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { hex } from "../../format";
import { method } from "../../method";
import { type TxRequest, txRequest } from "../../objects";
import { quantity, uint64 } from "../../params";

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) => Buffer.compare(Buffer.from(a ?? []), Buffer.from(b ?? [])) === 0;

/** Whether every field the caller gave equals the pooled transaction's (the fields left out match anything). */
function matches(p: PooledTx, req: TxRequest): boolean {
  const tx = p.tx;
  if (req.to !== undefined && !same(req.to, tx.to?.bytes)) return false;
  if (req.to === undefined && tx.to !== undefined && req.data !== undefined) return false;
  if (req.value !== undefined && req.value !== tx.value) return false;
  if (req.data !== undefined && !same(req.data, tx.data)) return false;
  if (req.gas !== undefined && req.gas !== tx.gasLimit) return false;
  if (req.gasPrice !== undefined && req.gasPrice !== maxFeeOf(tx)) return false;
  if (req.maxFeePerGas !== undefined && req.maxFeePerGas !== maxFeeOf(tx)) return false;
  if (req.maxPriorityFeePerGas !== undefined && (!("maxPriorityFeePerGas" in tx) || req.maxPriorityFeePerGas !== tx.maxPriorityFeePerGas)) return false;
  return true;
}

/** The pooled transaction's fields as a request, with the new price: a type-2 transaction raises its max fee and its tip by the same amount. */
function repriced(tx: TypedTransaction, from: Uint8Array, price: bigint | undefined): CallRequest {
  const base: CallRequest = { from, to: tx.to?.bytes, value: tx.value, data: tx.data };
  if ("accessList" in tx) base.accessList = (tx.accessList as Array<[Uint8Array, Uint8Array[]]>).map(([address, storageKeys]) => ({ address, storageKeys }));
  if ("maxFeePerGas" in tx) {
    const fee = price ?? tx.maxFeePerGas;
    const raise = fee > tx.maxFeePerGas ? fee - tx.maxFeePerGas : 0n;
    const tip = tx.maxPriorityFeePerGas + raise;
    return { ...base, maxFeePerGas: fee, maxPriorityFeePerGas: tip < fee ? tip : fee };
  }
  return { ...base, gasPrice: price ?? (tx as { gasPrice: bigint }).gasPrice };
}

/** geth's fee check of eth_resend against `txfee-cap` (ether; 0 = none). */
function checkTxFee(price: bigint, gas: bigint, capEther: number): void {
  if (capEther === 0) return;
  const fee = Number(price * gas) / 1e18;
  if (fee > capEther) throw new ServerError(`tx fee (${fee.toFixed(2)} ether) exceeds the configured cap (${capEther.toFixed(2)} ether)`);
}

export function resendMethods(deps: RpcDeps) {
  const { node } = deps;
  return [
    method({
      name: "eth_resend",
      access: "send",
      params: [txRequest, quantity.opt(), uint64.opt()],
      doc: "Replaces a transaction waiting in the pool (found by `from` and `nonce`; the other given fields must match it) with one re-signed at a new gas price and/or gas limit; answers the new hash. The new fee is checked against txfee-cap, and the pool's replacement rule (both fee fields higher) applies.",
      async handler([req, gasPrice, gasLimit]) {
        if (req.nonce === undefined) throw new ServerError("missing transaction nonce in transaction spec");
        if (req.from === undefined) throw new ServerError("missing from: the sender of the transaction to resend is required");
        const from = new Address(req.from);
        // found and replaced inside the send (Node.send): the pooled transaction cannot be mined in between
        const sent = await node.send(async () => {
          const pooled = [...node.pool.pending(), ...node.pool.queued()].find((p) => p.sender === from.toString() && p.tx.nonce === req.nonce && matches(p, req));
          const price = gasPrice !== undefined && gasPrice !== 0n ? gasPrice : undefined;
          const gas = gasLimit !== undefined && gasLimit !== 0n ? gasLimit : undefined;
          if (pooled === undefined) {
            const wanted = await node.calls.fill(req, node.config.defaultSendGas).catch(() => undefined);
            checkTxFee(price ?? (wanted === undefined ? 0n : maxFeeOf(wanted)), gas ?? wanted?.gasLimit ?? 0n, deps.settings.txFeeCap);
            throw new ServerError(`transaction ${wanted === undefined ? "(unbuildable)" : hex(keccak256(wanted.serialize()))} not found`);
          }
          const next = repriced(pooled.tx, from.bytes, price);
          const newGas = gas ?? pooled.tx.gasLimit;
          checkTxFee(next.maxFeePerGas ?? next.gasPrice ?? 0n, newGas, deps.settings.txFeeCap);
          let signed: TypedTransaction;
          try {
            signed = node.calls.signAs(from, next, newGas, pooled.tx.nonce);
          } catch (err) {
            if (err instanceof ChainError) throw new ServerError(`${err.message}: the node holds no key to re-sign it`);
            throw err;
          }
          return { tx: signed, sender: from };
        });
        return sent.hash;
      },
    }),
  ];
}
