/**
 * The staking precompile at 0x…0800 (contracts/precompiles/IStaking.sol), with cosmos/evm's ABI,
 * events and checks (precompiles/staking): the delegator of a message must be its msg.sender;
 * createValidator and editValidator refuse contracts. Validators travel as `…valoper` bech32 strings
 * in messages and as hex addresses in query results, as there.
 */
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes, hexlify } from "ethers/utils";
import { AddressError, type Bech32Prefixes, fromBech32, toBech32 } from "../common/address-codec";
import { ModuleError } from "../common/errors";
import { type MethodCall, type MethodHandler, requireSender } from "../common/module-precompile";
import { pageOf, paginate } from "../common/paging";
import { StakingKeeper } from "./keeper";
import * as msgs from "./msg-server";
import type { StakingMsgKeepers } from "./msg-server";
import { BondStatus, type Validator } from "./types";

const DESCRIPTION = "tuple(string moniker, string identity, string website, string securityContact, string details)";
const VALIDATOR = `tuple(string operatorAddress, string consensusPubkey, bool jailed, uint8 status, uint256 tokens, uint256 delegatorShares, ${DESCRIPTION} description, int64 unbondingHeight, int64 unbondingTime, uint256 commission, uint256 minSelfDelegation)`;
const PAGE_REQUEST = "tuple(bytes key, uint64 offset, uint64 limit, bool countTotal, bool reverse)";
const PAGE_RESPONSE = "tuple(bytes nextKey, uint64 total)";
const UNBONDING_ENTRY = "tuple(int64 creationHeight, int64 completionTime, uint256 initialBalance, uint256 balance, uint64 unbondingId, int64 unbondingOnHoldRefCount)";
const REDELEGATION_ENTRY = "tuple(int64 creationHeight, int64 completionTime, uint256 initialBalance, uint256 sharesDst)";
const REDELEGATION = `tuple(string delegatorAddress, string validatorSrcAddress, string validatorDstAddress, ${REDELEGATION_ENTRY}[] entries)`;

export const STAKING_ABI = new Interface([
  `function createValidator(${DESCRIPTION} description, tuple(uint256 rate, uint256 maxRate, uint256 maxChangeRate) commissionRates, uint256 minSelfDelegation, address validatorAddress, string pubkey, uint256 value) returns (bool success)`,
  `function editValidator(${DESCRIPTION} description, address validatorAddress, int256 commissionRate, int256 minSelfDelegation) returns (bool success)`,
  "function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool success)",
  "function undelegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (int64 completionTime)",
  "function redelegate(address delegatorAddress, string validatorSrcAddress, string validatorDstAddress, uint256 amount) returns (int64 completionTime)",
  "function cancelUnbondingDelegation(address delegatorAddress, string validatorAddress, uint256 amount, uint256 creationHeight) returns (bool success)",
  "function delegation(address delegatorAddress, string validatorAddress) view returns (uint256 shares, tuple(string denom, uint256 amount) balance)",
  `function unbondingDelegation(address delegatorAddress, string validatorAddress) view returns (tuple(string delegatorAddress, string validatorAddress, ${UNBONDING_ENTRY}[] entries) unbondingDelegation)`,
  `function validator(address validatorAddress) view returns (${VALIDATOR} validator)`,
  `function validators(string status, ${PAGE_REQUEST} pageRequest) view returns (${VALIDATOR}[] validators, ${PAGE_RESPONSE} pageResponse)`,
  `function redelegation(address delegatorAddress, string srcValidatorAddress, string dstValidatorAddress) view returns (${REDELEGATION} redelegation)`,
  `function redelegations(address delegatorAddress, string srcValidatorAddress, string dstValidatorAddress, ${PAGE_REQUEST} pageRequest) view returns (tuple(${REDELEGATION} redelegation, tuple(${REDELEGATION_ENTRY} redelegationEntry, uint256 balance)[] entries)[] response, ${PAGE_RESPONSE} pageResponse)`,
  "event CreateValidator(address indexed validatorAddress, uint256 value)",
  "event EditValidator(address indexed validatorAddress, int256 commissionRate, int256 minSelfDelegation)",
  "event Delegate(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 newShares)",
  "event Unbond(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 completionTime)",
  "event Redelegate(address indexed delegatorAddress, address indexed validatorSrcAddress, address indexed validatorDstAddress, uint256 amount, uint256 completionTime)",
  "event CancelUnbondingDelegation(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 creationHeight)",
]);

export const STAKING_TRANSACTIONS: ReadonlySet<string> = new Set(["createValidator", "editValidator", "delegate", "undelegate", "redelegate", "cancelUnbondingDelegation"]);

/** The status names of x/staking's query (`BOND_STATUS_BONDED`, …). */
export const STATUS_NAMES: Readonly<Record<BondStatus, string>> = {
  [BondStatus.Unspecified]: "BOND_STATUS_UNSPECIFIED",
  [BondStatus.Unbonded]: "BOND_STATUS_UNBONDED",
  [BondStatus.Unbonding]: "BOND_STATUS_UNBONDING",
  [BondStatus.Bonded]: "BOND_STATUS_BONDED",
};

/** Validator addresses in both directions (the chain's `…valoper` prefix). */
export class ValidatorCodec {
  constructor(readonly prefixes: Bech32Prefixes) {}

  toBech32(operator: string): string {
    return toBech32(this.prefixes.validator, getBytes(operator));
  }

  /** A message's validator (the SDK's address codec, wrapped as the msg server wraps it). */
  fromMessage(text: string): string {
    return this._decode(text, (why) => `invalid validator address: ${why}: invalid address`);
  }

  /** A query's validator (`sdk.ValAddressFromBech32`). */
  fromQuery(text: string): string {
    return this._decode(text, (why) => why);
  }

  private _decode(text: string, word: (why: string) => string): string {
    try {
      if (text.trim() === "") throw new AddressError("empty address string is not allowed");
      return this._hex(fromBech32(text, this.prefixes.validator));
    } catch (err) {
      if (err instanceof AddressError) throw new ModuleError(word(err.message));
      throw err;
    }
  }

  private _hex(bytes: Uint8Array): string {
    if (bytes.length !== 20) throw new AddressError(`address length must be 20 bytes, got ${bytes.length}: invalid address`);
    return getAddress(hexlify(bytes));
  }
}

/** A validator as cosmos/evm's queries return it (`ValidatorInfo`). */
function validatorInfo(v: Validator | undefined): unknown[] {
  if (v === undefined) return ["", "", false, 0, 0n, 0n, ["", "", "", "", ""], 0n, 0n, 0n, 0n];
  const d = v.description;
  return [
    v.operator,
    v.consensusPubkey,
    v.jailed,
    v.status,
    v.tokens,
    v.delegatorShares,
    [d.moniker, d.identity, d.website, d.securityContact, d.details],
    v.unbondingHeight,
    v.unbondingTime,
    v.commissionRate,
    v.minSelfDelegation,
  ];
}

/** The handlers of the staking precompile over the staking keeper (its delegation hooks are distribution's: src/cosmos/app.ts). */
export function stakingHandlers(codec: ValidatorCodec, keepers: (call: MethodCall) => StakingMsgKeepers): Record<string, MethodHandler> {
  const notFromContract = async (call: MethodCall): Promise<void> => {
    if (await call.callerIsContract()) throw new ModuleError("this method can only be called directly to the precompile, not from a smart contract");
  };
  const unbondingOutput = async (staking: StakingKeeper, delegator: string, operator: string): Promise<unknown[]> => {
    const entries = await staking.unbondingEntries(delegator, operator);
    if (entries.length === 0) return ["", "", []];
    return [toBech32(codec.prefixes.account, getBytes(delegator)), codec.toBech32(operator), entries.map((e) => [e.creationHeight, e.completionTime, e.initialBalance, e.balance, e.unbondingId, 0n])];
  };
  const redelegationOutput = async (staking: StakingKeeper, delegator: string, src: string, dst: string): Promise<unknown[]> => {
    const entries = await staking.redelegationEntries(delegator, src, dst);
    if (entries.length === 0) return ["", "", "", []];
    return [toBech32(codec.prefixes.account, getBytes(delegator)), codec.toBech32(src), codec.toBech32(dst), entries.map((e) => [e.creationHeight, e.completionTime, e.initialBalance, e.sharesDst])];
  };
  return {
    createValidator: async (call) => {
      const [description, rates, minSelfDelegation, validatorAddress, pubkey, value] = call.args as unknown as [string[], bigint[], bigint, string, string, bigint];
      await notFromContract(call);
      requireSender(call, validatorAddress);
      const [moniker, identity, website, securityContact, details] = description;
      const [rate, maxRate, maxChangeRate] = rates;
      await msgs.createValidator(keepers(call), {
        description: { moniker, identity, website, securityContact, details },
        commission: { rate, maxRate, maxChangeRate },
        minSelfDelegation,
        validatorAddress,
        pubkey,
        value,
      });
      call.emit("CreateValidator", [validatorAddress, value]);
      return [true];
    },
    editValidator: async (call) => {
      const [description, validatorAddress, commissionRate, minSelfDelegation] = call.args as unknown as [string[], string, bigint, bigint];
      await notFromContract(call);
      requireSender(call, validatorAddress);
      const [moniker, identity, website, securityContact, details] = description;
      await msgs.editValidator(keepers(call), { description: { moniker, identity, website, securityContact, details }, validatorAddress, commissionRate, minSelfDelegation });
      call.emit("EditValidator", [validatorAddress, commissionRate, minSelfDelegation]);
      return [true];
    },
    delegate: async (call) => {
      const [delegator, validatorText, amount] = call.args as unknown as [string, string, bigint];
      requireSender(call, delegator);
      const operator = codec.fromMessage(validatorText);
      const shares = await msgs.delegate(keepers(call), { delegatorAddress: delegator, validatorAddress: operator, amount: { denom: call.env.denom, amount } });
      call.emit("Delegate", [delegator, operator, amount, shares]);
      return [true];
    },
    undelegate: async (call) => {
      const [delegator, validatorText, amount] = call.args as unknown as [string, string, bigint];
      requireSender(call, delegator);
      const operator = codec.fromMessage(validatorText);
      const r = await msgs.undelegate(keepers(call), { delegatorAddress: delegator, validatorAddress: operator, amount: { denom: call.env.denom, amount } });
      call.emit("Unbond", [delegator, operator, r.amount, r.completionTime]);
      return [r.completionTime];
    },
    redelegate: async (call) => {
      const [delegator, srcText, dstText, amount] = call.args as unknown as [string, string, string, bigint];
      requireSender(call, delegator);
      const src = codec.fromMessage(srcText);
      const dst = codec.fromMessage(dstText);
      const r = await msgs.beginRedelegate(keepers(call), { delegatorAddress: delegator, validatorSrcAddress: src, validatorDstAddress: dst, amount: { denom: call.env.denom, amount } });
      call.emit("Redelegate", [delegator, src, dst, r.amount, r.completionTime]);
      return [r.completionTime];
    },
    cancelUnbondingDelegation: async (call) => {
      const [delegator, validatorText, amount, creationHeight] = call.args as unknown as [string, string, bigint, bigint];
      requireSender(call, delegator);
      const operator = codec.fromMessage(validatorText);
      await keepers(call).staking.cancelUnbonding(delegator, operator, amount, creationHeight);
      call.emit("CancelUnbondingDelegation", [delegator, operator, amount, creationHeight]);
      return [true];
    },
    delegation: async (call) => {
      const [delegator, validatorText] = call.args as unknown as [string, string];
      const operator = codec.fromQuery(validatorText);
      const { staking } = keepers(call);
      const v = await staking.validator(operator);
      const shares = v === undefined ? undefined : await staking.delegationShares(delegator, operator);
      if (v === undefined || shares === undefined) return [0n, [call.env.denom, 0n]];
      return [shares, [call.env.denom, StakingKeeper.tokensFromShares(v, shares)]];
    },
    unbondingDelegation: async (call) => {
      const [delegator, validatorText] = call.args as unknown as [string, string];
      return [await unbondingOutput(keepers(call).staking, delegator, codec.fromQuery(validatorText))];
    },
    validator: async (call) => {
      const [operator] = call.args as unknown as [string];
      return [validatorInfo(await keepers(call).staking.validator(operator))];
    },
    validators: async (call) => {
      const [status, pageRequest] = call.args as unknown as [string, unknown];
      const wanted = Object.entries(STATUS_NAMES).find(([, name]) => name === status);
      if (status !== "" && wanted === undefined) throw new ModuleError(`invalid validator status ${status}: invalid request`);
      const all = (await keepers(call).staking.validators()).filter((v) => wanted === undefined || v.status === Number(wanted[0]));
      const page = paginate(all, pageOf(pageRequest));
      return [page.items.map(validatorInfo), [page.nextKey, page.total]];
    },
    redelegation: async (call) => {
      const [delegator, srcText, dstText] = call.args as unknown as [string, string, string];
      if (/^0x0{40}$/i.test(delegator)) throw new ModuleError(`invalid delegator address: ${delegator}`);
      return [await redelegationOutput(keepers(call).staking, delegator, codec.fromQuery(srcText), codec.fromQuery(dstText))];
    },
    redelegations: async (call) => {
      const [delegator, srcText, dstText, pageRequest] = call.args as unknown as [string, string, string, unknown];
      const noDelegator = /^0x0{40}$/i.test(delegator);
      if (noDelegator && srcText === "") throw new ModuleError("invalid query. Need to specify at least a source validator address or delegator address");
      if (noDelegator) throw new ModuleError("redelegations of a source validator across delegators are not kept here: name the delegator");
      const src = srcText === "" ? undefined : codec.fromQuery(srcText);
      const dst = dstText === "" ? undefined : codec.fromQuery(dstText);
      const { staking } = keepers(call);
      const pairs = (await staking.redelegationPairs(delegator)).filter(
        (p) => (src === undefined || p.src.toLowerCase() === src.toLowerCase()) && (dst === undefined || p.dst.toLowerCase() === dst.toLowerCase()),
      );
      const rows: unknown[] = [];
      for (const p of pairs) {
        const out = await redelegationOutput(staking, delegator, p.src, p.dst);
        const entries = (await staking.redelegationEntries(delegator, p.src, p.dst)).map((e) => [[e.creationHeight, e.completionTime, e.initialBalance, e.sharesDst], e.initialBalance]);
        rows.push([out, entries]);
      }
      const page = paginate(rows, pageOf(pageRequest));
      return [page.items, [page.nextKey, page.total]];
    },
  };
}
