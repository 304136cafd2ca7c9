/**
 * Raw chain data in consensus encodings (RLP of headers, blocks, typed receipts and transactions),
 * geth's printBlock text and dumpBlock state dump.
 */
import type { Block } from "@ethereumjs/block";
import { RLP } from "@ethereumjs/rlp";
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import { Address, bytesToHex, createAddressFromBigInt, createAccountFromRLP } from "@ethereumjs/util";
import { Bloom, encodeReceipt } from "@ethereumjs/vm";
import type { Node } from "../../../chain";
import { keccak256 } from "../../../utils/keccak";
import type { RpcDeps } from "../../deps";
import { InvalidParamsError, ServerError } from "../../errors";
import { hex } from "../../format";
import { method } from "../../method";
import { ParamError, blockId, blockNumberOrTag, codec, hash, jsonType } from "../../params";
import { resolveHeight } from "../../resolve";

/** A Go uint64 parameter: a JSON number (geth rejects "0x1": cannot unmarshal string into Go value of type uint64). */
export const goUint64 = codec((v): bigint => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new ParamError(`json: cannot unmarshal ${jsonType(v)} into Go value of type uint64`);
  return BigInt(v);
});

export function rawMethods({ node }: RpcDeps) {
  const blockOf = async (spec: Parameters<typeof resolveHeight>[1], what: "header" | "block"): Promise<Block> => {
    const n = await resolveHeight(node, spec);
    const b = n === undefined ? undefined : await node.getBlock(n);
    if (b === undefined) throw new ServerError(`${what} not found`);
    return b;
  };
  const byNumber = async (n: bigint): Promise<Block> => {
    const b = await node.getBlock(n);
    if (b === undefined) throw new ServerError(`block #${n} not found`);
    return b;
  };
  return [
    method({
      name: "debug_getRawHeader",
      access: "read",
      params: [blockId],
      doc: "The RLP of a block's header (its keccak is the block hash).",
      async handler([b]) {
        return hex((await blockOf(b, "header")).header.serialize());
      },
    }),
    method({
      name: "debug_getRawBlock",
      access: "read",
      params: [blockId],
      doc: "The RLP of a whole block (header, transactions, uncles, withdrawals).",
      async handler([b]) {
        return hex((await blockOf(b, "block")).serialize());
      },
    }),
    method({
      name: "debug_getRawReceipts",
      access: "read",
      params: [blockId],
      doc: "The consensus encoding of each receipt of a block (typed receipts: type byte + RLP), as the receipts trie holds them.",
      async handler([b]) {
        const block = await blockOf(b, "block");
        const receipts = (await node.store.getReceipts(block.header.number)) ?? [];
        return receipts.map((r, i) => {
          const bloom = new Bloom(undefined, node.common);
          for (const l of r.logs) {
            bloom.add(l.address);
            for (const t of l.topics) bloom.add(t);
          }
          const logs = r.logs.map((l) => [l.address, l.topics, l.data] as [Uint8Array, Uint8Array[], Uint8Array]);
          return hex(encodeReceipt({ status: r.status as 0 | 1, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: bloom.bitvector, logs }, block.transactions[i].type));
        });
      },
    }),
    method({
      name: "debug_getRawTransaction",
      access: "read",
      params: [hash],
      doc: "The signed encoding of a mined transaction (typed: type byte + RLP), or null for an unknown hash.",
      async handler([h]) {
        const mined = await node.minedTransaction(h);
        return mined === undefined ? null : hex(mined.tx.serialize());
      },
    }),
    method({
      name: "debug_getBlockRlp",
      access: "read",
      params: [goUint64],
      doc: "The RLP of block N (a JSON number, as geth's uint64).",
      async handler([n]) {
        return hex((await byNumber(n)).serialize());
      },
    }),
    method({
      name: "debug_getHeaderRlp",
      access: "read",
      params: [goUint64],
      doc: "The RLP of block N's header (a JSON number, as geth's uint64).",
      async handler([n]) {
        return hex((await byNumber(n)).header.serialize());
      },
    }),
    method({
      name: "debug_printBlock",
      access: "read",
      params: [goUint64],
      doc: "A readable dump of block N: its hash and every header field, then its transactions (geth prints its Go struct; this prints the same fields as text).",
      async handler([n]) {
        return printBlock(await byNumber(n));
      },
    }),
    method({
      name: "debug_dumpBlock",
      access: "private",
      params: [blockNumberOrTag],
      doc: "geth's state dump at a block: {root, accounts} with balance, nonce, storage root, code hash, code and storage of every account. Accounts whose address the chain knows (dev accounts, senders, recipients, created contracts, precompiles) are keyed by address, the others by pre(<key hash>).",
      async handler([b]) {
        if ("tag" in b && b.tag === "pending") throw new InvalidParamsError("pending is not supported");
        const n = await resolveHeight(node, b);
        if (n === undefined) throw new ServerError("header not found");
        return dumpState(node, n);
      },
    }),
  ];
}

function printBlock(block: Block): string {
  const h = block.header.toJSON() as Record<string, unknown>;
  const lines = [
    `Block(#${block.header.number}): Size: ${block.serialize().length} bytes {`,
    `MinerHash: ${bytesToHex(block.hash())}`,
    "Header(",
    ...Object.entries(h).map(([k, v]) => `  ${k}: ${String(v)}`),
    ")",
    "Transactions:",
  ];
  for (const tx of block.transactions) {
    lines.push(`  TX(${bytesToHex(tx.hash())})`);
    for (const [k, v] of Object.entries(tx.toJSON())) lines.push(`    ${k}: ${JSON.stringify(v)}`);
  }
  lines.push("Uncles:", "}");
  return `${lines.join("\n")}\n`;
}

/** Addresses the chain can name (geth needs preimages for that): dev accounts, precompiles, and every sender, recipient and created contract up to `n`. */
async function knownAddresses(node: Node, n: bigint): Promise<Map<string, Address>> {
  const out = new Map<string, Address>();
  const add = (a: Address): void => {
    out.set(bytesToHex(keccak256(a.bytes)), a);
  };
  for (const k of node.keys.keys()) add(new Address(Buffer.from(k.slice(2), "hex")));
  for (let i = 1n; i <= 0x11n; i++) add(createAddressFromBigInt(i));
  add(createAddressFromBigInt(0x100n));
  add(createAddressFromBigInt(0x900n));
  add(new Address(node.config.coinbase));
  for (let b = 1n; b <= n; b++) {
    const block = await node.getBlock(b);
    if (block === undefined) continue;
    add(new Address(block.header.coinbase.bytes));
    const receipts = (await node.store.getReceipts(b)) ?? [];
    block.transactions.forEach((tx, i) => {
      if (tx.to !== undefined) add(tx.to);
      const r = receipts[i];
      if (r !== undefined) {
        add(new Address(r.from));
        if (r.contractAddress !== undefined) add(new Address(r.contractAddress));
        for (const l of r.logs) add(new Address(l.address));
      }
    });
  }
  return out;
}

async function dumpState(node: Node, n: bigint): Promise<unknown> {
  const block = await node.getBlock(n);
  if (block === undefined) throw new ServerError("header not found");
  const sm = (await node.stateAt(n)) as MerkleStateManager;
  const trie = (sm as unknown as { _trie: { walkAllValueNodes(fn: (node: { value(): Uint8Array | null; key(): number[] }, key: number[]) => Promise<void>): Promise<void> } })._trie;
  const known = await knownAddresses(node, n);
  const accounts: Record<string, unknown> = {};
  const entries: Array<{ keyHash: string; raw: Uint8Array }> = [];
  await trie.walkAllValueNodes(async (leaf, prefix) => {
    const nibbles = [...prefix, ...(typeof leaf.key === "function" ? leaf.key() : [])];
    const v = leaf.value();
    if (v === null || nibbles.length !== 64) return;
    let keyHex = "0x";
    for (const nb of nibbles) keyHex += nb.toString(16);
    entries.push({ keyHash: keyHex, raw: v });
  });
  for (const { keyHash, raw } of entries) {
    const acc = createAccountFromRLP(raw);
    const addr = known.get(keyHash);
    const dump: Record<string, unknown> = {
      balance: acc.balance.toString(),
      nonce: Number(acc.nonce),
      root: bytesToHex(acc.storageRoot),
      codeHash: bytesToHex(acc.codeHash),
    };
    if (addr !== undefined) {
      const code = await sm.getCode(addr);
      if (code.length > 0) dump.code = bytesToHex(code);
      const storage = await sm.dumpStorage(addr);
      const st: Record<string, string> = {};
      for (const [k, val] of Object.entries(storage)) st[k.startsWith("0x") ? k : `0x${k}`] = Buffer.from(RLP.decode(Buffer.from(val.slice(2), "hex")) as Uint8Array).toString("hex");
      if (Object.keys(st).length > 0) dump.storage = st;
      dump.address = addr.toString();
    }
    dump.key = keyHash;
    accounts[addr !== undefined ? checksum(addr) : `pre(${keyHash})`] = dump;
  }
  return { root: bytesToHex(block.header.stateRoot).slice(2), accounts };
}

function checksum(a: Address): string {
  const lower = a.toString().slice(2);
  const h = Buffer.from(keccak256(new TextEncoder().encode(lower))).toString("hex");
  let out = "0x";
  for (let i = 0; i < lower.length; i++) out += parseInt(h[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}
