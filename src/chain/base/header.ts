/**
 * A block's header before its transactions run, from the fields the chain chooses: one builder for
 * the block producer (src/chain/block/block-producer.ts) and the reserved empty blocks
 * (src/chain/store/reserved-blocks.ts), so both make the same header.
 */
import { type HeaderData, genRequestsRoot } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import { KECCAK256_RLP } from "@ethereumjs/util";
import { createHash } from "node:crypto";

interface HeaderFields {
  parentHash: Uint8Array;
  number: bigint;
  timestamp: bigint;
  gasLimit: bigint;
  coinbase: Uint8Array;
  extraData: Uint8Array;
  mixHash: Uint8Array;
  baseFeePerGas: bigint;
  /** The parent's calcNextExcessBlobGas (EIP-4844 chains). */
  excessBlobGas: bigint;
}

/** EIP-7685's requests hash of no requests, computed once (a copy is handed out: headers own their fields). */
let NO_REQUESTS_HASH: Uint8Array | undefined;

/**
 * A block's header before its transactions run: what produceBlock builds on, and what a reserved
 * empty block is made of (src/chain/store/reserved-blocks.ts), so both are the same header.
 */
export function blockHeaderData(common: Common, f: HeaderFields): HeaderData {
  const headerData: HeaderData = {
    parentHash: f.parentHash,
    number: f.number,
    timestamp: f.timestamp,
    gasLimit: f.gasLimit,
    coinbase: f.coinbase,
    extraData: f.extraData,
    mixHash: f.mixHash,
    difficulty: 0n,
    nonce: new Uint8Array(8),
  };
  if (common.isActivatedEIP(1559)) headerData.baseFeePerGas = f.baseFeePerGas;
  if (common.isActivatedEIP(4895)) headerData.withdrawalsRoot = KECCAK256_RLP;
  if (common.isActivatedEIP(4844)) {
    headerData.excessBlobGas = f.excessBlobGas;
    headerData.blobGasUsed = 0n;
  }
  if (common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = new Uint8Array(32);
  // A Cosmos chain has no execution-layer requests: the hash of the empty list, the same for every block.
  if (common.isActivatedEIP(7685)) headerData.requestsHash = (NO_REQUESTS_HASH ??= genRequestsRoot([], sha256)).slice();
  return headerData;
}

function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}
