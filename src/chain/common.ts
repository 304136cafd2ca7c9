/** The EthereumJS chain definition: every hardfork up to the chosen one active from block 0. */
import { paramsBlock } from "@ethereumjs/block";
import { Common, Mainnet, createCustomCommon, type CustomCrypto } from "@ethereumjs/common";
import { paramsTx } from "@ethereumjs/tx";

/**
 * EthereumJS copies the chain config for every block header and transaction it creates and merges
 * the same parameter tables into the copy again (JSON round trips, then a full cache rebuild): in a
 * running node that was over half the cost of producing a one-transaction block (CPU profile of
 * `npx hardhat node` under transfer load). A params cache, once built, never changes; remember which
 * tables each cache already holds and skip the merges that would rebuild it unchanged.
 */
type ParamsTable = Parameters<Common["updateParams"]>[0];
const mergedInto = new WeakMap<object, Set<ParamsTable>>();
const originalUpdateParams = Common.prototype.updateParams;
Common.prototype.updateParams = function (this: Common & { _paramsCache: object }, params: ParamsTable): void {
  const known = mergedInto.get(this._paramsCache);
  if (known?.has(params) === true) return;
  originalUpdateParams.call(this, params);
  mergedInto.set(this._paramsCache, new Set([...(known ?? []), params]));
};

export function hardforkNames(): string[] {
  return Mainnet.hardforks.map((h) => h.name);
}

export function createChainCommon(chainId: bigint, hardfork: string, customCrypto?: CustomCrypto): Common {
  const names = hardforkNames();
  const last = names.indexOf(hardfork);
  if (last < 0) throw new Error(`unknown hardfork "${hardfork}" (known: ${names.join(", ")})`);
  const hardforks = Mainnet.hardforks.slice(0, last + 1).map((h) => ({ name: h.name, block: 0, timestamp: undefined }));
  const common = createCustomCommon({ name: "hardhat-epochs", chainId: Number(chainId), hardforks }, Mainnet, { hardfork, customCrypto });
  // merged once here, so the copies made for every header and transaction already hold them (see above)
  common.updateParams(paramsBlock);
  common.updateParams(paramsTx);
  return common;
}
