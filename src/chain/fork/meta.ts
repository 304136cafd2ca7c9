/**
 * What a store records about the fork it holds (key "meta/fork": chain id, block number and hash of
 * the remote's fork block), so a data directory is never resumed against another fork or without one.
 */
import { bytesToHex } from "@ethereumjs/util";
import type { BatchOp, KVStore } from "../../storage/kv";
import { storeName } from "../base/genesis-meta";
import type { Fork } from "./index";

const enc = new TextEncoder();
const dec = new TextDecoder();
const K_FORK = enc.encode("meta/fork");

interface ForkMeta {
  chainId: string;
  number: string;
  hash: string;
}

function metaOf(fork: Fork): ForkMeta {
  return { chainId: fork.chainId.toString(), number: fork.block.number.toString(), hash: bytesToHex(fork.block.hash) };
}

export function forkMetaOps(fork: Fork | undefined): BatchOp[] {
  return fork === undefined ? [] : [{ type: "put", key: K_FORK, value: enc.encode(JSON.stringify(metaOf(fork))) }];
}

/** Checks a reopened store against the configured fork (or its absence); returns nothing to write. */
export async function checkForkMeta(kv: KVStore, fork: Fork | undefined): Promise<BatchOp[]> {
  const raw = await kv.get(K_FORK);
  const stored = raw === undefined ? undefined : (JSON.parse(dec.decode(raw)) as ForkMeta);
  const where = storeName(kv);
  if (stored === undefined && fork === undefined) return [];
  if (stored === undefined) throw new Error(`data directory ${where} holds a chain that is not a fork; start it without --fork, or use another --home`);
  const desc = `chain ${stored.chainId} at block ${stored.number} (${stored.hash})`;
  if (fork === undefined) throw new Error(`data directory ${where} holds a fork of ${desc}; start it with that fork`);
  const want = metaOf(fork);
  if (want.chainId !== stored.chainId || want.number !== stored.number || want.hash !== stored.hash) {
    throw new Error(`data directory ${where} holds a fork of ${desc}, but the configuration forks chain ${want.chainId} at block ${want.number} (${want.hash})`);
  }
  return [];
}
