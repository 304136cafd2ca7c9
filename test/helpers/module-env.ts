/**
 * A module environment without an EVM, for the keepers' and Msg servers' unit tests: storage and
 * native balances in memory, read and written through the same ModuleEnv (src/cosmos/common/module-env.ts)
 * the chain's precompiles and block work use, and the keepers from the wiring file (src/cosmos/app.ts).
 */
import { hexlify } from "ethers";
import { keepers, type Keepers } from "../../src/cosmos/app";
import { type EnvState, moduleEnv } from "../../src/cosmos/common/module-env";
import { DEC, newValidator } from "../../src/cosmos/staking/types";

/** An in-memory state: storage and balances by address. */
export function memoryState(): EnvState & { balances: Map<string, bigint> } {
  const slots = new Map<string, Uint8Array>();
  const balances = new Map<string, bigint>();
  const k = (a: Uint8Array, key?: Uint8Array) => `${hexlify(a).toLowerCase()}/${key === undefined ? "" : hexlify(key)}`;
  return {
    balances,
    getStorage: async (a, key) => slots.get(k(a, key)) ?? new Uint8Array(32),
    putStorage: async (a, key, v) => void (v.length === 0 || v.every((b) => b === 0) ? slots.delete(k(a, key)) : slots.set(k(a, key), v)),
    balance: async (a) => balances.get(k(a)) ?? 0n,
    setBalance: async (a, change) => void balances.set(k(a), change(balances.get(k(a)) ?? 0n)),
  };
}

export const DENOM = "atest";
export const OP0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
export const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

/** The keepers over `state` at block `number`, time `time` (seconds). */
export function keepersAt(state: EnvState, time = 1_000n, number = 10n): Keepers {
  return keepers(moduleEnv(state, { number, timestamp: time }, DENOM));
}

/**
 * A chain's module state in memory: staking (unbonding 100 s), distribution (2 % community tax) and
 * one bonded validator OP0 with 10 coins self-delegated; ALICE holds 100 coins.
 */
export async function stakingChain(): Promise<{ state: ReturnType<typeof memoryState>; at: (time?: bigint) => Keepers }> {
  const state = memoryState();
  const at = (time = 1_000n) => keepersAt(state, time);
  const k = at();
  await state.setBalance(hexBytes(OP0), () => 10n * DEC);
  await state.setBalance(hexBytes(ALICE), () => 100n * DEC);
  await k.staking.setParams({ unbondingTime: 100n, maxEntries: 7, maxValidators: 100 });
  await k.distribution.setParams({ communityTax: (2n * DEC) / 100n, epochIdentifier: "day", rewardsPerEpoch: 0n });
  await k.staking.setValidator(newValidator({ operator: OP0, consensusPubkey: "", commissionRate: DEC / 10n, time: 0n, bonded: true }));
  await k.staking.delegate(OP0, OP0, 10n * DEC);
  // as genesis ends (src/cosmos/staking/module.ts initGenesisValidators): the indexes written
  await k.staking.migrate();
  return { state, at };
}

/** A state's balance of `address`. */
export const balanceOf = (state: ReturnType<typeof memoryState>, address: string): bigint => state.balances.get(`${address.toLowerCase()}/`) ?? 0n;

function hexBytes(address: string): Uint8Array {
  return Uint8Array.from(Buffer.from(address.slice(2), "hex"));
}
