/**
 * The staking module as the chain runs it (docs/cosmos-precompiles.md):
 * - genesis (ordered by the app, src/cosmos/app.ts): the params, the validators (one bonded validator
 *   by default, operated by the first dev account, as a single-node chain has) with their
 *   self-delegations, minted into the bonded pool so the dev accounts keep their configured balances;
 * - the end block: the set update when a block's messages changed a validator (the bonded set
 *   of max_validators, src/cosmos/staking/validator-set.ts), then unbondings and redelegations whose
 *   completion time the block reaches are completed (the keeper, run on the block's state,
 *   isolated), each leaving a `complete_unbonding` event; blocks before the next completion are
 *   quiet, so hardhat_mine reserves them.
 * Its keepers come from the wiring file (src/cosmos/app.ts), which also adds x/mint's begin block
 * (src/cosmos/mint/module.ts) under this module's name. All of it is EVM state (src/chain/base/records.ts):
 * it reverts, persists, replays and traces like any state.
 */
import { getAddress } from "ethers/address";
import { getBytes } from "ethers/utils";
import { keccak256 } from "ethers/crypto";
import { type BlockContext, type BlockModule, type GenesisContext, runIsolated } from "../../chain/base/module";
import type { StateReader } from "../../chain/base/records";
import { ModuleError } from "../common/errors";
import { type ModuleEnv } from "../common/module-env";
import { byteOrder } from "../common/records";
import { blockEnv, readEnv } from "../common/module-env";
import type { DistributionRecords, MintRecords } from "./expected-keepers";
import type { StakingKeeper } from "./keeper";
import { DEC, DEFAULT_MAX_VALIDATORS, POWER_REDUCTION, type StakingParams, ensureDescriptionLength, newValidator } from "./types";

/** The keepers the staking module's end block and record check run on (src/cosmos/app.ts `Keepers` has them). */
interface StakingModuleKeepers {
  staking: StakingKeeper;
  distribution: DistributionRecords;
  mint: MintRecords;
}

const STAKING_MODULE = "staking";

/** A validator at genesis (the Hardhat config's `epochs.precompiles.staking.validators`). */
export interface GenesisValidator {
  /** Operator address (its bytes are the `…valoper` address). */
  operator: string;
  /** Self-delegated tokens, minted into the bonded pool; default 1,000 coins. */
  tokens?: bigint;
  /** LegacyDec commission rate (10^18 = 100 %); default 0.1. */
  commissionRate?: bigint;
  /** LegacyDec ceiling of the rate; default 1 (100 %). */
  maxRate?: bigint;
  /** LegacyDec largest daily change of the rate; default 0.01. */
  maxChangeRate?: bigint;
  /** Default 1. */
  minSelfDelegation?: bigint;
  /** When the commission last changed (a genesis's `commission.update_time`, seconds); default the genesis time. */
  commissionUpdateTime?: bigint;
  moniker?: string;
  /** The description's other fields (a genesis.json's validator or gentx). */
  identity?: string;
  website?: string;
  securityContact?: string;
  details?: string;
  jailed?: boolean;
  /** Base64 ed25519 key; default derived from the operator (`consensusPubkey`). */
  consensusPubkey?: string;
}

/** A genesis delegation: coins of `delegator` staked with `operator`. */
export interface GenesisDelegation {
  delegator: string;
  operator: string;
  amount: bigint;
}

export interface StakingOptions {
  validators?: GenesisValidator[];
  /** Delegations at genesis besides the validators' own (a home's genesis.json): their coins are minted into the pool. */
  delegations?: GenesisDelegation[];
  /** Seconds an unbonding takes; default 1,814,400 (21 days, the Cosmos SDK's and evmd's default). */
  unbondingTime?: bigint;
  /** Default 7 (x/staking's max_entries). */
  maxEntries?: number;
  /** How many validators are bonded at once, the strongest by power; default 100 (x/staking's max_validators). */
  maxValidators?: number;
}

export const DEFAULT_SELF_BOND = 1_000n * DEC;
export const DEFAULT_COMMISSION = DEC / 10n;
const DEFAULT_UNBONDING_TIME = 1_814_400n;

/** A validator's consensus key when none is given (32 bytes, ed25519-sized, base64 as cosmos/evm formats it): keccak256 of its operator, stable across runs. */
export function consensusPubkey(operator: string): string {
  return Buffer.from(getBytes(keccak256(operator))).toString("base64");
}

/** The staking settings with their defaults (the Hardhat config's or a genesis's). */
export type StakingSettings = Required<Omit<StakingOptions, "validators">> & {
  validators: Array<Required<Omit<GenesisValidator, "commissionUpdateTime">> & Pick<GenesisValidator, "commissionUpdateTime">>;
};

/** `staking` with its defaults; `accounts` are the chain's genesis accounts (the first operates the default validator). */
export function stakingSettings(staking: StakingOptions, accounts: ReadonlyArray<{ address: string }>): StakingSettings {
  const validators = staking.validators ?? [{ operator: accounts[0]?.address ?? "0x000000000000000000000000000000000000dEaD" }];
  return {
    unbondingTime: staking.unbondingTime ?? DEFAULT_UNBONDING_TIME,
    maxEntries: staking.maxEntries ?? 7,
    maxValidators: staking.maxValidators ?? DEFAULT_MAX_VALIDATORS,
    delegations: staking.delegations ?? [],
    validators: validators.map((v, i) => ({
      operator: getAddress(v.operator),
      tokens: v.tokens ?? DEFAULT_SELF_BOND,
      commissionRate: v.commissionRate ?? DEFAULT_COMMISSION,
      maxRate: v.maxRate ?? DEC,
      maxChangeRate: v.maxChangeRate ?? DEC / 100n,
      minSelfDelegation: v.minSelfDelegation ?? 1n,
      moniker: v.moniker ?? `validator-${i}`,
      identity: v.identity ?? "",
      website: v.website ?? "",
      securityContact: v.securityContact ?? "",
      details: v.details ?? "",
      jailed: v.jailed ?? false,
      consensusPubkey: v.consensusPubkey ?? consensusPubkey(getAddress(v.operator)),
      ...(v.commissionUpdateTime !== undefined ? { commissionUpdateTime: v.commissionUpdateTime } : {}),
    })),
  };
}

/** x/staking's params as the settings give them. */
export function stakingParams(settings: StakingSettings): StakingParams {
  return { unbondingTime: settings.unbondingTime, maxEntries: settings.maxEntries, maxValidators: settings.maxValidators };
}

/**
 * Writes the genesis validators and their delegations (x/staking's InitGenesis, after its params):
 * the set is the strongest max_validators with power, bonded from the start; each validator's tokens
 * that no listed delegation accounts for are its operator's self-delegation, minted into the pool.
 */
export async function initGenesisValidators(ctx: GenesisContext, staking: StakingKeeper, settings: StakingSettings): Promise<void> {
  // the genesis set: the strongest max_validators validators with power (InitGenesis's set update), bonded from the start
  const ranked = settings.validators.filter((v) => !v.jailed && v.tokens >= POWER_REDUCTION);
  ranked.sort((a, b) => (a.tokens / POWER_REDUCTION === b.tokens / POWER_REDUCTION ? byteOrder(a.operator, b.operator) : a.tokens > b.tokens ? -1 : 1));
  const bonded = new Set(ranked.slice(0, settings.maxValidators).map((v) => v.operator));
  for (const v of settings.validators) {
    const description = { moniker: v.moniker, identity: v.identity, website: v.website, securityContact: v.securityContact, details: v.details };
    ensureDescriptionLength(description);
    await staking.setValidator(newValidator({ ...v, time: v.commissionUpdateTime ?? ctx.timestamp, description, bonded: bonded.has(v.operator) }));
    // the genesis self-delegation, what the listed delegations leave of its tokens: minted into the validator's pool (genesisEnv's send)
    const delegated = settings.delegations.filter((d) => d.operator.toLowerCase() === v.operator.toLowerCase()).reduce((sum, d) => sum + d.amount, 0n);
    if (delegated > v.tokens) throw new Error(`genesis validator ${v.operator}: its delegations (${delegated}) exceed its tokens (${v.tokens})`);
    if (v.tokens - delegated > 0n) await staking.delegate(v.operator, v.operator, v.tokens - delegated);
  }
  for (const d of settings.delegations) await staking.delegate(d.delegator, d.operator, d.amount);
  await staking.migrate();
}

/**
 * The staking module's block seam: the end block that completes maturities, when it is quiet, and
 * the check of its records. Its genesis is the app's to order (src/cosmos/app.ts).
 */
export function stakingBlockModule(denom: string, keepers: (env: ModuleEnv) => StakingModuleKeepers): Omit<BlockModule, "initGenesis"> {
  const reader = (state: StateReader) => keepers(readEnv(state)).staking;
  return {
    name: STAKING_MODULE,
    endBlock: async (ctx: BlockContext) => {
      const due = await reader(ctx).endBlockDue();
      if (due === undefined || due > ctx.timestamp) return;
      // a dev chain goes on: a failure is the block's event, and the entries wait for the next block
      await runIsolated(
        ctx,
        async () => {
          // x/staking's BlockValidatorUpdates: the set update (and validators' unbondings), then the delegations' maturities
          const { staking } = keepers(blockEnv(ctx, denom));
          await staking.applyValidatorSetUpdates();
          const paid = await staking.completeMatured();
          for (const p of paid) {
            ctx.emit({
              type: "complete_unbonding",
              attributes: [
                { key: "amount", value: `${p.amount}${denom}` },
                { key: "validator", value: p.validator },
                { key: "delegator", value: p.delegator },
              ],
            });
          }
        },
        (reason) => ctx.emit({ type: "staking_end_block_failed", attributes: [{ key: "reason", value: reason }] }),
      );
    },
    quietBefore: async (_store, state) => (await reader(state).endBlockDue()) ?? 2n ** 62n,
    checkState: (state) => checkRecords(keepers(readEnv(state))),
  };
}

/**
 * Reads every staking, distribution and mint record (BlockModule.checkState): a loaded state whose records
 * are not what the keepers write (not JSON, not of their shape) throws here instead of failing every
 * later end block and query.
 */
async function checkRecords(k: StakingModuleKeepers): Promise<void> {
  const { staking, distribution, mint } = k;
  const read = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      throw new ModuleError(`the staking module's ${what} cannot be read: ${(err as Error).message}`);
    }
  };
  await read("params", () => staking.params());
  await read("unbonding queue", () => staking.nextMaturity());
  for (const v of await read("validators", () => staking.validators())) {
    if (typeof v.operator !== "string" || typeof v.tokens !== "bigint" || typeof v.delegatorShares !== "bigint")
      throw new ModuleError(`the staking module's validator record ${JSON.stringify(v.operator)} is not a validator`);
    await read(`rewards of ${v.operator}`, () => distribution.validatorRewards(v.operator));
  }
  for (const d of await read("delegators", () => staking.delegators())) {
    for (const op of await read(`delegations of ${d}`, () => staking.delegatorValidators(d))) {
      const shares = await read(`delegation ${d} → ${op}`, () => staking.delegationShares(d, op));
      if (shares !== undefined && typeof shares !== "bigint") throw new ModuleError(`the staking module's delegation ${d} → ${op} has no shares`);
      await read(`unbondings ${d} → ${op}`, () => staking.unbondingEntries(d, op));
    }
    await read(`redelegations of ${d}`, () => staking.redelegationPairs(d));
  }
  await read("distribution params", () => distribution.params().catch((err: unknown) => (err instanceof ModuleError ? undefined : Promise.reject(err))));
  await read("community pool", () => distribution.communityPool());
  await read("mint params", async () => {
    const p = await mint.params();
    if (p !== undefined && Object.values(p).some((x) => typeof x !== "bigint")) throw new Error("not x/mint's params");
    const m = await mint.minter();
    if (typeof m.inflation !== "bigint" || typeof m.annualProvisions !== "bigint") throw new Error("not a minter");
  });
}
