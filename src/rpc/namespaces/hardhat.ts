/** hardhat_*: the test helpers `@nomicfoundation/hardhat-network-helpers` calls, plus the methods Hardhat's tasks call. */
import type { StateManagerInterface } from "@ethereumjs/common";
import { Address, bytesToHex, createAccount, setLengthLeft } from "@ethereumjs/util";
import type { RpcDeps } from "../deps";
import { InvalidParamsError, ServerError } from "../errors";
import { hex, q } from "../format";
import { method } from "../method";
import { address, any, bool, data, hash, numberOrQuantity, quantity } from "../params";

export function hardhatMethods({ node, settings }: RpcDeps) {
  /** Changes one account of the live state (created when absent), then `more` on the same state. */
  const modifyAccount = (addr: Uint8Array, change: (acc: { balance: bigint; nonce: bigint }) => void, more?: (sm: StateManagerInterface, a: Address) => Promise<void>) =>
    node.modifyState(async (sm) => {
      const a = new Address(addr);
      const next = (await sm.getAccount(a)) ?? createAccount({});
      change(next);
      await sm.putAccount(a, next);
      await more?.(sm, a);
    });
  return [
    method({
      name: "hardhat_mine",
      params: [numberOrQuantity.opt(), numberOrQuantity.opt()],
      doc: "Mines N blocks (default 1), `interval` seconds apart (default 1); each block runs begin/end-block, so epochs tick.",
      handler: async ([count, interval]) => {
        await node.mineBlocks(count ?? 1n, interval ?? 1n);
        return true;
      },
    }),
    method({
      name: "hardhat_setBalance",
      params: [address, quantity],
      doc: "Sets an account's balance in the live state.",
      handler: async ([addr, balance]) => {
        await modifyAccount(addr, (a) => (a.balance = balance));
        return true;
      },
    }),
    method({
      name: "hardhat_setNonce",
      params: [address, quantity],
      doc: "Sets an account's nonce; it may not go below the current one.",
      handler: async ([addr, nonce]) => {
        const current = await node.getNonce(new Address(addr));
        if (nonce < current) throw new ServerError(`New nonce (${nonce}) must not be smaller than the existing nonce (${current})`);
        await modifyAccount(addr, (a) => (a.nonce = nonce));
        return true;
      },
    }),
    method({
      name: "hardhat_setCode",
      params: [address, data],
      doc: "Sets an account's code.",
      handler: async ([addr, code]) => {
        await modifyAccount(addr, () => undefined, (sm, a) => sm.putCode(a, code));
        return true;
      },
    }),
    method({
      name: "hardhat_setStorageAt",
      params: [address, quantity, data],
      doc: "Sets one 32-byte storage slot of an account.",
      handler: async ([addr, slot, value]) => {
        if (value.length !== 32) throw new InvalidParamsError("invalid argument 2: storage value must be exactly 32 bytes");
        await modifyAccount(addr, () => undefined, (sm, a) => sm.putStorage(a, setLengthLeft(hexToBytes(q(slot)), 32), value));
        return true;
      },
    }),
    method({
      name: "hardhat_impersonateAccount",
      params: [address],
      doc: "Lets eth_sendTransaction send from an account whose key the node does not hold.",
      handler: ([addr]) => {
        node.impersonated.add(new Address(addr).toString());
        return true;
      },
    }),
    method({
      name: "hardhat_stopImpersonatingAccount",
      params: [address],
      doc: "Ends an impersonation; false when the account was not impersonated.",
      handler: ([addr]) => node.impersonated.delete(new Address(addr).toString()),
    }),
    method({ name: "hardhat_getAutomine", params: [], doc: "Whether automine is on.", handler: () => node.settings.automine }),
    method({
      name: "hardhat_setNextBlockBaseFeePerGas",
      params: [quantity],
      doc: "Base fee of the next block only.",
      handler: ([fee]) => {
        node.settings.nextBaseFee = fee;
        return true;
      },
    }),
    method({
      name: "hardhat_setPrevRandao",
      params: [hash],
      doc: "prevRandao (the PREVRANDAO opcode, the header's mixHash) of the next block only.",
      handler: ([value]) => {
        node.settings.nextPrevRandao = value;
        return true;
      },
    }),
    method({
      name: "hardhat_setCoinbase",
      params: [address],
      doc: "Coinbase of later blocks (eth_coinbase follows).",
      handler: ([addr]) => {
        node.settings.coinbase = addr;
        return true;
      },
    }),
    method({
      name: "hardhat_setMinGasPrice",
      params: [quantity],
      doc: "Minimum gas price of the node (the minimum-gas-prices setting), at once; waiting pooled transactions it now lets in are mined with automine.",
      handler: async ([price]) => {
        node.settings.minGasPrice = price;
        await node.mineWaiting();
        return true;
      },
    }),
    method({
      name: "hardhat_dropTransaction",
      params: [hash],
      doc: "Removes a transaction from the pool; false when it is not there.",
      handler: ([h]) => {
        const key = bytesToHex(h);
        if (node.pool.get(key) === undefined) return false;
        node.pool.remove(key);
        return true;
      },
    }),
    method({
      name: "hardhat_metadata",
      params: [],
      doc: "Client version, chain id, instance id and latest block, as Hardhat's node answers.",
      handler: () => ({
        clientVersion: settings.clientVersion,
        chainId: Number(node.config.chainId),
        instanceId: hex(node.instanceId),
        latestBlockNumber: Number(node.headNumber),
        latestBlockHash: hex(node.head.hash()),
      }),
    }),
    method({
      name: "hardhat_getStackTraceFailuresCount",
      params: [],
      doc: "Always 0: this node produces no Solidity stack traces (Hardhat's test task asks).",
      handler: () => 0,
    }),
    method({
      name: "hardhat_setLoggingEnabled",
      params: [bool],
      doc: "Accepted for Hardhat's node task; request logging is the node's own.",
      handler: () => true,
    }),
    method({
      name: "hardhat_addCompilationResult",
      params: [any, any, any],
      doc: "Accepted for Hardhat's node task; compilation results are not used.",
      handler: () => true,
    }),
  ];
}

function hexToBytes(h: string): Uint8Array {
  const body = h.slice(2);
  return new Uint8Array(Buffer.from(body.length % 2 === 0 ? body : `0${body}`, "hex"));
}
