/**
 * A proposal's messages (proto JSON, as `submitProposal`'s `jsonProposal` carries them): read at
 * submission, where each must be signed by the gov module account alone, and run when the proposal
 * passes. This chain runs the ones a single-process chain has keepers for:
 *   /cosmos.bank.v1beta1.MsgSend                     the gov account's coins (native or bank coins)
 *   /cosmos.distribution.v1beta1.MsgCommunityPoolSpend
 *   /cosmos.staking.v1beta1.MsgDelegate, MsgUndelegate, MsgBeginRedelegate      the gov account's stake
 *   /cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward, MsgSetWithdrawAddress, MsgFundCommunityPool
 *   /cosmos.gov.v1.MsgUpdateParams, /cosmos.staking.v1beta1.MsgUpdateParams,
 *   /cosmos.distribution.v1beta1.MsgUpdateParams, /cosmos.mint.v1beta1.MsgUpdateParams
 * Any other message is accepted at submission (the chain it stands for routes it) and fails the
 * proposal when it runs, with x/gov's words for a message no handler takes.
 */
import type { Bech32Prefixes } from "../bech32/precompile";
import { Bank } from "../bank/keeper";
import { decOf, hexOf, secondsOf } from "../common/genesis-values";
import { DistributionKeeper } from "../distribution/keeper";
import { GOV_MODULE_ACCOUNT, GovKeeper } from "./keeper";
import { DEFAULT_GOV_PARAMS, type GovParams, validateGovParams } from "./params";
import { type ModuleEnv, ModuleError } from "../common/ledger";
import { MintKeeper, type MintParams } from "../mint/keeper";
import { DEFAULT_MAX_VALIDATORS } from "../staking/types";

export interface ProposalMessage {
  typeUrl: string;
  body: Record<string, unknown>;
}

/** The field that names each message's signer (its `cosmos.msg.v1.signer` option); messages not listed name it in one of `SIGNER_FIELDS`. */
const SIGNER_OF: Readonly<Record<string, string>> = {
  "/cosmos.bank.v1beta1.MsgSend": "from_address",
  "/cosmos.distribution.v1beta1.MsgCommunityPoolSpend": "authority",
};
const SIGNER_FIELDS = ["authority", "from_address", "sender", "signer", "delegator_address", "depositor", "proposer", "voter", "granter"];

/** `jsonProposal` as cosmos/evm reads it (precompiles/gov/types.go NewMsgSubmitProposal). */
export function parseProposalJson(bytes: Uint8Array, prefixes: Bech32Prefixes): { messages: ProposalMessage[]; metadata: string; title: string; summary: string; expedited: boolean } {
  if (bytes.length === 0) throw new ModuleError("invalid proposal json jsonBlob arg ");
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (err) {
    throw new ModuleError(`invalid proposal JSON: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new ModuleError("invalid proposal JSON: expected an object");
  const d = doc as { messages?: unknown; metadata?: unknown; title?: unknown; summary?: unknown; expedited?: unknown };
  const text = (v: unknown, field: string): string => {
    if (v === undefined || v === null) return "";
    if (typeof v !== "string") throw new ModuleError(`invalid proposal JSON: ${field}: expected a string`);
    return v;
  };
  if (d.expedited !== undefined && typeof d.expedited !== "boolean") throw new ModuleError("invalid proposal JSON: expedited: expected a boolean");
  const list = d.messages ?? [];
  if (!Array.isArray(list)) throw new ModuleError("invalid proposal JSON: messages: expected an array");
  const messages = list.map((m, i) => {
    const body = m as Record<string, unknown> | null;
    const typeUrl = body?.["@type"];
    if (body === null || typeof body !== "object" || typeof typeUrl !== "string" || typeUrl === "") throw new ModuleError(`message ${i}: unable to resolve type URL ${JSON.stringify(typeUrl ?? "")}`);
    // SubmitProposal: the gov module account must be the message's only signer
    const field = SIGNER_OF[typeUrl] ?? SIGNER_FIELDS.find((f) => typeof body[f] === "string");
    const signer = field === undefined ? undefined : body[field];
    let signerHex: string | undefined;
    try {
      signerHex = typeof signer === "string" ? hexOf(signer, prefixes.account, "signer") : undefined;
    } catch {
      signerHex = undefined;
    }
    if (signerHex !== GOV_MODULE_ACCOUNT) throw new ModuleError(`${typeof signer === "string" ? signer : typeUrl}: expected gov account as only signer for proposal message`);
    return { typeUrl, body };
  });
  return { messages, metadata: text(d.metadata, "metadata"), title: text(d.title, "title"), summary: text(d.summary, "summary"), expedited: d.expedited === true };
}

type Coin = { denom: string; amount: bigint };

const coinsOf = (v: unknown, field: string): Coin[] => {
  if (!Array.isArray(v)) throw new ModuleError(`${field}: expected coins`);
  return v.map((c) => {
    const coin = c as { denom?: unknown; amount?: unknown };
    if (typeof coin?.denom !== "string" || typeof coin.amount !== "string" || !/^\d+$/.test(coin.amount)) throw new ModuleError(`${field}: invalid coins`);
    return { denom: coin.denom, amount: BigInt(coin.amount) };
  });
};

const addressOf = (v: unknown, prefixes: Bech32Prefixes, field: string): string => hexOf(String(v), prefixes.account, `invalid ${field} address`);
const valoperOf = (v: unknown, prefixes: Bech32Prefixes, field: string): string => hexOf(String(v), prefixes.validator, `invalid ${field} address`);

/** A staking message's single coin, in the bond denom (x/staking's "invalid coin denomination"). */
const bondCoin = (v: unknown, denom: string): bigint => {
  const c = v as { denom?: unknown; amount?: unknown } | null;
  if (typeof c?.denom !== "string" || typeof c.amount !== "string" || !/^\d+$/.test(c.amount)) throw new ModuleError("invalid delegation amount");
  if (c.denom !== denom) throw new ModuleError(`invalid coin denomination: got ${c.denom}, expected ${denom}`);
  return BigInt(c.amount);
};

/** A protobuf uint64 / uint32 as its JSON carries it (a string or a number); anything else fails as the SDK's unmarshalling does. */
const unsigned = (bits: number) => (v: unknown, field: string): bigint => {
  const n = (typeof v === "string" && /^\d+$/.test(v)) || (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) ? BigInt(v) : undefined;
  if (n === undefined || n >= 2n ** BigInt(bits)) throw new ModuleError(`${field}: invalid uint${bits} ${JSON.stringify(v)}`);
  return n;
};
const uint64 = unsigned(64);
const uint32 = unsigned(32);

const dec = (v: unknown, field: string, fallback: bigint): bigint => (v === undefined ? fallback : decOf(v, field, true));
const seconds = (v: unknown, field: string, fallback: bigint): bigint => (v === undefined ? fallback : secondsOf(v, field));

/** x/gov's Params from their JSON form (a genesis's `gov.params`, a MsgUpdateParams), checked as Params.ValidateBasic does. */
export function govParamsFromJson(p: Record<string, unknown>, denom: string, prefixes: Bech32Prefixes, at = "params", base: GovParams = DEFAULT_GOV_PARAMS): GovParams {
  const native = (v: unknown, field: string, fallback: bigint): bigint => {
    if (v === undefined) return fallback;
    const list = coinsOf(v, `${at}.${field}`);
    const other = list.find((c) => c.denom !== denom);
    if (other !== undefined) throw new ModuleError(`${at}.${field}: ${other.denom} is not this chain's coin ${denom}; deposits are in ${denom}`);
    return list.reduce((s, c) => s + c.amount, 0n);
  };
  const flag = (v: unknown, field: string, fallback: boolean): boolean => {
    if (v === undefined) return fallback;
    if (typeof v !== "boolean") throw new ModuleError(`${at}.${field}: expected true or false`);
    return v;
  };
  const out: GovParams = {
    minDeposit: native(p.min_deposit, "min_deposit", base.minDeposit),
    maxDepositPeriod: seconds(p.max_deposit_period, `${at}.max_deposit_period`, base.maxDepositPeriod),
    votingPeriod: seconds(p.voting_period, `${at}.voting_period`, base.votingPeriod),
    quorum: dec(p.quorum, `${at}.quorum`, base.quorum),
    threshold: dec(p.threshold, `${at}.threshold`, base.threshold),
    vetoThreshold: dec(p.veto_threshold, `${at}.veto_threshold`, base.vetoThreshold),
    minInitialDepositRatio: dec(p.min_initial_deposit_ratio, `${at}.min_initial_deposit_ratio`, base.minInitialDepositRatio),
    proposalCancelRatio: dec(p.proposal_cancel_ratio, `${at}.proposal_cancel_ratio`, base.proposalCancelRatio),
    proposalCancelDest: p.proposal_cancel_dest === undefined ? base.proposalCancelDest : p.proposal_cancel_dest === "" ? "" : addressOf(p.proposal_cancel_dest, prefixes, `${at}.proposal_cancel_dest`),
    expeditedVotingPeriod: seconds(p.expedited_voting_period, `${at}.expedited_voting_period`, base.expeditedVotingPeriod),
    expeditedThreshold: dec(p.expedited_threshold, `${at}.expedited_threshold`, base.expeditedThreshold),
    expeditedMinDeposit: native(p.expedited_min_deposit, "expedited_min_deposit", base.expeditedMinDeposit),
    burnVoteQuorum: flag(p.burn_vote_quorum, "burn_vote_quorum", base.burnVoteQuorum),
    burnProposalDepositPrevote: flag(p.burn_proposal_deposit_prevote, "burn_proposal_deposit_prevote", base.burnProposalDepositPrevote),
    burnVoteVeto: flag(p.burn_vote_veto, "burn_vote_veto", base.burnVoteVeto),
    minDepositRatio: dec(p.min_deposit_ratio, `${at}.min_deposit_ratio`, base.minDepositRatio),
  };
  // Params.ValidateBasic, the one every path runs (src/cosmos/gov/keeper.ts)
  validateGovParams(out, denom);
  return out;
}

/**
 * Runs one passed proposal's messages in order; the first that fails throws (x/gov then records the
 * proposal Failed with its error, and nothing the messages did is kept: the caller runs this in an
 * isolated call).
 */
export async function executeProposal(env: ModuleEnv, id: bigint, prefixes: Bech32Prefixes): Promise<void> {
  const p = await new GovKeeper(env).proposal(id);
  if (p === undefined) throw new ModuleError(`${id}: unknown proposal`);
  for (const body of p.bodies ?? []) {
    const typeUrl = String(body["@type"]);
    switch (typeUrl) {
      case "/cosmos.bank.v1beta1.MsgSend": {
        const to = addressOf(body.to_address, prefixes, "to");
        for (const c of coinsOf(body.amount, "amount")) {
          if (c.denom === env.denom) await env.send(GOV_MODULE_ACCOUNT, to, c.amount);
          else await new Bank(env).send(GOV_MODULE_ACCOUNT, to, c.denom, c.amount);
        }
        break;
      }
      case "/cosmos.distribution.v1beta1.MsgCommunityPoolSpend": {
        const to = addressOf(body.recipient, prefixes, "recipient");
        for (const c of coinsOf(body.amount, "amount")) {
          if (c.denom !== env.denom) throw new ModuleError("community pool does not have sufficient coins to distribute");
          await new DistributionKeeper(env).spendCommunityPool(to, c.amount);
        }
        break;
      }
      case "/cosmos.staking.v1beta1.MsgDelegate":
      case "/cosmos.staking.v1beta1.MsgUndelegate": {
        const staking = new DistributionKeeper(env).staking();
        const operator = valoperOf(body.validator_address, prefixes, "validator");
        const amount = bondCoin(body.amount, env.denom);
        if (typeUrl.endsWith("MsgDelegate")) await staking.delegate(GOV_MODULE_ACCOUNT, operator, amount);
        else await staking.undelegate(GOV_MODULE_ACCOUNT, operator, amount);
        break;
      }
      case "/cosmos.staking.v1beta1.MsgBeginRedelegate": {
        const staking = new DistributionKeeper(env).staking();
        await staking.redelegate(GOV_MODULE_ACCOUNT, valoperOf(body.validator_src_address, prefixes, "source validator"), valoperOf(body.validator_dst_address, prefixes, "destination validator"), bondCoin(body.amount, env.denom));
        break;
      }
      case "/cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward":
        await new DistributionKeeper(env).withdrawDelegationRewards(GOV_MODULE_ACCOUNT, valoperOf(body.validator_address, prefixes, "validator"));
        break;
      case "/cosmos.distribution.v1beta1.MsgSetWithdrawAddress":
        await new DistributionKeeper(env).setWithdrawAddress(GOV_MODULE_ACCOUNT, addressOf(body.withdraw_address, prefixes, "withdraw"));
        break;
      case "/cosmos.distribution.v1beta1.MsgFundCommunityPool": {
        for (const c of coinsOf(body.amount, "amount")) {
          if (c.denom !== env.denom) throw new ModuleError(`${c.amount}${c.denom}: invalid coins`);
          await new DistributionKeeper(env).fundCommunityPool(GOV_MODULE_ACCOUNT, c.amount);
        }
        break;
      }
      case "/cosmos.gov.v1.MsgUpdateParams": {
        const keeper = new GovKeeper(env);
        await keeper.setParams(govParamsFromJson((body.params ?? {}) as Record<string, unknown>, env.denom, prefixes, "params", await keeper.params()));
        break;
      }
      case "/cosmos.staking.v1beta1.MsgUpdateParams": {
        const params = (body.params ?? {}) as Record<string, unknown>;
        const staking = new DistributionKeeper(env).staking();
        const now = await staking.params();
        if (params.bond_denom !== undefined && params.bond_denom !== env.denom) throw new ModuleError(`bond denom ${String(params.bond_denom)} is not this chain's coin ${env.denom}`);
        // the keeper's setParams runs x/staking's Params.Validate: a zero unbonding time, max entries or max validators fails the proposal
        await staking.setParams({
          unbondingTime: seconds(params.unbonding_time, "params.unbonding_time", now.unbondingTime),
          maxEntries: params.max_entries === undefined ? now.maxEntries : Number(uint32(params.max_entries, "params.max_entries")),
          maxValidators: params.max_validators === undefined ? (now.maxValidators ?? DEFAULT_MAX_VALIDATORS) : Number(uint32(params.max_validators, "params.max_validators")),
        });
        break;
      }
      case "/cosmos.distribution.v1beta1.MsgUpdateParams": {
        const distribution = new DistributionKeeper(env);
        const now = await distribution.params();
        const tax = (body.params as { community_tax?: unknown } | undefined)?.community_tax;
        // validated by the keeper (x/distribution's validateCommunityTax)
        await distribution.setParams({ ...now, communityTax: dec(tax, "params.community_tax", now.communityTax) });
        break;
      }
      case "/cosmos.mint.v1beta1.MsgUpdateParams": {
        const mint = new MintKeeper(env);
        const now = await mint.params();
        if (now === undefined) throw new ModuleError(`${typeUrl}: proposal message not recognized by router`);
        const p = (body.params ?? {}) as Record<string, unknown>;
        const next: MintParams = {
          inflationRateChange: dec(p.inflation_rate_change, "params.inflation_rate_change", now.inflationRateChange),
          inflationMax: dec(p.inflation_max, "params.inflation_max", now.inflationMax),
          inflationMin: dec(p.inflation_min, "params.inflation_min", now.inflationMin),
          goalBonded: dec(p.goal_bonded, "params.goal_bonded", now.goalBonded),
          blocksPerYear: p.blocks_per_year === undefined ? now.blocksPerYear : uint64(p.blocks_per_year, "params.blocks_per_year"),
        };
        // validated by the keeper (x/mint's Params.Validate): a goal of 0 or a negative rate fails the proposal, the params unchanged
        await mint.init(next, await mint.minter());
        break;
      }
      default:
        // x/gov's ErrUnroutableProposalMsg: no handler on this chain takes the message
        throw new ModuleError(`${typeUrl}: proposal message not recognized by router`);
    }
  }
}
