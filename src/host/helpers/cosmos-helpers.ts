/**
 * The Cosmos module helpers both Hardhat hosts hand to tests (`hre.epochs.cosmos`,
 * `connection.epochs.cosmos`): read the staking and distribution state, and set what a test needs
 * (validators, jailing, slashes, rewards). They talk JSON-RPC (the `cosmos_*` methods), so they work
 * in-process and against a running node. No Hardhat import.
 */
import { bech32 } from "bech32";
import { UserError } from "../../utils/user-error";

/**
 * An amount as the helpers take it: a bigint, a safe integer, or a decimal string (what the config,
 * `balances()` and the SDK's JSON give). Hardhat 2 runs tests transpile-only, so the type alone does
 * not stop a string: a decimal string once read as hex here ("1000000" minted 16,777,216).
 */
type AmountArg = bigint | number | string;

/** `value` as a JSON-RPC quantity; anything that is not a whole non-negative amount is refused, naming `name`. */
function quantityArg(name: string, value: unknown): string {
  let n: bigint | undefined;
  if (typeof value === "bigint") n = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && /^[0-9]+$/.test(value)) n = BigInt(value);
  if (n === undefined)
    throw new UserError(`${name}: expected a bigint, a safe integer or a decimal string, got ${typeof value === "string" ? JSON.stringify(value) : String(value)} (${typeof value})`);
  if (n < 0n) throw new UserError(`${name}: ${n} is negative`);
  return `0x${n.toString(16)}`;
}

/** A validator as the Cosmos SDK's gateway lists it (strings for amounts, LegacyDecs with 18 decimals). */
interface ValidatorJson {
  operator_address: string;
  jailed: boolean;
  status: string;
  tokens: string;
  delegator_shares: string;
  description: { moniker: string };
  commission: { commission_rates: { rate: string } };
  [more: string]: unknown;
}

interface CosmosStateJson {
  bech32_prefixes: { account: string; validator: string; consensus: string };
  staking_params: { unbonding_time: string; max_entries: number; max_validators: number; bond_denom: string };
  distribution_params: { community_tax: string; epoch_identifier: string; rewards_per_epoch: string };
  community_pool: string;
  validators: ValidatorJson[];
}

type Rpc = <T>(method: string, params?: unknown[]) => Promise<T>;

export class CosmosHelpers {
  private _prefixes?: CosmosStateJson["bech32_prefixes"];

  constructor(private readonly _rpc: Rpc) {}

  /** Params, pools and validators at a block (default latest). */
  state(block: string | number = "latest"): Promise<CosmosStateJson> {
    return this._rpc("cosmos_stakingState", [typeof block === "number" ? `0x${block.toString(16)}` : block]);
  }

  /**
   * The Cosmos modules' `app_state` sections at a block (`{ staking, bank, erc20, transfer, ibc }`), or
   * undefined when the chain runs without them (the method is then unknown): what epochs:export-genesis
   * writes beside the epochs.
   */
  async genesisSections(block: string = "latest"): Promise<Record<string, unknown> | undefined> {
    try {
      return await this._rpc<Record<string, unknown>>("cosmos_exportGenesis", [block]);
    } catch (err) {
      if ((err as { code?: unknown }).code === -32601) return undefined;
      throw err;
    }
  }

  /** Validators, by operator address bytes; `status` filters ("BOND_STATUS_BONDED", …). */
  validators(status?: string): Promise<ValidatorJson[]> {
    return this._rpc("cosmos_validators", status === undefined ? [] : [status]);
  }

  /** The validator operator address (`…valoper1…`) of an EVM address: what the precompiles take. */
  async valoper(address: string): Promise<string> {
    this._prefixes ??= (await this.state()).bech32_prefixes;
    return bech32.encode(this._prefixes.validator, bech32.toWords(Buffer.from(address.replace(/^0x/, ""), "hex")));
  }

  /** The account address (`…1…`) of an EVM address. */
  async account(address: string): Promise<string> {
    this._prefixes ??= (await this.state()).bech32_prefixes;
    return bech32.encode(this._prefixes.account, bech32.toWords(Buffer.from(address.replace(/^0x/, ""), "hex")));
  }

  delegations(delegator: string): Promise<Array<{ delegation: { validator_address: string; shares: string }; balance: { denom: string; amount: string } }>> {
    return this._rpc("cosmos_delegations", [delegator]);
  }

  rewards(delegator: string): Promise<{ rewards: Array<{ validator_address: string; reward: Array<{ denom: string; amount: string }> }>; total: Array<{ denom: string; amount: string }> }> {
    return this._rpc("cosmos_rewards", [delegator]);
  }

  /** Adds a bonded validator; its self-delegation (`tokens` wei, default 1,000 coins) is minted. `commissionRate` is a decimal ("0.1"). */
  async addValidator(v: { operator: string; tokens?: AmountArg; commissionRate?: string; moniker?: string }): Promise<ValidatorJson> {
    return this._rpc("cosmos_addValidator", [{ ...v, ...(v.tokens !== undefined ? { tokens: quantityArg("tokens", v.tokens) } : {}) }]);
  }

  jail(operator: string): Promise<ValidatorJson> {
    return this._rpc("cosmos_jailValidator", [operator, true]);
  }

  unjail(operator: string): Promise<ValidatorJson> {
    return this._rpc("cosmos_jailValidator", [operator, false]);
  }

  /** Burns `fraction` ("0.05") of the validator's tokens. */
  slash(operator: string, fraction: string): Promise<{ burned: string; validator: ValidatorJson }> {
    return this._rpc("cosmos_slashValidator", [operator, fraction]);
  }

  /** What later ends of the epoch mint (`rewardsPerEpoch` wei), which epoch, and the community tax (a decimal). */
  async setRewards(change: { rewardsPerEpoch?: AmountArg; epochIdentifier?: string; communityTax?: string }): Promise<{ rewardsPerEpoch: string; epochIdentifier: string; communityTax: string }> {
    return this._rpc("cosmos_setRewards", [{ ...change, ...(change.rewardsPerEpoch !== undefined ? { rewardsPerEpoch: quantityArg("rewardsPerEpoch", change.rewardsPerEpoch) } : {}) }]);
  }

  /**
   * Writes a governance proposal the gov precompile answers for (proposals do not run on this chain:
   * a test sets the state its contracts read). Amounts in wei, times in Unix seconds, `status` and
   * vote options by name ("PROPOSAL_STATUS_PASSED", "VOTE_OPTION_YES") or number.
   */
  async setProposal(p: {
    id: number;
    proposer: string;
    title?: string;
    summary?: string;
    metadata?: string;
    status?: string | number;
    messages?: string[];
    submitTime?: number;
    depositEndTime?: number;
    votingStartTime?: number;
    votingEndTime?: number;
    finalTallyResult?: { yes?: AmountArg; abstain?: AmountArg; no?: AmountArg; noWithVeto?: AmountArg };
    votes?: Array<{ voter: string; option?: string | number; options?: Array<{ option: string | number; weight: string }>; metadata?: string }>;
    deposits?: Array<{ depositor: string; amount: AmountArg }>;
  }): Promise<boolean> {
    const hex = (name: string, n: AmountArg | undefined) => (n === undefined ? undefined : quantityArg(name, n));
    const t = p.finalTallyResult;
    return this._rpc("cosmos_setProposal", [
      {
        ...p,
        ...(t !== undefined
          ? {
              finalTallyResult: {
                yes: hex("finalTallyResult.yes", t.yes),
                abstain: hex("finalTallyResult.abstain", t.abstain),
                no: hex("finalTallyResult.no", t.no),
                noWithVeto: hex("finalTallyResult.noWithVeto", t.noWithVeto),
              },
            }
          : {}),
        ...(p.deposits !== undefined ? { deposits: p.deposits.map((d, i) => ({ depositor: d.depositor, amount: hex(`deposits[${i}].amount`, d.amount) })) } : {}),
      },
    ]);
  }

  /** Mints `amount` wei and allocates it now, as an epoch end would. */
  async allocateRewards(amount: AmountArg): Promise<boolean> {
    return this._rpc("cosmos_allocateRewards", [quantityArg("amount", amount)]);
  }

  /** An account's bank coins ({ denom, amount }, amounts as decimal strings, sorted by denom). */
  balances(address: string, block: string = "latest"): Promise<Array<{ denom: string; amount: string }>> {
    return this._rpc("cosmos_balances", [address, block]);
  }

  /** An account's balance of one denom, in its base unit. */
  async balance(address: string, denom: string): Promise<bigint> {
    return BigInt((await this.balances(address)).find((c) => c.denom === denom)?.amount ?? "0");
  }

  /** Mints `amount` of `denom` (an IBC voucher, any coin) to `to`'s bank balance. */
  async mintCoins(to: string, denom: string, amount: AmountArg): Promise<boolean> {
    return this._rpc("cosmos_mintCoins", [to, denom, quantityArg("amount", amount)]);
  }

  /** Sets a denom's bank metadata: what its ERC-20's name, symbol and decimals answer. */
  setDenomMetadata(denom: string, metadata: { name: string; symbol: string; decimals: number }): Promise<boolean> {
    return this._rpc("cosmos_setDenomMetadata", [denom, metadata]);
  }

  /** Registers an IBC voucher (`ibc/<hash>`, or its path `transfer/channel-0/uatom`) as a token pair; its ERC-20 precompile answers at `erc20_address`. */
  registerCoin(denom: string, metadata?: { name: string; symbol: string; decimals: number }): Promise<TokenPairJson> {
    return this._rpc("cosmos_registerCoin", metadata === undefined ? [denom] : [denom, metadata]);
  }

  /** x/erc20's token pairs (the native coin's WERC20 first). */
  tokenPairs(block: string = "latest"): Promise<TokenPairJson[]> {
    return this._rpc("cosmos_tokenPairs", [block]);
  }

  /** The ICS20 channels, every packet sent (pending, acknowledged, refunded) and the vouchers' traces. */
  ibcState(block: string = "latest"): Promise<IbcStateJson> {
    return this._rpc("cosmos_ibcState", [block]);
  }

  /** The packets sent on a channel (default all), oldest first. */
  async packets(channel?: string): Promise<IbcPacketJson[]> {
    return (await this.ibcState()).packets.filter((p) => channel === undefined || p.source_channel === channel);
  }

  /** The counterparty acknowledges a packet: its coins stay on the other side. */
  async acknowledge(channel: string, sequence: AmountArg): Promise<IbcPacketJson> {
    return this._rpc("cosmos_ibcSettle", [channel, quantityArg("sequence", sequence), "ack"]);
  }

  /** The counterparty answers with an error acknowledgement: the sender is refunded. */
  async errorAcknowledge(channel: string, sequence: AmountArg, error?: string): Promise<IbcPacketJson> {
    return this._rpc("cosmos_ibcSettle", [channel, quantityArg("sequence", sequence), "error", ...(error !== undefined ? [error] : [])]);
  }

  /** The packet times out: the sender is refunded. */
  async timeout(channel: string, sequence: AmountArg): Promise<IbcPacketJson> {
    return this._rpc("cosmos_ibcSettle", [channel, quantityArg("sequence", sequence), "timeout"]);
  }

  /**
   * A transfer from the counterparty arrives on `channel`: `denom` is the token's path there (`uatom`;
   * `transfer/channel-7/atest` for a coin of this chain coming home). Returns the local denom and,
   * for a voucher, its ERC-20 address.
   */
  async receiveTransfer(t: { channel: string; denom: string; amount: AmountArg; receiver: string; sender?: string; memo?: string }): Promise<{ denom: string; path: string; erc20_address?: string }> {
    return this._rpc("cosmos_ibcReceive", [{ ...t, amount: quantityArg("amount", t.amount) }]);
  }

  /** The ERC-20 address of a denom's token pair, or undefined when it has none. */
  async erc20Address(denom: string): Promise<string | undefined> {
    return (await this.tokenPairs()).find((p) => p.denom === denom)?.erc20_address;
  }
}

/** A token pair as cosmos/evm's gateway lists it. */
interface TokenPairJson {
  erc20_address: string;
  denom: string;
  enabled: boolean;
  contract_owner: string;
}

/** A sent ICS20 packet as `cosmos_ibcState` lists it. */
interface IbcPacketJson {
  sequence: string;
  source_port: string;
  source_channel: string;
  denom: string;
  local_denom: string;
  amount: string;
  sender: string;
  receiver: string;
  memo: string;
  state: "pending" | "acknowledged" | "refunded";
  fate?: "ack" | "error" | "timeout";
  error?: string;
  burned: boolean;
  height: string;
  [more: string]: unknown;
}

interface IbcStateJson {
  channels: Array<{ port_id: string; channel_id: string; counterparty_channel_id: string; counterparty_chain_id: string; state: string; escrow_address: string }>;
  packets: IbcPacketJson[];
  denoms: Array<{ base: string; trace: Array<{ port_id: string; channel_id: string }>; path: string; denom: string }>;
}
