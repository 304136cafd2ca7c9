/**
 * x/mint's begin block and distribution's allocation of its provision (two modules' begin blocks, so
 * the app's to compose, as evmd orders its begin blockers) played for a run of quiet blocks (src/chain/base/module.ts, `SteadyWork`): on a
 * chain that mints every block (cosmos/evm's local_node.sh genesis) nothing else happens in a block
 * without transactions or due module work, so hardhat_mine reserves such blocks
 * (src/chain/store/reserved-blocks.ts) and plays the provision and its allocation block by block as
 * values — the same rules as the block's work (`mintStep`, `splitAllocation`, `rewardValidator`) —
 * and writes the state once. Inside a run nothing the rules read changes but what they write: the
 * bonded tokens, the validator set, their commission and shares and the params stay as at the start.
 * The staking module's end block is quiet until an unbonding completes: the run stops before it.
 */
import type { StateManagerInterface } from "@ethereumjs/common";
import type { BlockEvents, SteadyPlayer, SteadyWork } from "../chain/base/module";
import { decodeRecord, encodeRecord } from "../chain/base/records";
import { MAX_INTEGER } from "@ethereumjs/util";
import { BANK_PRECOMPILE, BONDED_POOL, DISTRIBUTION_ACCOUNT } from "./common/accounts";
import { type ModuleEnv } from "./common/module-env";
import { stateEnv } from "./common/module-env";
import { type ValidatorRewards, rewardValidator, rewardedValidators, splitAllocation } from "./distribution/keeper";
import type { ValidatorCore } from "./staking/types";
import { type MintParams, type Minter, mintStep } from "./mint/keeper";
import { type MintBlockKeepers, mintEvent } from "./mint/module";

/** What the run reads at its start (a reserved range keeps it: the run's blocks are played from it). */
interface RunStart {
  params?: MintParams;
  minter: Minter;
  bonded: bigint;
  supply: bigint;
  /** Distribution's community tax; absent when the chain has no distribution params (a provision then fails, and its block is made). */
  communityTax?: bigint;
  validators: ValidatorCore[];
  rewards: ValidatorRewards[];
  communityPool: bigint;
  /** The first block time at which staking's end block has work (an unbonding completes; 0: a set update is pending): that block is made. */
  due: bigint;
}

/** The values of a run after some of its blocks. */
interface RunValues {
  minter: Minter;
  supply: bigint;
  rewards: ValidatorRewards[];
  communityPool: bigint;
  /** Coins minted so far (to the distribution module account, into the supply). */
  minted: bigint;
  communityChanged: boolean;
  mintedOnce: boolean;
}

class MintRunPlayer implements SteadyPlayer {
  constructor(
    private readonly _start: RunStart,
    private readonly _denom: string,
    private _v: RunValues,
    private readonly _keepers: (env: ModuleEnv) => MintBlockKeepers,
  ) {}

  async step(block: { timestamp: bigint }): Promise<BlockEvents | undefined> {
    const s = this._start;
    if (block.timestamp >= s.due) return undefined;
    return this._mint();
  }

  private _mint(): BlockEvents | undefined {
    const s = this._start;
    if (s.params === undefined) return { begin: [mintEvent({ provision: 0n, minter: this._v.minter, bondedRatio: 0n }, this._denom)], end: [] };
    const step = mintStep(this._v.minter, s.params, s.bonded, this._v.supply);
    if (step.provision > 0n) {
      // what makes the made block's work fail (no distribution params, a supply past 256 bits): that block is made, and says so
      if (s.communityTax === undefined || this._v.supply + step.provision > MAX_INTEGER) return undefined;
      const { community, rewards } = splitAllocation(step.provision, s.communityTax, s.validators);
      const v = this._v;
      this._v = {
        minter: step.minter,
        supply: v.supply + step.provision,
        rewards: v.rewards.map((r, i) => rewardValidator(r, s.validators[i], rewards[i])),
        communityPool: v.communityPool + community,
        minted: v.minted + step.provision,
        communityChanged: v.communityChanged || community !== 0n,
        mintedOnce: true,
      };
    } else {
      this._v = { ...this._v, minter: step.minter };
    }
    return { begin: [mintEvent(step, this._denom)], end: [] };
  }

  copy(): SteadyPlayer {
    return new MintRunPlayer(this._start, this._denom, this._v, this._keepers);
  }

  /** The writes the played blocks' work made, each record once with its last value. */
  async write(state: StateManagerInterface): Promise<void> {
    const s = this._start;
    if (s.params === undefined) return;
    const env = stateEnv(state, { number: 0n, timestamp: 0n }, this._denom);
    const k = this._keepers(env);
    await k.mint.setMinter(this._v.minter);
    if (!this._v.mintedOnce) return;
    await env.mint(DISTRIBUTION_ACCOUNT, this._v.minted);
    const distribution = k.distribution;
    for (const [i, v] of s.validators.entries()) await distribution.setValidatorRewards(v.operator, this._v.rewards[i]);
    if (this._v.communityChanged) await distribution.setCommunityPool(this._v.communityPool);
  }
}

async function readStart(env: ModuleEnv, keepers: (env: ModuleEnv) => MintBlockKeepers): Promise<RunStart> {
  const { mint, distribution, staking } = keepers(env);
  const params = await mint.params();
  const communityTax = (await distribution.params().catch(() => undefined))?.communityTax;
  const validators = rewardedValidators(await staking.bondedValidators());
  return {
    ...(params !== undefined ? { params } : {}),
    minter: await mint.minter(),
    bonded: await env.balance(BONDED_POOL),
    supply: (await env.records(BANK_PRECOMPILE).get<bigint>("supply")) ?? 0n,
    ...(communityTax !== undefined ? { communityTax } : {}),
    validators,
    rewards: await Promise.all(validators.map((v) => distribution.validatorRewards(v.operator))),
    communityPool: await distribution.communityPool(),
    due: (await staking.endBlockDue()) ?? 2n ** 62n,
  };
}

/** x/mint's every-block work as a module's steady work (its block module, src/cosmos/mint/module.ts, has it when the chain mints). */
export function mintSteadyWork(denom: string, keepers: (env: ModuleEnv) => MintBlockKeepers): SteadyWork {
  return {
    start: async (state) => encodeRecord(await readStart(stateEnv(state, { number: 0n, timestamp: 0n }, denom), keepers)),
    player: (bytes) => {
      const start = decodeRecord<RunStart>(bytes);
      return new MintRunPlayer(
        start,
        denom,
        { minter: start.minter, supply: start.supply, rewards: start.rewards, communityPool: start.communityPool, minted: 0n, communityChanged: false, mintedOnce: false },
        keepers,
      );
    },
  };
}
