/**
 * The slashing precompile at 0x…0806 (contracts/precompiles/ISlashing.sol), as cosmos/evm has it
 * (precompiles/slashing): the signing infos and params, and `unjail` for a validator's operator.
 * There is no consensus here, so no missed blocks and no double signs: a validator is jailed only
 * when a test says so (cosmos_jailValidator), which sets its `jailedUntil` to the block time plus
 * the downtime jail duration, as a downtime jailing would. Its state is kept in the precompile's
 * storage (src/chain/base/records.ts), as the other modules' is.
 */
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { byteOrder } from "../common/records";
import { type MethodHandler, requireSender } from "../common/module-precompile";
import type { Validator } from "../staking/types";
import { pageOf, paginate } from "../common/paging";
import { type SigningInfo, consensusAddress } from "./keeper";
import { type SlashingKeepers, unjail } from "./msg-server";

const DEC_T = "tuple(uint256 value, uint8 precision)";
const SIGNING_INFO = "tuple(address validatorAddress, int64 startHeight, int64 indexOffset, int64 jailedUntil, bool tombstoned, int64 missedBlocksCounter)";

export const SLASHING_ABI = new Interface([
  `function getSigningInfo(address consAddress) view returns (${SIGNING_INFO} signingInfo)`,
  `function getSigningInfos(tuple(bytes key, uint64 offset, uint64 limit, bool countTotal, bool reverse) pagination) view returns (${SIGNING_INFO}[] signingInfos, tuple(bytes nextKey, uint64 total) pageResponse)`,
  "function unjail(address validatorAddress) returns (bool success)",
  `function getParams() view returns (tuple(int64 signedBlocksWindow, ${DEC_T} minSignedPerWindow, int64 downtimeJailDuration, ${DEC_T} slashFractionDoubleSign, ${DEC_T} slashFractionDowntime) params)`,
  "event ValidatorUnjailed(address indexed validator)",
]);

export const SLASHING_TRANSACTIONS: ReadonlySet<string> = new Set(["unjail"]);

/** A signing info as cosmos/evm returns it: the consensus address, and the block count as the index offset (every block signed). */
function signingInfoRow(env: ModuleEnv, v: Validator, info: SigningInfo): unknown[] {
  return [consensusAddress(v), 0n, env.height, info.jailedUntil, info.tombstoned, 0n];
}

/** The handlers of the slashing precompile over the keepers `keepers` gives for a call's env (src/cosmos/app.ts). */
export function slashingHandlers(keepers: (env: ModuleEnv) => SlashingKeepers): Record<string, MethodHandler> {
  return {
    getSigningInfo: async (call) => {
      const [cons] = call.args as unknown as [string];
      const { staking, slashing } = keepers(call.env);
      for (const v of await staking.validators()) {
        if (consensusAddress(v) === getAddress(cons)) return [signingInfoRow(call.env, v, await slashing.signingInfo(v.operator))];
      }
      throw new ModuleError(`SigningInfo not found for validator ${getAddress(cons)}: not found`);
    },
    getSigningInfos: async (call) => {
      const [page] = call.args as unknown as [unknown];
      const { staking, slashing } = keepers(call.env);
      // in x/slashing's store order: its keys end in the consensus address, so signing infos list by
      // consensus address (bytewise), not by operator as the validators do
      const rows: unknown[][] = [];
      for (const v of await staking.validators()) rows.push(signingInfoRow(call.env, v, await slashing.signingInfo(v.operator)));
      rows.sort((a, b) => byteOrder(a[0] as string, b[0] as string));
      const p = paginate(rows, pageOf(page));
      return [p.items, [p.nextKey, p.total]];
    },
    unjail: async (call) => {
      const [operator] = call.args as unknown as [string];
      requireSender(call, operator);
      await unjail(keepers(call.env), { validatorAddr: operator });
      call.emit("ValidatorUnjailed", [operator]);
      return [true];
    },
    getParams: async (call) => {
      const p = await keepers(call.env).slashing.params();
      return [[p.signedBlocksWindow, [p.minSignedPerWindow, 18], p.downtimeJailDuration, [p.slashFractionDoubleSign, 18], [p.slashFractionDowntime, 18]]];
    },
  };
}
