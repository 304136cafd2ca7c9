/**
 * cosmos_*: the staking and distribution modules (docs/cosmos-precompiles.md). Reads at a block
 * (`read`), answered as the Cosmos SDK's gateway answers them; and what a test may set (`dev`): add,
 * jail or slash a validator, change or allocate rewards. The dev methods change the live state
 * between blocks, all or nothing, as hardhat_setBalance does.
 */
import { type CosmosAdmin, type CosmosModules, CosmosQueries, type DenomMetadata, type DistributionParams, type IncomingTransfer, type Json, ModuleError, parseFraction } from "../../cosmos";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import type { RpcDeps } from "../deps";
import { ServerError } from "../errors";
import { method } from "../method";
import { ParamError, address, arrayOf, blockNumberOrTag, bool, codec, objectOf, quantity, string } from "../params";
import { requireHeight } from "../resolve";

const fraction = codec((v): bigint => {
  const d = typeof v === "string" || typeof v === "number" ? parseFraction(v) : undefined;
  if (d === undefined) throw new ParamError(`expected a decimal from 0 to 1 such as "0.1", got ${JSON.stringify(v)}`);
  return d;
});

const newValidator = objectOf("the validator", (field) => {
  const operator = field("operator", address.parse);
  if (operator === undefined) throw new ParamError("the validator.operator: missing");
  return {
    operator: hexlify(operator),
    tokens: field("tokens", quantity.parse),
    commissionRate: field("commissionRate", fraction.parse),
    moniker: field("moniker", string.parse),
  };
});

const metadataOf = objectOf("the metadata", (field): DenomMetadata => {
  const name = field("name", string.parse);
  const symbol = field("symbol", string.parse);
  const decimals = field("decimals", (v) => (typeof v === "number" ? v : Number(quantity.parse(v))));
  if (name === undefined || symbol === undefined || decimals === undefined) throw new ParamError("the metadata: give name, symbol and decimals");
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new ParamError(`the metadata.decimals: ${decimals} is not a uint8`);
  return { name, symbol, decimals };
});

const rewardsChange = objectOf("the rewards", (field) => {
  const out: Partial<DistributionParams> = {};
  const perEpoch = field("rewardsPerEpoch", quantity.parse);
  const identifier = field("epochIdentifier", string.parse);
  const tax = field("communityTax", fraction.parse);
  if (perEpoch !== undefined) out.rewardsPerEpoch = perEpoch;
  if (identifier !== undefined) out.epochIdentifier = identifier;
  if (tax !== undefined) out.communityTax = tax;
  return out;
});

const STATUS_NAMES = ["PROPOSAL_STATUS_UNSPECIFIED", "PROPOSAL_STATUS_DEPOSIT_PERIOD", "PROPOSAL_STATUS_VOTING_PERIOD", "PROPOSAL_STATUS_PASSED", "PROPOSAL_STATUS_REJECTED", "PROPOSAL_STATUS_FAILED"];
const OPTION_NAMES = ["VOTE_OPTION_UNSPECIFIED", "VOTE_OPTION_YES", "VOTE_OPTION_ABSTAIN", "VOTE_OPTION_NO", "VOTE_OPTION_NO_WITH_VETO"];

/** An enum by its Cosmos name ("PROPOSAL_STATUS_PASSED") or number. */
const named = (names: string[], what: string) =>
  codec((v): number => {
    const i = typeof v === "number" ? v : names.indexOf(String(v));
    if (!Number.isInteger(i) || i < 0 || i >= names.length) throw new ParamError(`expected ${what}: ${names.join(", ")} or 0–${names.length - 1}`);
    return i;
  });
const seconds = codec((v): bigint => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return quantity.parse(v);
});
const texts = codec((v): string[] => arrayOf((x) => string.parse(x), "messages")(v));
const tally = objectOf("the tally", (field) => ({
  yes: field("yes", quantity.parse) ?? 0n,
  abstain: field("abstain", quantity.parse) ?? 0n,
  no: field("no", quantity.parse) ?? 0n,
  noWithVeto: field("noWithVeto", quantity.parse) ?? 0n,
}));
const voteOf = objectOf("the vote", (field) => {
  const voter = field("voter", address.parse);
  if (voter === undefined) throw new ParamError("the vote.voter: missing");
  const option = field("option", named(OPTION_NAMES, "a vote option").parse);
  const weighted = field(
    "options",
    arrayOf((o) => objectOf("the option", (f) => ({ option: f("option", named(OPTION_NAMES, "a vote option").parse) ?? 0, weight: f("weight", fraction.parse) ?? 10n ** 18n })).parse(o), "options"),
  );
  if (option === undefined && weighted === undefined) throw new ParamError("the vote: give option or options");
  return { voter: hexlify(voter), options: weighted ?? [{ option: option as number, weight: 10n ** 18n }], metadata: field("metadata", string.parse) ?? "" };
});
const depositOf = objectOf("the deposit", (field) => {
  const depositor = field("depositor", address.parse);
  const amount = field("amount", quantity.parse);
  if (depositor === undefined || amount === undefined) throw new ParamError("the deposit: give depositor and amount");
  return { depositor: hexlify(depositor), amount };
});
const proposalOf = objectOf("the proposal", (field) => {
  const id = field("id", seconds.parse);
  const proposer = field("proposer", address.parse);
  if (id === undefined || id === 0n) throw new ParamError("the proposal.id: give a positive id");
  if (proposer === undefined) throw new ParamError("the proposal.proposer: missing");
  const deposits =
    field(
      "deposits",
      arrayOf((d) => depositOf.parse(d), "deposits"),
    ) ?? [];
  return {
    id,
    messages: field("messages", texts.parse) ?? [],
    status: field("status", named(STATUS_NAMES, "a proposal status").parse) ?? 2,
    finalTallyResult: field("finalTallyResult", tally.parse) ?? { yes: 0n, abstain: 0n, no: 0n, noWithVeto: 0n },
    submitTime: field("submitTime", seconds.parse) ?? 0n,
    depositEndTime: field("depositEndTime", seconds.parse) ?? 0n,
    totalDeposit: field("totalDeposit", quantity.parse) ?? deposits.reduce((s, d) => s + d.amount, 0n),
    votingStartTime: field("votingStartTime", seconds.parse) ?? 0n,
    votingEndTime: field("votingEndTime", seconds.parse) ?? 0n,
    metadata: field("metadata", string.parse) ?? "",
    title: field("title", string.parse) ?? "",
    summary: field("summary", string.parse) ?? "",
    proposer: hexlify(proposer),
    votes:
      field(
        "votes",
        arrayOf((v) => voteOf.parse(v), "votes"),
      ) ?? [],
    deposits,
  };
});

export function cosmosMethods({ node }: RpcDeps, cosmos: CosmosModules) {
  /** Queries over the state after block `spec` (default latest). */
  const at = async (spec: Parameters<typeof requireHeight>[1]): Promise<CosmosQueries> => {
    const n = await requireHeight(node, spec);
    const block = await node.getBlock(n);
    if (block === undefined) throw new ServerError("header not found");
    return cosmos.queries(await node.stateAt(n), { number: n, timestamp: block.header.timestamp });
  };
  /** Runs a change on the live state between blocks; a module error leaves it untouched. */
  const change = async <T>(fn: (admin: CosmosAdmin) => Promise<T>): Promise<T> => {
    let out: T | undefined;
    const head = node.head.header;
    try {
      await node.modifyState(async (sm) => {
        out = await fn(cosmos.admin(sm, { number: head.number, timestamp: head.timestamp }));
      });
    } catch (err) {
      if (err instanceof ModuleError) throw new ServerError(err.message);
      throw err;
    }
    return out as T;
  };
  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ModuleError) throw new ServerError(err.message);
      throw err;
    }
  };
  const erc20Methods = cosmos.erc20 ? erc20DevMethods(cosmos, at, read, change) : [];
  const ibcMethods = cosmos.ics20 ? ics20DevMethods(cosmos, at, read, change) : [];
  const govMethods = cosmos.gov ? govReadMethods(at, read) : [];
  return [
    ...erc20Methods,
    ...ibcMethods,
    ...govMethods,
    method({
      name: "cosmos_balances",
      access: "read",
      params: [address, blockNumberOrTag.opt()],
      doc: "An account's bank coins at a block ({ denom, amount }[], sorted by denom), as /cosmos/bank/v1beta1/balances lists them.",
      handler: async ([account, block]): Promise<Json> => read(async () => (await at(block)).balances(hexlify(account))),
    }),
    method({
      name: "cosmos_denomMetadata",
      access: "read",
      params: [string, blockNumberOrTag.opt()],
      doc: "A denom's bank metadata at a block, as /cosmos/bank/v1beta1/denoms_metadata/{denom} answers it; null for a denom without metadata.",
      handler: async ([denom, block]): Promise<Json> => read(async () => (await (await at(block)).denomMetadata(denom)) ?? null),
    }),
    method({
      name: "cosmos_mintCoins",
      access: "dev",
      params: [address, string, quantity],
      doc: "Mints an amount of a denom (any coin: an IBC voucher, the native coin) to an account's bank balance.",
      handler: async ([to, denom, amount]) =>
        change(async (admin) => {
          await admin.mintCoins(hexlify(to), denom, amount);
          return true;
        }),
    }),
    method({
      name: "cosmos_setDenomMetadata",
      access: "dev",
      params: [string, metadataOf],
      doc: "Sets a denom's bank metadata { name, symbol, decimals }: what its token pair's ERC-20 name, symbol and decimals answer.",
      handler: async ([denom, m]) =>
        change(async (admin) => {
          await admin.setDenomMetadata(denom, m);
          return true;
        }),
    }),
    method({
      name: "cosmos_stakingState",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "The staking and distribution params, the community pool and every validator at a block.",
      handler: async ([block]): Promise<Json> => read(async () => (await at(block)).summary()),
    }),
    method({
      name: "cosmos_exportGenesis",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "The modules' parts of a Cosmos genesis.json at a block: `app_state.staking` (params, validators, delegations), `bank` (other coins' balances, metadata), `erc20` (token pairs), `transfer` (denom traces), `ibc` (transfer channels), `distribution` (community tax), `mint` (when the chain mints every block) and `gov` (params, next id, constitution).",
      handler: async ([block]): Promise<Json> => read(async () => cosmos.exportGenesis(await at(block))),
    }),
    method({
      name: "cosmos_validators",
      access: "read",
      params: [string.opt(), blockNumberOrTag.opt()],
      doc: "Validators with a status (BOND_STATUS_BONDED, …; all when absent) at a block, as /cosmos/staking/v1beta1/validators lists them.",
      handler: async ([status, block]): Promise<Json> =>
        read(async () => {
          const q = await at(block);
          return (await q.validators(status)).map((v) => q.validatorJson(v));
        }),
    }),
    method({
      name: "cosmos_delegations",
      access: "read",
      params: [address, blockNumberOrTag.opt()],
      doc: "A delegator's delegations and what they are worth, at a block.",
      handler: async ([delegator, block]): Promise<Json> => read(async () => (await at(block)).delegations(hexlify(delegator))),
    }),
    method({
      name: "cosmos_unbondings",
      access: "read",
      params: [address, blockNumberOrTag.opt()],
      doc: "A delegator's unbonding delegations at a block, by validator, as /cosmos/staking/v1beta1/delegators/{addr}/unbonding_delegations lists them.",
      handler: async ([delegator, block]): Promise<Json> => read(async () => (await at(block)).unbondings(hexlify(delegator))),
    }),
    method({
      name: "cosmos_rewards",
      access: "read",
      params: [address, blockNumberOrTag.opt()],
      doc: "A delegator's pending rewards per validator and in total, at a block.",
      handler: async ([delegator, block]): Promise<Json> => read(async () => (await at(block)).rewards(hexlify(delegator))),
    }),
    method({
      name: "cosmos_addValidator",
      access: "dev",
      params: [newValidator],
      doc: "Adds a bonded validator: { operator, tokens?, commissionRate?, moniker? }; its self-delegation is minted.",
      handler: async ([v]) => change(async (admin) => admin.queries().validatorJson(await admin.addValidator(v))),
    }),
    method({
      name: "cosmos_jailValidator",
      access: "dev",
      params: [address, bool.opt()],
      doc: "Jails a validator (true, the default) or unjails it (false).",
      handler: async ([operator, jailed]) => change(async (admin) => admin.queries().validatorJson(await admin.setJailed(hexlify(operator), jailed ?? true))),
    }),
    method({
      name: "cosmos_slashValidator",
      access: "dev",
      params: [address, fraction],
      doc: 'Burns a fraction ("0.05") of a validator\'s tokens; its delegations are worth that much less.',
      handler: async ([operator, f]) =>
        change(async (admin) => {
          const { burned, validator } = await admin.slash(hexlify(operator), f);
          return { burned: burned.toString(), validator: admin.queries().validatorJson(validator) };
        }),
    }),
    method({
      name: "cosmos_setRewards",
      access: "dev",
      params: [rewardsChange],
      doc: "Changes what epoch ends mint: { rewardsPerEpoch?, epochIdentifier?, communityTax? }.",
      handler: async ([c]) =>
        change(async (admin) => {
          const p = await admin.setRewards(c);
          return { rewardsPerEpoch: p.rewardsPerEpoch.toString(), epochIdentifier: p.epochIdentifier, communityTax: p.communityTax.toString() };
        }),
    }),
    method({
      name: "cosmos_setProposal",
      access: "dev",
      params: [proposalOf],
      doc: "Writes a governance proposal the gov precompile answers for: { id, proposer, title?, summary?, status?, messages?, finalTallyResult?, votes?, deposits?, times? }.",
      handler: async ([p]) =>
        change(async (admin) => {
          await admin.setProposal({
            ...p,
            proposer: getAddress(p.proposer),
            votes: p.votes.map((v) => ({ ...v, voter: getAddress(v.voter) })),
            deposits: p.deposits.map((d) => ({ ...d, depositor: getAddress(d.depositor) })),
          });
          return true;
        }),
    }),
    method({
      name: "cosmos_allocateRewards",
      access: "dev",
      params: [quantity],
      doc: "Mints an amount (wei) and allocates it to the validators now, as an epoch end would.",
      handler: async ([amount]) =>
        change(async (admin) => {
          await admin.allocateRewards(amount);
          return true;
        }),
    }),
  ];
}

type At = (spec: Parameters<typeof requireHeight>[1]) => Promise<CosmosQueries>;
type Read = <T>(fn: () => Promise<T>) => Promise<T>;
type Change = <T>(fn: (admin: CosmosAdmin) => Promise<T>) => Promise<T>;

/** x/gov's reads: the proposals and a proposal's tally, as its gateway answers them. */
function govReadMethods(at: At, read: Read) {
  return [
    method({
      name: "cosmos_proposals",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "Every proposal by id at a block, as /cosmos/gov/v1/proposals lists them.",
      handler: async ([block]): Promise<Json> => read(async () => (await at(block)).proposals()),
    }),
    method({
      name: "cosmos_tally",
      access: "read",
      params: [quantity, blockNumberOrTag.opt()],
      doc: "A proposal's tally at a block, as /cosmos/gov/v1/proposals/{id}/tally answers it (as it stands in the voting period); -32000 for an unknown id.",
      handler: async ([id, block]): Promise<Json> =>
        read(async () => {
          const tally = await (await at(block)).tally(id);
          if (tally === undefined) throw new ServerError(`proposal ${id} doesn't exist`);
          return tally;
        }),
    }),
  ];
}

/** x/erc20's methods: the token pairs at a block, and registering an IBC voucher's pair. */
function erc20DevMethods(cosmos: CosmosModules, at: At, read: Read, change: Change) {
  return [
    method({
      name: "cosmos_tokenPairs",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "x/erc20's token pairs at a block, as /cosmos/evm/erc20/v1/token_pairs lists them.",
      handler: async ([block]): Promise<Json> => read(async () => (await (await at(block)).tokenPairs()).map((p) => CosmosQueries.tokenPairJson(p))),
    }),
    method({
      name: "cosmos_registerCoin",
      access: "dev",
      params: [string, metadataOf.opt()],
      doc: "Registers an IBC voucher (ibc/<hash>, or its path transfer/channel-0/uatom: its trace recorded) as a token pair at its address, as x/erc20 does when it first arrives; optional metadata { name, symbol, decimals }.",
      handler: async ([denom, metadata]): Promise<Json> => {
        const pair = await change((admin) => admin.registerCoin(denom, metadata));
        cosmos.addPairs([pair]);
        return CosmosQueries.tokenPairJson(pair);
      },
    }),
  ];
}

const FATES = ["ack", "error", "timeout"] as const;
const fateOf = codec((v): (typeof FATES)[number] => {
  if (!FATES.includes(v as never)) throw new ParamError(`expected a packet's fate: ${FATES.join(", ")}`);
  return v as (typeof FATES)[number];
});
const incomingOf = objectOf("the transfer", (field): IncomingTransfer => {
  const channelId = field("channel", string.parse);
  const denom = field("denom", string.parse);
  const amount = field("amount", quantity.parse);
  const receiver = field("receiver", string.parse);
  if (channelId === undefined || denom === undefined || amount === undefined || receiver === undefined) throw new ParamError("the transfer: give channel, denom, amount and receiver");
  return { channelId, denom, amount, receiver, sender: field("sender", string.parse) ?? "counterparty", memo: field("memo", string.parse) ?? "" };
});

/** ICS20 against a simulated counterparty: the channels and packets, a packet's fate, incoming transfers. */
function ics20DevMethods(cosmos: CosmosModules, at: At, read: Read, change: Change) {
  return [
    method({
      name: "cosmos_ibcState",
      access: "read",
      params: [blockNumberOrTag.opt()],
      doc: "The transfer channels, every packet sent (with its state: pending, acknowledged, refunded) and the vouchers' denom traces, at a block.",
      handler: async ([block]): Promise<Json> => read(async () => (await at(block)).ibcState()),
    }),
    method({
      name: "cosmos_ibcSettle",
      access: "dev",
      params: [string, quantity, fateOf, string.opt()],
      doc: 'Ends a pending packet sent on a channel: "ack" (delivered), "error" (an error acknowledgement, optional text: refunded) or "timeout" (refunded).',
      handler: async ([channel, sequence, fate, error]): Promise<Json> => CosmosQueries.packetJson(await change((admin) => admin.settlePacket(channel, sequence, fate, error))),
    }),
    method({
      name: "cosmos_ibcReceive",
      access: "dev",
      params: [incomingOf],
      doc: "An incoming transfer from the counterparty: { channel, denom (its path there), amount, receiver (0x or bech32), sender?, memo? }; mints the voucher (paired as an ERC-20) or unescrows a coin coming home.",
      handler: async ([t]): Promise<Json> => {
        const got = await change((admin) => admin.receiveTransfer(t));
        if (got.pair !== undefined) cosmos.addPairs([got.pair]);
        return { denom: got.denom, path: got.path, ...(got.pair !== undefined ? { erc20_address: got.pair.erc20 } : {}) };
      },
    }),
  ];
}
