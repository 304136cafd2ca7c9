/**
 * The Cosmos modules as the rest of the node sees them: one object, built once per runtime
 * (src/app/runtime.ts) from the settings, that gives the chain its block modules, epoch hooks and
 * precompiles (wired in src/cosmos/app.ts, the precompiles listed in src/cosmos/precompiles.ts), and gives the `cosmos_*` methods
 * (src/rpc/namespaces/cosmos.ts) and the REST routes (src/app/rest/cosmos.ts) what they answer
 * from: queries over a state (src/cosmos/query.ts) and the changes a test may make
 * (src/cosmos/admin.ts). rpc/ and app/ import src/cosmos/ through this file only, as they import
 * the epochs module through src/epochs/index.ts.
 */
import type { StateManagerInterface } from "@ethereumjs/common";
import type { CustomPrecompile, PrecompileFunc, PrecompileInput } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import type { Interface } from "ethers/abi";
import { hexlify } from "ethers/utils";
import { BANK_ABI } from "./bank/precompile";
import { BECH32_ABI, BECH32_PRECOMPILE } from "./bech32/precompile";
import { BANK_PRECOMPILE, BONDED_POOL, NOT_BONDED_POOL } from "./common/accounts";
import { type ExportedAccount, evmAccountsGenesisJson } from "./evm-genesis";
import { DISTRIBUTION_PRECOMPILE } from "./distribution/keeper";
import { DISTRIBUTION_ABI } from "./distribution/precompile";
import { GOV_PRECOMPILE } from "./gov/keeper";
import { GOV_ABI } from "./gov/precompile";
import { ICS20_PRECOMPILE } from "./ics20/keeper";
import { ICS20_ABI } from "./ics20/precompile";
import { SLASHING_ABI } from "./slashing/precompile";
import { SLASHING_PRECOMPILE } from "./slashing/keeper";
import { STAKING_ABI } from "./staking/precompile";
import { STAKING_PRECOMPILE } from "./staking/types";
import type { BlockModule } from "../chain/base/module";
import type { EpochHooks, EpochsProfile } from "../epochs/types";
import { PROFILES } from "../epochs/profile";
import { CosmosAdmin } from "./admin";
import { type Bech32Prefixes, accountFromBech32, bech32Prefixes, toBech32 } from "./common/address-codec";
import { INVALID_CODE } from "./common/module-env";
import type { ModulePrecompileDeps } from "./common/module-precompile";
import { stateEnv } from "./common/module-env";
import type { TokenPair } from "./erc20/keeper";
import { cosmosPrecompiles, erc20PairPrecompile } from "./precompiles";
import { type CosmosModulesSettings, type CosmosPrecompilesOptions, chainBech32Prefix, cosmosModuleSettings } from "./app-settings";
import { cosmosModules } from "./app";
import { CosmosQueries, type Json } from "./query";
import { coinsGenesisJson } from "./coins-genesis";
import { paramsGenesisJson, stakingGenesisJson } from "./params-genesis";

export { CosmosAdmin } from "./admin";
export { isDenom } from "./common/denom";
export type { DenomMetadata } from "./bank/keeper";
export { parseFraction } from "./common/decimal";
export { ModuleError } from "./common/errors";
export type { DistributionParams } from "./distribution/keeper";
export type { IncomingTransfer } from "./ics20/keeper";
export { CosmosQueries, type Json, PROPOSAL_STATUS_NAMES } from "./query";
export { paginate } from "./common/paging";
export type { CosmosPrecompilesOptions } from "./app-settings";
export type { ExportedAccount } from "./evm-genesis";

/** What the modules' precompiles ask of the execution they run in (the runtime answers from the EVM's message stack). */
type CosmosPrecompileDeps = Omit<ModulePrecompileDeps, "denom"> & { value(input: PrecompileInput): bigint };

/** Where x/erc20's token pairs' precompiles join the chain's EVM as pairs are registered: the chain's `PrecompileContext.addPrecompile`. */
interface PairPrecompiles {
  addPrecompile(address: string, make: () => PrecompileFunc): void;
}

/** The module precompiles by address, with cosmos/evm's Solidity interface names (precompiles/<module>/*.sol). */
const NAMED_PRECOMPILES: ReadonlyMap<string, { name: string; abi: Interface }> = new Map([
  [STAKING_PRECOMPILE, { name: "StakingI", abi: STAKING_ABI }],
  [DISTRIBUTION_PRECOMPILE, { name: "DistributionI", abi: DISTRIBUTION_ABI }],
  [ICS20_PRECOMPILE, { name: "ICS20I", abi: ICS20_ABI }],
  [BANK_PRECOMPILE, { name: "IBank", abi: BANK_ABI }],
  [GOV_PRECOMPILE, { name: "IGov", abi: GOV_ABI }],
  [SLASHING_PRECOMPILE, { name: "ISlashing", abi: SLASHING_ABI }],
  [BECH32_PRECOMPILE, { name: "Bech32I", abi: BECH32_ABI }],
]);

/**
 * What a call to a module precompile calls, named as cosmos/evm names it (`StakingI`, `delegate`): for the node's log.
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function precompileCall(to: string, data: Uint8Array): { contract: string; function?: string } | undefined {
  const p = NAMED_PRECOMPILES.get(to.toLowerCase());
  if (p === undefined) return undefined;
  const fn = data.length >= 4 ? p.abi.getFunction(hexlify(data.subarray(0, 4))) : null;
  return { contract: p.name, ...(fn !== null ? { function: fn.name } : {}) };
}

/** A block as the modules read it: its height and time. */
type BlockTime = { number: bigint; timestamp: bigint };

export class CosmosModules {
  /** The staking, distribution, bank, erc20, ics20 and gov settings; undefined when staking (and every module on it) is off. */
  readonly settings: CosmosModulesSettings | undefined;
  readonly prefixes: Bech32Prefixes;
  /** The native coin's denom: the profile's (`aevmos`, `atest`). */
  readonly denom: string;
  readonly blockModules: BlockModule[];
  readonly epochHooks: EpochHooks[];
  /** Where token pairs' precompiles go: the node's set, the same for every chain it opens (PrecompileContext.addPrecompile). */
  private _pairs: PairPrecompiles | undefined;

  constructor(
    private readonly _opts: CosmosPrecompilesOptions,
    private readonly _profile: EpochsProfile,
    accounts: ReadonlyArray<{ address: string; balance: bigint }>,
    private readonly _deps: CosmosPrecompileDeps,
  ) {
    this.settings = cosmosModuleSettings(_opts, _profile, accounts);
    this.prefixes = bech32Prefixes(chainBech32Prefix(_opts, _profile));
    this.denom = this.settings?.denom ?? PROFILES[_profile].denom;
    const parts = cosmosModules(this.settings, this.prefixes, (pairs) => this.addPairs(pairs));
    this.blockModules = parts.blockModules;
    this.epochHooks = parts.epochHooks;
  }

  /** The staking module and the modules on it run. */
  get staking(): boolean {
    return this.settings !== undefined;
  }

  /** x/gov runs: proposals, their precompile, their routes. */
  get gov(): boolean {
    return this.settings !== undefined && this.settings.gov;
  }

  /** x/erc20 runs: token pairs, their precompiles, their routes. */
  get erc20(): boolean {
    return this.settings !== undefined && this.settings.erc20 !== false;
  }

  /** ICS20 runs, against its simulated counterparty. */
  get ics20(): boolean {
    return this.settings !== undefined && this.settings.ics20 !== false;
  }

  /**
   * The chain's Cosmos precompiles at their fixed addresses, for the chain being opened; the token
   * pairs' precompiles join `pairs`, that chain's growing set, as pairs are registered.
   */
  precompiles(pairs: PairPrecompiles): CustomPrecompile[] {
    this._pairs = pairs;
    return cosmosPrecompiles(this._opts, this._profile, this.settings, this._deps);
  }

  /** Token pairs registered (at genesis, by a dev method, by an incoming transfer): their ERC-20 precompiles join the EVM. */
  addPairs(pairs: readonly TokenPair[]): void {
    const settings = this.settings;
    if (settings === undefined) return;
    const to = this._pairs;
    if (to === undefined) throw new Error("token pairs registered before the chain's precompiles were made");
    for (const p of pairs) to.addPrecompile(p.erc20, () => erc20PairPrecompile(settings, p, this._deps));
  }

  /** Queries over `sm`, the state after `block`, answered as the Cosmos SDK's gateway answers them. */
  queries(sm: StateManagerInterface, block: BlockTime): CosmosQueries {
    return new CosmosQueries(stateEnv(sm, block, this.denom), this.prefixes);
  }

  /** What a test may change in `sm`, the live state between blocks after `block` (the caller keeps it all or nothing). */
  admin(sm: StateManagerInterface, block: BlockTime): CosmosAdmin {
    return new CosmosAdmin(stateEnv(sm, block, this.denom), this.prefixes, {
      putCode: (address) => sm.putCode(createAddressFromString(address), INVALID_CODE),
      erc20: this.erc20,
      ics20: this.ics20,
    });
  }

  /**
   * The modules' parts of a Cosmos genesis.json in the state `q` reads: staking, bank, erc20,
   * transfer, ibc, distribution, mint and gov (what `cosmos_exportGenesis` answers).
   */
  async exportGenesis(q: CosmosQueries): Promise<Json> {
    const coins = await coinsGenesisJson(q.env, this.prefixes, { erc20: this.erc20, ics20: this.ics20 });
    const params = await paramsGenesisJson(q.env, this.prefixes);
    return { staking: (await stakingGenesisJson(q)) as Json, ...(coins as Record<string, Json>), ...(params as Record<string, Json>) };
  }

  /**
   * The app_state of a genesis.json for the state `q` reads and its EVM `accounts`: the modules'
   * sections (with the staking module) plus the accounts' native balances, nonces, code and storage
   * (src/cosmos/evm-genesis.ts). The modules' own accounts stay out: their precompiles (code 0xfe) and
   * the staking pools, whose coins the staking section's genesis mints again.
   */
  async appStateGenesis(q: CosmosQueries, accounts: readonly ExportedAccount[]): Promise<Record<string, Json>> {
    const minted = this.staking ? new Set([BONDED_POOL, NOT_BONDED_POOL].map((a) => a.toLowerCase())) : new Set<string>();
    const own = (a: ExportedAccount): boolean => minted.has(a.address.toLowerCase()) || (a.code.length === INVALID_CODE.length && a.code[0] === INVALID_CODE[0]);
    const evm = evmAccountsGenesisJson(
      accounts.filter((a) => !own(a)),
      this.prefixes,
      this.denom,
    );
    const sections = this.staking ? ((await this.exportGenesis(q)) as Record<string, Json>) : {};
    // one bank entry an address: the native coin beside the others, sorted by denom
    const bank = (sections.bank ?? {}) as { balances?: Array<{ address: string; coins: Array<{ denom: string; amount: string }> }> };
    const byAddress = new Map<string, Array<{ denom: string; amount: string }>>();
    for (const b of [...evm.balances, ...(bank.balances ?? [])]) byAddress.set(b.address, [...(byAddress.get(b.address) ?? []), ...b.coins]);
    const balances = [...byAddress].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, coins]) => ({ address, coins: coins.sort((x, y) => (x.denom < y.denom ? -1 : 1)) }));
    return { ...sections, bank: { ...bank, balances } as Json, auth: evm.auth as Json, evm: evm.evm as Json };
  }

  /** The bytes of one of this chain's bech32 account addresses (20, or 32 for a module account); throws the address codec's text. */
  accountBytes(bech32: string): Uint8Array {
    return accountFromBech32(bech32, this.prefixes.account);
  }

  /** The validator operator address (`…valoper1…`) of an account's 20 bytes, as the staking precompile takes it. */
  valoper(address: Uint8Array): string {
    return toBech32(this.prefixes.validator, address);
  }
}
