/**
 * Moving a chain instance (src/chain/store/chain-state.ts) to another block, durably.
 *
 * Commit is write-then-apply: a block's batch is written first, and only then do memory (head,
 * chain-store caches, live root) move to it; a failed write leaves the chain on its
 * last committed block. A rewind is written the same way.
 */
import type { Block } from "@ethereumjs/block";
import { KECCAK256_RLP, equalsBytes } from "@ethereumjs/util";
import type { BatchOp } from "../../storage/kv";
import type { ProducedBlock } from "./block-producer";
import type { ChainState } from "../store/chain-state";
import { ChainError, errorText } from "../base/errors";
import type { StateManagerInterface } from "@ethereumjs/common";
import type { Reservation, SteadyRun } from "../store/reserved-blocks";
import { checkpointDepth, revertToDepth } from "../engine/isolation";

/**
 * Writes a produced block in one batch (`extra`: more operations for it, the genesis meta record),
 * then moves memory to it. If the write fails, memory stays on the last committed block: the live
 * state goes back to the last committed root, and the trie
 * nodes wait for the next batch. Module stores are state: nothing of theirs is written apart.
 */
export async function commitBlock(chain: ChainState, p: ProducedBlock, extra: BatchOp[] = []): Promise<void> {
  const n = p.block.header.number;
  const head = chain.head as Block | undefined;
  const parentRoot = head?.header.stateRoot;
  const preState = parentRoot !== undefined && !equalsBytes(parentRoot, chain.liveRoot) ? chain.liveRoot : undefined;
  const ops: BatchOp[] = [
    ...chain.trieDb.drainOps(),
    ...chain.preimages.drainOps(),
    ...chain.store.commitBlockOps(p.block, p.receipts, p.events, preState),
    ...chain.addressIndex.commitOps(p.block, p.receipts),
    ...extra,
  ];
  try {
    await checkReadable(chain, p.block.header.stateRoot);
    await chain.store.kv.batch(ops);
  } catch (err) {
    // a state left inside a checkpoint cannot move: back to no checkpoint first (what it holds is the refused block's)
    await revertToDepth(chain.vm, 0);
    chain.trieDb.undrain();
    chain.preimages.undrain();
    await chain.vm.stateManager.setStateRoot(chain.liveRoot);
    const at = head === undefined ? "" : `, the node stays at block ${chain.headNumber}`;
    throw new ChainError(`block ${n} could not be written${at}: ${errorText(err)}`);
  }
  chain.store.didCommit(p.block, p.receipts);
  chain.moduleStores.rememberStores(p.block.header.stateRoot, p.stores);
  boundCaches(chain);
  chain.head = p.block;
  chain.liveRoot = p.block.header.stateRoot;
}

/**
 * A block is written only when its state can be read back from what the store will hold: no
 * checkpoint is open on the state (a checkpoint keeps the trie's new nodes in memory, where they never
 * reach the database), and the block's state root is stored or in the block's batch. Otherwise the
 * block is refused: a committed head whose state cannot be read would answer every state read with
 * an error from then on, and a home would not open again.
 */
async function checkReadable(chain: ChainState, root: Uint8Array): Promise<void> {
  const depth = checkpointDepth(chain.vm);
  if (depth !== 0) throw new Error(`its state is inside ${depth} open checkpoint(s)`);
  if (!equalsBytes(root, KECCAK256_RLP) && !(await chain.trieDb.persists(root))) throw new Error(`its state root ${Buffer.from(root).toString("hex")} is not in the store`);
}

/**
 * Writes a reserved range of empty blocks right above the head (src/chain/store/reserved-blocks.ts), then
 * moves the head to its last block. Nothing else changes: the range's blocks change no state.
 */
export async function commitReservation(chain: ChainState, r: Reservation): Promise<void> {
  if (!equalsBytes(r.stateRoot, chain.liveRoot)) throw new ChainError("reserved blocks start from the head's committed state");
  try {
    await chain.store.kv.batch(chain.store.reserveOps(r));
  } catch (err) {
    throw new ChainError(`blocks ${r.first} to ${r.last} could not be written, the node stays at block ${chain.headNumber}: ${errorText(err)}`);
  }
  chain.head = chain.store.didReserve(r);
}

/**
 * Writes a reserved range whose blocks play the modules' every-block work (src/chain/store/steady-runs.ts):
 * `write` puts what the played blocks leave into the live state, and the range is written with that
 * state's trie nodes in one batch, as a block is; a failed write leaves the chain on its head.
 * Call inside `changingLive`.
 */
export async function commitPlayedReservation(chain: ChainState, r: Omit<Reservation, "steady">, starts: SteadyRun["starts"], write: (state: StateManagerInterface) => Promise<void>): Promise<void> {
  if (!equalsBytes(r.stateRoot, chain.liveRoot)) throw new ChainError("reserved blocks start from the head's committed state");
  const sm = chain.vm.stateManager;
  await sm.checkpoint();
  let root: Uint8Array;
  try {
    await write(sm);
    await sm.commit();
    root = await sm.getStateRoot();
  } catch (err) {
    await revertToDepth(chain.vm, 0);
    await sm.setStateRoot(chain.liveRoot);
    throw err;
  }
  const played: Reservation = { ...r, steady: { starts, endBlock: r.last, endRoot: root } };
  const ops: BatchOp[] = [...chain.trieDb.drainOps(), ...chain.preimages.drainOps(), ...chain.store.reserveOps(played)];
  try {
    await checkReadable(chain, root);
    await chain.store.kv.batch(ops);
  } catch (err) {
    chain.trieDb.undrain();
    chain.preimages.undrain();
    await sm.setStateRoot(chain.liveRoot);
    throw new ChainError(`blocks ${r.first} to ${r.last} could not be written, the node stays at block ${chain.headNumber}: ${errorText(err)}`);
  }
  chain.head = chain.store.didReserve(played);
  chain.liveRoot = root;
  boundCaches(chain);
}

/** Rewinds head and state (module stores included) to block `n`, durably (evm_revert, debug_setHead). */
export async function rewindChain(chain: ChainState, n: bigint, stateRoot?: Uint8Array): Promise<void> {
  if (n > chain.headNumber) throw new ChainError(`block ${n} is above the head ${chain.headNumber}`);
  if (n < chain.firstBlock) throw new ChainError(`block ${n} is below the fork block ${chain.firstBlock}, where this chain starts`);
  // read before anything moves: from didRewind on, store and head move together, with no wait between
  // that a read could come in at
  const block = (await chain.store.getBlock(n)) as Block;
  const ops: BatchOp[] = [...chain.trieDb.drainOps(), ...(await chain.addressIndex.rewindOps(chain.store.madeHeights(chain.headNumber, n))), ...(await chain.store.rewindOps(n))];
  try {
    await chain.store.kv.batch(ops);
  } catch (err) {
    chain.trieDb.undrain();
    throw new ChainError(`the rewind to block ${n} could not be written, the node stays at block ${chain.headNumber}: ${errorText(err)}`);
  }
  const root = stateRoot ?? block.header.stateRoot;
  await chain.changingLive(async () => {
    chain.store.didRewind(n);
    chain.head = block;
    chain.liveRoot = root;
    await chain.vm.stateManager.setStateRoot(root);
  });
  // back on a block of a data directory older than module stores in the state: its store from the log
  await chain.adoptLoggedStores();
}

/**
 * EthereumJS's default caches (ordered maps) never evict: every account and slot a block ever
 * touched would stay in memory, so the node's memory would grow with the chain's state instead of
 * being bounded by caches. Right after a block is written nothing in them is unwritten (the block
 * flushed them to the trie), so they can be emptied then; they refill from the trie node cache.
 */
function boundCaches(chain: ChainState): void {
  const c = chain.caches;
  const size = (c.account?.size() ?? 0) + (c.storage?.size() ?? 0) + (c.code?.size() ?? 0);
  if (size > chain.cacheBounds.liveEntries) c.clear();
}
