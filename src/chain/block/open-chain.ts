/**
 * Opens a chain instance (src/chain/store/chain-state.ts) on a store: the chain the store holds (its
 * identity checked first), or a new one from its genesis block (a forked chain's first block is the
 * remote's fork block; a chain made for a loaded state dump starts at the dump's block).
 */
import { createBlock } from "@ethereumjs/block";
import { Address, KECCAK256_RLP, bytesToHex, createAccount, createAddressFromString, equalsBytes } from "@ethereumjs/util";
import { adoptBlockHash } from "../store/chain-store";
import { genesisAllocations } from "../base/config";
import { ChainState, type ChainStateOptions } from "../store/chain-state";
import type { Clock } from "../base/clock";
import { commitBlock, rewindChain } from "./commit";
import { checkForkMeta, forkMetaOps } from "../fork/meta";
import { checkGenesisMeta, genesisMetaOps, storeName } from "../base/genesis-meta";
import { hasLegacyModuleLog } from "../../storage/legacy-module-log";
import { MemoryModuleStore, slotReader, writeModuleStore } from "../base/module-state";

/**
 * Builds the chain instance and opens or initialises its store. `clock` starts at the configured
 * initial date on a new chain. A store that cannot be used is closed, so the caller (or the next
 * start) can open it again.
 */
export async function openChain(opts: ChainStateOptions, clock: Clock): Promise<ChainState> {
  try {
    const chain = await ChainState.create(opts);
    await openOrInit(chain, clock);
    await tellStateOpened(chain);
    return chain;
  } catch (err) {
    await opts.kv.close().catch(() => undefined);
    throw err;
  }
}

async function openOrInit(chain: ChainState, clock: Clock): Promise<void> {
  const { config, store } = chain;
  const head = await store.open();
  if (head >= 0n) {
    // identity first: blocks of another chain id do not even decode (their signatures name it)
    const forkOps = await checkForkMeta(store.kv, chain.fork);
    if (forkOps.length > 0) await store.kv.batch(forkOps);
    const genesis = await store.getBlock(chain.firstBlock);
    if (genesis === undefined) throw new Error(`data directory ${storeName(store.kv)} is damaged: its genesis block is missing`);
    const metaOps = await checkGenesisMeta(store.kv, config.chainId, bytesToHex(genesis.hash()));
    if (metaOps.length > 0) await store.kv.batch(metaOps);
    const headBlock = await store.getBlock(head);
    if (headBlock === undefined) throw new Error(`data directory ${storeName(store.kv)} is damaged: its head block ${head} is missing`);
    chain.head = headBlock;
    chain.liveRoot = headBlock.header.stateRoot;
    const readable = await lastReadableBlock(chain, head);
    if (readable < head) {
      // a head whose state was lost (written by a version that could commit one): back to the last
      // block whose state is there, durably, and said (ChainState.recovered)
      await rewindChain(chain, readable);
      chain.recovered = { head, at: readable };
    } else {
      await chain.vm.stateManager.setStateRoot(chain.liveRoot);
    }
    await migrateModuleLogs(chain);
    return;
  }
  const fork = chain.fork;
  // a forked chain's first block is the remote's fork block: its number, time, parent and hash
  const timestamp = fork?.block.timestamp ?? chain.start?.timestamp ?? BigInt(Math.floor((config.initialDate?.getTime() ?? Date.now()) / 1000));
  if (chain.start !== undefined) clock.jumpTo(chain.start.timestamp);
  else if (config.initialDate !== undefined) clock.jumpTo(BigInt(Math.floor(config.initialDate.getTime() / 1000)));
  const sm = chain.vm.stateManager;
  await sm.checkpoint();
  for (const { address, balance } of genesisAllocations(config)) {
    // on a fork the dev accounts keep their nonce (and code) at the remote and get the configured balance, as on Hardhat
    const remote = fork !== undefined ? await sm.getAccount(address) : undefined;
    await sm.putAccount(address, createAccount({ balance, nonce: remote?.nonce ?? 0n, codeHash: remote?.codeHash, storageRoot: remote?.storageRoot }));
  }
  const putCode = async (address: Uint8Array, code: Uint8Array): Promise<void> => {
    const a = new Address(address);
    // nonce 1 keeps the account from being cleared as empty (EIP-161)
    await sm.putAccount(a, createAccount({ nonce: 1n, balance: 0n }));
    await sm.putCode(a, code);
  };
  const putStorage = (address: Uint8Array, key: Uint8Array, value: Uint8Array): Promise<void> => sm.putStorage(new Address(address), key, value);
  const getStorage = (address: Uint8Array, key: Uint8Array): Promise<Uint8Array> => sm.getStorage(new Address(address), key);
  const addBalance = async (address: Uint8Array, amount: bigint): Promise<void> => {
    const a = new Address(address);
    const account = (await sm.getAccount(a)) ?? createAccount({ nonce: 0n, balance: 0n });
    account.balance += amount;
    await sm.putAccount(a, account);
  };
  const stores = new Map<string, MemoryModuleStore>();
  for (const module of chain.modules) {
    if (module.initGenesis === undefined) continue;
    const store = MemoryModuleStore.writable();
    await module.initGenesis({ height: chain.firstBlock, timestamp, store, putCode, putStorage, getStorage, addBalance });
    if (!store.changed) continue;
    await writeModuleStore(sm, chain.moduleStores.storeAccount(module), store);
    stores.set(module.name, store);
  }
  // a genesis file's contracts and nonces (an exported chain's), over what the modules' genesis made
  for (const a of config.genesisState ?? []) {
    const address = createAddressFromString(a.address);
    const account = (await sm.getAccount(address)) ?? createAccount({ nonce: 0n, balance: 0n });
    // a contract without a nonce gets 1, as a deployment leaves it (and EIP-161 keeps it)
    account.nonce = a.nonce ?? (a.code !== undefined && a.code.length > 0 && account.nonce === 0n ? 1n : account.nonce);
    await sm.putAccount(address, account);
    if (a.code !== undefined && a.code.length > 0) await sm.putCode(address, a.code);
    for (const [key, value] of a.storage ?? []) await sm.putStorage(address, key, value);
  }
  await sm.commit();
  const stateRoot = await sm.getStateRoot();
  const c = chain.common;
  const genesis = createBlock(
    {
      header: {
        number: chain.firstBlock,
        parentHash: fork?.block.parentHash,
        timestamp,
        gasLimit: config.blockGasLimit,
        stateRoot,
        coinbase: new Uint8Array(20),
        difficulty: 0n,
        nonce: new Uint8Array(8),
        extraData: new Uint8Array(),
        baseFeePerGas: c.isActivatedEIP(1559) ? (fork?.block.baseFeePerGas ?? config.initialBaseFeePerGas) : undefined,
        withdrawalsRoot: c.isActivatedEIP(4895) ? KECCAK256_RLP : undefined,
        blobGasUsed: c.isActivatedEIP(4844) ? 0n : undefined,
        excessBlobGas: c.isActivatedEIP(4844) ? 0n : undefined,
        parentBeaconBlockRoot: c.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
        requestsHash: c.isActivatedEIP(7685) ? sha256Empty() : undefined,
      },
      withdrawals: c.isActivatedEIP(4895) ? [] : undefined,
    },
    { common: c },
  );
  if (fork !== undefined) adoptBlockHash(genesis, fork.block.hash);
  const meta = [...genesisMetaOps({ chainId: config.chainId, genesisHash: bytesToHex(genesis.hash()) }), ...forkMetaOps(fork)];
  await commitBlock(chain, { block: genesis, receipts: [], results: [], events: { begin: [], end: [] }, skipped: [], stores, executions: [] }, meta);
}

/** The highest block from `head` down whose state root the store holds (the chain's first block at the least). */
async function lastReadableBlock(chain: ChainState, head: bigint): Promise<bigint> {
  for (let n = head; n > chain.firstBlock; n--) {
    const block = await chain.store.getBlock(n);
    if (block !== undefined && (equalsBytes(block.header.stateRoot, KECCAK256_RLP) || (await chain.trieDb.persists(block.header.stateRoot)))) return n;
  }
  return chain.firstBlock;
}

/**
 * A data directory written before module stores were EVM state keeps each store as a change log
 * beside the chain (src/storage/legacy-module-log.ts): the chain reads it where a state holds no
 * store record, and writes the head's store into the live state (ChainState.adoptLoggedStores).
 */
async function migrateModuleLogs(chain: ChainState): Promise<void> {
  for (const module of chain.modules) if (await hasLegacyModuleLog(chain.store.kv, module.name)) chain.moduleStores.legacyLogs.add(module.name);
  await chain.adoptLoggedStores();
}

function sha256Empty(): Uint8Array {
  // requestsHash of an empty request list (EIP-7685): sha256 of nothing
  return new Uint8Array(Buffer.from("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "hex"));
}

/** Tells each module the chain's state was opened or replaced (BlockModule.stateOpened). */
export async function tellStateOpened(chain: ChainState): Promise<void> {
  const state = slotReader(chain.vm.stateManager);
  for (const m of chain.modules) await m.stateOpened?.(state);
}

/** Closes a chain for good: the trie nodes not yet written go to its store, then the store and its fork's remote close. */
export async function closeChain(chain: ChainState): Promise<void> {
  const ops = chain.trieDb.drainOps();
  if (ops.length > 0) await chain.store.kv.batch(ops);
  await chain.store.kv.close();
  await chain.fork?.close();
}
