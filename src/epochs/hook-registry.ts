/**
 * The epochs precompile at 0x…0900 (contracts/IEpochs.sol) and the registry of contract hooks it keeps.
 *
 * Registration is EVM state — the storage of the precompile account — so it reverts with its
 * transaction, with evm_revert, and persists like any state. Layout (as Solidity would lay out
 * `address[] hooks; mapping(address => uint256) indexPlusOne;`):
 *   slot 0                      number of registered hooks n
 *   slot keccak256(0) + i       hook i (0 ≤ i < n), in registration order
 *   slot keccak256(addr ‖ 1)    index of addr + 1 (0 = not registered)
 */
import type { PrecompileInput } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import { Address } from "@ethereumjs/util";
import { AbiCoder, Interface, concat, getBytes, keccak256, toBeHex, zeroPadValue } from "ethers";
import { type EpochInfo, NANOS, toNanos } from "./epoch-info";

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

export const HOOKS_ABI = new Interface([
  "function beforeEpochStart(string identifier, int64 epochNumber)",
  "function afterEpochEnd(string identifier, int64 epochNumber)",
]);

const ERROR_ABI = new Interface(["error Error(string)"]);

const slot = (n: bigint): Uint8Array => getBytes(toBeHex(n, 32));
const COUNT_SLOT = slot(0n);
const ARRAY_BASE = BigInt(keccak256(COUNT_SLOT));
const elementSlot = (i: bigint): Uint8Array => slot(ARRAY_BASE + i);
const indexSlot = (addr: Uint8Array): Uint8Array => getBytes(keccak256(concat([zeroPadValue(addr, 32), slot(1n)])));

/** Storage access in the shape both the precompile (state manager) and block context (getStorage) offer. */
export interface SlotStore {
  get(key: Uint8Array): Promise<Uint8Array>;
  put?(key: Uint8Array, value: Uint8Array): Promise<void>;
}

const toBig = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString("hex")}`));
const addrOf = (b: Uint8Array): Uint8Array => slot(toBig(b)).subarray(12);

export async function registeredHooks(store: SlotStore): Promise<Uint8Array[]> {
  const n = toBig(await store.get(COUNT_SLOT));
  const out: Uint8Array[] = [];
  for (let i = 0n; i < n; i++) out.push(addrOf(await store.get(elementSlot(i))));
  return out;
}

/** Adds `addr`; false when it is already registered. */
export async function register(store: Required<SlotStore>, addr: Uint8Array): Promise<boolean> {
  if (toBig(await store.get(indexSlot(addr))) !== 0n) return false;
  const n = toBig(await store.get(COUNT_SLOT));
  await store.put(elementSlot(n), slot(toBig(addr)));
  await store.put(indexSlot(addr), slot(n + 1n));
  await store.put(COUNT_SLOT, slot(n + 1n));
  return true;
}

/** Removes `addr`, keeping the others in registration order; false when it was not registered. */
export async function unregister(store: Required<SlotStore>, addr: Uint8Array): Promise<boolean> {
  const idx = toBig(await store.get(indexSlot(addr)));
  if (idx === 0n) return false;
  const n = toBig(await store.get(COUNT_SLOT));
  for (let i = idx; i < n; i++) {
    const moved = await store.get(elementSlot(i));
    await store.put(elementSlot(i - 1n), moved);
    await store.put(indexSlot(addrOf(moved)), slot(i));
  }
  await store.put(elementSlot(n - 1n), new Uint8Array());
  await store.put(indexSlot(addr), new Uint8Array());
  await store.put(COUNT_SLOT, slot(n - 1n));
  return true;
}

/** The slot store of the precompile account inside a running EVM. */
export function evmSlotStore(input: PrecompileInput): Required<SlotStore> {
  const account = new Address(EPOCHS_PRECOMPILE_BYTES);
  const sm = input._EVM.stateManager;
  return {
    get: (k) => sm.getStorage(account, k),
    put: (k, v) => sm.putStorage(account, k, v),
  };
}

export interface PrecompileDeps {
  /** msg.sender of the call to the precompile. */
  caller(): Uint8Array;
  /** The epochs records as the store holds them now. */
  infos(): EpochInfo[];
}

const READ_GAS = 2_600n;
const PER_RECORD_GAS = 800n;
const WRITE_GAS = 45_000n;

function result(gasLimit: bigint, gas: bigint, returnValue: Uint8Array, logs?: Array<[Uint8Array, Uint8Array[], Uint8Array]>) {
  if (gas > gasLimit) return { returnValue: new Uint8Array(), executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
  return { returnValue, executionGasUsed: gas, logs };
}

function revert(gasLimit: bigint, gas: bigint, reason: string) {
  return {
    returnValue: getBytes(ERROR_ABI.encodeErrorResult("Error", [reason])),
    executionGasUsed: gas > gasLimit ? gasLimit : gas,
    exceptionError: new EVMError(EVMError.errorMessages.REVERT),
  };
}

const secondsOf = (n: bigint): bigint => {
  const s = n / NANOS;
  return n < 0n && n % NANOS !== 0n ? s - 1n : s;
};

/** The precompile function (EthereumJS `PrecompileFunc`). */
export function createEpochsPrecompile(deps: PrecompileDeps) {
  return async (input: PrecompileInput) => {
    const data = input.data;
    const gasLimit = input.gasLimit;
    let call;
    try {
      call = EPOCHS_ABI.parseTransaction({ data: `0x${Buffer.from(data).toString("hex")}` });
    } catch {
      call = null;
    }
    if (call === null) return revert(gasLimit, READ_GAS, "epochs precompile: unknown function selector");
    const coder = AbiCoder.defaultAbiCoder();
    switch (call.name) {
      case "epochInfos": {
        const infos = deps.infos();
        const rows = infos.map((e) => [
          e.identifier,
          secondsOf(toNanos(e.startTime)),
          secondsOf(toNanos(e.duration)),
          e.currentEpoch,
          secondsOf(toNanos(e.currentEpochStartTime)),
          e.epochCountingStarted,
          e.currentEpochStartHeight,
        ]);
        return result(gasLimit, READ_GAS + PER_RECORD_GAS * BigInt(infos.length), getBytes(EPOCHS_ABI.encodeFunctionResult("epochInfos", [rows])));
      }
      case "currentEpoch": {
        const id = call.args[0] as string;
        const info = deps.infos().find((e) => e.identifier === id);
        if (info === undefined) return revert(gasLimit, READ_GAS, `epoch info not found: ${id}`);
        return result(gasLimit, READ_GAS, getBytes(coder.encode(["int64"], [info.currentEpoch])));
      }
      case "hooks": {
        const list = await registeredHooks(evmSlotStore(input));
        return result(gasLimit, READ_GAS + PER_RECORD_GAS * BigInt(list.length), getBytes(coder.encode(["address[]"], [list.map((a) => `0x${Buffer.from(a).toString("hex")}`)])));
      }
      case "registerHooks":
      case "unregisterHooks": {
        if (gasLimit < WRITE_GAS) return result(gasLimit, WRITE_GAS, new Uint8Array());
        const caller = deps.caller();
        const store = evmSlotStore(input);
        const changed = call.name === "registerHooks" ? await register(store, caller) : await unregister(store, caller);
        const event = EPOCHS_ABI.getEvent(call.name === "registerHooks" ? "HooksRegistered" : "HooksUnregistered");
        const logs: Array<[Uint8Array, Uint8Array[], Uint8Array]> = changed ? [[EPOCHS_PRECOMPILE_BYTES, [getBytes(event!.topicHash), slot(toBig(caller))], new Uint8Array()]] : [];
        return result(gasLimit, WRITE_GAS, getBytes(coder.encode(["bool"], [changed])), logs);
      }
      default:
        return revert(gasLimit, READ_GAS, `epochs precompile: ${call.name} is not callable`);
    }
  };
}

