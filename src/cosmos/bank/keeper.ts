/**
 * The bank's coins, every denom: the native coin is the EVM balance (ModuleEnv's), any other coin
 * (an IBC voucher, a coin a test mints) a balance the bank keeps as records in its account's storage
 * (0x…0804, src/chain/base/records.ts):
 * - `coins/<address>`: the address's other coins, `{ denom: amount }` (zero amounts left out);
 * - `supply/<denom>`: what exists of the denom;
 * - `metadata/<denom>`: its bank metadata (name, symbol, decimals), when it has some;
 * - `holders`, `holder/<i>`, `holding/<address>`: every address that got another coin, as a count and
 *   one record each (any transfer may add one: a list in one record would grow with each and fill);
 * - `denoms`: every denom minted or given metadata (dev methods and genesis only add them).
 * The last two serve the genesis export: storage has no iteration.
 * So other coins revert, persist, dump and load as the native one does. Failures are the bank's texts.
 */
import { getAddress } from "ethers/address";
import { BANK_PRECOMPILE } from "../common/accounts";
import { type MeteredRecords } from "../common/records";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError, insufficientFunds, invalidCoins } from "../common/errors";
import { coinAmount } from "../common/coins";

export interface Coin {
  denom: string;
  amount: bigint;
}

/** x/bank's denom metadata, as far as the ERC-20 precompiles read it. */
export interface DenomMetadata {
  name: string;
  symbol: string;
  /** The display unit's exponent. */
  decimals: number;
}

const key = (address: string): string => getAddress(address).toLowerCase();

export class Bank {
  private readonly _records: MeteredRecords;

  constructor(private readonly _env: ModuleEnv) {
    this._records = _env.records(BANK_PRECOMPILE);
  }

  get nativeDenom(): string {
    return this._env.denom;
  }

  private async _coins(address: string): Promise<Record<string, bigint>> {
    return (await this._records.get<Record<string, bigint>>(`coins/${key(address)}`)) ?? {};
  }

  private async _setCoins(address: string, coins: Record<string, bigint>): Promise<void> {
    const kept = Object.fromEntries(Object.entries(coins).filter(([, v]) => v !== 0n));
    await this._records.put(`coins/${key(address)}`, Object.keys(kept).length === 0 ? undefined : kept);
  }

  async balance(address: string, denom: string): Promise<bigint> {
    if (denom === this._env.denom) return this._env.balance(address);
    return (await this._coins(address))[denom] ?? 0n;
  }

  /** The address's non-zero coins, sorted by denom as the SDK's `Coins` are. */
  async balances(address: string): Promise<Coin[]> {
    const out: Coin[] = Object.entries(await this._coins(address)).map(([denom, amount]) => ({ denom, amount }));
    const native = await this._env.balance(address);
    if (native > 0n) out.push({ denom: this._env.denom, amount: native });
    return out.sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
  }

  /** Moves coins; the bank's insufficient-funds error when `from` has too few. */
  async send(from: string, to: string, denom: string, amount: bigint): Promise<void> {
    if (amount < 0n) throw invalidCoins(`${amount}${denom}`);
    if (denom === this._env.denom) return this._env.send(from, to, amount);
    if (amount === 0n) return;
    await this._take(from, denom, amount);
    await this._give(to, denom, amount);
  }

  async mint(to: string, denom: string, amount: bigint): Promise<void> {
    if (amount <= 0n) throw invalidCoins(`${amount}${denom}`);
    if (denom === this._env.denom) return this._env.mint(to, amount);
    await this._give(to, denom, amount);
    await this._note("denoms", denom);
    await this._records.put(`supply/${denom}`, coinAmount((await this.supplyOf(denom)) + amount));
  }

  async burn(from: string, denom: string, amount: bigint): Promise<void> {
    if (amount <= 0n) throw invalidCoins(`${amount}${denom}`);
    if (denom === this._env.denom) return this._env.burn(from, amount);
    await this._take(from, denom, amount);
    await this._records.put(`supply/${denom}`, (await this.supplyOf(denom)) - amount);
  }

  async supplyOf(denom: string): Promise<bigint> {
    const name = denom === this._env.denom ? "supply" : `supply/${denom}`;
    return (await this._records.get<bigint>(name)) ?? 0n;
  }

  async metadata(denom: string): Promise<DenomMetadata | undefined> {
    return this._records.get<DenomMetadata>(`metadata/${denom}`);
  }

  async setMetadata(denom: string, m: DenomMetadata): Promise<void> {
    if (!Number.isInteger(m.decimals) || m.decimals < 0 || m.decimals > 255) throw new ModuleError(`uint8 overflow: invalid decimals: ${m.decimals}`);
    await this._records.put(`metadata/${denom}`, m);
    if (denom !== this._env.denom) await this._note("denoms", denom);
  }

  private async _take(from: string, denom: string, amount: bigint): Promise<void> {
    const coins = await this._coins(from);
    const have = coins[denom] ?? 0n;
    if (have < amount) throw insufficientFunds(have, amount, denom);
    coins[denom] = have - amount;
    await this._setCoins(from, coins);
  }

  /** Addresses that were given coins other than the native one (some may hold none now). */
  async holders(): Promise<string[]> {
    const count = (await this._records.get<bigint>("holders")) ?? 0n;
    const out: string[] = [];
    for (let i = 0n; i < count; i++) out.push((await this._records.get<string>(`holder/${i}`)) as string);
    return out;
  }

  /** Denoms other than the native one that were minted or given metadata. */
  async denoms(): Promise<string[]> {
    return (await this._records.get<string[]>("denoms")) ?? [];
  }

  /** Indexes an address the first time it gets another coin (O(1) records, whatever the holders before it). */
  private async _noteHolder(address: string): Promise<void> {
    const key = `holding/${getAddress(address).toLowerCase()}`;
    if ((await this._records.get<boolean>(key)) === true) return;
    const count = (await this._records.get<bigint>("holders")) ?? 0n;
    await this._records.put(`holder/${count}`, getAddress(address));
    await this._records.put("holders", count + 1n);
    await this._records.put(key, true);
  }

  private async _note(list: "denoms", item: string): Promise<void> {
    const have = (await this._records.get<string[]>(list)) ?? [];
    if (!have.includes(item)) await this._records.put(list, [...have, item]);
  }

  private async _give(to: string, denom: string, amount: bigint): Promise<void> {
    const coins = await this._coins(to);
    if (Object.keys(coins).length === 0) await this._noteHolder(to);
    coins[denom] = coinAmount((coins[denom] ?? 0n) + amount);
    await this._setCoins(to, coins);
  }
}
