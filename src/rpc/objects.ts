/** Codecs of the object parameters: transaction/call objects, state overrides, log filters (docs/json-rpc.md, "Transaction and call objects"). */
import type { CallRequest, StateOverride } from "../chain";
import { ParamError, arrayOf, jsonType, objectOf, parseAddress, parseBlockNumberOrTag, parseData, parseHash, parseQuantity, type BlockSpec } from "./params";

const accessListEntry = (v: unknown): { address: Uint8Array; storageKeys: Uint8Array[] } => {
  if (v === null || typeof v !== "object") throw new ParamError(`cannot unmarshal ${jsonType(v)} into an access list entry`);
  const o = v as Record<string, unknown>;
  return { address: parseAddress(o.address), storageKeys: arrayOf(parseHash, "storageKeys")(o.storageKeys ?? []) };
};

const authorization = (v: unknown): NonNullable<CallRequest["authorizationList"]>[number] => {
  if (v === null || typeof v !== "object") throw new ParamError(`cannot unmarshal ${jsonType(v)} into an authorization`);
  const o = v as Record<string, unknown>;
  return {
    chainId: parseQuantity(o.chainId),
    address: parseAddress(o.address),
    nonce: parseQuantity(o.nonce, 64),
    yParity: parseQuantity(o.yParity ?? o.v),
    r: parseQuantity(o.r),
    s: parseQuantity(o.s),
  };
};

export interface TxRequest extends CallRequest {
  chainId?: bigint;
  type?: bigint;
}

/** Transaction/call object; `input` and `data` must agree when both are given (geth). */
export const txRequest = objectOf("TransactionArgs", (f): TxRequest => {
  const data = f("data", parseData);
  const input = f("input", parseData);
  if (data !== undefined && input !== undefined && Buffer.compare(data, input) !== 0) {
    throw new ParamError("both 'data' and 'input' are set and not equal. Please use 'input' to pass transaction call data");
  }
  const gasPrice = f("gasPrice", parseQuantity);
  const maxFeePerGas = f("maxFeePerGas", parseQuantity);
  const maxPriorityFeePerGas = f("maxPriorityFeePerGas", parseQuantity);
  if (gasPrice !== undefined && (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined)) {
    throw new ParamError("both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified");
  }
  return {
    from: f("from", parseAddress),
    to: f("to", parseAddress),
    gas: f("gas", (v) => parseQuantity(v, 64)),
    gasPrice,
    maxFeePerGas,
    maxPriorityFeePerGas,
    value: f("value", parseQuantity),
    data: input ?? data,
    nonce: f("nonce", (v) => parseQuantity(v, 64)),
    accessList: f("accessList", arrayOf(accessListEntry, "accessList")),
    authorizationList: f("authorizationList", arrayOf(authorization, "authorizationList")),
    chainId: f("chainId", parseQuantity),
    type: f("type", (v) => parseQuantity(v, 8)),
  };
});

export const stateOverride = objectOf("StateOverride", (_f, raw): StateOverride => {
  const out: StateOverride = new Map();
  for (const [addr, value] of Object.entries(raw)) {
    const a = parseAddress(addr);
    if (value === null || typeof value !== "object") throw new ParamError(`${addr}: cannot unmarshal ${jsonType(value)} into an account override`);
    const o = value as Record<string, unknown>;
    if (o.state !== undefined && o.stateDiff !== undefined) throw new ParamError(`account ${addr} has both 'state' and 'stateDiff'`);
    const slots = (v: unknown): Map<string, Uint8Array> => {
      if (v === null || typeof v !== "object") throw new ParamError(`${addr}: cannot unmarshal ${jsonType(v)} into storage`);
      const m = new Map<string, Uint8Array>();
      for (const [k, val] of Object.entries(v as Record<string, unknown>)) m.set(`0x${Buffer.from(parseHash(k)).toString("hex")}`, parseHash(val));
      return m;
    };
    out.set(`0x${Buffer.from(a).toString("hex")}`, {
      balance: o.balance !== undefined ? parseQuantity(o.balance) : undefined,
      nonce: o.nonce !== undefined ? parseQuantity(o.nonce, 64) : undefined,
      code: o.code !== undefined ? parseData(o.code) : undefined,
      state: o.state !== undefined ? slots(o.state) : undefined,
      stateDiff: o.stateDiff !== undefined ? slots(o.stateDiff) : undefined,
    });
  }
  return out;
});

export interface LogFilter {
  fromBlock?: BlockSpec;
  toBlock?: BlockSpec;
  blockHash?: Uint8Array;
  addresses: Uint8Array[];
  /** Per position: null = any, else any of the listed topics. */
  topics: Array<Uint8Array[] | null>;
}

const topicEntry = (v: unknown): Uint8Array[] | null => {
  if (v === null) return null;
  if (Array.isArray(v)) return v.length === 0 ? null : v.map((t) => parseHash(t));
  return [parseHash(v)];
};

export const logFilter = objectOf("FilterCriteria", (f, raw): LogFilter => {
  const blockHash = f("blockHash", parseHash) ?? f("blockhash", parseHash);
  if (blockHash !== undefined && (raw.fromBlock != null || raw.toBlock != null)) {
    throw new ParamError("cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other");
  }
  const address = raw.address;
  const addresses = address == null ? [] : Array.isArray(address) ? arrayOf(parseAddress, "address")(address) : [parseAddress(address)];
  const topicsRaw = raw.topics;
  if (topicsRaw != null && !Array.isArray(topicsRaw)) throw new ParamError(`cannot unmarshal ${jsonType(topicsRaw)} into topics`);
  const topics = ((topicsRaw ?? []) as unknown[]).map((t, i) => {
    try {
      return topicEntry(t);
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`topics[${i}]: ${err.message}`);
      throw err;
    }
  });
  if (topics.length > 4) throw new ParamError("too many topics: at most 4");
  return {
    fromBlock: f("fromBlock", parseBlockNumberOrTag),
    toBlock: f("toBlock", parseBlockNumberOrTag),
    blockHash,
    addresses,
    topics,
  };
});
