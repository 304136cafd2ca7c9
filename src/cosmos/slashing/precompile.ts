/**
 * The slashing precompile at 0x…0806 (contracts/precompiles/ISlashing.sol), as cosmos/evm has it
 * (precompiles/slashing): the signing infos and params, and `unjail` for a validator's operator.
 * There is no consensus here, so no missed blocks and no double signs: a validator is jailed only
 * when a test says so (cosmos_jailValidator), which sets its `jailedUntil` to the block time plus
 * the downtime jail duration, as a downtime jailing would. Its state is kept in the precompile's
 * storage (src/chain/records.ts), as the other modules' is.
 */
import { createHash } from "node:crypto";
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { decString } from "../common/decimal";
import { type ModuleEnv, ModuleError, byteOrder } from "../common/ledger";
import type { MethodCall, MethodHandler } from "../common/module-precompile";
import { StakingKeeper } from "../staking/keeper";
import { type Validator, DEC, NO_HOOKS } from "../staking/types";
import { pageOf, paginate, requireSender } from "../staking/precompile";

export const SLASHING_PRECOMPILE = "0x0000000000000000000000000000000000000806" as const;

export interface SlashingParams {
  signedBlocksWindow: bigint;
  /** LegacyDecs. */
  minSignedPerWindow: bigint;
  /** Seconds. */
  downtimeJailDuration: bigint;
  slashFractionDoubleSign: bigint;
  slashFractionDowntime: bigint;
}

/** x/slashing's Params.Validate (x/slashing/types/params.go), in its words. */
export function validateSlashingParams(p: SlashingParams): void {
  const fraction = (v: bigint, what: string): void => {
    if (v < 0n) throw new ModuleError(`${what} cannot be negative: ${decString(v)}`);
    if (v > DEC) throw new ModuleError(`${what} too large: ${decString(v)}`);
  };
  if (p.signedBlocksWindow <= 0n) throw new ModuleError(`signed blocks window must be positive: ${p.signedBlocksWindow}`);
  fraction(p.minSignedPerWindow, "min signed per window");
  if (p.downtimeJailDuration <= 0n) throw new ModuleError(`downtime jail duration must be positive: ${p.downtimeJailDuration}s`);
  fraction(p.slashFractionDoubleSign, "double sign slash fraction");
  fraction(p.slashFractionDowntime, "downtime slash fraction");
}

/** The Cosmos SDK's default slashing params (x/slashing/types/params.go). */
export const DEFAULT_SLASHING_PARAMS: SlashingParams = {
  signedBlocksWindow: 100n,
  minSignedPerWindow: DEC / 2n,
  downtimeJailDuration: 600n,
  slashFractionDoubleSign: DEC / 20n,
  slashFractionDowntime: DEC / 100n,
};

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

/** A validator's consensus address: the first 20 bytes of sha256 of its ed25519 consensus key. */
export function consensusAddress(v: Validator): string {
  return getAddress(hexlify(createHash("sha256").update(Buffer.from(v.consensusPubkey, "base64")).digest().subarray(0, 20)));
}

interface SigningInfo {
  jailedUntil: bigint;
  tombstoned: boolean;
}

export class SlashingKeeper {
  constructor(private readonly _env: ModuleEnv) {}

  private get _r() {
    return this._env.records(SLASHING_PRECOMPILE);
  }

  async params(): Promise<SlashingParams> {
    return (await this._r.get<SlashingParams>("params")) ?? DEFAULT_SLASHING_PARAMS;
  }

  setParams(p: SlashingParams): Promise<void> {
    validateSlashingParams(p);
    return this._r.put("params", p);
  }

  async signingInfo(operator: string): Promise<SigningInfo> {
    return (await this._r.get<SigningInfo>(`signing/${operator.toLowerCase()}`)) ?? { jailedUntil: 0n, tombstoned: false };
  }

  /** Records a jailing: the validator may unjail itself once the downtime jail duration has passed. */
  async jailed(operator: string): Promise<void> {
    const info = await this.signingInfo(operator);
    info.jailedUntil = this._env.time + (await this.params()).downtimeJailDuration;
    await this._r.put(`signing/${operator.toLowerCase()}`, info);
  }
}

/** A signing info as cosmos/evm returns it: the consensus address, and the block count as the index offset (every block signed). */
function signingInfoRow(env: ModuleEnv, v: Validator, info: SigningInfo): unknown[] {
  return [consensusAddress(v), 0n, env.height, info.jailedUntil, info.tombstoned, 0n];
}

/** The handlers of the slashing precompile; `unjail` goes through `setJailed` (src/cosmos/admin.ts). */
export function slashingHandlers(unjail: (env: ModuleEnv, operator: string) => Promise<void>): Record<string, MethodHandler> {
  const staking = (call: MethodCall) => new StakingKeeper(call.env, NO_HOOKS);
  return {
    getSigningInfo: async (call) => {
      const [cons] = call.args as unknown as [string];
      const keeper = new SlashingKeeper(call.env);
      for (const v of await staking(call).validators()) {
        if (consensusAddress(v) === getAddress(cons)) return [signingInfoRow(call.env, v, await keeper.signingInfo(v.operator))];
      }
      throw new ModuleError(`SigningInfo not found for validator ${getAddress(cons)}: not found`);
    },
    getSigningInfos: async (call) => {
      const [page] = call.args as unknown as [unknown];
      const keeper = new SlashingKeeper(call.env);
      // in x/slashing's store order: its keys end in the consensus address, so signing infos list by
      // consensus address (bytewise), not by operator as the validators do
      const rows: unknown[][] = [];
      for (const v of await staking(call).validators()) rows.push(signingInfoRow(call.env, v, await keeper.signingInfo(v.operator)));
      rows.sort((a, b) => byteOrder(a[0] as string, b[0] as string));
      const p = paginate(rows, pageOf(page));
      return [p.items, [p.nextKey, p.total]];
    },
    unjail: async (call) => {
      const [operator] = call.args as unknown as [string];
      requireSender(call, operator);
      const v = await staking(call).validator(operator);
      if (v === undefined) throw new ModuleError("address is not associated with any known validator");
      if (!v.jailed) throw new ModuleError("validator not jailed; cannot be unjailed");
      const info = await new SlashingKeeper(call.env).signingInfo(operator);
      if (info.tombstoned) throw new ModuleError("validator still jailed; cannot be unjailed");
      if (call.env.time < info.jailedUntil) throw new ModuleError("validator still jailed; cannot be unjailed");
      await unjail(call.env, operator);
      call.emit("ValidatorUnjailed", [operator]);
      return [true];
    },
    getParams: async (call) => {
      const p = await new SlashingKeeper(call.env).params();
      return [[p.signedBlocksWindow, [p.minSignedPerWindow, 18], p.downtimeJailDuration, [p.slashFractionDoubleSign, 18], [p.slashFractionDowntime, 18]]];
    },
  };
}
