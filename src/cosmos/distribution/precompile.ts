/**
 * The distribution precompile at 0x…0801 (contracts/precompiles/IDistribution.sol), with
 * cosmos/evm's ABI, events and checks (precompiles/distribution). Rewards are `DecCoin`s as
 * cosmos/evm returns them (precompiles/common/types.go `NewDecCoinsResponse`): the LegacyDec's whole
 * part (`TruncateInt`), with precision 18.
 */
import { DEC } from "../common/decimal";
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes, isHexString } from "ethers/utils";
import { AddressError, type Bech32Prefixes, accountFromBech32, toBech32 } from "../common/address-codec";
import type { DistributionKeeper } from "./keeper";
import * as msgs from "./msg-server";
import { DISTRIBUTION_ACCOUNT } from "../common/accounts";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { type MethodCall, type MethodHandler, requireSender } from "../common/module-precompile";
import { type StakingKeeper } from "../staking/keeper";
import type { ValidatorCodec } from "../staking/precompile";

const COIN = "tuple(string denom, uint256 amount)";
const DEC_COIN = "tuple(string denom, uint256 amount, uint8 precision)";
const PAGE_REQUEST = "tuple(bytes key, uint64 offset, uint64 limit, bool countTotal, bool reverse)";

export const DISTRIBUTION_ABI = new Interface([
  "function claimRewards(address delegatorAddress, uint32 maxRetrieve) returns (bool success)",
  "function setWithdrawAddress(address delegatorAddress, string withdrawerAddress) returns (bool success)",
  `function withdrawDelegatorRewards(address delegatorAddress, string validatorAddress) returns (${COIN}[] amount)`,
  `function withdrawValidatorCommission(string validatorAddress) returns (${COIN}[] amount)`,
  `function fundCommunityPool(address depositor, ${COIN}[] amount) returns (bool success)`,
  `function depositValidatorRewardsPool(address depositor, string validatorAddress, ${COIN}[] amount) returns (bool success)`,
  `function validatorDistributionInfo(string validatorAddress) view returns (tuple(string operatorAddress, ${DEC_COIN}[] selfBondRewards, ${DEC_COIN}[] commission) distributionInfo)`,
  `function validatorOutstandingRewards(string validatorAddress) view returns (${DEC_COIN}[] rewards)`,
  `function validatorCommission(string validatorAddress) view returns (${DEC_COIN}[] commission)`,
  `function validatorSlashes(string validatorAddress, uint64 startingHeight, uint64 endingHeight, ${PAGE_REQUEST} pageRequest) view returns (tuple(uint64 validatorPeriod, tuple(uint256 value, uint8 precision) fraction)[] slashes, tuple(bytes nextKey, uint64 total) pageResponse)`,
  `function delegationRewards(address delegatorAddress, string validatorAddress) view returns (${DEC_COIN}[] rewards)`,
  `function delegationTotalRewards(address delegatorAddress) view returns (tuple(string validatorAddress, ${DEC_COIN}[] reward)[] rewards, ${DEC_COIN}[] total)`,
  "function delegatorValidators(address delegatorAddress) view returns (string[] validators)",
  "function delegatorWithdrawAddress(address delegatorAddress) view returns (string withdrawAddress)",
  `function communityPool() view returns (${DEC_COIN}[] coins)`,
  "event ClaimRewards(address indexed delegatorAddress, uint256 amount)",
  "event SetWithdrawerAddress(address indexed caller, string withdrawerAddress)",
  "event WithdrawDelegatorReward(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount)",
  "event WithdrawValidatorCommission(string indexed validatorAddress, uint256 commission)",
  "event FundCommunityPool(address indexed depositor, string denom, uint256 amount)",
  "event DepositValidatorRewardsPool(address indexed depositor, address indexed validatorAddress, string denom, uint256 amount)",
]);

export const DISTRIBUTION_TRANSACTIONS: ReadonlySet<string> = new Set([
  "claimRewards",
  "setWithdrawAddress",
  "withdrawDelegatorRewards",
  "withdrawValidatorCommission",
  "fundCommunityPool",
  "depositValidatorRewardsPool",
]);

/** LegacyDec coins (`dec`: the amount times 10^18) as cosmos/evm returns them: the whole amount, precision 18; none when zero. */
const decCoins = (denom: string, dec: bigint): unknown[] => (dec === 0n ? [] : [[denom, dec / DEC_ONE, 18]]);
const DEC_ONE = 10n ** 18n;

export function distributionHandlers(
  prefixes: Bech32Prefixes,
  codec: ValidatorCodec,
  keepers: (call: MethodCall) => { env: ModuleEnv; staking: StakingKeeper; distribution: DistributionKeeper },
): Record<string, MethodHandler> {
  const nativeCoins = (call: MethodCall, coins: Array<[string, bigint]>): bigint => {
    let total = 0n;
    for (const [denom, amount] of coins) {
      if (denom !== call.env.denom) throw new ModuleError(`invalid denom: ${denom}`);
      total += amount;
    }
    if (total <= 0n) throw new ModuleError("invalid coins: invalid request");
    return total;
  };
  /** One of the (existing) validator's reward amounts, as DecCoins. */
  const validatorAmount = async (call: MethodCall, field: "outstanding" | "commission"): Promise<unknown[]> => {
    const [validatorText] = call.args as unknown as [string];
    const operator = codec.fromQuery(validatorText);
    const { staking, distribution } = keepers(call);
    await staking.requireValidator(operator);
    return [decCoins(call.env.denom, (await distribution.validatorRewards(operator))[field])];
  };
  return {
    claimRewards: async (call) => {
      const [delegator, maxRetrieve] = call.args as unknown as [string, bigint];
      // x/staking's default max_validators
      if (maxRetrieve > 100n) throw new ModuleError(`maxRetrieve (${maxRetrieve}) parameter exceeds the maximum number of validators (100)`);
      requireSender(call, delegator);
      const { staking, distribution } = keepers(call);
      // no delegation: nothing to claim, and no error (cosmos/evm claims over an empty list)
      const validators = await staking.delegatorValidators(delegator);
      let total = 0n;
      for (const op of validators.slice(0, Number(maxRetrieve))) total += await distribution.withdrawDelegationRewards(delegator, op);
      call.emit("ClaimRewards", [delegator, total]);
      return [true];
    },
    setWithdrawAddress: async (call) => {
      const [delegator, withdrawer] = call.args as unknown as [string, string];
      requireSender(call, delegator);
      let to: string;
      try {
        to = isHexString(withdrawer, 20) ? getAddress(withdrawer) : getAddress(`0x${Buffer.from(accountFromBech32(withdrawer, prefixes.account)).toString("hex")}`);
      } catch (err) {
        if (err instanceof AddressError) throw new ModuleError(`invalid withdraw address: ${err.message}: invalid address`);
        throw err;
      }
      await msgs.setWithdrawAddress(keepers(call), { delegatorAddress: delegator, withdrawAddress: to });
      call.emit("SetWithdrawerAddress", [delegator, toBech32(prefixes.account, getBytes(to))]);
      return [true];
    },
    withdrawDelegatorRewards: async (call) => {
      const [delegator, validatorText] = call.args as unknown as [string, string];
      requireSender(call, delegator);
      const operator = codec.fromMessage(validatorText);
      const amount = await msgs.withdrawDelegatorReward(keepers(call), { delegatorAddress: delegator, validatorAddress: operator });
      call.emit("WithdrawDelegatorReward", [delegator, operator, amount]);
      return [amount === 0n ? [] : [[call.env.denom, amount]]];
    },
    withdrawValidatorCommission: async (call) => {
      const [validatorText] = call.args as unknown as [string];
      const operator = codec.fromMessage(validatorText);
      requireSender(call, operator);
      const amount = await keepers(call).distribution.withdrawCommission(operator);
      call.emit("WithdrawValidatorCommission", [validatorText, amount]);
      return [[[call.env.denom, amount]]];
    },
    fundCommunityPool: async (call) => {
      const [depositor, coins] = call.args as unknown as [string, Array<[string, bigint]>];
      requireSender(call, depositor);
      const amount = nativeCoins(call, coins);
      await keepers(call).distribution.fundCommunityPool(depositor, amount);
      call.emit("FundCommunityPool", [depositor, call.env.denom, amount]);
      return [true];
    },
    depositValidatorRewardsPool: async (call) => {
      const [depositor, validatorText, coins] = call.args as unknown as [string, string, Array<[string, bigint]>];
      requireSender(call, depositor);
      const operator = codec.fromMessage(validatorText);
      const amount = nativeCoins(call, coins);
      const { staking, distribution } = keepers(call);
      const v = await staking.requireValidator(operator);
      await call.env.send(depositor, DISTRIBUTION_ACCOUNT, amount);
      await distribution.allocateToValidator(v, amount * DEC);
      call.emit("DepositValidatorRewardsPool", [depositor, operator, call.env.denom, amount]);
      return [true];
    },
    validatorDistributionInfo: async (call) => {
      const [validatorText] = call.args as unknown as [string];
      const operator = codec.fromQuery(validatorText);
      const { staking, distribution } = keepers(call);
      await staking.requireValidator(operator);
      const self = (await staking.delegationShares(operator, operator)) === undefined ? 0n : await distribution.delegationRewards(operator, operator);
      const r = await distribution.validatorRewards(operator);
      return [[toBech32(prefixes.account, getBytes(operator)), decCoins(call.env.denom, self), decCoins(call.env.denom, r.commission)]];
    },
    validatorOutstandingRewards: (call) => validatorAmount(call, "outstanding"),
    validatorCommission: (call) => validatorAmount(call, "commission"),
    validatorSlashes: async (call) => {
      const [validatorText] = call.args as unknown as [string];
      await keepers(call).staking.requireValidator(codec.fromQuery(validatorText));
      // no misbehaviour, no slash events: a slash a test sets changes tokens only (docs/cosmos-precompiles.md)
      return [[], ["0x", 0n]];
    },
    delegationRewards: async (call) => {
      const [delegator, validatorText] = call.args as unknown as [string, string];
      const operator = codec.fromQuery(validatorText);
      const { staking, distribution } = keepers(call);
      await staking.requireValidator(operator);
      if ((await staking.delegationShares(delegator, operator)) === undefined) throw new ModuleError("delegation does not exist");
      return [decCoins(call.env.denom, await distribution.delegationRewards(delegator, operator))];
    },
    delegationTotalRewards: async (call) => {
      const [delegator] = call.args as unknown as [string];
      const { staking, distribution } = keepers(call);
      const rows: unknown[] = [];
      let total = 0n;
      for (const op of await staking.delegatorValidators(delegator)) {
        const dec = await distribution.delegationRewards(delegator, op);
        total += dec;
        rows.push([codec.toBech32(op), decCoins(call.env.denom, dec)]);
      }
      return [rows, decCoins(call.env.denom, total)];
    },
    delegatorValidators: async (call) => {
      const [delegator] = call.args as unknown as [string];
      return [(await keepers(call).staking.delegatorValidators(delegator)).map((op) => codec.toBech32(op))];
    },
    delegatorWithdrawAddress: async (call) => {
      const [delegator] = call.args as unknown as [string];
      return [toBech32(prefixes.account, getBytes(await keepers(call).distribution.withdrawAddress(delegator)))];
    },
    communityPool: async (call) => [decCoins(call.env.denom, await keepers(call).distribution.communityPool())],
  };
}
