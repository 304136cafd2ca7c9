/**
 * The staking module as the chain runs it (docs/cosmos-precompiles.md):
 * - genesis: the validators (one bonded validator by default, operated by the first dev account, as
 *   a single-node chain has) with their self-delegations, minted into the bonded pool so the dev
 *   accounts keep their configured balances; the staking, distribution and mint params;
 * - the end block: the set update when a block's messages changed a validator (the bonded set
 *   of max_validators, src/cosmos/staking/validator-set.ts), then unbondings and redelegations whose
 *   completion time the block reaches are completed (the keeper, run on the block's state,
 *   isolated), each leaving a `complete_unbonding` event; blocks before the next completion are
 *   quiet, so hardhat_mine reserves them.
 * Its keepers come from the wiring file (src/cosmos/app.ts), which also adds x/mint's begin block
 * (src/cosmos/mint/module.ts) under this module's name. All of it is EVM state (src/chain/records.ts):
 * it reverts, persists, replays and traces like any state.
 */
import { getAddress } from "ethers/address";
import { getBytes } from "ethers/utils";
import { keccak256 } from "ethers/crypto";
import { type BlockContext, type BlockModule, type GenesisContext, runIsolated } from "../../chain/module";
import type { StateReader } from "../../chain/records";
import { DISTRIBUTION_PRECOMPILE, type DistributionParams } from "../distribution/keeper";
import { BANK_PRECOMPILE, ModuleError, type ModuleEnv, addSupply, byteOrder } from "../common/ledger";
import { INVALID_CODE, blockEnv, genesisEnv, readEnv } from "../common/module-env";
import type { StakingKeeper } from "./keeper";
import { DEC, DEFAULT_MAX_VALIDATORS, POWER_REDUCTION, STAKING_PRECOMPILE, type StakingParams, ensureDescriptionLength, newValidator } from "./types";
import { NATIVE_ERC20 } from "../bank/precompile";
import type { Erc20Settings } from "../erc20/module";
import type { Ics20Settings } from "../ics20/module";
import { SLASHING_PRECOMPILE } from "../slashing/keeper";
import { GOV_PRECOMPILE } from "../gov/keeper";
import type { GovGenesis } from "../gov/module";
import { MINT_MODULE_ACCOUNT, type MintKeeper, type MintParams, type Minter } from "../mint/keeper";
import type { DistributionKeeper } from "../distribution/keeper";

/** The keepers the staking module's genesis and end block run on (src/cosmos/app.ts `Keepers` has them). */
export interface StakingModuleKeepers {
  staking: StakingKeeper;
  distribution: DistributionKeeper;
  mint: MintKeeper;
}

export const STAKING_MODULE = "staking";

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

/** x/mint at each block's start (src/cosmos/mint/keeper.ts): a genesis's `app_state.mint`. */
export interface MintOptions {
  params: MintParams;
  minter: Minter;
}

export interface DistributionOptions {
  /** Coins minted at each end of `epochIdentifier`; default 10 coins (10^19). */
  rewardsPerEpoch?: bigint;
  /** Default "day" (Evmos's inflation epoch). */
  epochIdentifier?: string;
  /** LegacyDec; default 0.02 (x/distribution's default community_tax). */
  communityTax?: bigint;
  /** x/mint's provision every block, allocated as the epoch's rewards are (a genesis's `app_state.mint`); default none. */
  mint?: MintOptions;
}

export const DEFAULT_SELF_BOND = 1_000n * DEC;
export const DEFAULT_COMMISSION = DEC / 10n;
export const DEFAULT_UNBONDING_TIME = 1_814_400n;
export const DEFAULT_REWARDS_PER_EPOCH = 10n * DEC;
export const DEFAULT_COMMUNITY_TAX = (2n * DEC) / 100n;

/** A validator's consensus key when none is given (32 bytes, ed25519-sized, base64 as cosmos/evm formats it): keccak256 of its operator, stable across runs. */
export function consensusPubkey(operator: string): string {
  return Buffer.from(getBytes(keccak256(operator))).toString("base64");
}

export interface CosmosModulesSettings {
  staking: Required<Omit<StakingOptions, "validators">> & { validators: Array<Required<Omit<GenesisValidator, "commissionUpdateTime">> & Pick<GenesisValidator, "commissionUpdateTime">> };
  distribution: (Required<Omit<DistributionOptions, "mint">> & { mint?: MintOptions }) | false;
  /** The bank precompile (the supply is kept either way). */
  bank: boolean;
  /** The slashing precompile (jailing is kept either way). */
  slashing: boolean;
  /** x/gov and its precompile. */
  gov: boolean;
  /** What the genesis sets in x/gov (src/cosmos/gov/module.ts). */
  govGenesis?: GovGenesis;
  /** The native coin's ERC-20 pair, as the bank precompile names it. */
  nativeErc20: string;
  /** x/erc20's token pairs (src/cosmos/erc20/module.ts); false: none. */
  erc20: Erc20Settings | false;
  /** ICS20 transfers and their channels (src/cosmos/ics20/keeper.ts); false: none. */
  ics20: Ics20Settings | false;
  denom: string;
  /** The native coin held at genesis outside the modules (the dev accounts' balances). */
  genesisSupply: bigint;
}

/** The settings with their defaults; `accounts` are the chain's genesis accounts (the first operates the default validator). */
export function stakingSettings(
  staking: StakingOptions,
  distribution: DistributionOptions | false,
  precompiles: { bank: boolean; slashing: boolean; gov: boolean },
  denom: string,
  accounts: ReadonlyArray<{ address: string; balance: bigint }>,
  erc20: Erc20Settings | false = false,
  ics20: Ics20Settings | false = false,
): CosmosModulesSettings {
  const validators = staking.validators ?? [{ operator: accounts[0]?.address ?? "0x000000000000000000000000000000000000dEaD" }];
  return {
    denom,
    ...precompiles,
    nativeErc20: erc20 === false ? NATIVE_ERC20 : erc20.nativeErc20,
    erc20,
    ics20,
    genesisSupply: accounts.reduce((sum, a) => sum + a.balance, 0n),
    staking: {
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
    },
    distribution:
      distribution === false
        ? false
        : {
            rewardsPerEpoch: distribution.rewardsPerEpoch ?? DEFAULT_REWARDS_PER_EPOCH,
            epochIdentifier: distribution.epochIdentifier ?? "day",
            communityTax: distribution.communityTax ?? DEFAULT_COMMUNITY_TAX,
            ...(distribution.mint !== undefined ? { mint: distribution.mint } : {}),
          },
  };
}

/**
 * Writes the modules' genesis: params, validators, self-delegations, the supply. A fork of a chain
 * that has them (this plugin's node) keeps the remote's module state, as it keeps any state.
 */
async function initGenesis(ctx: GenesisContext, settings: CosmosModulesSettings, keepers: (env: ModuleEnv) => StakingModuleKeepers): Promise<void> {
  const env = genesisEnv(ctx, settings.denom);
  const k = keepers(env);
  if ((await env.records(STAKING_PRECOMPILE).get("params")) !== undefined) return;
  for (const a of [STAKING_PRECOMPILE, DISTRIBUTION_PRECOMPILE, BANK_PRECOMPILE, SLASHING_PRECOMPILE, GOV_PRECOMPILE]) await ctx.putCode(getBytes(a), INVALID_CODE);
  // the genesis balances (the dev accounts'); the self-bonds below add theirs
  await addSupply(env.records(BANK_PRECOMPILE), settings.genesisSupply);
  const { distribution, staking } = k;
  const params: StakingParams = { unbondingTime: settings.staking.unbondingTime, maxEntries: settings.staking.maxEntries, maxValidators: settings.staking.maxValidators };
  await staking.setParams(params);
  const { mint, ...distParams }: DistributionParams & { mint?: MintOptions } = settings.distribution === false ? { rewardsPerEpoch: 0n, epochIdentifier: "", communityTax: DEFAULT_COMMUNITY_TAX } : settings.distribution;
  await distribution.setParams(distParams);
  if (mint !== undefined) {
    await ctx.putCode(getBytes(MINT_MODULE_ACCOUNT), INVALID_CODE);
    await k.mint.init(mint.params, mint.minter);
  }
  // the genesis set: the strongest max_validators validators with power (InitGenesis's set update), bonded from the start
  const ranked = settings.staking.validators.filter((v) => !v.jailed && v.tokens >= POWER_REDUCTION);
  ranked.sort((a, b) => (a.tokens / POWER_REDUCTION === b.tokens / POWER_REDUCTION ? byteOrder(a.operator, b.operator) : a.tokens > b.tokens ? -1 : 1));
  const bonded = new Set(ranked.slice(0, settings.staking.maxValidators).map((v) => v.operator));
  for (const v of settings.staking.validators) {
    const description = { moniker: v.moniker, identity: v.identity, website: v.website, securityContact: v.securityContact, details: v.details };
    ensureDescriptionLength(description);
    await staking.setValidator(newValidator({ ...v, time: v.commissionUpdateTime ?? ctx.timestamp, description, bonded: bonded.has(v.operator) }));
    // the genesis self-delegation, what the listed delegations leave of its tokens: minted into the validator's pool (genesisEnv's send)
    const delegated = settings.staking.delegations.filter((d) => d.operator.toLowerCase() === v.operator.toLowerCase()).reduce((sum, d) => sum + d.amount, 0n);
    if (delegated > v.tokens) throw new Error(`genesis validator ${v.operator}: its delegations (${delegated}) exceed its tokens (${v.tokens})`);
    if (v.tokens - delegated > 0n) await staking.delegate(v.operator, v.operator, v.tokens - delegated);
  }
  for (const d of settings.staking.delegations) await staking.delegate(d.delegator, d.operator, d.amount);
  await staking.migrate();
}

/** The staking module's block seam: genesis, the end block that completes maturities, and when it is quiet. */
export function stakingBlockModule(settings: CosmosModulesSettings, keepers: (env: ModuleEnv) => StakingModuleKeepers): BlockModule {
  const reader = (state: StateReader) => keepers(readEnv(state)).staking;
  return {
    name: STAKING_MODULE,
    initGenesis: (ctx) => initGenesis(ctx, settings, keepers),
    endBlock: async (ctx: BlockContext) => {
      const due = await reader(ctx).endBlockDue();
      if (due === undefined || due > ctx.timestamp) return;
      // a dev chain goes on: a failure is the block's event, and the entries wait for the next block
      await runIsolated(
        ctx,
        async () => {
          // x/staking's BlockValidatorUpdates: the set update (and validators' unbondings), then the delegations' maturities
          const { staking } = keepers(blockEnv(ctx, settings.denom));
          await staking.applyValidatorSetUpdates();
          const paid = await staking.completeMatured();
          for (const p of paid) {
            ctx.emit({
              type: "complete_unbonding",
              attributes: [
                { key: "amount", value: `${p.amount}${settings.denom}` },
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
 * Reads every staking and distribution record (BlockModule.checkState): a loaded state whose records
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
    if (typeof v.operator !== "string" || typeof v.tokens !== "bigint" || typeof v.delegatorShares !== "bigint") throw new ModuleError(`the staking module's validator record ${JSON.stringify(v.operator)} is not a validator`);
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
