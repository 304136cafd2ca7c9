/**
 * The node's Anvil-style chain flags, for both hosts' `node`: `--chain-id`, `--block-time`,
 * `--accounts`, `--mnemonic`, `--balance`, with Anvil's meanings, over the chain the config gives.
 *
 * - `--chain-id N`: the chain id (a home's genesis fixes it once the home exists).
 * - `--block-time S`: interval mining, a block every S seconds (fractions allowed) and no automine.
 * - `--accounts N`, `--mnemonic "…"`: dev accounts derived anew, from the config's HD settings where it
 *   has them (else Hardhat's defaults), the flags over them; they replace a config's key list.
 * - `--balance E`: every dev account's balance, in ether.
 */
import type { ChainConfig } from "../../chain/config";
import { UserError } from "../../utils/user-error";
import { chainConfigModule } from "../lazy";
import { safeInteger } from "../../utils/values";

/** The flags and what each does, for both hosts' `node --help` (this table loads with the plugin: no heavy import above). */
export const CHAIN_FLAGS: ReadonlyArray<{ name: keyof ChainFlags; description: string }> = [
  { name: "chainId", description: "The chain id (Anvil's --chain-id; default: the config's, 9000); a home keeps the one it was made with" },
  { name: "blockTime", description: "Interval mining: a block every S seconds (fractions allowed), transactions wait for it (Anvil's --block-time)" },
  { name: "accounts", description: "How many dev accounts to derive (Anvil's --accounts; default: the config's, 20)" },
  { name: "mnemonic", description: "The BIP-39 mnemonic the dev accounts are derived from (Anvil's --mnemonic); their keys are not printed" },
  { name: "balance", description: "Every dev account's balance, in ether (Anvil's --balance; default 10000)" },
];

/** The flags as a host got them ("" or undefined: not given). */
export interface ChainFlags {
  chainId?: string | number;
  blockTime?: string | number;
  accounts?: string | number;
  mnemonic?: string;
  balance?: string | number;
}

/** The config's HD account settings (undefined when the config lists keys). */
export interface HdAccounts {
  mnemonic?: string;
  path?: string;
  count?: number;
  initialIndex?: number;
  balance?: bigint;
  passphrase?: string;
}

/** More dev accounts than this are refused: each is a key derivation at start and a line of the banner. */
const MAX_DEV_ACCOUNTS = 1000;

/** Whether a flag's value was given: hosts pass "" (Hardhat 2 unset), undefined or -1 (Hardhat 3's --chain-id unset) otherwise. */
export function given(v: string | number | undefined): v is string | number {
  return v !== undefined && v !== "" && !(typeof v === "number" && v < 0);
}

function positiveInteger(flag: string, v: string | number, max = Number.MAX_SAFE_INTEGER): number {
  const n = safeInteger(v, { min: 1, strings: true });
  if (n === undefined) throw new UserError(`${flag}: expected a positive integer, got ${JSON.stringify(v)}`);
  if (n > max) throw new UserError(`${flag}: at most ${max}, got ${n}`);
  return n;
}

/** `chain` with the flags over it; throws a UserError naming the flag for a bad value. */
export function applyChainFlags(chain: ChainConfig, hd: HdAccounts | undefined, flags: ChainFlags): ChainConfig {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- ethers loads when a node starts, not with the plugin
  const { Mnemonic } = require("ethers/wallet") as typeof import("ethers/wallet");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { parseEther } = require("ethers/utils") as typeof import("ethers/utils");
  const { DEFAULT_ACCOUNT_BALANCE, DEFAULT_HD_PATH, DEFAULT_MNEMONIC, deriveAccounts } = chainConfigModule();
  const out: ChainConfig = { ...chain };
  if (given(flags.chainId)) out.chainId = BigInt(positiveInteger("--chain-id", flags.chainId));
  if (given(flags.blockTime)) {
    const raw = String(flags.blockTime).trim();
    const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
    const ms = Math.round(seconds * 1000);
    if (!Number.isFinite(seconds) || ms < 1) throw new UserError(`--block-time: expected seconds greater than 0 (e.g. 2 or 0.5), got ${JSON.stringify(flags.blockTime)}`);
    out.mining = { ...chain.mining, auto: false, interval: ms };
  }
  let balance: bigint | undefined;
  if (given(flags.balance)) {
    try {
      balance = parseEther(String(flags.balance).trim());
    } catch {
      balance = -1n;
    }
    if (balance < 0n) throw new UserError(`--balance: expected an amount of ether (e.g. 10000 or 0.5), got ${JSON.stringify(flags.balance)}`);
  }
  const mnemonic = given(flags.mnemonic) ? String(flags.mnemonic).trim().split(/\s+/).join(" ") : undefined;
  if (mnemonic !== undefined && !Mnemonic.isValidMnemonic(mnemonic)) throw new UserError("--mnemonic: not a valid BIP-39 mnemonic (its words or checksum)");
  const count = given(flags.accounts) ? positiveInteger("--accounts", flags.accounts, MAX_DEV_ACCOUNTS) : undefined;
  if (mnemonic !== undefined || count !== undefined) {
    const from = hd ?? {};
    out.accounts = deriveAccounts(
      mnemonic ?? from.mnemonic ?? DEFAULT_MNEMONIC,
      from.path ?? DEFAULT_HD_PATH,
      count ?? from.count ?? (hd === undefined ? chain.accounts.length : 20),
      from.initialIndex ?? 0,
      balance ?? from.balance ?? DEFAULT_ACCOUNT_BALANCE,
      from.passphrase ?? "",
    );
  } else if (balance !== undefined) {
    const each = balance;
    out.accounts = chain.accounts.map((a) => ({ ...a, balance: each }));
  }
  return out;
}
