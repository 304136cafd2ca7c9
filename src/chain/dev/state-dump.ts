/**
 * Saved state in Anvil's format (`anvil_dumpState` / `anvil_loadState`, `--state`): every account
 * with its nonce, balance, code and storage, and the head's number and time in an extra
 * `hardhat_epochs` section that Anvil ignores. A dump of Anvil loads here and ours loads in Anvil
 * (accounts, code, storage).
 *
 * Module stores (the epochs timers) and the contract hooks registered with the epochs precompile
 * live in the storage of the precompile's account (src/chain/base/module-state.ts), so they travel with
 * the accounts. Dumps written before that carry the stores in the section's `modules`: a load
 * writes them into their accounts. Blocks and transactions are not saved (Anvil's `blocks` and
 * `transactions` stay empty). A fresh in-memory node that loads a dump starts at the dump's block
 * number and time (src/chain/node.ts), so its next block ticks the epochs exactly as the dumped
 * chain's next block; a node with blocks of its own takes the state at its own head. See
 * docs/state.md.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { Address, ValueEncoding, bytesToHex, createAccount, createAccountFromRLP, createAddressFromString, hexToBytes } from "@ethereumjs/util";
import type { ChainState } from "../store/chain-state";
import type { BlockModule } from "../base/module";
import { MemoryModuleStore, slotReader, writeModuleStore } from "../base/module-state";
import { tellStateOpened } from "../block/open-chain";
import type { Clock } from "../base/clock";
import { ChainError } from "../base/errors";

/** One account as Anvil writes it: nonce a JSON number, the rest hex. */
export interface DumpedAccount {
  nonce: number;
  balance: string;
  code: string;
  storage: Record<string, string>;
}

/** What only this chain has: the dumped head's number and time. */
export interface ChainSection {
  version: 1;
  chain_id: string;
  /** The dumped head's number and time. */
  block_number: string;
  timestamp: string;
  /** Written by versions that kept module stores apart from the state: module → key → value, in hex. */
  modules?: Record<string, Record<string, string>>;
}

export interface StateDump {
  /** Anvil's block environment; ours write null (Anvil would look its block up in `blocks`). */
  block: Record<string, unknown> | null;
  accounts: Record<string, DumpedAccount>;
  best_block_number: string | null;
  blocks: unknown[];
  transactions: unknown[];
  historical_states: null;
  hardhat_epochs?: ChainSection;
}

/** A dump ready to apply: every value checked and decoded. */
interface ParsedDump {
  accounts: Array<{ address: Address; nonce: bigint; balance: bigint; code: Uint8Array; storage: Array<[Uint8Array, Uint8Array]> }>;
  /** The dumped head (ours: from our section; Anvil's: best_block_number, else block.number). */
  blockNumber: bigint | undefined;
  timestamp: bigint | undefined;
  /** Module stores of a dump written before they were state: module → its entries. */
  modules: Map<string, Array<[Uint8Array, Uint8Array]>>;
}

/** A dump that cannot be used: the message names what is wrong; nothing was applied. */
class StateDumpError extends ChainError {
  constructor(message: string) {
    // a dump is a parameter of hardhat_loadState: a bad one is invalid params
    super(`invalid state dump: ${message}`, undefined, -32602);
  }
}

const hex32 = (b: Uint8Array): string => bytesToHex(b).slice(2).padStart(64, "0");
const quantity = (n: bigint): string => `0x${n.toString(16)}`;

/** The state at the head (hardhat_set* changes included) as Anvil's format plus the chain section. */
export async function dumpChainState(chain: ChainState): Promise<StateDump> {
  if (chain.fork !== undefined) throw new ChainError("a forked chain's state cannot be dumped: most of it is the remote's, read on demand");
  const root = chain.liveRoot;
  const trie = new MerklePatriciaTrie({ db: chain.trieDb, root, useKeyHashing: true, common: chain.common, valueEncoding: ValueEncoding.Bytes });
  const sm = await chain.stateAt(chain.headNumber);
  const { values } = await trie.getValueMap();
  const accounts: Record<string, DumpedAccount> = {};
  let unknown = 0;
  for (const [keyHash, rlp] of Object.entries(values)) {
    const pre = await chain.preimages.lookup(hexToBytes(keyHash as `0x${string}`));
    if (pre === undefined || pre.length !== 20) {
      unknown++;
      continue;
    }
    const address = new Address(pre);
    const account = createAccountFromRLP(hexToBytes(rlp as `0x${string}`));
    const storage: Record<string, string> = {};
    for (const [slotHash, value] of Object.entries(await sm.dumpStorage(address))) {
      const slot = await chain.preimages.lookup(hexToBytes(slotHash as `0x${string}`));
      if (slot === undefined || slot.length !== 32) {
        unknown++;
        continue;
      }
      storage[`0x${hex32(slot)}`] = `0x${hex32(RLP.decode(hexToBytes(value as `0x${string}`)) as Uint8Array)}`;
    }
    accounts[address.toString()] = { nonce: Number(account.nonce), balance: quantity(account.balance), code: bytesToHex(await sm.getCode(address)), storage };
  }
  if (unknown > 0) {
    throw new ChainError(`the state holds ${unknown} accounts or slots whose address or slot this node never recorded (a data directory written by a version before 0.2): it cannot be dumped`);
  }
  const head = chain.head.header;
  return {
    // Anvil takes `block` and `best_block_number` as the block it must have in `blocks` (which stay
    // empty): our head's number and time travel in our own section
    block: null,
    accounts,
    best_block_number: null,
    blocks: [],
    transactions: [],
    historical_states: null,
    hardhat_epochs: { version: 1, chain_id: chain.config.chainId.toString(), block_number: quantity(head.number), timestamp: quantity(head.timestamp) },
  };
}

/** Anvil's wire form of a dump: gzip of the JSON, as hex. */
export function encodeStateDump(dump: StateDump): string {
  return bytesToHex(gzipSync(JSON.stringify(dump)));
}

/** The most JSON a gzipped dump may decompress to. */
const MAX_DUMP_JSON_BYTES = 256 * 1024 * 1024;

/** A dump from its wire form (hex of gzip or of plain JSON, as Anvil accepts) or a file's text. */
export function decodeStateDump(input: string | Uint8Array): unknown {
  let bytes: Uint8Array;
  if (typeof input === "string") {
    const t = input.trim();
    if (t.startsWith("{")) return parseJson(t);
    if (!/^0x([0-9a-fA-F]{2})*$/.test(t)) throw new StateDumpError("expected the hex string anvil_dumpState gives (gzip or JSON bytes) or the JSON of a dump");
    bytes = hexToBytes(t as `0x${string}`);
  } else {
    bytes = input;
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // a few MiB of gzip can hold gigabytes: stop at the bound instead of filling memory
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_DUMP_JSON_BYTES });
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
        throw new StateDumpError(`the gzip stream holds more than ${MAX_DUMP_JSON_BYTES / 1024 / 1024} MiB of JSON (the most a dump may hold)`);
      throw new StateDumpError(`not a gzip stream: ${(err as Error).message}`);
    }
  }
  return parseJson(Buffer.from(bytes).toString("utf8"));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new StateDumpError(`not JSON: ${(err as Error).message}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function hexBytes(v: unknown, at: string, maxLength?: number): Uint8Array {
  if (typeof v !== "string" || !/^0x[0-9a-fA-F]*$/.test(v)) throw new StateDumpError(`${at}: expected a 0x-prefixed hex string, got ${JSON.stringify(v)}`);
  const digits = v.length % 2 === 1 ? `0x0${v.slice(2)}` : v;
  const b = hexToBytes(digits as `0x${string}`);
  if (maxLength !== undefined && b.length > maxLength) throw new StateDumpError(`${at}: longer than ${maxLength} bytes`);
  return b;
}

function uint(v: unknown, at: string): bigint {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === "string" && /^0x[0-9a-fA-F]+$/.test(v)) return BigInt(v);
  throw new StateDumpError(`${at}: expected a non-negative integer, got ${JSON.stringify(v)}`);
}

const word = (b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  out.set(b, 32 - b.length);
  return out;
};

/**
 * Checks a decoded dump against this chain and decodes every value, so that applying it cannot fail
 * on its content half-way. Module sections of modules this chain does not have are refused.
 */
export function parseStateDump(raw: unknown, chainModules: readonly BlockModule[]): ParsedDump {
  const moduleNames = chainModules.map((m) => m.name);
  if (!isObject(raw)) throw new StateDumpError("expected a JSON object with an `accounts` field");
  if (!isObject(raw.accounts)) throw new StateDumpError("accounts: expected an object of address → account");
  const accounts: ParsedDump["accounts"] = [];
  for (const [addr, acc] of Object.entries(raw.accounts)) {
    const at = `accounts.${addr}`;
    if (!/^0x[0-9a-fA-F]{40}$/.test(addr)) throw new StateDumpError(`${at}: not a 20-byte address`);
    if (!isObject(acc)) throw new StateDumpError(`${at}: expected an object with nonce, balance, code, storage`);
    const storage: Array<[Uint8Array, Uint8Array]> = [];
    if (acc.storage !== undefined && acc.storage !== null) {
      if (!isObject(acc.storage)) throw new StateDumpError(`${at}.storage: expected an object of slot → value`);
      for (const [slot, value] of Object.entries(acc.storage)) {
        storage.push([word(hexBytes(slot, `${at}.storage key ${slot}`, 32)), word(hexBytes(value, `${at}.storage[${slot}]`, 32))]);
      }
    }
    const balance = uint(acc.balance ?? "0x0", `${at}.balance`);
    if (balance >= 1n << 256n) throw new StateDumpError(`${at}.balance: above 2^256 - 1`);
    const nonce = uint(acc.nonce ?? 0, `${at}.nonce`);
    if (nonce >= 1n << 64n) throw new StateDumpError(`${at}.nonce: above 2^64 - 1`);
    const code = acc.code === undefined || acc.code === null ? new Uint8Array() : hexBytes(acc.code, `${at}.code`);
    accounts.push({ address: createAddressFromString(addr.toLowerCase()), nonce, balance, code, storage });
  }
  let timestamp: bigint | undefined;
  let blockNumber: bigint | undefined;
  if (raw.block !== undefined && raw.block !== null) {
    if (!isObject(raw.block)) throw new StateDumpError("block: expected an object (Anvil's block environment)");
    if (raw.block.timestamp !== undefined) timestamp = uint(raw.block.timestamp, "block.timestamp");
    if (raw.block.number !== undefined) blockNumber = uint(raw.block.number, "block.number");
  }
  if (raw.best_block_number !== undefined && raw.best_block_number !== null) blockNumber = uint(raw.best_block_number, "best_block_number");
  const modules: ParsedDump["modules"] = new Map();
  const section = raw.hardhat_epochs;
  if (section !== undefined && section !== null) {
    if (!isObject(section) || section.version !== 1) throw new StateDumpError("hardhat_epochs: expected { version: 1, chain_id, block_number, timestamp } (written by a newer hardhat-epochs?)");
    if (section.block_number !== undefined) blockNumber = uint(section.block_number, "hardhat_epochs.block_number");
    if (section.timestamp !== undefined) timestamp = uint(section.timestamp, "hardhat_epochs.timestamp");
    if (section.modules !== undefined && !isObject(section.modules)) throw new StateDumpError("hardhat_epochs.modules: expected an object of module → entries");
    for (const [name, entries] of Object.entries(section.modules ?? {})) {
      if (!moduleNames.includes(name)) throw new StateDumpError(`hardhat_epochs.modules.${name}: this chain has no module ${name} (it has ${moduleNames.join(", ") || "none"})`);
      if (!isObject(entries)) throw new StateDumpError(`hardhat_epochs.modules.${name}: expected an object of key → value`);
      const set: Array<[Uint8Array, Uint8Array]> = [];
      for (const [k, v] of Object.entries(entries)) {
        const key = hexBytes(k, `hardhat_epochs.modules.${name} key ${k}`);
        const value = hexBytes(v, `hardhat_epochs.modules.${name}[${k}]`);
        // every record decoded with its module's own codec before anything is applied
        const why = chainModules.find((m) => m.name === name)?.checkRecord?.(key, value);
        if (why !== undefined) throw new StateDumpError(`hardhat_epochs.modules.${name}[${k}]: ${why}`);
        set.push([key, value]);
      }
      modules.set(name, set);
    }
  }
  return { accounts, blockNumber, timestamp, modules };
}

/**
 * Applies a parsed dump at the head, between blocks (run inside the node's lock): each account is
 * set to the dumped one (its old storage cleared), an older dump's module stores are written into
 * their accounts, and the chain time moves up to the dump's time when it is behind. Every module's
 * store and records are read back from the loaded state before it is kept: a load keeps nothing
 * when one cannot be read.
 */
export async function loadChainState(chain: ChainState, clock: Clock, dump: ParsedDump): Promise<void> {
  await chain.modifyState(async (sm) => {
    for (const a of dump.accounts) {
      await sm.putAccount(a.address, createAccount({ nonce: a.nonce, balance: a.balance }));
      await sm.clearStorage(a.address);
      if (a.code.length > 0) await sm.putCode(a.address, a.code);
      for (const [slot, value] of a.storage) {
        const trimmed = value.subarray(value.findIndex((x) => x !== 0) === -1 ? 32 : value.findIndex((x) => x !== 0));
        if (trimmed.length > 0) await sm.putStorage(a.address, slot, trimmed);
      }
    }
    for (const [name, entries] of dump.modules) {
      const module = chain.module(name);
      const store = MemoryModuleStore.writable(MemoryModuleStore.readOnly(entries));
      await writeModuleStore(sm, chain.moduleStores.storeAccount(module), store);
    }
    const state = slotReader(sm);
    for (const module of chain.modules) {
      const why = await chain.moduleStores.checkModuleState(module, state);
      if (why !== undefined) throw new StateDumpError(why);
    }
  });
  await tellStateOpened(chain);
  if (dump.timestamp !== undefined && dump.timestamp > clock.nowSeconds()) clock.jumpTo(dump.timestamp);
}
