/**
 * Evmos's eth extensions and the newer geth methods today's clients call (viem, web3.js):
 * eth_getTransactionLogs, eth_fillTransaction, eth_pendingTransactions, eth_blobBaseFee,
 * eth_getHeaderByNumber / eth_getHeaderByHash, eth_getAccount.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, KECCAK256_NULL, KECCAK256_RLP, bytesToHex } from "@ethereumjs/util";
import { keccak256 } from "../../../utils/keccak";
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { type Json, formatHeader, formatLog, formatTransaction, hex, q } from "../../format";
import { method } from "../../method";
import { txRequest } from "../../objects";
import { address, blockId, blockNumberOrTag, hash } from "../../params";
import { requireHeight, resolveBlock } from "../../resolve";

/** geth's transaction JSON (types.Transaction) of an unsigned transaction: zero signature, hash of the unsigned encoding. */
function unsignedTxJson(tx: TypedTransaction): Json {
  const out: Record<string, Json> = {
    type: q(tx.type),
    chainId: q(tx.common.chainId()),
    nonce: q(tx.nonce),
    to: tx.to ? tx.to.toString() : null,
    gas: q(tx.gasLimit),
  };
  if ("maxFeePerGas" in tx) {
    out.gasPrice = null;
    out.maxPriorityFeePerGas = q(tx.maxPriorityFeePerGas);
    out.maxFeePerGas = q(tx.maxFeePerGas);
  } else {
    out.gasPrice = q((tx as { gasPrice: bigint }).gasPrice);
  }
  out.value = q(tx.value);
  out.input = hex(tx.data);
  if ("accessList" in tx) {
    out.accessList = (tx.accessList as Array<[Uint8Array, Uint8Array[]]>).map(([a, keys]) => ({ address: hex(a), storageKeys: keys.map(hex) }));
  }
  out.v = "0x0";
  out.r = "0x0";
  out.s = "0x0";
  if (tx.type !== 0) out.yParity = "0x0";
  out.hash = hex(keccak256(tx.serialize()));
  return out;
}

export function extensionMethods({ node }: RpcDeps) {
  return [
    method({
      name: "eth_getTransactionLogs",
      access: "read",
      params: [hash],
      doc: "The logs of one mined transaction (Evmos's extension); null for an unknown, pending or failed transaction.",
      async handler([h]) {
        const m = await node.minedTransaction(h);
        if (m === undefined) return null;
        const r = m.receipts[m.index];
        if (r.status !== 1) return null;
        let first = 0;
        for (let i = 0; i < m.index; i++) first += m.receipts[i].logs.length;
        return r.logs.map((l, i) => formatLog(l, m.block, m.index, first + i));
      },
    }),
    method({
      name: "eth_fillTransaction",
      access: "read",
      params: [txRequest],
      doc: "Fills a transaction with eth_sendTransaction's defaults (gas 2020020, type-2 fees, pending nonce, chain id) and answers it unsigned: {raw, tx} in geth's shape. Needs no key for `from`.",
      async handler([req]) {
        const tx = await node.calls.fill(req, node.config.defaultSendGas);
        return { raw: hex(tx.serialize()), tx: unsignedTxJson(tx) };
      },
    }),
    method({
      name: "eth_pendingTransactions",
      access: "read",
      params: [],
      doc: "Transactions in the pool (pending, then queued) sent from an account the node sends for: one whose key it holds (geth's meaning; web3.js's getPendingTransactions) or an impersonated one (hardhat_impersonateAccount, as Hardhat lists them).",
      handler: () => {
        const own = new Set(node.keys.keys());
        return (
          [...node.pool.pending(), ...node.pool.queued()]
            .filter((p) => own.has(p.sender) || node.impersonated.has(p.sender))
            // the recorded sender: an impersonated transaction's signature is a throwaway key's
            .map((p) => formatTransaction(p.tx, p.sender))
        );
      },
    }),
    method({
      name: "eth_blobBaseFee",
      access: "read",
      params: [],
      doc: "The blob base fee (EIP-4844) of the head block, from its excess blob gas (geth's meaning).",
      handler: () => {
        const h = node.head.header;
        if (!node.common.isActivatedEIP(4844) || h.excessBlobGas === undefined) {
          throw new ServerError(`blob transactions are not active on this chain (hardfork ${node.common.hardfork()})`);
        }
        return q(h.getBlobGasPrice());
      },
    }),
    method({
      name: "eth_getHeaderByNumber",
      access: "read",
      params: [blockNumberOrTag],
      doc: "The header of a block at a height or tag (the block object without transactions, uncles and size); null when there is no such block.",
      handler: async ([b]) => {
        const block = await resolveBlock(node, b);
        return block === undefined ? null : formatHeader(block);
      },
    }),
    method({
      name: "eth_getHeaderByHash",
      access: "read",
      params: [hash],
      doc: "The header of the block with a hash; null when unknown.",
      handler: async ([h]) => {
        const block = await resolveBlock(node, { hash: h, requireCanonical: false });
        return block === undefined ? null : formatHeader(block);
      },
    }),
    method({
      name: "eth_getAccount",
      access: "read",
      params: [address, blockId.opt()],
      doc: "An account at a block in geth's shape: {codeHash, storageRoot, balance, nonce}; an account that does not exist answers the empty one.",
      async handler([addr, block]) {
        const sm = await node.stateAt(await requireHeight(node, block));
        const acc = await sm.getAccount(new Address(addr));
        return {
          codeHash: bytesToHex(acc?.codeHash ?? KECCAK256_NULL),
          storageRoot: bytesToHex(acc?.storageRoot ?? KECCAK256_RLP),
          balance: q(acc?.balance ?? 0n),
          nonce: q(acc?.nonce ?? 0n),
        };
      },
    }),
  ];
}
