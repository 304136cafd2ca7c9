/**
 * A proposal's messages (proto JSON, as `submitProposal`'s `jsonProposal` carries them): read at
 * submission, where each must be signed by the gov module account alone (the field naming its signer
 * is the Msg router's answer), and run through the Msg router (src/cosmos/msg-router.ts) when the
 * proposal passes. A message the router has no route for is accepted at submission (the chain it
 * stands for routes it) and fails the proposal when it runs, with x/gov's words.
 */
import type { Bech32Prefixes } from "../common/address-codec";
import { hexOf } from "../common/genesis-values";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { bech32Field, coinsOf, decField, secondsField } from "../common/proto-json";
import type { MsgRouter } from "./expected-keepers";
import { GOV_MODULE_ACCOUNT, type GovKeepers } from "./keeper";
import { DEFAULT_GOV_PARAMS, type GovParams, validateGovParams } from "./params";

interface ProposalMessage {
  typeUrl: string;
  body: Record<string, unknown>;
}

/** `jsonProposal` as cosmos/evm reads it (precompiles/gov/types.go NewMsgSubmitProposal). */
export function parseProposalJson(
  bytes: Uint8Array,
  prefixes: Bech32Prefixes,
  router: MsgRouter,
): { messages: ProposalMessage[]; metadata: string; title: string; summary: string; expedited: boolean } {
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
    const field = router.signerField(typeUrl, body);
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

const dec = decField;
const seconds = secondsField;
const addressOf = (v: unknown, prefixes: Bech32Prefixes, field: string): string => bech32Field(v, prefixes.account, field);

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
 * Runs one passed proposal's messages in order through the Msg router; the first that fails throws
 * (x/gov then records the proposal Failed with its error, and nothing the messages did is kept: the
 * caller runs this in an isolated call).
 */
export async function executeProposal(env: ModuleEnv, id: bigint, keepers: (env: ModuleEnv) => GovKeepers, router: MsgRouter): Promise<void> {
  const p = await keepers(env).gov.requireProposal(id);
  for (const body of p.bodies ?? []) await router.handle(env, String(body["@type"]), body);
}
