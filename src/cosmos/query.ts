/**
 * The staking and distribution modules' state as the Cosmos SDK's gRPC gateway answers it (JSON:
 * amounts as decimal strings, LegacyDecs with 18 decimals, addresses in bech32, times in RFC 3339),
 * for the REST routes (src/app/rest/cosmos.ts) and the `cosmos_*` RPC reads.
 */
import { getBytes } from "ethers/utils";
import { type Bech32Prefixes, toBech32 } from "./common/address-codec";
import { type Keepers, keepers } from "./app";
import type { ModuleEnv } from "./common/module-env";
import { decString } from "./common/decimal";
import { StakingKeeper } from "./staking/keeper";
import { DEFAULT_MAX_VALIDATORS, type Validator } from "./staking/types";
import { OWNER_MODULE, type TokenPair } from "./erc20/keeper";
import { STATUS_NAMES } from "./staking/precompile";
import { ProposalStatus } from "./gov/keeper";
import { type Packet, TRANSFER_PORT, escrowAddress } from "./ics20/keeper";
import { denomPath, ibcDenom } from "./common/ibc-denom";

const rfc3339 = (seconds: bigint): string => new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");

/** x/gov's ProposalStatus names, by their protobuf numbers. */
export const PROPOSAL_STATUS_NAMES = [
  "PROPOSAL_STATUS_UNSPECIFIED",
  "PROPOSAL_STATUS_DEPOSIT_PERIOD",
  "PROPOSAL_STATUS_VOTING_PERIOD",
  "PROPOSAL_STATUS_PASSED",
  "PROPOSAL_STATUS_REJECTED",
  "PROPOSAL_STATUS_FAILED",
] as const;

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** Queries over one state (live, or at a height). */
export class CosmosQueries {
  /** The keepers over this state, built once (each keeper on first use: src/cosmos/app.ts). */
  private readonly _keepers: Keepers;

  constructor(
    readonly env: ModuleEnv,
    private readonly _prefixes: Bech32Prefixes,
  ) {
    this._keepers = keepers(env);
  }

  valoper(operator: string): string {
    return toBech32(this._prefixes.validator, getBytes(operator));
  }

  account(address: string): string {
    return toBech32(this._prefixes.account, getBytes(address));
  }

  validatorJson(v: Validator): Json {
    return {
      operator_address: this.valoper(v.operator),
      consensus_pubkey: { "@type": "/cosmos.crypto.ed25519.PubKey", key: v.consensusPubkey },
      jailed: v.jailed,
      status: STATUS_NAMES[v.status],
      tokens: v.tokens.toString(),
      delegator_shares: decString(v.delegatorShares),
      description: {
        moniker: v.description.moniker,
        identity: v.description.identity,
        website: v.description.website,
        security_contact: v.description.securityContact,
        details: v.description.details,
      },
      unbonding_height: v.unbondingHeight.toString(),
      unbonding_time: rfc3339(v.unbondingTime),
      commission: {
        commission_rates: { rate: decString(v.commissionRate), max_rate: decString(v.maxRate), max_change_rate: decString(v.maxChangeRate) },
        update_time: rfc3339(v.commissionUpdateTime),
      },
      min_self_delegation: v.minSelfDelegation.toString(),
      unbonding_on_hold_ref_count: "0",
      unbonding_ids: [],
    };
  }

  /** Validators sorted as the SDK's store keeps them (by operator address bytes); `status` filters ("BOND_STATUS_BONDED", …). */
  async validators(status?: string): Promise<Validator[]> {
    const all = await this._keepers.staking.validators();
    return all.filter((v) => status === undefined || status === "" || STATUS_NAMES[v.status] === status);
  }

  /** The delegator's delegations with what they are worth. */
  async delegations(delegator: string): Promise<Json[]> {
    const { staking } = this._keepers;
    const out: Json[] = [];
    for (const op of await staking.delegatorValidators(delegator)) {
      const v = await staking.validator(op);
      const shares = await staking.delegationShares(delegator, op);
      if (v === undefined || shares === undefined) continue;
      out.push({
        delegation: { delegator_address: this.account(delegator), validator_address: this.valoper(op), shares: decString(shares) },
        balance: { denom: this.env.denom, amount: StakingKeeper.tokensFromShares(v, shares).toString() },
      });
    }
    return out;
  }

  /**
   * The delegator's unbonding delegations (x/staking's DelegatorUnbondingDelegations), by validator in
   * the store's order: each entry's creation height, completion time and balances.
   */
  async unbondings(delegator: string): Promise<Json[]> {
    const { staking } = this._keepers;
    const out: Json[] = [];
    for (const v of await staking.validators()) {
      const entries = await staking.unbondingEntries(delegator, v.operator);
      if (entries.length === 0) continue;
      out.push({
        delegator_address: this.account(delegator),
        validator_address: this.valoper(v.operator),
        entries: entries.map((e) => ({
          creation_height: e.creationHeight.toString(),
          completion_time: rfc3339(e.completionTime),
          initial_balance: e.initialBalance.toString(),
          balance: e.balance.toString(),
          unbonding_id: e.unbondingId.toString(),
          unbonding_on_hold_ref_count: "0",
        })),
      });
    }
    return out;
  }

  /** Every account with a delegation. */
  delegators(): Promise<string[]> {
    return this._keepers.staking.delegators();
  }

  /** The delegator's pending rewards per validator and in total (`DelegationTotalRewards`). */
  async rewards(delegator: string): Promise<{ rewards: Json[]; total: Json[] }> {
    const { staking, distribution } = this._keepers;
    const rows: Json[] = [];
    let total = 0n;
    for (const op of await staking.delegatorValidators(delegator)) {
      const dec = await distribution.delegationRewards(delegator, op);
      total += dec;
      rows.push({ validator_address: this.valoper(op), reward: dec === 0n ? [] : [{ denom: this.env.denom, amount: decString(dec) }] });
    }
    return { rewards: rows, total: total === 0n ? [] : [{ denom: this.env.denom, amount: decString(total) }] };
  }

  /** x/gov's Proposal as its gateway answers it (cosmos.gov.v1.Proposal, proto JSON); unknown ids: undefined. */
  async proposal(id: bigint): Promise<Json | undefined> {
    const p = await this._keepers.gov.proposal(id);
    if (p === undefined) return undefined;
    const time = (t: bigint): Json => (t === 0n ? null : rfc3339(t));
    return {
      id: p.id.toString(),
      // the messages as submitted; a proposal a test wrote has only their type URLs
      messages: (p.bodies ?? p.messages.map((typeUrl) => ({ "@type": typeUrl }))) as Json[],
      status: PROPOSAL_STATUS_NAMES[p.status],
      final_tally_result: {
        yes_count: p.finalTallyResult.yes.toString(),
        abstain_count: p.finalTallyResult.abstain.toString(),
        no_count: p.finalTallyResult.no.toString(),
        no_with_veto_count: p.finalTallyResult.noWithVeto.toString(),
      },
      submit_time: time(p.submitTime),
      deposit_end_time: time(p.depositEndTime),
      total_deposit: p.totalDeposit === 0n ? [] : [{ denom: this.env.denom, amount: p.totalDeposit.toString() }],
      voting_start_time: time(p.votingStartTime),
      voting_end_time: time(p.votingEndTime),
      metadata: p.metadata,
      title: p.title,
      summary: p.summary,
      proposer: this.account(p.proposer),
      expedited: p.expedited === true,
      failed_reason: p.failedReason ?? "",
    };
  }

  /**
   * x/gov's TallyResult query: a proposal in its voting period tallied as it stands, any other its
   * final tally; unknown ids undefined.
   */
  async tally(id: bigint): Promise<Json | undefined> {
    const gov = this._keepers.gov;
    const p = await gov.proposal(id);
    if (p === undefined) return undefined;
    const t = p.status === ProposalStatus.VotingPeriod ? (await gov.tally(p, this._keepers.staking)).result : p.finalTallyResult;
    return { yes_count: t.yes.toString(), abstain_count: t.abstain.toString(), no_count: t.no.toString(), no_with_veto_count: t.noWithVeto.toString() };
  }

  /** x/bank's metadata of a denom as its gateway answers it (cosmos.bank.v1beta1.Metadata); none: undefined. */
  async denomMetadata(denom: string): Promise<Json | undefined> {
    const m = await this._keepers.bank.metadata(denom);
    if (m === undefined) return undefined;
    const display = m.symbol.toLowerCase();
    const units: Json[] = [{ denom, exponent: 0, aliases: [] }];
    if (m.decimals > 0) units.push({ denom: display, exponent: m.decimals, aliases: [] });
    return { description: "", denom_units: units, base: denom, display: m.decimals > 0 ? display : denom, name: m.name, symbol: m.symbol, uri: "", uri_hash: "" };
  }

  /** Every proposal (by id), those of `status` only when given (a ProposalStatus number). */
  async proposals(status?: number): Promise<Json[]> {
    const gov = this._keepers.gov;
    const out: Json[] = [];
    for (const id of await gov.ids()) {
      const p = await gov.proposal(id);
      if (p === undefined || (status !== undefined && status !== 0 && p.status !== status)) continue;
      out.push((await this.proposal(id)) as Json);
    }
    return out;
  }

  /** The modules' params and pools (the `cosmos_stakingState` answer). */
  async summary(): Promise<Json> {
    const { staking, distribution } = this._keepers;
    const params = await staking.params();
    const dist = await distribution.params();
    return {
      bech32_prefixes: { account: this._prefixes.account, validator: this._prefixes.validator, consensus: this._prefixes.consensus },
      staking_params: { unbonding_time: `${params.unbondingTime}s`, max_entries: params.maxEntries, max_validators: params.maxValidators ?? DEFAULT_MAX_VALIDATORS, bond_denom: this.env.denom },
      distribution_params: { community_tax: decString(dist.communityTax), epoch_identifier: dist.epochIdentifier, rewards_per_epoch: dist.rewardsPerEpoch.toString() },
      community_pool: decString(await distribution.communityPool()),
      validators: (await this.validators()).map((v) => this.validatorJson(v)),
    };
  }

  /** The account's coins, as x/bank's AllBalances lists them (sorted by denom, amounts as strings). */
  async balances(address: string): Promise<Json[]> {
    return (await this._keepers.bank.balances(address)).map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
  }

  /** x/erc20's token pairs, in the order they were registered. */
  tokenPairs(): Promise<TokenPair[]> {
    return this._keepers.erc20.pairs();
  }

  /** A pair by its ERC-20 address or its denom. */
  async tokenPair(token: string): Promise<TokenPair | undefined> {
    const keeper = this._keepers.erc20;
    return /^0x[0-9a-fA-F]{40}$/.test(token) ? keeper.pair(token) : keeper.pairOfDenom(token);
  }

  static tokenPairJson(p: TokenPair): Json {
    return { erc20_address: p.erc20, denom: p.denom, enabled: p.enabled, contract_owner: p.owner === OWNER_MODULE ? "OWNER_MODULE" : "OWNER_EXTERNAL" };
  }

  /** The transfer channels, every packet sent (with its state) and the vouchers' denom traces, as `cosmos_ibcState` answers. */
  async ibcState(): Promise<Json> {
    const keeper = this._keepers.ics20;
    return {
      channels: (await keeper.channels()).map((c) => ({
        port_id: TRANSFER_PORT,
        channel_id: c.channelId,
        counterparty_channel_id: c.counterpartyChannelId,
        counterparty_chain_id: c.counterpartyChainId,
        state: c.open ? "STATE_OPEN" : "STATE_CLOSED",
        escrow_address: escrowAddress(TRANSFER_PORT, c.channelId),
      })),
      packets: (await keeper.packets()).map((p) => CosmosQueries.packetJson(p)),
      denoms: (await keeper.denoms()).map((d) => ({ base: d.base, trace: d.trace.map((h) => ({ port_id: h.portId, channel_id: h.channelId })), path: denomPath(d), denom: ibcDenom(d) })),
    };
  }

  /** A packet sent over ICS20, with its state and, once settled, its fate. */
  static packetJson(p: Packet): Json {
    return {
      sequence: p.sequence.toString(),
      source_port: TRANSFER_PORT,
      source_channel: p.sourceChannel,
      denom: p.denom,
      local_denom: p.localDenom,
      amount: p.amount.toString(),
      sender: p.sender,
      receiver: p.receiver,
      memo: p.memo,
      timeout_height: { revision_number: p.timeoutHeight.revisionNumber.toString(), revision_height: p.timeoutHeight.revisionHeight.toString() },
      timeout_timestamp: p.timeoutTimestamp.toString(),
      state: p.state,
      ...(p.fate !== undefined ? { fate: p.fate } : {}),
      ...(p.error !== undefined ? { error: p.error } : {}),
      burned: p.burned,
      height: p.height.toString(),
    };
  }
}
