/**
 * miner_*: block production control on a single dev node (private: needs the bearer token).
 * start/stop resume and pause production, setters take effect on later blocks (docs/json-rpc.md).
 */
import type { RpcDeps } from "../deps";
import { InvalidParamsError } from "../errors";
import { method } from "../method";
import { address, data, numberOrQuantity, quantity } from "../params";

export interface MinerHooks {
  /** Persists a new minimum gas price (app.toml `minimum-gas-prices`) when the node has a home. */
  onMinGasPrice?: (wei: bigint) => void;
}

export function minerMethods({ node }: RpcDeps, hooks: MinerHooks = {}) {
  return [
    method({
      name: "miner_start",
      params: [numberOrQuantity.opt()],
      access: "private",
      doc: "Resumes block production (the thread count is ignored); pending transactions are mined at once with automine, or at the next interval.",
      async handler() {
        await node.dev.startMining();
        return true;
      },
    }),
    method({
      name: "miner_stop",
      params: [],
      access: "private",
      doc: "Pauses block production; new transactions wait in the pool.",
      handler: async () => {
        await node.dev.stopMining();
        return true;
      },
    }),
    method({
      name: "miner_setEtherbase",
      params: [address],
      access: "private",
      doc: "Coinbase of later blocks; eth_coinbase follows.",
      handler: async ([addr]) => {
        await node.dev.configure({ coinbase: addr });
        return true;
      },
    }),
    method({
      name: "miner_setExtra",
      params: [data],
      access: "private",
      doc: "extraData of later blocks, at most 32 bytes.",
      handler: async ([extra]) => {
        if (extra.length > 32) throw new InvalidParamsError(`invalid argument 0: extra data is ${extra.length} bytes, the limit is 32`);
        await node.dev.configure({ extraData: extra });
        return true;
      },
    }),
    method({
      name: "miner_setGasLimit",
      params: [quantity],
      access: "private",
      doc: "Gas limit of later blocks.",
      handler: async ([limit]) => {
        if (limit < 21000n) throw new InvalidParamsError("invalid argument 0: gas limit must be at least 21000");
        await node.dev.configure({ gasLimit: limit });
        return true;
      },
    }),
    method({
      name: "miner_setGasPrice",
      params: [quantity],
      access: "private",
      doc: "Minimum gas price, at once; with a home it is written to app.toml minimum-gas-prices (the start flag still overrides the file). Pooled transactions below it wait; lowering it lets them in (mined at once with automine).",
      handler: async ([price]) => {
        hooks.onMinGasPrice?.(price);
        await node.dev.setMinGasPrice(price);
        return true;
      },
    }),
    method({
      name: "miner_getHashrate",
      params: [],
      access: "private",
      doc: "Always 0: no proof of work (a JSON number, as Evmos answers).",
      handler: () => 0,
    }),
  ];
}
