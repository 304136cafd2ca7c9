/**
 * The wiring of the Cosmos modules, this project's `app.go`: the one place a keeper is built. Each
 * keeper gets its dependencies here, explicitly, as evmd's app constructor hands them out:
 * distribution gets staking; staking's delegation hooks are distribution's (the SDK's
 * `stakingKeeper.SetHooks(distrKeeper.Hooks(), …)`); slashing gets staking; ICS20 the bank. A module folder
 * names what it needs of the others as types of its own (its `expected-keepers.ts`, the SDK's
 * `types/expected_keepers.go`) and is handed a `Keepers` by whoever runs it: the precompiles, the
 * block modules, the queries and the dev methods (src/cosmos/index.ts, src/cosmos/precompiles.ts).
 *
 * A `Keepers` serves one module env (a precompile call, a block's work, a state at a height); each
 * keeper is built on first use, so a call builds only what it touches.
 */
import { getBytes } from "ethers/utils";
import type { BlockContext, BlockModule, GenesisContext } from "../chain/base/module";
import type { EpochHooks } from "../epochs/types";
import { type CosmosModulesSettings, DEFAULT_COMMUNITY_TAX } from "./app-settings";
import { Bank } from "./bank/keeper";
import type { Bech32Prefixes } from "./common/address-codec";
import { BANK_PRECOMPILE } from "./common/accounts";
import { addSupply } from "./common/coins";
import { INVALID_CODE, type ModuleEnv, genesisEnv } from "./common/module-env";
import { DISTRIBUTION_PRECOMPILE, DistributionKeeper } from "./distribution/keeper";
import { distributionEpochHooks } from "./distribution/module";
import { Erc20Keeper, type TokenPair } from "./erc20/keeper";
import { erc20BlockModule } from "./erc20/module";
import { GOV_PRECOMPILE, GovKeeper } from "./gov/keeper";
import { govBlockModule } from "./gov/module";
import { Ics20Keeper } from "./ics20/keeper";
import { ics20BlockModule } from "./ics20/module";
import { MINT_MODULE_ACCOUNT, MintKeeper } from "./mint/keeper";
import { mintBlockProvision } from "./mint/module";
import { mintSteadyWork } from "./played-mint";
import { MsgRouter } from "./msg-router";
import { SLASHING_PRECOMPILE, SlashingKeeper } from "./slashing/keeper";
import { StakingKeeper } from "./staking/keeper";
import { initGenesisValidators, stakingBlockModule, stakingParams } from "./staking/module";
import { STAKING_PRECOMPILE } from "./staking/types";

export class Keepers {
  private _bank?: Bank;
  private _staking?: StakingKeeper;
  private _distribution?: DistributionKeeper;
  private _slashing?: SlashingKeeper;
  private _mint?: MintKeeper;
  private _gov?: GovKeeper;
  private _erc20?: Erc20Keeper;
  private _ics20?: Ics20Keeper;

  constructor(readonly env: ModuleEnv) {}

  get bank(): Bank {
    return (this._bank ??= new Bank(this.env));
  }

  /** Staking, its delegation hooks distribution's: a delegation that changes withdraws its rewards first, then restarts their count. */
  get staking(): StakingKeeper {
    return (this._staking ??= new StakingKeeper(this.env, {
      beforeSharesModified: (delegator, operator) => this.distribution.beforeSharesModified(delegator, operator),
      afterSharesModified: (delegator, operator) => this.distribution.afterSharesModified(delegator, operator),
    }));
  }

  get distribution(): DistributionKeeper {
    return (this._distribution ??= new DistributionKeeper(this.env, this.staking));
  }

  get slashing(): SlashingKeeper {
    return (this._slashing ??= new SlashingKeeper(this.env, this.staking));
  }

  get mint(): MintKeeper {
    return (this._mint ??= new MintKeeper(this.env));
  }

  get gov(): GovKeeper {
    return (this._gov ??= new GovKeeper(this.env));
  }

  get erc20(): Erc20Keeper {
    return (this._erc20 ??= new Erc20Keeper(this.env));
  }

  get ics20(): Ics20Keeper {
    return (this._ics20 ??= new Ics20Keeper(this.env, this.bank));
  }
}

/** The keepers over `env`. */
export function keepers(env: ModuleEnv): Keepers {
  return new Keepers(env);
}

/**
 * The modules' genesis (InitGenesis in the app's order): code at the module accounts, the supply of
 * the genesis balances, staking's params, distribution's and x/mint's, then staking's validators and
 * delegations (their coins minted into the pools). A fork of a chain that has the modules (this
 * plugin's node) keeps the remote's module state, as it keeps any state.
 */
async function initGenesis(ctx: GenesisContext, settings: CosmosModulesSettings): Promise<void> {
  const env = genesisEnv(ctx, settings.denom);
  if ((await env.records(STAKING_PRECOMPILE).get("params")) !== undefined) return;
  const k = keepers(env);
  for (const a of [STAKING_PRECOMPILE, DISTRIBUTION_PRECOMPILE, BANK_PRECOMPILE, SLASHING_PRECOMPILE, GOV_PRECOMPILE]) await ctx.putCode(getBytes(a), INVALID_CODE);
  // the genesis balances (the dev accounts'); the self-bonds add theirs
  await addSupply(env.records(BANK_PRECOMPILE), settings.genesisSupply);
  await k.staking.setParams(stakingParams(settings.staking));
  // a chain without distribution keeps its records all the same: no rewards, the SDK's community tax
  const { mint, ...distribution } = settings.distribution === false ? { rewardsPerEpoch: 0n, epochIdentifier: "", communityTax: DEFAULT_COMMUNITY_TAX } : settings.distribution;
  await k.distribution.setParams(distribution);
  if (mint !== undefined) {
    await ctx.putCode(getBytes(MINT_MODULE_ACCOUNT), INVALID_CODE);
    await k.mint.init(mint.params, mint.minter);
  }
  await initGenesisValidators(ctx, k.staking, settings.staking);
}

/**
 * The chain's parts the modules add, in the app's order (evmd's SetOrderInitGenesis, SetOrderBeginBlockers,
 * SetOrderEndBlockers): block modules — staking's (the modules' genesis, `initGenesis` above; x/mint's begin block;
 * staking's end block), the transfer module's (genesis, timeouts), x/erc20's (genesis), x/gov's
 * (genesis, end block) — and the epochs hooks: distribution's minting, which the epochs module runs
 * before the contract hooks (src/app/runtime.ts adds them first), so a contract hook that claims at
 * an epoch end sees that epoch's rewards. `onPairs` is told the token pairs of each state the chain opens (their
 * precompiles join the EVM: src/cosmos/precompiles.ts `erc20PairPrecompile`).
 */
export function cosmosModules(settings: CosmosModulesSettings | undefined, prefixes: Bech32Prefixes, onPairs: (pairs: TokenPair[]) => void): { blockModules: BlockModule[]; epochHooks: EpochHooks[] } {
  if (settings === undefined) return { blockModules: [], epochHooks: [] };
  const { denom } = settings;
  const minting = settings.distribution !== false && settings.distribution.mint !== undefined;
  return {
    blockModules: [
      {
        ...stakingBlockModule(denom, keepers),
        initGenesis: (ctx: GenesisContext) => initGenesis(ctx, settings),
        // x/mint's begin block, under the staking module's name (a home's reserved ranges key its played work by it):
        // each block's provision; played for a run of otherwise quiet blocks (src/cosmos/played-mint.ts)
        ...(minting ? { beginBlock: (ctx: BlockContext) => mintBlockProvision(ctx, denom, keepers), steady: mintSteadyWork(denom, keepers) } : {}),
      },
      // ICS20's genesis first: x/erc20's records the traces of its genesis vouchers in ICS20's account
      ...(settings.ics20 === false ? [] : [ics20BlockModule(settings.ics20, denom, keepers)]),
      ...(settings.erc20 === false ? [] : [erc20BlockModule(settings.erc20, denom, onPairs, keepers)]),
      ...(settings.gov ? [govBlockModule(settings.govGenesis ?? {}, denom, keepers, new MsgRouter(prefixes, keepers))] : []),
    ],
    epochHooks: settings.distribution === false ? [] : [distributionEpochHooks(denom, keepers)],
  };
}
