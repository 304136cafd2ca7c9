/**
 * Where each module's store lives in the chain's state and how it is read: the account whose storage
 * holds it, the stores of the last committed state remembered by root (so the next block, quiet-block
 * checks and queries at the head do not decode every timer again), the stores an older data
 * directory logged beside the chain, and the check a dev write or a loaded dump must pass. One per
 * chain instance (src/chain/store/chain-state.ts); block production reads through it.
 */
import { bytesToHex, equalsBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import type { KVStore } from "../../storage/kv";
import { readLegacyModuleSet } from "../../storage/legacy-module-log";
import type { BlockModule } from "../base/module";
import type { StateReader } from "../base/records";
import { EMPTY_MODULE_STORE, MemoryModuleStore, moduleAddress, readModuleStore, slotReader } from "../base/module-state";

export class ModuleStores {
  /**
   * Modules whose stores a data directory of a version before module stores were EVM state logged
   * beside the chain: read at heights whose state holds no store record (src/storage/legacy-module-log.ts).
   */
  readonly legacyLogs = new Set<string>();

  /**
   * The module stores of one committed state, by its root: what the last block left (a block knows
   * them when it commits), so the next block, quiet-block checks and queries at the head do not read
   * and decode every timer again. A root names one state, so an entry is never stale.
   */
  private _storesAtRoot: { root: Uint8Array; stores: Map<string, MemoryModuleStore> } | undefined;

  constructor(private readonly _kv: KVStore) {}

  /** The account whose storage holds `module`'s store (asked in every phase of every block: computed once). */
  storeAccount(module: BlockModule): Uint8Array {
    let account = this._storeAccounts.get(module);
    if (account === undefined) this._storeAccounts.set(module, (account = module.storeAccount ?? moduleAddress(module.name)));
    return account;
  }

  private readonly _storeAccounts = new Map<BlockModule, Uint8Array>();

  /**
   * `module`'s store in state `sm`, which is the state after block `height` (read-only: block
   * production makes a writable copy). A state without the store's record is one a data directory
   * of an older version wrote: its store is read from the log that version kept, else it is empty.
   */
  async readModuleStore(module: BlockModule, sm: VM["stateManager"], height: bigint, root?: Uint8Array): Promise<MemoryModuleStore> {
    const at = this._storesAtRoot;
    const known = root !== undefined && at !== undefined && equalsBytes(at.root, root) ? at.stores.get(module.name) : undefined;
    if (known !== undefined) return known;
    const stored = await readModuleStore(slotReader(sm), this.storeAccount(module));
    if (stored !== undefined) {
      if (root !== undefined) this.rememberStores(root, new Map([[module.name, stored]]));
      return stored;
    }
    if (!this.legacyLogs.has(module.name)) {
      if (root !== undefined) this.rememberStores(root, new Map([[module.name, EMPTY_MODULE_STORE]]));
      return EMPTY_MODULE_STORE;
    }
    // not remembered by root: in an older data directory a block could change the logged store and not the state
    return MemoryModuleStore.readOnly(await readLegacyModuleSet(this._kv, module.name, height));
  }

  /** Remembers module stores (read-only) as the committed state `root` holds them. */
  rememberStores(root: Uint8Array, stores: ReadonlyMap<string, MemoryModuleStore>): void {
    const at = this._storesAtRoot;
    const same = at !== undefined && equalsBytes(at.root, root);
    const next = same ? at.stores : new Map<string, MemoryModuleStore>();
    for (const [name, store] of stores) next.set(name, store.snapshot());
    this._storesAtRoot = { root, stores: next };
  }

  /**
   * Why `module`'s store and the records it keeps as EVM state cannot be read in `state` (undefined
   * when they can): what a dev write or a loaded dump must not leave behind.
   */
  async checkModuleState(module: BlockModule, state: StateReader): Promise<string | undefined> {
    let store;
    try {
      store = await readModuleStore(state, this.storeAccount(module));
    } catch (err) {
      return `the ${module.name} module's store cannot be read: ${(err as Error).message}`;
    }
    for (const [key, value] of store?.entries() ?? []) {
      const why = module.checkRecord?.(key, value);
      if (why !== undefined) return `the ${module.name} module's record ${bytesToHex(key)}: ${why}`;
    }
    if (module.checkState === undefined) return undefined;
    try {
      await module.checkState(state);
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  }
}
