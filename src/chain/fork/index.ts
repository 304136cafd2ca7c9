/**
 * Forking: a local chain that starts on top of a remote node's state at one block. `Fork.open` pins
 * the block (the remote's latest unless given), reads its header, and opens the on-disk cache; the
 * node then builds its state on `Fork.stateManager` and its first block on `Fork.block`.
 */
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { Caches, type MerkleStateManagerOpts } from "@ethereumjs/statemanager";
import type { Common } from "@ethereumjs/common";
import { ValueEncoding, bytesToHex, hexToBytes } from "@ethereumjs/util";
import { MemoryKV } from "../../storage/memory-kv";
import { TrieDB } from "../../storage/trie-db";
import { ForkCacheFile, type RemoteBlockJson, readRemoteBlock, writeRemoteBlock } from "./cache";
import { ForkError, RemoteClient } from "./remote";
import { RemoteState } from "./remote-state";
import { ForkStateManager } from "./state-manager";

export interface ForkConfig {
  /** The remote's JSON-RPC endpoint (http or https). */
  url: string;
  /** The block to fork from; the remote's latest when absent (then nothing is cached on disk). */
  blockNumber?: bigint;
  httpHeaders?: Record<string, string>;
  /** Folder of the on-disk cache; none when absent. */
  cacheDir?: string;
  /** Deadline of one remote request, ms. */
  timeoutMs?: number;
}

/** The remote block the local chain continues from. */
interface ForkBlock {
  number: bigint;
  hash: Uint8Array;
  parentHash: Uint8Array;
  timestamp: bigint;
  gasLimit: bigint;
  baseFeePerGas?: bigint;
}

export class Fork {
  /** Remote states of blocks below the fork block (historical reads), by number; a few are kept. */
  private readonly _older = new Map<bigint, RemoteState>();
  private readonly _files: ForkCacheFile[] = [];
  /** The remote at the fork block. */
  readonly remote: RemoteState;

  private constructor(
    readonly config: ForkConfig,
    readonly client: RemoteClient,
    /** The remote's chain id. */
    readonly chainId: bigint,
    readonly block: ForkBlock,
    /** Whether the block was pinned by the user (only then is the disk cache used). */
    readonly pinned: boolean,
  ) {
    this.remote = this._newRemote(block.number);
  }

  /** Pins the block and reads its header (from the disk cache when a run already did). */
  static async open(config: ForkConfig): Promise<Fork> {
    const client = new RemoteClient(config.url, { headers: config.httpHeaders, timeoutMs: config.timeoutMs });
    const pinned = config.blockNumber !== undefined;
    const dir = config.cacheDir;
    let json = pinned && dir !== undefined ? readRemoteBlock(dir, config.url, config.blockNumber as bigint) : undefined;
    if (json === undefined) {
      json = await fetchBlock(client, config.blockNumber);
      if (pinned && dir !== undefined) writeRemoteBlock(dir, config.url, config.blockNumber as bigint, json);
    }
    const block: ForkBlock = {
      number: BigInt(json.number),
      hash: hexToBytes(json.hash as `0x${string}`),
      parentHash: hexToBytes(json.parentHash as `0x${string}`),
      timestamp: BigInt(json.timestamp),
      gasLimit: BigInt(json.gasLimit),
      baseFeePerGas: json.baseFeePerGas !== undefined ? BigInt(json.baseFeePerGas) : undefined,
    };
    const chainId = BigInt(json.chainId);
    return new Fork(config, client, chainId, block, pinned);
  }

  /** The state manager of the local chain: a local trie over the remote at the fork block. */
  stateManager(opts: MerkleStateManagerOpts): ForkStateManager {
    return new ForkStateManager(opts, this.remote);
  }

  /** A read-only state at an older remote block (every read goes to the remote or its cache). */
  stateBelow(n: bigint, common: Common): ForkStateManager {
    if (n >= this.block.number) throw new Error(`block ${n} is not below the fork block ${this.block.number}`);
    const trie = new MerklePatriciaTrie({ db: new TrieDB(new MemoryKV()), useKeyHashing: true, common, valueEncoding: ValueEncoding.Bytes });
    return new ForkStateManager({ trie, common, caches: new Caches() }, this._remoteAt(n));
  }

  /** Remote requests sent so far (each batch counts once). */
  get requests(): number {
    return this.client.requests;
  }

  /** Waits until every cache record read so far is on disk. */
  async close(): Promise<void> {
    await Promise.all(this._files.map((f) => f.flush()));
  }

  private _remoteAt(n: bigint): RemoteState {
    if (n === this.block.number) return this.remote;
    const known = this._older.get(n);
    if (known !== undefined) return known;
    const state = this._newRemote(n);
    if (this._older.size >= 16) this._older.delete(this._older.keys().next().value as bigint);
    this._older.set(n, state);
    return state;
  }

  /** The remote at block `n`, with its cache file when the fork block is pinned (blocks at or below it are final). */
  private _newRemote(n: bigint): RemoteState {
    const dir = this.config.cacheDir;
    const file = this.pinned && dir !== undefined ? ForkCacheFile.open(dir, this.chainId, this.block.number, bytesToHex(this.block.hash), n) : undefined;
    if (file !== undefined) this._files.push(file);
    return new RemoteState(this.client, n, file);
  }
}

async function fetchBlock(client: RemoteClient, blockNumber: bigint | undefined): Promise<RemoteBlockJson> {
  const [chainIdHex, latestHex] = (await client.batch([
    { method: "eth_chainId", params: [] },
    { method: "eth_blockNumber", params: [] },
  ])) as [unknown, unknown];
  if (typeof chainIdHex !== "string" || typeof latestHex !== "string") throw new ForkError(`fork remote ${client.name} answered eth_chainId/eth_blockNumber with something that is not a quantity`);
  const latest = BigInt(latestHex);
  const n = blockNumber ?? latest;
  if (n > latest) throw new ForkError(`fork block ${n} is in the future: the latest block of ${client.name} is ${latest}`);
  const b = (await client.call("eth_getBlockByNumber", [`0x${n.toString(16)}`, false])) as Record<string, unknown> | null;
  if (b === null || typeof b !== "object" || typeof b.hash !== "string") {
    throw new ForkError(`fork remote ${client.name} has no block ${n} (a node that prunes old state needs to be an archive node to fork an old block)`);
  }
  const str = (k: string): string => {
    const v = b[k];
    if (typeof v !== "string") throw new ForkError(`fork remote ${client.name} answered block ${n} without ${k}`);
    return v;
  };
  return {
    chainId: chainIdHex,
    number: `0x${n.toString(16)}`,
    hash: str("hash"),
    parentHash: str("parentHash"),
    timestamp: str("timestamp"),
    gasLimit: str("gasLimit"),
    ...(typeof b.baseFeePerGas === "string" ? { baseFeePerGas: b.baseFeePerGas } : {}),
  };
}
