/**
 * The module environments (ModuleEnv, src/cosmos/common/ledger.ts) the modules' block work uses: over the
 * genesis state (coins sent at genesis are minted), over a block's state (the keepers' own work,
 * inside `runIsolated`), and read-only (quiet-block checks, the end blocks' look before they act).
 * Shared by the block modules (src/cosmos/<module>/module.ts), which
 * import it rather than each other.
 */
import { getBytes } from "ethers/utils";
import type { BlockContext, GenesisContext, StateReader } from "../../chain/module";
import type { StorageIO } from "../../chain/records";
import { BANK_PRECOMPILE, GasMeter, MeteredRecords, type ModuleEnv, addSupply, stateEnv } from "./ledger";

/** Code at the precompile accounts, so extcodesize checks pass and their storage can be written (0xfe: never run). */
export const INVALID_CODE = new Uint8Array([0xfe]);

/** A module env over genesis state: coins sent at genesis are minted to their receiver. */
export function genesisEnv(ctx: GenesisContext, denom: string): ModuleEnv {
  const gas = new GasMeter(2n ** 255n);
  const records = (account: string): MeteredRecords => {
    const io: StorageIO = {
      get: (k) => ctx.getStorage(getBytes(account), k),
      put: (k, v) => ctx.putStorage(getBytes(account), k, v),
    };
    return new MeteredRecords(io, gas);
  };
  return {
    height: ctx.height,
    time: ctx.timestamp,
    gas,
    denom,
    records,
    balance: async () => 0n,
    send: async (_from, to, amount) => {
      await ctx.addBalance(getBytes(to), amount);
      await addSupply(records(BANK_PRECOMPILE), amount);
    },
    mint: async (to, amount) => {
      await ctx.addBalance(getBytes(to), amount);
      await addSupply(records(BANK_PRECOMPILE), amount);
    },
    burn: async () => {
      throw new Error("nothing is burned at genesis");
    },
  };
}

/** A module env over a block's state (BlockContext.state), for the modules' own block work; use it inside `runIsolated`. */
export function blockEnv(ctx: BlockContext, denom: string): ModuleEnv {
  return stateEnv(ctx.state, { number: ctx.height, timestamp: ctx.timestamp }, denom);
}

/** A module env that only reads (a block context's storage): for quietBefore and the end block's check. */
export function readEnv(state: StateReader): ModuleEnv {
  const gas = new GasMeter(2n ** 255n);
  const refuse = (): never => {
    throw new Error("a read-only module env cannot move coins");
  };
  return {
    height: 0n,
    time: 0n,
    gas,
    denom: "",
    records: (account) =>
      new MeteredRecords(
        {
          get: (k) => state.getStorage(getBytes(account), k),
          put: async () => refuse(),
        },
        gas,
      ),
    balance: async () => refuse(),
    send: async () => refuse(),
    mint: async () => refuse(),
    burn: async () => refuse(),
  };
}
