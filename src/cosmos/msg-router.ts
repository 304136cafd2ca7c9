/**
 * The Msg router (baseapp's MsgServiceRouter): a message's type URL → the field naming its signer, its
 * proto JSON decoded into the Msg, and its module's Msg server. x/gov routes a passed proposal's
 * messages through it (src/cosmos/gov/messages.ts); a message it has no route for fails the proposal
 * with x/gov's words. The routes are the Msgs a single-process chain has keepers for:
 *   /cosmos.bank.v1beta1.MsgSend                     the gov account's coins (native or bank coins)
 *   /cosmos.distribution.v1beta1.MsgCommunityPoolSpend, MsgWithdrawDelegatorReward, MsgSetWithdrawAddress,
 *     MsgFundCommunityPool, MsgUpdateParams
 *   /cosmos.staking.v1beta1.MsgDelegate, MsgUndelegate, MsgBeginRedelegate, MsgUpdateParams
 *   /cosmos.gov.v1.MsgUpdateParams, /cosmos.mint.v1beta1.MsgUpdateParams
 */
import type { Bech32Prefixes } from "./common/address-codec";
import type { Bank } from "./bank/keeper";
import * as bank from "./bank/msg-server";
import { type ModuleEnv } from "./common/module-env";
import { ModuleError } from "./common/errors";
import { bech32Field, coinOf, coinsOf, decField, secondsField, uint32, uint64 } from "./common/proto-json";
import type { DistributionKeeper } from "./distribution/keeper";
import * as distribution from "./distribution/msg-server";
import type { MsgRouter as GovMsgRouter } from "./gov/expected-keepers";
import { govParamsFromJson } from "./gov/messages";
import type { GovKeeper } from "./gov/keeper";
import * as gov from "./gov/msg-server";
import type { MintKeeper } from "./mint/keeper";
import * as mint from "./mint/msg-server";
import type { StakingKeeper } from "./staking/keeper";
import * as staking from "./staking/msg-server";

/** The keepers the routed Msg servers run on (src/cosmos/app.ts `Keepers` has them). */
interface RouterKeepers {
  env: ModuleEnv;
  bank: Bank;
  staking: StakingKeeper;
  distribution: DistributionKeeper;
  mint: MintKeeper;
  gov: GovKeeper;
}

type Json = Record<string, unknown>;

interface Route {
  /** The field naming the signer (the Msg's `cosmos.msg.v1.signer` option). */
  signer: string;
  /** Decodes `body` and runs the Msg server. */
  run(k: RouterKeepers, body: Json, prefixes: Bech32Prefixes): Promise<unknown>;
}

const account = (v: unknown, p: Bech32Prefixes, field: string): string => bech32Field(v, p.account, field);
const validator = (v: unknown, p: Bech32Prefixes, field: string): string => bech32Field(v, p.validator, field);
const paramsOf = (body: Json): Json => (body.params ?? {}) as Json;

const ROUTES: Readonly<Record<string, Route>> = {
  "/cosmos.bank.v1beta1.MsgSend": {
    signer: "from_address",
    run: (k, b, p) => bank.send(k, { fromAddress: account(b.from_address, p, "from"), toAddress: account(b.to_address, p, "to"), amount: coinsOf(b.amount, "amount") }),
  },
  "/cosmos.distribution.v1beta1.MsgCommunityPoolSpend": {
    signer: "authority",
    run: (k, b, p) => distribution.communityPoolSpend(k, { recipient: account(b.recipient, p, "recipient"), amount: coinsOf(b.amount, "amount") }),
  },
  "/cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward": {
    signer: "delegator_address",
    run: (k, b, p) => distribution.withdrawDelegatorReward(k, { delegatorAddress: account(b.delegator_address, p, "delegator"), validatorAddress: validator(b.validator_address, p, "validator") }),
  },
  "/cosmos.distribution.v1beta1.MsgSetWithdrawAddress": {
    signer: "delegator_address",
    run: (k, b, p) => distribution.setWithdrawAddress(k, { delegatorAddress: account(b.delegator_address, p, "delegator"), withdrawAddress: account(b.withdraw_address, p, "withdraw") }),
  },
  "/cosmos.distribution.v1beta1.MsgFundCommunityPool": {
    signer: "depositor",
    run: (k, b, p) => distribution.fundCommunityPool(k, { depositor: account(b.depositor, p, "depositor"), amount: coinsOf(b.amount, "amount") }),
  },
  "/cosmos.distribution.v1beta1.MsgUpdateParams": {
    signer: "authority",
    run: async (k, b) => {
      const tax = (b.params as { community_tax?: unknown } | undefined)?.community_tax;
      return distribution.updateParams(k, { params: tax === undefined ? {} : { communityTax: decField(tax, "params.community_tax", 0n) } });
    },
  },
  "/cosmos.staking.v1beta1.MsgDelegate": {
    signer: "delegator_address",
    run: (k, b, p) =>
      staking.delegate(k, { delegatorAddress: account(b.delegator_address, p, "delegator"), validatorAddress: validator(b.validator_address, p, "validator"), amount: coinOf(b.amount) }),
  },
  "/cosmos.staking.v1beta1.MsgUndelegate": {
    signer: "delegator_address",
    run: (k, b, p) =>
      staking.undelegate(k, { delegatorAddress: account(b.delegator_address, p, "delegator"), validatorAddress: validator(b.validator_address, p, "validator"), amount: coinOf(b.amount) }),
  },
  "/cosmos.staking.v1beta1.MsgBeginRedelegate": {
    signer: "delegator_address",
    run: (k, b, p) =>
      staking.beginRedelegate(k, {
        delegatorAddress: account(b.delegator_address, p, "delegator"),
        validatorSrcAddress: validator(b.validator_src_address, p, "source validator"),
        validatorDstAddress: validator(b.validator_dst_address, p, "destination validator"),
        amount: coinOf(b.amount),
      }),
  },
  "/cosmos.staking.v1beta1.MsgUpdateParams": {
    signer: "authority",
    run: (k, b) => {
      const p = paramsOf(b);
      return staking.updateParams(k, {
        params: {
          ...(p.bond_denom !== undefined ? { bondDenom: String(p.bond_denom) } : {}),
          ...(p.unbonding_time !== undefined ? { unbondingTime: secondsField(p.unbonding_time, "params.unbonding_time", 0n) } : {}),
          ...(p.max_entries !== undefined ? { maxEntries: Number(uint32(p.max_entries, "params.max_entries")) } : {}),
          ...(p.max_validators !== undefined ? { maxValidators: Number(uint32(p.max_validators, "params.max_validators")) } : {}),
        },
      });
    },
  },
  "/cosmos.gov.v1.MsgUpdateParams": {
    signer: "authority",
    run: async (k, b, p) => gov.updateParams(k, { params: govParamsFromJson(paramsOf(b), k.env.denom, p, "params", await k.gov.params()) }),
  },
  [mint.MSG_UPDATE_PARAMS]: {
    signer: "authority",
    run: (k, b) => {
      const p = paramsOf(b);
      const dec = (v: unknown, field: string) => (v === undefined ? {} : { [field]: decField(v, `params.${snake(field)}`, 0n) });
      return mint.updateParams(k, {
        params: {
          ...dec(p.inflation_rate_change, "inflationRateChange"),
          ...dec(p.inflation_max, "inflationMax"),
          ...dec(p.inflation_min, "inflationMin"),
          ...dec(p.goal_bonded, "goalBonded"),
          ...(p.blocks_per_year !== undefined ? { blocksPerYear: uint64(p.blocks_per_year, "params.blocks_per_year") } : {}),
        },
      });
    },
  },
};

const snake = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Where a message this chain does not route names its signer: the first of these fields it has. */
const SIGNER_FIELDS = ["authority", "from_address", "sender", "signer", "delegator_address", "depositor", "proposer", "voter", "granter"];

export class MsgRouter implements GovMsgRouter {
  constructor(
    private readonly _prefixes: Bech32Prefixes,
    private readonly _keepers: (env: ModuleEnv) => RouterKeepers,
  ) {}

  /** The type URLs this router has a Msg server for. */
  static get typeUrls(): string[] {
    return Object.keys(ROUTES);
  }

  signerField(typeUrl: string, body: Record<string, unknown>): string | undefined {
    return ROUTES[typeUrl]?.signer ?? SIGNER_FIELDS.find((f) => typeof body[f] === "string");
  }

  async handle(env: ModuleEnv, typeUrl: string, body: Record<string, unknown>): Promise<void> {
    const route = ROUTES[typeUrl];
    // x/gov's ErrUnroutableProposalMsg: no Msg server on this chain takes the message
    if (route === undefined) throw new ModuleError(`${typeUrl}: proposal message not recognized by router`);
    await route.run(this._keepers(env), body, this._prefixes);
  }
}
