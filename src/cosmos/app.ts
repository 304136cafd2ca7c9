/**
 * The wiring of the Cosmos modules, this project's `app.go`: the one place a keeper is built. Each
 * keeper gets its dependencies here, explicitly, as evmd's app constructor hands them out:
 * distribution gets staking; staking's delegation hooks are distribution's (the SDK's
 * `stakingKeeper.SetHooks(distrKeeper.Hooks(), …)`); ICS20 and x/erc20 get the bank. A module folder
 * names what it needs of the others as types of its own (its `expected-keepers.ts`, the SDK's
 * `types/expected_keepers.go`) and is handed a `Keepers` by whoever runs it: the precompiles, the
 * block modules, the queries and the dev methods (src/cosmos/index.ts, src/cosmos/precompiles.ts).
 *
 * A `Keepers` serves one module env (a precompile call, a block's work, a state at a height); each
 * keeper is built on first use, so a call builds only what it touches.
 */
import { Bank } from "./bank/keeper";
import type { ModuleEnv } from "./common/ledger";
import { DistributionKeeper } from "./distribution/keeper";
import { Erc20Keeper } from "./erc20/keeper";
import { GovKeeper } from "./gov/keeper";
import { Ics20Keeper } from "./ics20/keeper";
import { MintKeeper } from "./mint/keeper";
import { SlashingKeeper } from "./slashing/keeper";
import { StakingKeeper } from "./staking/keeper";

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
