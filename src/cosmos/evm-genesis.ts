/**
 * The EVM's accounts in a Cosmos genesis.json, as cosmos/evm's x/vm and the SDK's x/auth hold them:
 * `app_state.evm.accounts[] { address, code, storage[] { key, value } }` (x/vm/genesis.go: code in
 * hex without 0x, keys and values as 32-byte hashes), every account's nonce as its x/auth `sequence`
 * (`app_state.auth.accounts[]`, a BaseAccount or one nested as `base_account`), and the native coin's
 * balances under `app_state.bank.balances` (the EVM balances). Read when a node starts from a genesis
 * (src/cosmos/app-genesis.ts); written by `epochs_exportGenesis` from the state at the head.
 */
import { getAddress } from "ethers/address";
import { type Bech32Prefixes, accountFromBech32, toBech32 } from "./common/address-codec";

/** An account's state beyond its balance, as the chain takes it at genesis (src/chain/config.ts). */
export interface EvmGenesisAccount {
  address: string;
  nonce?: bigint;
  code?: Uint8Array;
  storage?: Array<[Uint8Array, Uint8Array]>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown, field: string): unknown[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`${field}: expected an array`);
  return v;
};

function hexBytes(v: unknown, field: string, size?: number): Uint8Array {
  if (typeof v !== "string" || !/^(0x)?([0-9a-fA-F]{2})*$/.test(v)) throw new Error(`${field}: expected hex bytes, got ${JSON.stringify(v)}`);
  const bytes = Uint8Array.from(Buffer.from(v.replace(/^0x/, ""), "hex"));
  if (size !== undefined && bytes.length > size) throw new Error(`${field}: longer than ${size} bytes`);
  return bytes;
}

/** A hash-sized value as go-ethereum's HexToHash takes it: right-aligned in 32 bytes. */
const word = (b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  out.set(b, 32 - b.length);
  return out;
};

/** `app_state.evm.accounts` and `app_state.auth.accounts`' sequences, by address; undefined when the genesis has neither. */
export function evmAccountsFromGenesis(appState: unknown, prefixes: Bech32Prefixes): EvmGenesisAccount[] | undefined {
  const app = isObject(appState) ? appState : {};
  const evm = isObject(app.evm) ? app.evm : {};
  const auth = isObject(app.auth) ? app.auth : {};
  const out = new Map<string, EvmGenesisAccount>();
  const entry = (address: string): EvmGenesisAccount => {
    const key = getAddress(address);
    let e = out.get(key);
    if (e === undefined) out.set(key, (e = { address: key }));
    return e;
  };
  list(evm.accounts, "app_state.evm.accounts").forEach((raw, i) => {
    const field = `app_state.evm.accounts[${i}]`;
    if (!isObject(raw) || typeof raw.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(raw.address)) throw new Error(`${field}.address: expected a 0x-prefixed 20-byte address`);
    const e = entry(raw.address);
    const code = hexBytes(raw.code ?? "", `${field}.code`);
    if (code.length > 0) e.code = code;
    e.storage = list(raw.storage, `${field}.storage`).map((s, j) => {
      if (!isObject(s)) throw new Error(`${field}.storage[${j}]: expected { key, value }`);
      return [word(hexBytes(s.key, `${field}.storage[${j}].key`, 32)), word(hexBytes(s.value, `${field}.storage[${j}].value`, 32))];
    });
  });
  list(auth.accounts, "app_state.auth.accounts").forEach((raw, i) => {
    const field = `app_state.auth.accounts[${i}]`;
    if (!isObject(raw)) throw new Error(`${field}: expected an account object`);
    // a BaseAccount, or an EthAccount / ModuleAccount wrapping one
    const base = isObject(raw.base_account) ? raw.base_account : raw;
    if (typeof base.address !== "string") return;
    const bytes = accountFromBech32(base.address, prefixes.account);
    if (bytes.length !== 20) return; // a module account of 32 bytes has no EVM account
    const sequence = base.sequence ?? "0";
    if (typeof sequence !== "string" || !/^\d+$/.test(sequence)) throw new Error(`${field}.sequence: expected an unsigned integer string, got ${JSON.stringify(sequence)}`);
    if (sequence !== "0") entry(`0x${Buffer.from(bytes).toString("hex")}`).nonce = BigInt(sequence);
  });
  return out.size > 0 ? [...out.values()] : undefined;
}

/** One account of the head's state: what `epochs_exportGenesis` writes from. */
export interface ExportedAccount {
  address: string;
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
  storage: Array<[Uint8Array, Uint8Array]>;
}

const hash = (b: Uint8Array): string => `0x${Buffer.from(word(b)).toString("hex")}`;

/**
 * The `bank` (native balances), `auth` and `evm` sections of `accounts`, by address: a balance as a
 * coin of `denom`, every account with a nonce or code as a BaseAccount, code and storage as x/vm's
 * accounts. Which accounts belong here (not to a module's own section) is the caller's choice.
 */
export function evmAccountsGenesisJson(
  accounts: readonly ExportedAccount[],
  prefixes: Bech32Prefixes,
  denom: string,
): { balances: Array<{ address: string; coins: Array<{ denom: string; amount: string }> }>; auth: { accounts: unknown[] }; evm: { accounts: unknown[] } } {
  const sorted = [...accounts].sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1));
  const bech32 = (a: string): string => toBech32(prefixes.account, Uint8Array.from(Buffer.from(a.slice(2), "hex")));
  return {
    balances: sorted.filter((a) => a.balance > 0n).map((a) => ({ address: bech32(a.address), coins: [{ denom, amount: a.balance.toString() }] })),
    auth: {
      accounts: sorted
        .filter((a) => a.nonce > 0n || a.code.length > 0)
        .map((a, i) => ({ "@type": "/cosmos.auth.v1beta1.BaseAccount", address: bech32(a.address), pub_key: null, account_number: String(i), sequence: a.nonce.toString() })),
    },
    evm: {
      accounts: sorted
        .filter((a) => a.code.length > 0 || a.storage.length > 0)
        .map((a) => ({ address: getAddress(a.address), code: Buffer.from(a.code).toString("hex"), storage: a.storage.map(([k, v]) => ({ key: hash(k), value: hash(v) })) })),
    },
  };
}
