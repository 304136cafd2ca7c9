/**
 * x/slashing's keeper as this chain has it: the params and the validators' signing infos (only the
 * jailing: no consensus here, so no missed blocks and no double signs), and jailing and unjailing,
 * which x/slashing asks of staking (its expected keeper). State in the slashing precompile's account
 * storage (0x…0806, src/chain/base/records.ts).
 */
import { createHash } from "node:crypto";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { DEC, decString } from "../common/decimal";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import type { Validator } from "../staking/types";
import type { StakingKeeper } from "./expected-keepers";

export const SLASHING_PRECOMPILE = "0x0000000000000000000000000000000000000806" as const;

interface SlashingParams {
  signedBlocksWindow: bigint;
  /** LegacyDecs. */
  minSignedPerWindow: bigint;
  /** Seconds. */
  downtimeJailDuration: bigint;
  slashFractionDoubleSign: bigint;
  slashFractionDowntime: bigint;
}

/** x/slashing's Params.Validate (x/slashing/types/params.go), in its words. */
function validateSlashingParams(p: SlashingParams): void {
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
const DEFAULT_SLASHING_PARAMS: SlashingParams = {
  signedBlocksWindow: 100n,
  minSignedPerWindow: DEC / 2n,
  downtimeJailDuration: 600n,
  slashFractionDoubleSign: DEC / 20n,
  slashFractionDowntime: DEC / 100n,
};

/** A validator's consensus address: the first 20 bytes of sha256 of its ed25519 consensus key. */
export function consensusAddress(v: Validator): string {
  return getAddress(hexlify(createHash("sha256").update(Buffer.from(v.consensusPubkey, "base64")).digest().subarray(0, 20)));
}

export interface SigningInfo {
  jailedUntil: bigint;
  tombstoned: boolean;
}

export class SlashingKeeper {
  constructor(
    private readonly _env: ModuleEnv,
    private readonly _staking: StakingKeeper,
  ) {}

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

  /**
   * Jails a validator (it leaves the bonded set: status unbonding, tokens to the not-bonded pool, no
   * rewards) or unjails it (it may rejoin the set: bonded again if it ranks within max_validators).
   * The set update runs at once, as the end block would run it.
   */
  async setJailed(operator: string, jailed: boolean): Promise<Validator> {
    const v = await this._staking.requireValidator(operator);
    if (v.jailed === jailed) throw new ModuleError(jailed ? "validator already jailed" : "validator not jailed; cannot be unjailed");
    v.jailed = jailed;
    if (jailed) await this.jailed(v.operator);
    await this._staking.setValidator(v);
    await this._staking.applyValidatorSetUpdates();
    return (await this._staking.validator(operator)) as Validator;
  }
}
