/**
 * The ICS20 precompile at 0x…0802 (contracts/precompiles/IICS20.sol), as cosmos/evm has it
 * (precompiles/ics20): `transfer` sends a coin to another chain over a channel (src/cosmos/ics20/keeper.ts)
 * and emits `IBCTransfer`; `denom`, `denoms` and `denomHash` read the denom traces. The sender must
 * be the caller (`msg.sender address … does not match the requester address …`). Gas is the Cosmos
 * precompiles' (KV gas, src/cosmos/common/module-precompile.ts).
 */
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import type { MethodHandler } from "../common/module-precompile";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { pageOf, paginate } from "../common/paging";
import type { Ics20Keepers } from "./keeper";
import * as msgs from "./msg-server";
import { denomFromPath, denomHash } from "../common/ibc-denom";

const HOP = "tuple(string portId, string channelId)";
const DENOM = `tuple(string base, ${HOP}[] trace)`;
const PAGE_REQUEST = "tuple(bytes key, uint64 offset, uint64 limit, bool countTotal, bool reverse)";
const PAGE_RESPONSE = "tuple(bytes nextKey, uint64 total)";

export const ICS20_ABI = new Interface([
  "function transfer(string sourcePort, string sourceChannel, string denom, uint256 amount, address sender, string receiver, tuple(uint64 revisionNumber, uint64 revisionHeight) timeoutHeight, uint64 timeoutTimestamp, string memo) returns (uint64 nextSequence)",
  `function denom(string hash) view returns (${DENOM} denom)`,
  `function denoms(${PAGE_REQUEST} pageRequest) view returns (${DENOM}[] denoms, ${PAGE_RESPONSE} pageResponse)`,
  "function denomHash(string trace) view returns (string hash)",
  "event IBCTransfer(address indexed sender, string indexed receiver, string sourcePort, string sourceChannel, string denom, uint256 amount, string memo)",
]);

export const ICS20_TRANSACTIONS = new Set(["transfer"]);

const denomOut = (d: { base: string; trace: Array<{ portId: string; channelId: string }> }) => [d.base, d.trace.map((h) => [h.portId, h.channelId])];

export function ics20Handlers(keepers: (env: ModuleEnv) => Ics20Keepers): Record<string, MethodHandler> {
  return {
    transfer: async (call) => {
      const [sourcePort, sourceChannel, denom, amount, sender, receiver, timeoutHeight, timeoutTimestamp, memo] = call.args as unknown as [
        string,
        string,
        string,
        bigint,
        string,
        string,
        [bigint, bigint],
        bigint,
        string,
      ];
      if (getAddress(sender) !== getAddress(call.caller)) throw new ModuleError(`msg.sender address ${getAddress(call.caller)} does not match the requester address ${getAddress(sender)}`);
      const { sequence } = await msgs.transfer(keepers(call.env), {
        sourcePort,
        sourceChannel,
        denom,
        amount,
        sender,
        receiver,
        timeoutHeight: { revisionNumber: timeoutHeight[0], revisionHeight: timeoutHeight[1] },
        timeoutTimestamp,
        memo,
      });
      call.emit("IBCTransfer", [getAddress(sender), receiver, sourcePort, sourceChannel, denom, amount, memo]);
      return [sequence];
    },
    denom: async (call) => {
      const hash = (call.args[0] as string).replace(/^ibc\//, "");
      if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new ModuleError(`invalid denom trace hash: ${hash}: invalid denomination for cross-chain transfer`);
      const d = await keepers(call.env).ics20.denom(hash);
      return [denomOut(d ?? { base: "", trace: [] })];
    },
    denoms: async (call) => {
      const all = await keepers(call.env).ics20.denoms();
      const page = paginate(all, pageOf(call.args[0]));
      return [page.items.map(denomOut), [page.nextKey, page.total]];
    },
    denomHash: async (call) => {
      const d = denomFromPath(call.args[0] as string);
      if (d.base === "") throw new ModuleError(`invalid trace ${call.args[0] as string}: invalid denomination for cross-chain transfer`);
      // a trace this chain has not seen has no hash here: "" (cosmos/evm answers so for not found)
      const hash = denomHash(d);
      return [(await keepers(call.env).ics20.denom(hash)) === undefined || d.trace.length === 0 ? "" : hash];
    },
  };
}
