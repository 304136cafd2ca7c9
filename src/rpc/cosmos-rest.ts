/**
 * The Cosmos REST a dApp front end reads beside the EVM JSON-RPC, over the chain's own state
 * (docs/cosmos-precompiles.md, "REST"). So far the bank balances of an account: its native coin is
 * its EVM balance (18 decimals), under the profile's denom.
 */
import { Address } from "@ethereumjs/util";
import type { Node } from "../chain/node";
import { accountFromBech32 } from "../cosmos/bech32";
import type { RestRouter } from "./transport/rest-router";

export interface BankRestOptions {
  /** The chain's account prefix (`evmos`, `cosmos`). */
  prefix: string;
  /** The native coin's denom (`aevmos`, `atest`). */
  denom: string;
}

/**
 * GET /cosmos/bank/v1beta1/balances/{address}, as the Cosmos SDK's gateway answers it
 * (x/bank/keeper/grpc_query.go `AllBalances`): the account's non-zero coins, a bad address
 * InvalidArgument (HTTP 400, gRPC code 3) with the address codec's text.
 */
export function mountBankRest(router: RestRouter, node: Node, opts: BankRestOptions): void {
  router.get("/cosmos/bank/v1beta1/balances/{address}", async (_query, { address }) => {
    let bytes: Uint8Array;
    try {
      bytes = accountFromBech32(address, opts.prefix);
    } catch (err) {
      return { status: 400, body: { code: 3, message: `invalid address: ${(err as Error).message}`, details: [] } };
    }
    // an address of other than 20 bytes (a module account) holds nothing on this chain
    const balance = bytes.length === 20 ? ((await node.getAccount(new Address(bytes)))?.balance ?? 0n) : 0n;
    const balances = balance > 0n ? [{ denom: opts.denom, amount: balance.toString() }] : [];
    return { status: 200, body: { balances, pagination: { next_key: null, total: String(balances.length) } } };
  });
}
