/**
 * What a test may set in the staking and distribution modules (no consensus, no misbehaviour: only
 * this): add a validator, jail or unjail one, slash one, change the rewards, allocate rewards now.
 * Each runs on the live state between blocks, all or nothing, as hardhat_setBalance does; the next
 * block carries it. The dev RPC methods (src/rpc/namespaces/cosmos.ts) and the Hardhat helpers
 * (`hre.epochs.cosmos`) call these.
 */
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { accountFromBech32 } from "./common/address-codec";
import type { IncomingTransfer, Packet } from "./ics20/keeper";
import { type IbcDenom, denomPath } from "./common/ibc-denom";
import type { DistributionParams } from "./distribution/keeper";
import { keepers } from "./app";
import { BONDED_POOL, NOT_BONDED_POOL } from "./common/accounts";
import { type ModuleEnv } from "./common/module-env";
import { ModuleError } from "./common/errors";
import { DEFAULT_COMMISSION, DEFAULT_SELF_BOND, consensusPubkey } from "./staking/module";
import { createValidator } from "./staking/msg-server";
import { BondStatus, DEC, type Validator } from "./staking/types";
import type { DenomMetadata } from "./bank/keeper";
import { validateDenom } from "./common/denom";
import type { TokenPair } from "./erc20/keeper";
import { registerVoucher } from "./erc20/module";
import type { ProposalRecord } from "./gov/keeper";
import type { Bech32Prefixes } from "./common/address-codec";
import { CosmosQueries } from "./query";

interface NewValidator {
  operator: string;
  /** Self-delegated tokens, minted into the bonded pool (as at genesis); default 1,000 coins. */
  tokens?: bigint;
  /** LegacyDec; default 0.1. */
  commissionRate?: bigint;
  moniker?: string;
}

/**
 * Adds a validator whose operator self-delegates `tokens`, minted for it (the operator's balance is
 * untouched); the set update runs at once, so it is bonded now if it ranks within max_validators.
 */
async function addValidator(env: ModuleEnv, v: NewValidator): Promise<Validator> {
  const k = keepers(env);
  const operator = getAddress(v.operator);
  const tokens = v.tokens ?? DEFAULT_SELF_BOND;
  if (tokens <= 0n) throw new ModuleError("a validator needs tokens");
  const moniker = v.moniker ?? `validator-${(await k.staking.validatorList()).length}`;
  // the self-delegation's coins minted to the operator first, so its balance ends where it was (a refusal undoes it: the change is all or nothing)
  await env.mint(operator, tokens);
  // MsgCreateValidator's checks and work (src/cosmos/staking/msg-server.ts), with the defaults a genesis validator has
  await createValidator(k, {
    description: { moniker, identity: "", website: "", securityContact: "", details: "" },
    commission: { rate: v.commissionRate ?? DEFAULT_COMMISSION, maxRate: DEC, maxChangeRate: DEC / 100n },
    minSelfDelegation: 1n,
    validatorAddress: operator,
    pubkey: consensusPubkey(operator),
    value: tokens,
  });
  await k.staking.applyValidatorSetUpdates();
  return (await k.staking.validator(operator)) as Validator;
}

/** Jails or unjails a validator at once (x/slashing's keeper: src/cosmos/slashing/keeper.ts). */
async function setJailed(env: ModuleEnv, operator: string, jailed: boolean): Promise<Validator> {
  return keepers(env).slashing.setJailed(operator, jailed);
}

/**
 * Slashes `fraction` (a LegacyDec) of a validator's bonded tokens: they are burned from its pool and
 * every delegation's shares are worth that much less. Entries already unbonding are not slashed here
 * (the chain slashes those started after the infraction: there is no infraction height to compare).
 */
async function slash(env: ModuleEnv, operator: string, fraction: bigint): Promise<{ burned: bigint; validator: Validator }> {
  if (fraction <= 0n || fraction > DEC) throw new ModuleError("slash fraction must be greater than 0 and at most 1");
  const { staking } = keepers(env);
  const v = await staking.requireValidator(operator);
  const burned = (v.tokens * fraction) / DEC;
  const pool = v.status === BondStatus.Bonded ? BONDED_POOL : NOT_BONDED_POOL;
  await env.burn(pool, burned);
  v.tokens -= burned;
  await staking.setValidator(v);
  return { burned, validator: v };
}

/** Changes the distribution params (what later epoch ends mint, which epoch, the community tax). */
async function setRewards(env: ModuleEnv, change: Partial<DistributionParams>): Promise<DistributionParams> {
  const { distribution } = keepers(env);
  const next = { ...(await distribution.params()), ...change };
  // validated by the keeper (x/distribution's Params.ValidateBasic, this chain's rewards not negative)
  await distribution.setParams(next);
  return next;
}

/** Mints `amount` and allocates it now, as an epoch end would. */
async function allocateRewards(env: ModuleEnv, amount: bigint): Promise<void> {
  if (amount <= 0n) throw new ModuleError("amount must be positive");
  await keepers(env).distribution.allocate(amount);
}

/**
 * Registers an IBC voucher — `ibc/<hash>`, or its path `transfer/channel-0/uatom` (its trace then
 * recorded when the chain has ICS20) — as a token pair at its address (as x/erc20 does when the
 * voucher first arrives), its bank metadata set when given; `putCode` puts code at the pair's
 * address. Other coins have no pair by denom on cosmos/evm: they are refused with its text.
 */
async function registerCoin(env: ModuleEnv, putCode: (address: string) => Promise<void>, denomOrPath: string, metadata: DenomMetadata | undefined, recordTraces: boolean): Promise<TokenPair> {
  const k = keepers(env);
  const pair = await registerVoucher(k.erc20, putCode, denomOrPath, recordTraces ? k.ics20 : undefined);
  if (metadata !== undefined) await k.bank.setMetadata(pair.denom, metadata);
  return pair;
}

/** Creates `amount` of `denom` in `to`'s bank balance (the native coin: its EVM balance), the supply with it. */
async function mintCoins(env: ModuleEnv, to: string, denom: string, amount: bigint): Promise<void> {
  validateDenom(denom);
  await keepers(env).bank.mint(to, denom, amount);
}

/** Sets a denom's bank metadata (what its pair's name, symbol and decimals answer). */
async function setDenomMetadata(env: ModuleEnv, denom: string, metadata: DenomMetadata): Promise<void> {
  validateDenom(denom);
  await keepers(env).bank.setMetadata(denom, metadata);
}

/**
 * An incoming ICS20 transfer from the counterparty (OnRecvPacket): the receiver (0x or this chain's
 * bech32) gets the voucher (minted; a new one is paired as an ERC-20 when x/erc20 is on, as its IBC
 * middleware does) or a coin of this chain coming home (unescrowed). A receiver that does not decode
 * fails as the chain's error acknowledgement does.
 */
async function receiveTransfer(
  env: ModuleEnv,
  t: IncomingTransfer,
  accountPrefix: string,
  pairs: { putCode: (address: string) => Promise<void> } | undefined,
): Promise<{ denom: string; trace: IbcDenom; pair?: TokenPair }> {
  let receiver: string;
  try {
    receiver = /^0x[0-9a-fA-F]{40}$/.test(t.receiver) ? getAddress(t.receiver) : getAddress(hexlify(accountFromBech32(t.receiver, accountPrefix)));
  } catch (err) {
    throw new ModuleError(`failed to decode receiver address ${t.receiver}: ${(err as Error).message}: invalid address`);
  }
  const k = keepers(env);
  const got = await k.ics20.receive(t, receiver);
  if (pairs === undefined || !got.denom.startsWith("ibc/")) return got;
  const keeper = k.erc20;
  const existing = await keeper.pairOfDenom(got.denom);
  if (existing !== undefined) return { ...got, pair: existing };
  return { ...got, pair: await registerVoucher(keeper, pairs.putCode, got.denom) };
}

/**
 * The changes above over one module environment (the live state between blocks: src/cosmos/index.ts
 * makes it), for the dev methods; `putCode` puts code at a new token pair's address.
 */
export class CosmosAdmin {
  constructor(
    readonly env: ModuleEnv,
    private readonly _prefixes: Bech32Prefixes,
    private readonly _opts: { putCode(address: string): Promise<void>; erc20: boolean; ics20: boolean },
  ) {}

  /** Queries over the same state, changes made so far included (to answer with what changed). */
  queries(): CosmosQueries {
    return new CosmosQueries(this.env, this._prefixes);
  }

  addValidator(v: NewValidator): Promise<Validator> {
    return addValidator(this.env, v);
  }

  setJailed(operator: string, jailed: boolean): Promise<Validator> {
    return setJailed(this.env, operator, jailed);
  }

  slash(operator: string, fraction: bigint): Promise<{ burned: bigint; validator: Validator }> {
    return slash(this.env, operator, fraction);
  }

  setRewards(change: Partial<DistributionParams>): Promise<DistributionParams> {
    return setRewards(this.env, change);
  }

  allocateRewards(amount: bigint): Promise<void> {
    return allocateRewards(this.env, amount);
  }

  mintCoins(to: string, denom: string, amount: bigint): Promise<void> {
    return mintCoins(this.env, to, denom, amount);
  }

  setDenomMetadata(denom: string, metadata: DenomMetadata): Promise<void> {
    return setDenomMetadata(this.env, denom, metadata);
  }

  /** Registers an IBC voucher's token pair (see `registerCoin`); its trace recorded when ICS20 runs. */
  registerCoin(denomOrPath: string, metadata: DenomMetadata | undefined): Promise<TokenPair> {
    return registerCoin(this.env, this._opts.putCode, denomOrPath, metadata, this._opts.ics20);
  }

  /** An incoming transfer (see `receiveTransfer`); a new voucher is paired when x/erc20 runs. */
  async receiveTransfer(t: IncomingTransfer): Promise<{ denom: string; path: string; pair?: TokenPair }> {
    const got = await receiveTransfer(this.env, t, this._prefixes.account, this._opts.erc20 ? { putCode: this._opts.putCode } : undefined);
    return { denom: got.denom, path: denomPath(got.trace), ...(got.pair !== undefined ? { pair: got.pair } : {}) };
  }

  /** Ends a pending packet: delivered ("ack"), refused ("error", with a text) or timed out; refunds as ibc-go does. */
  settlePacket(channel: string, sequence: bigint, fate: "ack" | "error" | "timeout", error?: string): Promise<Packet> {
    return keepers(this.env).ics20.settle(channel, sequence, fate, error);
  }

  /** Writes a governance proposal as the gov precompile answers for it. */
  setProposal(p: ProposalRecord): Promise<void> {
    return keepers(this.env).gov.setProposal(p);
  }
}
