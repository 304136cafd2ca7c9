/** The EthereumJS chain definition: every hardfork up to the chosen one active from block 0. */
import { paramsBlock } from "@ethereumjs/block";
import { Common, Mainnet, type CustomCrypto } from "@ethereumjs/common";
import { paramsEVM } from "@ethereumjs/evm";
import { paramsTx } from "@ethereumjs/tx";
import { paramsVM } from "@ethereumjs/vm";
import { nativeCrypto } from "../base/crypto";

/**
 * The chain config, with one fix of our own. EthereumJS copies the config for every block header and
 * transaction it creates and merges the same parameter tables into the copy again (JSON round
 * trips, then a full cache rebuild): in a running node that was over half the cost of producing a
 * one-transaction block (CPU profile of `npx hardhat node` under transfer load). A params cache,
 * once built, never changes; this subclass remembers which tables each cache already holds and skips
 * the merges that would rebuild it unchanged. Copies keep the subclass (`Common.copy` clones the
 * prototype), so every header and transaction of this chain gets the fix and no other user of
 * EthereumJS in the process is touched.
 */
type ParamsTable = Parameters<Common["updateParams"]>[0];

export class ChainCommon extends Common {
  override updateParams(params: ParamsTable): void {
    const cache = (this as unknown as { _paramsCache: object })._paramsCache;
    const known = mergedInto.get(cache);
    if (known?.has(params) === true) return;
    super.updateParams(params);
    // the merge rebuilt the cache: a new object, which holds what the old one held plus `params`
    const rebuilt = (this as unknown as { _paramsCache: object })._paramsCache;
    mergedInto.set(rebuilt, new Set([...(known ?? []), params]));
  }

  /**
   * The same answer as Common's, from a Set. Common scans its array of active EIPs (about a hundred
   * on Osaka) on every question, and the EVM asks on every step and for every opcode of a contract's
   * jump analysis at each call: ~4% of a profiled run of eth_calls. Common replaces the array
   * whenever the hardfork or EIPs change (never edits it in place), so a Set per array stays right.
   */
  override isActivatedEIP(eip: number): boolean {
    const list = (this as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache;
    if (this._activeEips?.list !== list) this._activeEips = { list, set: new Set(list) };
    return this._activeEips.set.has(eip);
  }

  private _activeEips?: { list: number[]; set: Set<number> };

  /** The chain id CHAINID answers instead of the chain's (a Solidity test's `vm.chainId`, src/chain/testing/cheats.ts); set only on a test's own copy. */
  chainIdOverride?: bigint;

  override chainId(): bigint {
    return this.chainIdOverride ?? super.chainId();
  }
}

const mergedInto = new WeakMap<object, Set<ParamsTable>>();

export function hardforkNames(): string[] {
  return Mainnet.hardforks.map((h) => h.name);
}

/** `eips`: EIPs active on top of the hardfork's (7951, the P-256 precompile, for `enableRip7212`). */
export function createChainCommon(chainId: bigint, hardfork: string, customCrypto?: CustomCrypto, eips: number[] = []): Common {
  const names = hardforkNames();
  const last = names.indexOf(hardfork);
  if (last < 0) throw new Error(`unknown hardfork "${hardfork}" (known: ${names.join(", ")})`);
  const hardforks = Mainnet.hardforks.slice(0, last + 1).map((h) => ({ name: h.name, block: 0, timestamp: undefined }));
  const common = new ChainCommon({ chain: { ...Mainnet, name: "hardhat-epochs", chainId: Number(chainId), hardforks }, hardfork, customCrypto, eips });
  // merged once here, so the copies made for every header and transaction already hold them (see above)
  common.updateParams(paramsBlock);
  common.updateParams(paramsTx);
  return common;
}

/**
 * The chain definitions already built in this process, by chain id, hardfork and EIPs: each with every
 * parameter table the chain's VMs merge (block, transaction, EVM, VM) merged once.
 */
const templates = new Map<string, Common>();

/**
 * A chain's Common with the chain's native crypto, as a copy of the process's template for its chain
 * id, hardfork and EIPs. Building one (hardfork tables, four parameter merges, each a JSON round trip)
 * costs about as much as the rest of a new in-memory chain's start: a test suite that builds a
 * chain per test (Hardhat 3's `network.create()`) paid it each time. A copy shares what never changes
 * once built (`Common.copy`, as every header and transaction of a chain already does) and gets its own
 * hardfork and event emitter, so chains never see each other's setHardfork.
 */
export function sharedChainCommon(chainId: bigint, hardfork: string, eips: number[] = []): Common {
  const key = `${chainId}|${hardfork}|${eips.join(",")}`;
  let template = templates.get(key);
  if (template === undefined) {
    template = createChainCommon(chainId, hardfork, nativeCrypto(), eips);
    // the tables the chain's EVM and VM merge when they are made: known here, those merges are skipped
    template.updateParams(paramsEVM);
    template.updateParams(paramsVM);
    templates.set(key, template);
  }
  return template.copy();
}
