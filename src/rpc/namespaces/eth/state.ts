/** eth_* methods that read account state at a block, and calls that create no transaction. */
import { getMerkleStateProof } from "@ethereumjs/statemanager";
import { Address, setLengthLeft } from "@ethereumjs/util";
import { CallFailure } from "../../../chain";
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { executionFailure } from "../../failures";
import { hex, q } from "../../format";
import { method } from "../../method";
import { address, arrayOf, blockId, codec, parseAddress, parseHash, parseQuantity } from "../../params";
import { stateOverride, txRequest } from "../../objects";
import { requireHeight } from "../../resolve";
import { nodeAccounts } from "../../accounts";

/** A storage position: a hex quantity or 32-byte data (clients send both). */
const storageSlot = codec((v): Uint8Array => {
  if (typeof v === "string" && v.length === 66) return parseHash(v);
  return setLengthLeft(bigToBytes(parseQuantity(v)), 32);
});

function bigToBytes(n: bigint): Uint8Array {
  const h = n.toString(16);
  return new Uint8Array(Buffer.from(h.length % 2 === 0 ? h : `0${h}`, "hex"));
}

export function stateMethods(deps: RpcDeps) {
  const { node } = deps;
  return [
    method({
      name: "eth_getBalance",
      access: "read",
      params: [address, blockId.opt()],
      doc: "Balance of an account in wei at a block (default latest).",
      async handler([addr, block]) {
        const sm = await node.stateAt(await requireHeight(node, block));
        return q((await sm.getAccount(new Address(addr)))?.balance ?? 0n);
      },
    }),
    method({
      name: "eth_getTransactionCount",
      access: "read",
      params: [address, blockId.opt()],
      doc: "Nonce of an account at a block; with `pending`, counting its transactions waiting in the pool.",
      async handler([addr, block]) {
        const a = new Address(addr);
        if (block !== undefined && "tag" in block && block.tag === "pending") {
          return q(node.pool.nextNonce(a.toString(), await node.getNonce(a)));
        }
        const sm = await node.stateAt(await requireHeight(node, block));
        return q((await sm.getAccount(a))?.nonce ?? 0n);
      },
    }),
    method({
      name: "eth_getCode",
      access: "read",
      params: [address, blockId.opt()],
      doc: "Code of an account at a block (0x when none).",
      async handler([addr, block]) {
        const sm = await node.stateAt(await requireHeight(node, block));
        return hex(await sm.getCode(new Address(addr)));
      },
    }),
    method({
      name: "eth_getStorageAt",
      access: "read",
      params: [address, storageSlot, blockId.opt()],
      doc: "The 32-byte value of a storage slot of an account at a block.",
      async handler([addr, slot, block]) {
        const sm = await node.stateAt(await requireHeight(node, block));
        return hex(setLengthLeft(await sm.getStorage(new Address(addr), slot), 32));
      },
    }),
    method({
      name: "eth_call",
      access: "read",
      params: [txRequest, blockId.opt(), stateOverride.opt()],
      doc: "Runs a call against a block's state (default latest) with an optional state override set; creates no transaction. A revert answers code 3 with the revert data. In-process (tests) neither the balance nor the base fee is checked, as on Hardhat's network.",
      async handler([req, block, overrides], ctx) {
        const n = await requireHeight(node, block);
        // in-process (tests), as on Hardhat's network: the sender's balance and the base fee are not checked
        const lenient = ctx.transport === "in-process";
        const result = await node.calls.run(req, n, { overrides, timeoutMs: deps.settings.evmTimeoutMs, consoleLog: true, lenient, report: true });
        if (result.execResult.exceptionError !== undefined) throw executionFailure(deps, result, () => node.traces.callStackTrace(deps.contracts, req, n, overrides, lenient, result));
        return hex(result.execResult.returnValue);
      },
    }),
    method({
      name: "eth_estimateGas",
      access: "read",
      params: [txRequest, blockId.opt(), stateOverride.opt()],
      doc: "The smallest gas limit with which the transaction succeeds (binary search over real executions). In-process (tests) as on Hardhat's network: without `from` the first account sends, and neither the balance nor the base fee is checked.",
      async handler([req, block, overrides], ctx) {
        const n = await requireHeight(node, block);
        const hardhat = ctx.transport === "in-process";
        const first = nodeAccounts(deps)[0];
        const estimated = hardhat && req.from === undefined && first !== undefined ? { ...req, from: parseAddress(first) } : req;
        try {
          return q(await node.calls.estimateGas(estimated, n, { overrides, timeoutMs: deps.settings.evmTimeoutMs, consoleLog: true, lenient: hardhat }));
        } catch (err) {
          if (err instanceof CallFailure) throw executionFailure(deps, err.result, () => node.traces.callStackTrace(deps.contracts, estimated, n, overrides, hardhat, err.result));
          throw err;
        }
      },
    }),
    method({
      name: "eth_getProof",
      access: "read",
      params: [address, codec(arrayOf(parseHash, "storageKeys")), blockId.opt()],
      doc: "Merkle proof of an account and some of its storage slots at a block, verifiable against the block's stateRoot.",
      async handler([addr, keys, block]) {
        // a forked chain's trie holds only what it changed or read: a proof of it proves nothing about the rest
        if (node.fork !== undefined) throw new ServerError(`eth_getProof is not available on a forked chain (its state roots cover only the local changes over ${node.fork.client.name})`);
        const sm = await node.stateAt(await requireHeight(node, block));
        return getMerkleStateProof(sm, new Address(addr), keys);
      },
    }),
  ];
}
