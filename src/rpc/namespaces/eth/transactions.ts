/** Sending, signing and looking up transactions. */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, bytesToHex, hashPersonalMessage } from "@ethereumjs/util";
import type { Inclusion, MinedBlock, Prepared } from "../../../chain";
import { SigningKey } from "ethers/crypto";
import { TypedDataEncoder } from "ethers/hash";
import { assertInsecureUnlockAllowed, signerAccess, signingKey, transactionKey } from "../../accounts";
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { executionFailure } from "../../failures";
import { formatReceipt, formatTransaction, hex } from "../../format";
import { method } from "../../method";
import { address, any, data, hash } from "../../params";
import { type TxRequest, txRequest } from "../../objects";

/** The sender of eth_sendTransaction: `from`, whatever the signature of an impersonated account's transaction recovers to. */
function senderOf(req: TxRequest): Address {
  if (req.from === undefined) throw new ServerError("missing from");
  return new Address(req.from);
}

/**
 * eth_sendTransaction, eth_sendRawTransaction and the personal and resend sends: `prepare` and the
 * submission run inside the node's lock (Node.send); with automine, a failed transaction is reported
 * as an error (Hardhat's throwOnTransactionFailures).
 */
export async function sendTx(deps: RpcDeps, prepare: () => Promise<Prepared> | Prepared): Promise<string> {
  const { hash, included } = await deps.node.send(prepare);
  return answerSend(deps, hash, included);
}

async function answerSend(deps: RpcDeps, h: string, included: Inclusion | undefined): Promise<string> {
  const { node } = deps;
  if (included !== undefined && node.config.throwOnTransactionFailures && included.result.execResult.exceptionError !== undefined) {
    const n = included.mined.block.header.number;
    const ran = { result: included.result, tx: included.mined.block.transactions[included.index] };
    throw executionFailure(deps, included.result, () => node.traces.txStackTrace(deps.contracts, n, included.index, ran), h);
  }
  return h;
}

/** The key of eth_sendTransaction / eth_signTransaction's sender (see signingKey); undefined without `from`. */
function senderKey(deps: RpcDeps, req: TxRequest): Uint8Array | undefined {
  return req.from === undefined ? undefined : transactionKey(deps, new Address(req.from));
}

export function transactionMethods(deps: RpcDeps) {
  const { node } = deps;

  const lookup = async (h: Uint8Array): Promise<{ tx: TypedTransaction; from: Uint8Array | string; mined?: { block: MinedBlock["block"]; index: number } } | undefined> => {
    const m = await node.minedTransaction(h);
    if (m !== undefined) return { tx: m.tx, from: m.receipts[m.index].from, mined: { block: m.block, index: m.index } };
    const pooled = node.pool.get(bytesToHex(h));
    if (pooled === undefined) return undefined;
    return { tx: pooled.tx, from: pooled.sender };
  };

  return [
    method({
      name: "eth_sendTransaction",
      access: "send",
      // a key-store sender raises it to dev (docs/security.md)
      accessFor: ([req]) => signerAccess(deps, req.from),
      raisesTo: "dev",
      params: [txRequest],
      doc: "Signs with the node's key of `from` (a dev account, an unlocked key-store account or an impersonated one) and submits. Defaults: gas 2020020, type 2 fees (tip 1 gwei, max fee tip + 2 × base fee), the pending nonce. A locked key-store account answers `authentication needed: password or unlock`; `allow-insecure-unlock = false` refuses the method (Evmos).",
      // the sender is `from`, whatever the signature of an impersonated account's transaction recovers to
      handler: ([req]) =>
        sendTx(deps, async () => {
          assertInsecureUnlockAllowed(deps);
          return { tx: await node.calls.sign(req, node.config.defaultSendGas, senderKey(deps, req)), sender: senderOf(req) };
        }),
    }),
    method({
      name: "eth_sendRawTransaction",
      access: "send",
      params: [data],
      doc: "Submits a signed transaction (legacy or typed envelope); answers its hash. Under automine it answers once the transaction is mined; one behind a nonce gap waits up to 2 s for the gap to be filled.",
      async handler([raw]) {
        const tx = node.calls.decodeSigned(raw, { allowUnprotected: deps.settings.allowUnprotectedTxs });
        return sendTx(deps, () => ({ tx }));
      },
    }),
    method({
      name: "eth_signTransaction",
      access: "send",
      // a key-store sender raises it to dev (docs/security.md)
      accessFor: ([req]) => signerAccess(deps, req.from),
      raisesTo: "dev",
      params: [txRequest],
      doc: "Fills and signs a transaction with the node's key of `from` (a dev account or an unlocked key-store account) without sending it; answers the raw signed bytes.",
      handler: async ([req]) => hex((await node.calls.sign(req, node.config.defaultSendGas, senderKey(deps, req))).serialize()),
    }),
    method({
      name: "eth_sign",
      access: "send",
      accessFor: ([addr]) => signerAccess(deps, addr),
      raisesTo: "dev",
      params: [address, data],
      doc: "EIP-191 signature (\\x19Ethereum Signed Message:\\n + length + message) with the key of a dev account or an unlocked key-store account; ethers.verifyMessage accepts it.",
      handler: ([addr, message]) => signMessage(signingKey(deps, new Address(addr)), message),
    }),
    method({
      name: "eth_signTypedData_v4",
      access: "send",
      accessFor: ([addr]) => signerAccess(deps, addr),
      raisesTo: "dev",
      params: [address, any],
      doc: "EIP-712 signature of typed data (an object or its JSON text) with the key of a dev account or an unlocked key-store account.",
      handler: ([addr, typed]) => signTypedData(deps, new Address(addr), typed),
    }),
    method({
      name: "eth_signTypedData",
      access: "send",
      accessFor: ([addr]) => signerAccess(deps, addr),
      raisesTo: "dev",
      params: [address, any],
      doc: "EIP-712 signature of typed data (Evmos's name for eth_signTypedData_v4).",
      handler: ([addr, typed]) => signTypedData(deps, new Address(addr), typed),
    }),
    method({
      name: "eth_getTransactionByHash",
      access: "read",
      params: [hash],
      doc: "Transaction with a hash, mined or pending (null block fields); null when unknown.",
      async handler([h]) {
        const found = await lookup(h);
        return found === undefined ? null : formatTransaction(found.tx, found.from, found.mined);
      },
    }),
    method({
      name: "eth_getTransactionReceipt",
      access: "read",
      params: [hash],
      doc: "Receipt of a mined transaction; null when unknown or still pending.",
      async handler([h]) {
        const m = await node.minedTransaction(h);
        return m === undefined ? null : formatReceipt(m.block, m.receipts, m.index);
      },
    }),
    method({
      name: "eth_getPendingTransactions",
      access: "read",
      params: [],
      doc: "Every transaction waiting in the pool that can be mined next (pending, not queued).",
      handler: () => node.pool.pending().map((p) => formatTransaction(p.tx, p.sender)),
    }),
  ];
}

/** EIP-191 personal-message signature, V 27/28 (geth's eth_sign and personal_sign). */
export function signMessage(key: Uint8Array, message: Uint8Array): string {
  const digest = hashPersonalMessage(message);
  return new SigningKey(key).sign(digest).serialized;
}

function signTypedData(deps: RpcDeps, from: Address, typed: unknown): string {
  let obj: unknown = typed;
  if (typeof typed === "string") {
    try {
      obj = JSON.parse(typed);
    } catch {
      throw new ServerError("invalid argument 1: typed data is not valid JSON");
    }
  }
  if (obj === null || typeof obj !== "object") throw new ServerError("invalid argument 1: typed data must be an object");
  const { domain, types, message } = obj as { domain: Record<string, unknown>; types: Record<string, Array<{ name: string; type: string }>>; message: Record<string, unknown> };
  if (types === undefined || message === undefined) throw new ServerError("invalid argument 1: typed data needs types, domain and message");
  const { EIP712Domain: _omit, ...rest } = types;
  let digest: string;
  try {
    digest = TypedDataEncoder.hash(domain ?? {}, rest, message);
  } catch (err) {
    throw new ServerError(`invalid typed data: ${(err as Error).message.split(" (")[0]}`);
  }
  return new SigningKey(signingKey(deps, from)).sign(digest).serialized;
}
