/** Chain identity, accounts, and the spec's methods that have no meaning on a proof-of-stake dev chain. */
import { Address } from "@ethereumjs/util";
import { getAddress } from "ethers/address";
import { assertInsecureUnlockAllowed, nodeAccounts } from "../../accounts";
import { mayCall } from "../../access";
import type { RpcDeps } from "../../deps";
import { q } from "../../format";
import { method, unsupported } from "../../method";

const POW = "this chain has no proof of work";
const COMPILERS = "the node has no built-in compilers (compile with Hardhat)";

export function miscMethods(deps: RpcDeps) {
  const { node } = deps;
  return [
    method({ name: "eth_chainId", access: "read", params: [], doc: "EIP-155 chain id.", handler: () => q(node.config.chainId) }),
    method({
      name: "eth_accounts",
      access: "read",
      params: [],
      doc: "The dev accounts whose keys the node holds (funded at genesis), then the key store's accounts (locked or not); a caller that may not use `dev` methods (a page from a foreign origin without the token) sees only the dev accounts. `allow-insecure-unlock = false` refuses it (Evmos).",
      handler: (_params, ctx) => {
        assertInsecureUnlockAllowed(deps);
        return nodeAccounts(deps, mayCall("dev", ctx));
      },
    }),
    method({
      name: "eth_coinbase",
      access: "read",
      params: [],
      doc: "The address that receives block fees (miner_setEtherbase / hardhat_setCoinbase change it), checksummed as Evmos answers.",
      handler: () => getAddress(new Address(node.settings.coinbase).toString()),
    }),
    method({
      name: "eth_mining",
      access: "read",
      params: [],
      doc: "True unless miner_stop paused block production (automine, interval and manual mining all count as mining on a dev node).",
      handler: () => !node.settings.paused,
    }),
    method({ name: "eth_hashrate", access: "read", params: [], doc: "Always 0x0: no proof of work.", handler: () => "0x0" }),
    method({ name: "eth_syncing", access: "read", params: [], doc: "Always false: a single dev node is always in sync.", handler: () => false }),
    method({ name: "eth_protocolVersion", access: "read", params: [], doc: "Ethereum wire protocol version, 0x41 (65) as Evmos answers.", handler: () => "0x41" }),
    unsupported("eth_getWork", POW),
    unsupported("eth_submitWork", POW),
    unsupported("eth_submitHashrate", POW),
    unsupported("eth_getCompilers", COMPILERS),
    unsupported("eth_compileLLL", COMPILERS),
    unsupported("eth_compileSolidity", COMPILERS),
    unsupported("eth_compileSerpent", COMPILERS),
  ];
}
