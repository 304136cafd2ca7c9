/**
 * x/erc20's token pairs and allowances (cosmos/evm x/erc20/keeper), as records in the storage of the
 * module's account (`moduleAddress("erc20")`, src/chain/base/records.ts):
 * - `pairs`: the pairs' ERC-20 addresses in registration order;
 * - `pair/<erc20>`: `{ denom, enabled, owner }` (owner 1: the module, a native coin's pair);
 * - `denom/<denom>`: the ERC-20 address of the denom's pair;
 * - `allowance/<erc20>/<owner>/<spender>`: an allowance of the pair's ERC-20 precompile.
 * A coin's pair is its ERC-20 precompile at the pair's address (src/cosmos/erc20/precompile.ts). The
 * native coin's pair is registered at genesis at WEVMOS's address (src/cosmos/bank/precompile.ts) or the one the
 * genesis names (src/cosmos/coins-genesis.ts); an IBC
 * voucher `ibc/<hash>` registers at the address of its hash's last 20 bytes (cosmos/evm's
 * `NewTokenPairSTRv2`), the only coins x/erc20 pairs by denom.
 */
import { createHash } from "node:crypto";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { byteOrder } from "../common/records";
import { moduleAddress } from "../common/accounts";
import { validateDenom } from "../common/denom";

export const ERC20_MODULE_ACCOUNT = moduleAddress("erc20");

/** x/erc20's owner enum: 1 = the module (a coin's pair), 2 = an external ERC-20 contract. */
export const OWNER_MODULE = 1;

export interface TokenPair {
  erc20: string;
  denom: string;
  enabled: boolean;
  owner: number;
}

/** The ERC-20 address cosmos/evm gives an IBC voucher (`utils.GetIBCDenomAddress`), with its errors. */
export function ibcDenomAddress(denom: string): string {
  if (!denom.startsWith("ibc/")) throw new ModuleError(`coin ${denom} does not have 'ibc/' prefix: invalid denomination for cross-chain transfer`);
  const hash = denom.slice(4);
  if (hash.trim() === "") throw new ModuleError(`coin ${denom} is not a valid IBC voucher hash: invalid denomination for cross-chain transfer`);
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new ModuleError(`invalid hex hash ${hash}: invalid denomination for cross-chain transfer`);
  return getAddress(hexlify(Buffer.from(hash, "hex").subarray(12)));
}

const lower = (address: string): string => getAddress(address).toLowerCase();

export class Erc20Keeper {
  constructor(private readonly _env: ModuleEnv) {}

  private get _records() {
    return this._env.records(ERC20_MODULE_ACCOUNT);
  }

  async pair(erc20: string): Promise<TokenPair | undefined> {
    const p = await this._records.get<Omit<TokenPair, "erc20">>(`pair/${lower(erc20)}`);
    return p === undefined ? undefined : { erc20: getAddress(erc20), ...p };
  }

  async pairOfDenom(denom: string): Promise<TokenPair | undefined> {
    const erc20 = await this._records.get<string>(`denom/${denom}`);
    return erc20 === undefined ? undefined : this.pair(erc20);
  }

  /** Every pair, in x/erc20's store order: by the pair's id, sha256 of "<ERC-20 address, checksummed>|<denom>" (`TokenPair.GetID`). */
  async pairs(): Promise<TokenPair[]> {
    const out: Array<{ id: string; pair: TokenPair }> = [];
    for (const a of (await this._records.get<string[]>("pairs")) ?? []) {
      const p = await this.pair(a);
      if (p !== undefined)
        out.push({
          id: createHash("sha256")
            .update(`${getAddress(p.erc20)}|${p.denom}`)
            .digest("hex"),
          pair: p,
        });
    }
    return out.sort((x, y) => byteOrder(x.id, y.id)).map((x) => x.pair);
  }

  /** Registers `denom`'s pair at `erc20` (x/erc20 `SetToken`: a denom and an address pair once); a genesis may list it disabled. */
  async setToken(erc20: string, denom: string, enabled = true): Promise<TokenPair> {
    validateDenom(denom);
    const address = getAddress(erc20);
    if ((await this.pairOfDenom(denom)) !== undefined) throw new ModuleError(`token already exists for denom ${denom}: token pair already exists`);
    if ((await this.pair(address)) !== undefined) throw new ModuleError(`token already exists for token ${address}: token pair already exists`);
    const pair: TokenPair = { erc20: address, denom, enabled, owner: OWNER_MODULE };
    await this._records.put(`pair/${lower(address)}`, { denom, enabled, owner: OWNER_MODULE });
    await this._records.put(`denom/${denom}`, address);
    await this._records.put("pairs", [...((await this._records.get<string[]>("pairs")) ?? []), address]);
    return pair;
  }

  async allowance(erc20: string, owner: string, spender: string): Promise<bigint> {
    return (await this._records.get<bigint>(allowanceKey(erc20, owner, spender))) ?? 0n;
  }

  /** Sets an allowance; 0 deletes it (x/erc20 `DeleteAllowance`). */
  async setAllowance(erc20: string, owner: string, spender: string, value: bigint): Promise<void> {
    await this._records.put(allowanceKey(erc20, owner, spender), value === 0n ? undefined : value);
  }
}

const allowanceKey = (erc20: string, owner: string, spender: string): string => `allowance/${lower(erc20)}/${lower(owner)}/${lower(spender)}`;
