/**
 * The epochs precompile at 0x…0900 (contracts/IEpochs.sol) and the registry of contract hooks it keeps.
 *
 * Registration is EVM state — the storage of the precompile account — so it reverts with its
 * transaction, with evm_revert, and persists like any state. Layout (what Solidity would use for
 * `address[] hooks; mapping(address => uint256) indexPlusOne;`):
 *   slot 0                         n, the number of registered hooks
 *   slot keccak256(uint256(0)) + i hook i (0 ≤ i < n), right-aligned, in registration (= call) order
 *   slot keccak256(addr ‖ uint256(1)) index of addr + 1 (0 = not registered); addr left-padded to 32 bytes
 * Unregistering shifts the later entries down one, so the others keep their order.
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { Interface } from "ethers/abi";
import { concat, getBytes, hexlify, toBeHex, zeroPadValue } from "ethers/utils";
import { keccak256 } from "ethers/crypto";
import { type PrecompileCall, type PrecompileHandler, type PrecompilePolicy, PrecompileRevert, createPrecompile } from "../chain/base/precompile";
import { type EpochInfo, floorSeconds } from "./types";
import { type StorageIO, accountStorage } from "../chain/base/records";

export const EPOCHS_PRECOMPILE = "0x0000000000000000000000000000000000000900" as const;
export const EPOCHS_PRECOMPILE_BYTES = getBytes(EPOCHS_PRECOMPILE);

export const EPOCHS_ABI = new Interface([
  "function epochInfos() view returns ((string identifier, int64 startTime, int64 duration, int64 currentEpoch, int64 currentEpochStartTime, bool epochCountingStarted, int64 currentEpochStartHeight)[])",
  "function currentEpoch(string identifier) view returns (int64)",
  "function hooks() view returns (address[])",
  "function registerHooks() returns (bool)",
  "function unregisterHooks() returns (bool)",
  "event HooksRegistered(address indexed hooks)",
  "event HooksUnregistered(address indexed hooks)",
]);

export const HOOKS_ABI = new Interface(["function beforeEpochStart(string identifier, int64 epochNumber)", "function afterEpochEnd(string identifier, int64 epochNumber)"]);

const slot = (n: bigint): Uint8Array => getBytes(toBeHex(n, 32));
export const HOOKS_COUNT_SLOT = slot(0n);
const ARRAY_BASE = BigInt(keccak256(HOOKS_COUNT_SLOT));
export const hookElementSlot = (i: bigint): Uint8Array => slot(ARRAY_BASE + i);
const hookIndexSlot = (addr: Uint8Array): Uint8Array => getBytes(keccak256(concat([zeroPadValue(addr, 32), slot(1n)])));

const toBig = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(hexlify(b)));
const addrOf = (b: Uint8Array): Uint8Array => slot(toBig(b)).subarray(12);
const EMPTY = new Uint8Array();

/** How many hook contracts are registered (one slot read). */
export async function hookCount(store: Pick<StorageIO, "get">): Promise<bigint> {
  return toBig(await store.get(HOOKS_COUNT_SLOT));
}

/** The registered hook contracts, in call order. */
export async function registeredHooks(store: Pick<StorageIO, "get">): Promise<Uint8Array[]> {
  const n = await hookCount(store);
  const out: Uint8Array[] = [];
  for (let i = 0n; i < n; i++) out.push(addrOf(await store.get(hookElementSlot(i))));
  return out;
}

/** Appends `addr`; false when it is already registered. */
export async function register(store: StorageIO, addr: Uint8Array): Promise<boolean> {
  if (toBig(await store.get(hookIndexSlot(addr))) !== 0n) return false;
  const n = toBig(await store.get(HOOKS_COUNT_SLOT));
  await store.put(hookElementSlot(n), slot(toBig(addr)));
  await store.put(hookIndexSlot(addr), slot(n + 1n));
  await store.put(HOOKS_COUNT_SLOT, slot(n + 1n));
  return true;
}

/** Removes `addr`, keeping the others in registration order; false when it was not registered. */
export async function unregister(store: StorageIO, addr: Uint8Array): Promise<boolean> {
  const idx = toBig(await store.get(hookIndexSlot(addr)));
  if (idx === 0n) return false;
  const n = toBig(await store.get(HOOKS_COUNT_SLOT));
  for (let i = idx; i < n; i++) {
    const moved = await store.get(hookElementSlot(i));
    await store.put(hookElementSlot(i - 1n), moved);
    await store.put(hookIndexSlot(addrOf(moved)), slot(i));
  }
  // an empty value deletes the slot
  await store.put(hookElementSlot(n - 1n), EMPTY);
  await store.put(hookIndexSlot(addr), EMPTY);
  await store.put(HOOKS_COUNT_SLOT, n - 1n === 0n ? EMPTY : slot(n - 1n));
  return true;
}

/**
 * The hook registry's slots (the precompile account's storage) in a state: a running EVM's (reverted
 * with the call's checkpoint), or the live state between blocks (epochs_registerHooks).
 */
export function hookSlots(sm: Parameters<typeof accountStorage>[0]): StorageIO {
  return accountStorage(sm, EPOCHS_PRECOMPILE_BYTES);
}

/**
 * What the precompile asks of the chain about the execution it runs in (one EVM may be the live
 * chain's, another a call's or a trace's at an older height): each answer is for `input`'s EVM.
 */
export interface PrecompileDeps {
  /** msg.sender of the current call to the precompile (the chain tracks the message stack). */
  caller(input: PrecompileInput): Uint8Array;
  /** The epochs records as that execution's state holds them, in identifier-byte order. */
  infos(input: PrecompileInput): Promise<EpochInfo[]>;
  /** True inside a STATICCALL: registration then reverts. */
  isStatic(input: PrecompileInput): boolean;
  /** Runs as the calling contract's code (DELEGATECALL, CALLCODE): registration then reverts too. */
  delegated(input: PrecompileInput): boolean;
}

// flat prices: a cold SLOAD for reads, about two SSTOREs for a registration
export const READ_GAS = 2_600n;
export const PER_RECORD_GAS = 800n;
export const WRITE_GAS = 45_000n;

/** The epochs precompile's prices (flat per method, plus per record listed) and its own refusal texts. */
const EPOCHS_POLICY: PrecompilePolicy = {
  baseGas: (_fn, _data, isTx) => (isTx ? WRITE_GAS : READ_GAS),
  refusal: (r) => {
    switch (r.kind) {
      case "short":
      case "unknown":
        return { reason: "epochs precompile: unknown function selector", gas: READ_GAS };
      case "static":
        return { reason: `epochs precompile: ${r.fn === "fallback" ? r.fn : r.fn.name} in a static call`, gas: READ_GAS };
      case "delegated":
        return { reason: `epochs precompile: ${r.fn === "fallback" ? r.fn : r.fn.name} through DELEGATECALL or CALLCODE acts for no caller`, gas: READ_GAS };
      case "arguments":
        return { reason: `epochs precompile: invalid arguments for ${r.fn.name}`, gas: READ_GAS };
    }
  },
};

/** A row of `IEpochs.EpochInfo`: times in Unix seconds (floored), duration in seconds. */
function epochInfoRow(e: EpochInfo): [string, bigint, bigint, bigint, bigint, boolean, bigint] {
  return [e.identifier, floorSeconds(e.startTime), floorSeconds(e.duration), e.currentEpoch, floorSeconds(e.currentEpochStartTime), e.epochCountingStarted, e.currentEpochStartHeight];
}

/** The precompile function (EthereumJS `PrecompileFunc`), on the chain's precompile framework (src/chain/base/precompile.ts). */
export function createEpochsPrecompile(deps: PrecompileDeps): (input: PrecompileInput) => Promise<ExecResult> {
  const changeHooks = async (call: PrecompileCall, registering: boolean): Promise<unknown[]> => {
    const store = hookSlots(call.input._EVM.stateManager);
    const changed = registering ? await register(store, call.caller) : await unregister(store, call.caller);
    if (changed) call.emit(registering ? "HooksRegistered" : "HooksUnregistered", [hexlify(call.caller)]);
    return [changed];
  };
  const handlers: Record<string, PrecompileHandler> = {
    epochInfos: async (call) => {
      const infos = await deps.infos(call.input);
      call.gas.charge(PER_RECORD_GAS * BigInt(infos.length));
      return [infos.map(epochInfoRow)];
    },
    currentEpoch: async (call) => {
      const id = call.args[0] as string;
      const info = (await deps.infos(call.input)).find((e) => e.identifier === id);
      if (info === undefined) throw new PrecompileRevert(`epoch info not found: ${id}`);
      return [info.currentEpoch];
    },
    hooks: async (call) => {
      const list = await registeredHooks(hookSlots(call.input._EVM.stateManager));
      call.gas.charge(PER_RECORD_GAS * BigInt(list.length));
      return [list.map((a) => hexlify(a))];
    },
    registerHooks: (call) => changeHooks(call, true),
    unregisterHooks: (call) => changeHooks(call, false),
  };
  return createPrecompile({ address: EPOCHS_PRECOMPILE, abi: EPOCHS_ABI, handlers, transactions: new Set(["registerHooks", "unregisterHooks"]), policy: EPOCHS_POLICY }, deps);
}
