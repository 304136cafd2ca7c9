/**
 * The one module environment (ModuleEnv, below): records, coins and gas over
 * a state, made by `moduleEnv` whatever the state is. What differs is only where the state is, one
 * `EnvState` each: a running precompile's EVM (balances through its journal, so they revert with the
 * call), a state manager outside any EVM (the live state between blocks for the dev helpers, a
 * state at a height for queries, a block's state for the modules' own block work inside
 * `runIsolated`), the genesis state (coins sent at genesis are minted), and a read-only state
 * (quiet-block checks, the end blocks' look before they act). The block modules
 * (src/cosmos/<module>/module.ts) and the precompiles import it rather than each other.
 */
import type { StateManagerInterface } from "@ethereumjs/common";
import type { PrecompileInput } from "@ethereumjs/evm";
import { type Account, Address, createAccount } from "@ethereumjs/util";
import { getBytes } from "ethers/utils";
import type { BlockContext, GenesisContext } from "../../chain/base/module";
import type { StateReader } from "../../chain/base/records";
import { BANK_PRECOMPILE } from "./accounts";
import { GasMeter, MeteredRecords, type RecordTally } from "./records";
import { insufficientFunds } from "./errors";
import { addSupply, coinAmount } from "./coins";

/** One execution of a module precompile: its block, caller, records, coins and gas. */
export interface ModuleEnv {
  height: bigint;
  /** Block time, Unix seconds. */
  time: bigint;
  gas: GasMeter;
  /** The records of the module at `account` (a precompile address). */
  records(account: string): MeteredRecords;
  balance(address: string): Promise<bigint>;
  /** Moves native coins; throws the bank's insufficient-funds error when `from` has too few. */
  send(from: string, to: string, amount: bigint): Promise<void>;
  /** Creates coins in `to` (the distribution module's minting). */
  mint(to: string, amount: bigint): Promise<void>;
  /** Destroys coins of `from` (a slash); throws when it holds fewer. */
  burn(from: string, amount: bigint): Promise<void>;
  /** The native coin's denom (aevmos, atest). */
  denom: string;
}

/**
 * The records the modules' own block work has read in this process (begin and end blocks, epoch
 * hooks, the quiet-block checks: every `blockEnv` and `readEnv`). The bound "a block's module work
 * reads what is due in it, not what callers wrote" is tested on it (test/cosmos/block-work.test.ts).
 */
export const blockWork: Readonly<RecordTally> = { reads: 0, bytes: 0 };

/** Code at the precompile accounts, so extcodesize checks pass and their storage can be written (0xfe: never run). */
export const INVALID_CODE = new Uint8Array([0xfe]);

/** Where a module env's state is: storage of any account, and native balances. */
export interface EnvState extends StateReader {
  putStorage(address: Uint8Array, key: Uint8Array, value: Uint8Array): Promise<void>;
  balance(address: Uint8Array): Promise<bigint>;
  /** Sets a balance from the one it had (the value is a coin amount: src/cosmos/common/coins.ts, coinAmount). */
  setBalance(address: Uint8Array, change: (balance: bigint) => bigint): Promise<void>;
  /** Genesis: a send mints to the receiver (the genesis accounts' coins come from nowhere). */
  mintsOnSend?: true;
}

/** The module env over `state` at `block`: records metered by `gas` (unmetered by default), coins of `denom`. */
export function moduleEnv(state: EnvState, block: { number: bigint; timestamp: bigint }, denom: string, gas: GasMeter = new GasMeter(2n ** 255n), tally?: RecordTally): ModuleEnv {
  const records = (account: string): MeteredRecords => {
    const address = getBytes(account);
    return new MeteredRecords({ get: (k) => state.getStorage(address, k), put: (k, v) => state.putStorage(address, k, v) }, gas, tally);
  };
  const balance = (address: string): Promise<bigint> => state.balance(getBytes(address));
  const add = async (to: string, amount: bigint): Promise<void> => state.setBalance(getBytes(to), (b) => coinAmount(b + amount));
  const take = async (from: string, amount: bigint): Promise<void> => {
    const have = await balance(from);
    if (have < amount) throw insufficientFunds(have, amount, denom);
    await state.setBalance(getBytes(from), (b) => b - amount);
  };
  const mint = async (to: string, amount: bigint): Promise<void> => {
    await add(to, amount);
    await addSupply(records(BANK_PRECOMPILE), amount);
  };
  return {
    height: block.number,
    time: block.timestamp,
    gas,
    denom,
    records,
    balance,
    send: async (from, to, amount) => {
      if (state.mintsOnSend === true) return mint(to, amount);
      if (amount === 0n) return;
      await take(from, amount);
      await add(to, amount);
    },
    mint,
    burn: async (from, amount) => {
      await take(from, amount);
      await addSupply(records(BANK_PRECOMPILE), -amount);
    },
  };
}

/** A state manager's state; accounts are written through `putAccount` (the state manager's own, or an EVM journal's). */
function managerState(sm: StateManagerInterface, putAccount: (a: Address, account: Account) => Promise<void> = (a, account) => sm.putAccount(a, account)): EnvState {
  return {
    getStorage: (address, key) => sm.getStorage(new Address(address), key),
    putStorage: (address, key, value) => sm.putStorage(new Address(address), key, value),
    balance: async (address) => (await sm.getAccount(new Address(address)))?.balance ?? 0n,
    setBalance: async (address, change) => {
      const a = new Address(address);
      const account = (await sm.getAccount(a)) ?? createAccount({ nonce: 0n, balance: 0n });
      account.balance = change(account.balance);
      await putAccount(a, account);
    },
  };
}

/** The env of a running precompile: balances go through the EVM's journal, so they revert with the call. */
export function precompileEnv(input: PrecompileInput, block: { number: bigint; timestamp: bigint }, denom: string, gas: GasMeter): ModuleEnv {
  const journal = input._EVM.journal;
  return moduleEnv(
    managerState(input._EVM.stateManager, (a, account) => journal.putAccount(a, account)),
    block,
    denom,
    gas,
  );
}

/** A module env over a state manager outside any EVM execution (the live state between blocks, a state at a height): unmetered. */
export function stateEnv(sm: StateManagerInterface, block: { number: bigint; timestamp: bigint }, denom: string, tally?: RecordTally): ModuleEnv {
  return moduleEnv(managerState(sm), block, denom, undefined, tally);
}

/** A module env over a block's state (BlockContext.state), for the modules' own block work; use it inside `runIsolated`. */
export function blockEnv(ctx: BlockContext, denom: string): ModuleEnv {
  return stateEnv(ctx.state, { number: ctx.height, timestamp: ctx.timestamp }, denom, blockWork as RecordTally);
}

/** A module env over genesis state: coins sent at genesis are minted to their receiver; nothing is burned. */
export function genesisEnv(ctx: GenesisContext, denom: string): ModuleEnv {
  const state: EnvState = {
    getStorage: (address, key) => ctx.getStorage(address, key),
    putStorage: (address, key, value) => ctx.putStorage(address, key, value),
    balance: async () => 0n,
    setBalance: async (address, change) => ctx.addBalance(address, change(0n)),
    mintsOnSend: true,
  };
  return moduleEnv(state, { number: ctx.height, timestamp: ctx.timestamp }, denom);
}

/** A module env that only reads (a block context's storage): for quietBefore and the end block's check. */
export function readEnv(state: StateReader): ModuleEnv {
  const refuse = (): never => {
    throw new Error("a read-only module env cannot move coins");
  };
  return moduleEnv(
    { getStorage: (address, key) => state.getStorage(address, key), putStorage: async () => refuse(), balance: async () => refuse(), setBalance: async () => refuse() },
    { number: 0n, timestamp: 0n },
    "",
    undefined,
    blockWork as RecordTally,
  );
}
