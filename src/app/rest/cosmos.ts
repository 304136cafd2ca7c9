/**
 * The Cosmos REST a dApp front end reads beside the EVM JSON-RPC, over the chain's own state
 * (docs/cosmos-precompiles.md, "REST"): the bank balances of an account (its native coin is its EVM
 * balance, 18 decimals, under the profile's denom) and, with the staking module, the validators, a
 * delegator's delegations and its rewards, at the head.
 */
import type { Node } from "../../chain";
import { type CosmosModules, CosmosQueries, type Json, PROPOSAL_STATUS_NAMES, isDenom, paginate } from "../../cosmos";
import type { RestResult, RestRouter } from "../../rpc/transport/rest-router";

/**
 * GET /cosmos/bank/v1beta1/balances/{address}, as the Cosmos SDK's gateway answers it
 * (x/bank/keeper/grpc_query.go `AllBalances`): the account's non-zero coins, a bad address
 * InvalidArgument (HTTP 400, gRPC code 3) with the address codec's text.
 */
export function mountBankRest(router: RestRouter, node: Node, cosmos: CosmosModules): void {
  router.get("/cosmos/bank/v1beta1/balances/{address}", async (_query, { address }) => {
    let bytes: Uint8Array;
    try {
      bytes = cosmos.accountBytes(address);
    } catch (err) {
      return { status: 400, body: { code: 3, message: `invalid address: ${(err as Error).message}`, details: [] } };
    }
    // an address of other than 20 bytes (a module account) holds nothing on this chain
    const balances = bytes.length === 20 ? await (await headQueries(node, cosmos)).balances(`0x${Buffer.from(bytes).toString("hex")}`) : [];
    return { status: 200, body: { balances, pagination: { next_key: null, total: String(balances.length) } } };
  });
  // x/bank/keeper/grpc_query.go `DenomMetadata`
  router.get("/cosmos/bank/v1beta1/denoms_metadata/{denom}", async (_query, { denom }) => {
    const metadata = await (await headQueries(node, cosmos)).denomMetadata(denom);
    if (metadata === undefined) return { status: 404, body: { code: 5, message: `client metadata for denom ${denom}`, details: [] } };
    return { status: 200, body: { metadata } };
  });
}

/** Queries over the head's state. */
async function headQueries(node: Node, cosmos: CosmosModules): Promise<CosmosQueries> {
  const head = node.head.header;
  return cosmos.queries(await node.stateAt(head.number), { number: head.number, timestamp: head.timestamp });
}

/**
 * GET /cosmos/evm/erc20/v1/token_pairs and /cosmos/evm/erc20/v1/token_pairs/{token} (an ERC-20
 * address or a denom), as cosmos/evm's gateway answers them (x/erc20/keeper/grpc_query.go).
 */
export function mountErc20Rest(router: RestRouter, node: Node, cosmos: CosmosModules): void {
  router.get("/cosmos/evm/erc20/v1/token_pairs", async () => {
    const pairs = await (await headQueries(node, cosmos)).tokenPairs();
    return { status: 200, body: { token_pairs: pairs.map((p) => CosmosQueries.tokenPairJson(p)), pagination: { next_key: null, total: String(pairs.length) } } };
  });
  const one = async (token: string): Promise<RestResult> => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(token) && !isDenom(token)) {
      return { status: 400, body: { code: 3, message: `invalid format for token ${token}, should be either hex ('0x...') cosmos denom`, details: [] } };
    }
    const pair = await (await headQueries(node, cosmos)).tokenPair(token);
    if (pair === undefined) return { status: 404, body: { code: 5, message: `token pair with token '${token}'`, details: [] } };
    return { status: 200, body: { token_pair: CosmosQueries.tokenPairJson(pair) } };
  };
  router.get("/cosmos/evm/erc20/v1/token_pairs/{token}", (_query, { token }) => one(token));
  // the gateway's `{token=**}` takes a denom's slashes unescaped: ibc/<hash>
  router.get("/cosmos/evm/erc20/v1/token_pairs/ibc/{hash}", (_query, { hash }) => one(`ibc/${hash}`));
}

/** The SDK's answer for an address its codec refuses (InvalidArgument). */
const badAddress = (err: unknown): RestResult => ({ status: 400, body: { code: 3, message: `invalid address: ${(err as Error).message}`, details: [] } });

/** The gateway's pagination query fields (`pagination.key` base64, offset, limit, count_total, reverse). */
function pageQuery(q: URLSearchParams): { key: string; offset: bigint; limit: bigint; countTotal: boolean; reverse: boolean } | RestResult {
  const uint = (name: string): bigint | undefined => {
    const v = q.get(`pagination.${name}`);
    if (v === null || v === "") return 0n;
    return /^\d+$/.test(v) ? BigInt(v) : undefined;
  };
  const offset = uint("offset");
  const limit = uint("limit");
  if (offset === undefined || limit === undefined) return { status: 400, body: { code: 3, message: "pagination offset and limit must be non-negative integers", details: [] } };
  const key = q.get("pagination.key");
  return {
    key: key === null || key === "" ? "0x" : `0x${Buffer.from(key, "base64").toString("hex")}`,
    offset,
    limit,
    countTotal: q.get("pagination.count_total") === "true",
    reverse: q.get("pagination.reverse") === "true",
  };
}

/**
 * GET /cosmos/staking/v1beta1/validators, /cosmos/staking/v1beta1/delegations/{delegator_addr} and
 * /cosmos/distribution/v1beta1/delegators/{delegator_address}/rewards over the head's state.
 */
export function mountStakingRest(router: RestRouter, node: Node, cosmos: CosmosModules): void {
  const queries = (): Promise<CosmosQueries> => headQueries(node, cosmos);
  const delegator = (text: string): string => `0x${Buffer.from(cosmos.accountBytes(text)).toString("hex")}`;
  router.get("/cosmos/staking/v1beta1/validators", async (query) => {
    const page = pageQuery(query);
    if ("status" in page) return page;
    const status = query.get("status") ?? "";
    const q = await queries();
    const all = await q.validators(status);
    const { items, nextKey, total } = paginate(all, page);
    return {
      status: 200,
      body: { validators: items.map((v) => q.validatorJson(v)), pagination: { next_key: nextKey === "0x" ? null : Buffer.from(nextKey.slice(2), "hex").toString("base64"), total: total.toString() } },
    };
  });
  /** A route of one delegator's: its address checked by the chain's codec first. */
  const forDelegator =
    (answer: (q: CosmosQueries, hex: string) => Promise<Record<string, unknown>>) =>
    async (text: string): Promise<RestResult> => {
      let hex: string;
      try {
        hex = delegator(text);
      } catch (err) {
        return badAddress(err);
      }
      return { status: 200, body: await answer(await queries(), hex) };
    };
  const delegations = forDelegator(async (q, hex) => {
    const responses = await q.delegations(hex);
    return { delegation_responses: responses, pagination: { next_key: null, total: String(responses.length) } };
  });
  const rewards = forDelegator((q, hex) => q.rewards(hex));
  const unbondings = forDelegator(async (q, hex) => {
    const responses = await q.unbondings(hex);
    return { unbonding_responses: responses, pagination: { next_key: null, total: String(responses.length) } };
  });
  router.get("/cosmos/staking/v1beta1/delegators/{delegator_addr}/unbonding_delegations", (_query, { delegator_addr }) => unbondings(delegator_addr));
  router.get("/cosmos/staking/v1beta1/delegations/{delegator_addr}", (_query, { delegator_addr }) => delegations(delegator_addr));
  router.get("/cosmos/distribution/v1beta1/delegators/{delegator_address}/rewards", (_query, { delegator_address }) => rewards(delegator_address));
}

/**
 * GET /cosmos/gov/v1/proposals/{proposal_id} and /cosmos/gov/v1/proposals (`proposal_status` by
 * name or number, paginated) over the head's state, as x/gov's gateway answers them
 * (x/gov/keeper/grpc_query.go): an unknown id NotFound (HTTP 404, gRPC code 5) in its words.
 */
export function mountGovRest(router: RestRouter, node: Node, cosmos: CosmosModules): void {
  /** A route of one proposal's: its id parsed as the gateway does, unknown ids NotFound. */
  const ofProposal =
    (field: string, answer: (q: CosmosQueries, id: bigint) => Promise<Json | undefined>) =>
    async (_query: URLSearchParams, { proposal_id }: Record<string, string>): Promise<RestResult> => {
      if (!/^\d+$/.test(proposal_id))
        return { status: 400, body: { code: 3, message: `type mismatch, parameter: proposal_id, error: strconv.ParseUint: parsing ${JSON.stringify(proposal_id)}: invalid syntax`, details: [] } };
      const id = BigInt(proposal_id);
      if (id === 0n) return { status: 400, body: { code: 3, message: "proposal id can not be 0", details: [] } };
      const value = await answer(await headQueries(node, cosmos), id);
      if (value === undefined) return { status: 404, body: { code: 5, message: `proposal ${id} doesn't exist`, details: [] } };
      return { status: 200, body: { [field]: value } };
    };
  router.get(
    "/cosmos/gov/v1/proposals/{proposal_id}",
    ofProposal("proposal", (q, id) => q.proposal(id)),
  );
  // x/gov/keeper/grpc_query.go `TallyResult`: as it stands in the voting period, the final one after
  router.get(
    "/cosmos/gov/v1/proposals/{proposal_id}/tally",
    ofProposal("tally", (q, id) => q.tally(id)),
  );
  router.get("/cosmos/gov/v1/proposals", async (query) => {
    const page = pageQuery(query);
    if ("status" in page) return page;
    const given = query.get("proposal_status") ?? "";
    const status = given === "" ? undefined : /^\d+$/.test(given) ? Number(given) : PROPOSAL_STATUS_NAMES.indexOf(given as (typeof PROPOSAL_STATUS_NAMES)[number]);
    if (status !== undefined && (status < 0 || status >= PROPOSAL_STATUS_NAMES.length))
      return { status: 400, body: { code: 3, message: `invalid proposal status ${JSON.stringify(given)}`, details: [] } };
    const { items, nextKey, total } = paginate(await (await headQueries(node, cosmos)).proposals(status), page);
    return { status: 200, body: { proposals: items, pagination: { next_key: nextKey === "0x" ? null : Buffer.from(nextKey.slice(2), "hex").toString("base64"), total: total.toString() } } };
  });
}
