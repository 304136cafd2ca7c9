/** hardhat_*: the test helpers `@nomicfoundation/hardhat-network-helpers` calls, plus the methods Hardhat's tasks call. */
import type { StateManagerInterface } from "@ethereumjs/common";
import { Address, bytesToHex, createAccount, setLengthLeft } from "@ethereumjs/util";
import type { ResetForking, RpcDeps } from "../deps";
import { InvalidParamsError, ServerError } from "../errors";
import { hex, q } from "../format";
import { method } from "../method";
import { savedStateMethods } from "./saved-state";
import type { SolcInput, SolcOutput } from "../../solidity/registry";
import { ParamError, address, any, bool, codec, data, hash, jsonType, numberOrQuantity, quantity } from "../params";

/** hardhat_reset's parameter: `{}` or `{ forking: { jsonRpcUrl, blockNumber?, httpHeaders? } }`, as Hardhat takes it. */
const resetOptions = codec((v): { forking?: ResetForking } => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new ParamError(`cannot unmarshal ${jsonType(v)} into the reset options`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== "forking") throw new ParamError(`unknown reset option "${k}" (expected forking)`);
  if (o.forking === undefined || o.forking === null) return {};
  const f = o.forking;
  if (typeof f !== "object" || Array.isArray(f)) throw new ParamError(`forking: cannot unmarshal ${jsonType(f)} into { jsonRpcUrl, blockNumber?, httpHeaders? }`);
  const fo = f as Record<string, unknown>;
  for (const k of Object.keys(fo)) if (!["jsonRpcUrl", "blockNumber", "httpHeaders"].includes(k)) throw new ParamError(`forking: unknown field "${k}" (expected jsonRpcUrl, blockNumber, httpHeaders)`);
  if (typeof fo.jsonRpcUrl !== "string" || fo.jsonRpcUrl === "") throw new ParamError("forking.jsonRpcUrl: expected the remote's JSON-RPC URL");
  let blockNumber: bigint | undefined;
  if (fo.blockNumber !== undefined && fo.blockNumber !== null) {
    if (typeof fo.blockNumber === "number" && Number.isSafeInteger(fo.blockNumber) && fo.blockNumber >= 0) blockNumber = BigInt(fo.blockNumber);
    else if (typeof fo.blockNumber === "string" && /^0x[0-9a-fA-F]+$/.test(fo.blockNumber)) blockNumber = BigInt(fo.blockNumber);
    else throw new ParamError(`forking.blockNumber: expected a non-negative integer, got ${JSON.stringify(fo.blockNumber)}`);
  }
  let httpHeaders: Record<string, string> | undefined;
  if (fo.httpHeaders !== undefined && fo.httpHeaders !== null) {
    const h = fo.httpHeaders;
    if (typeof h !== "object" || Array.isArray(h) || Object.values(h).some((x) => typeof x !== "string")) throw new ParamError("forking.httpHeaders: expected an object of strings");
    httpHeaders = h as Record<string, string>;
  }
  return { forking: { url: fo.jsonRpcUrl, blockNumber, httpHeaders } };
});

export function hardhatMethods(deps: RpcDeps) {
  const { node, settings, resetChain } = deps;
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
      access: "dev",
      params: [numberOrQuantity.opt(), numberOrQuantity.opt()],
      doc: "Mines N blocks (default 1), `interval` seconds apart (default 1); each block runs begin/end-block, so epochs tick.",
      handler: async ([count, interval]) => {
        await node.mineBlocks(count ?? 1n, interval ?? 1n);
        return true;
      },
    }),
    method({
      name: "hardhat_setBalance",
      access: "dev",
      params: [address, quantity],
      doc: "Sets an account's balance in the live state.",
      handler: async ([addr, balance]) => {
        await modifyAccount(addr, (a) => (a.balance = balance));
        return true;
      },
    }),
    method({
      name: "hardhat_setNonce",
      access: "dev",
      params: [address, quantity],
      doc: "Sets an account's nonce; it may not go below the current one.",
      handler: async ([addr, nonce]) => {
        // checked on the state it changes, inside the change: no block can move the nonce in between
        await modifyAccount(addr, (a) => {
          if (nonce < a.nonce) throw new ServerError(`New nonce (${nonce}) must not be smaller than the existing nonce (${a.nonce})`);
          a.nonce = nonce;
        });
        return true;
      },
    }),
    method({
      name: "hardhat_setCode",
      access: "dev",
      params: [address, data],
      doc: "Sets an account's code.",
      handler: async ([addr, code]) => {
        await modifyAccount(
          addr,
          () => undefined,
          (sm, a) => sm.putCode(a, code),
        );
        return true;
      },
    }),
    method({
      name: "hardhat_setStorageAt",
      access: "dev",
      params: [address, quantity, data],
      doc: "Sets one 32-byte storage slot of an account.",
      handler: async ([addr, slot, value]) => {
        if (value.length !== 32) throw new InvalidParamsError("invalid argument 2: storage value must be exactly 32 bytes");
        await modifyAccount(
          addr,
          () => undefined,
          (sm, a) => sm.putStorage(a, setLengthLeft(hexToBytes(q(slot)), 32), value),
        );
        return true;
      },
    }),
    method({
      name: "hardhat_impersonateAccount",
      access: "dev",
      params: [address],
      doc: "Lets eth_sendTransaction send from an account whose key the node does not hold.",
      handler: async ([addr]) => {
        await node.dev.impersonate(new Address(addr).toString());
        return true;
      },
    }),
    method({
      name: "hardhat_stopImpersonatingAccount",
      access: "dev",
      params: [address],
      doc: "Ends an impersonation; false when the account was not impersonated.",
      handler: ([addr]) => node.dev.stopImpersonating(new Address(addr).toString()),
    }),
    method({ name: "hardhat_getAutomine", access: "read", params: [], doc: "Whether automine is on.", handler: () => node.settings.automine }),
    method({
      name: "hardhat_setNextBlockBaseFeePerGas",
      access: "dev",
      params: [quantity],
      doc: "Base fee of the next block only.",
      handler: async ([fee]) => {
        await node.dev.configure({ nextBaseFee: fee });
        return true;
      },
    }),
    method({
      name: "hardhat_setPrevRandao",
      access: "dev",
      params: [hash],
      doc: "prevRandao (the PREVRANDAO opcode, the header's mixHash) of the next block only.",
      handler: async ([value]) => {
        await node.dev.configure({ nextPrevRandao: value });
        return true;
      },
    }),
    method({
      name: "hardhat_setCoinbase",
      access: "dev",
      params: [address],
      doc: "Coinbase of later blocks (eth_coinbase follows).",
      handler: async ([addr]) => {
        await node.dev.configure({ coinbase: addr });
        return true;
      },
    }),
    method({
      name: "hardhat_setMinGasPrice",
      access: "dev",
      params: [quantity],
      doc: "Minimum gas price of the node (the minimum-gas-prices setting), at once; waiting pooled transactions it now lets in are mined with automine.",
      handler: async ([price]) => {
        await node.dev.setMinGasPrice(price);
        return true;
      },
    }),
    method({
      name: "hardhat_dropTransaction",
      access: "dev",
      params: [hash],
      doc: "Removes a transaction from the pool; false when it is not there, an error when it is mined.",
      handler: async ([h]) => {
        const key = bytesToHex(h);
        if ((await node.store.getTxLocation(h)) !== undefined) throw new InvalidParamsError(`Transaction ${key} cannot be dropped because it's already mined`);
        return node.dev.dropPooled(key);
      },
    }),
    method({
      name: "hardhat_metadata",
      access: "read",
      params: [],
      doc: "Client version, chain id, instance id and latest block, as Hardhat's node answers.",
      handler: () => ({
        clientVersion: settings.clientVersion,
        chainId: Number(node.config.chainId),
        instanceId: hex(node.instanceId),
        latestBlockNumber: Number(node.headNumber),
        latestBlockHash: hex(node.head.hash()),
        ...(node.fork !== undefined ? { forkedNetwork: { chainId: Number(node.fork.chainId), forkBlockNumber: Number(node.fork.block.number), forkBlockHash: hex(node.fork.block.hash) } } : {}),
      }),
    }),
    method({
      name: "hardhat_reset",
      access: "dev",
      params: [resetOptions.opt()],
      doc: "Starts the chain over from the configuration: forked from `forking.jsonRpcUrl` at `forking.blockNumber` (default its latest) when given, not forked without it. Snapshots, the pool and dev settings start over.",
      handler: async ([opts]) => {
        if (resetChain === undefined) throw new ServerError("hardhat_reset is not available on this node");
        await resetChain(opts?.forking);
        return true;
      },
    }),
    method({
      name: "hardhat_getStackTraceFailuresCount",
      access: "read",
      params: [],
      doc: "How many failed executions got no Solidity stack trace because re-running them recorded failed (Hardhat's test task asks). A failure in code the node does not know still gets a trace (of unrecognised contracts) and is not counted.",
      handler: () => deps.stackTraceFailures.count,
    }),
    method({
      name: "hardhat_setLoggingEnabled",
      access: "dev",
      params: [bool],
      doc: "Accepted for Hardhat's node task; request logging is the node's own.",
      handler: () => true,
    }),
    method({
      name: "hardhat_addCompilationResult",
      access: "dev",
      params: [any, any, any],
      doc: "Adds a solc run (version, standard-JSON input and output; Hardhat's node task sends one per compilation) to the contracts the node recognises in Solidity stack traces.",
      handler: ([, input, output]) => {
        if (input === null || typeof input !== "object" || output === null || typeof output !== "object")
          throw new InvalidParamsError("invalid argument: the compiler input and output must be objects");
        deps.contracts.addCompilation(input as SolcInput, output as SolcOutput);
        return true;
      },
    }),
    ...savedStateMethods(deps, "hardhat"),
  ];
}

function hexToBytes(h: string): Uint8Array {
  const body = h.slice(2);
  return new Uint8Array(Buffer.from(body.length % 2 === 0 ? body : `0${body}`, "hex"));
}
