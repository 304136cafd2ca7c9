/**
 * trace_*: Parity's (OpenEthereum's) trace API, as Erigon, Reth and Anvil serve it: flat lists of
 * call, create and suicide traces with `traceAddress` and `subtraces`, built from geth's callTracer
 * over a replay of the block (src/chain/block/replay.ts); `stateDiff` from the prestateTracer's diff mode.
 * `vmTrace` (Parity's per-opcode trace) is not produced: asking for it is refused with that reason.
 *
 * Gas as Parity counts it: the top frame's `gas` and `gasUsed` leave out the transaction's intrinsic
 * gas (Anvil's answers, test/rpc/trace-anvil.test.ts).
 */
import type { Block } from "@ethereumjs/block";
import { bytesToHex } from "@ethereumjs/util";
import { type CallFrame, type Node, type TraceConfig } from "../../chain";
import type { RpcDeps } from "../deps";
import { InvalidParamsError, ServerError } from "../errors";
import { type Json, q } from "../format";
import { method } from "../method";
import { ParamError, address, arrayOf, blockId, blockNumberOrTag, codec, hash, numberOrQuantity, objectOf, parseBlockNumberOrTag } from "../params";
import { txRequest } from "../objects";
import { requireHeight, resolveHeight } from "../resolve";
import { turnIfDue } from "../../utils/turn";

type TraceType = "trace" | "stateDiff" | "vmTrace";

const traceTypes = codec((v): Set<TraceType> => {
  if (!Array.isArray(v)) throw new ParamError('expected the trace types: an array of "trace", "stateDiff", "vmTrace"');
  const out = new Set<TraceType>();
  for (const t of v) {
    if (t !== "trace" && t !== "stateDiff" && t !== "vmTrace") throw new ParamError(`unknown trace type ${JSON.stringify(t)} (expected trace, stateDiff or vmTrace)`);
    out.add(t);
  }
  return out;
});

interface TraceFilter {
  fromBlock?: ReturnType<typeof parseBlockNumberOrTag>;
  toBlock?: ReturnType<typeof parseBlockNumberOrTag>;
  fromAddress?: Uint8Array[];
  toAddress?: Uint8Array[];
  after?: bigint;
  count?: bigint;
}

const traceFilter = objectOf("TraceFilter", (f): TraceFilter => ({
  fromBlock: f("fromBlock", parseBlockNumberOrTag),
  toBlock: f("toBlock", parseBlockNumberOrTag),
  fromAddress: f(
    "fromAddress",
    arrayOf((x) => address.parse(x), "fromAddress"),
  ),
  toAddress: f(
    "toAddress",
    arrayOf((x) => address.parse(x), "toAddress"),
  ),
  after: f("after", (x) => numberOrQuantity.parse(x)),
  count: f("count", (x) => numberOrQuantity.parse(x)),
}));

/** Blocks one trace_filter call may replay. */
const FILTER_BLOCK_RANGE = 10_000n;
/** How long one trace_filter may replay blocks (the node's default HTTP timeout). */
const FILTER_DEADLINE_MS = 30_000;

/** geth's callTracer error texts → Parity's. */
function parityError(e: string): string {
  if (e === "execution reverted") return "Reverted";
  if (e === "out of gas" || e.startsWith("out of gas")) return "Out of gas";
  if (e.startsWith("invalid opcode")) return "Bad instruction";
  if (e.startsWith("invalid jump destination")) return "Bad jump destination";
  if (e.startsWith("stack underflow")) return "Stack underflow";
  if (e.startsWith("stack limit reached") || e.startsWith("stack overflow")) return "Out of stack";
  if (e === "write protection") return "Mutable Call In Static Context";
  if (e.startsWith("contract address collision")) return "Contract address collision";
  if (e.startsWith("max code size exceeded")) return "Out of bounds";
  return e;
}

interface Where {
  blockHash: string;
  blockNumber: number;
  transactionHash: string | null;
  transactionPosition: number | null;
}

/** A transaction's call tree as Parity's flat trace list (depth first). */
function flatTraces(top: CallFrame, intrinsic: bigint, where: Where | undefined): Json[] {
  const out: Json[] = [];
  const visit = (f: CallFrame, path: number[]): void => {
    const isTop = path.length === 0;
    const gas = isTop ? BigInt(f.gas) - intrinsic : BigInt(f.gas);
    const gasUsed = isTop ? BigInt(f.gasUsed) - intrinsic : BigInt(f.gasUsed);
    const children = f.calls ?? [];
    const entry: Record<string, Json> = {};
    if (f.type === "SELFDESTRUCT") {
      entry.action = { address: f.from, refundAddress: f.to ?? null, balance: f.value ?? "0x0" };
      entry.result = null;
      entry.type = "suicide";
    } else if (f.type === "CREATE" || f.type === "CREATE2") {
      entry.action = { from: f.from, gas: q(gas < 0n ? 0n : gas), init: f.input, value: f.value ?? "0x0", creationMethod: f.type.toLowerCase() };
      entry.result = f.error === undefined ? { address: f.to ?? null, code: f.output ?? "0x", gasUsed: q(gasUsed < 0n ? 0n : gasUsed) } : null;
      entry.type = "create";
    } else {
      entry.action = { from: f.from, callType: f.type.toLowerCase(), gas: q(gas < 0n ? 0n : gas), input: f.input, to: f.to ?? null, value: f.value ?? "0x0" };
      entry.result = f.error === undefined || f.error === "execution reverted" ? { gasUsed: q(gasUsed < 0n ? 0n : gasUsed), output: f.output ?? "0x" } : null;
      entry.type = "call";
    }
    if (f.error !== undefined) entry.error = parityError(f.error);
    if (entry.result === null && f.type !== "SELFDESTRUCT") delete entry.result;
    entry.subtraces = children.length;
    entry.traceAddress = path;
    if (where !== undefined) Object.assign(entry, where);
    out.push(entry);
    children.forEach((c, i) => visit(c, [...path, i]));
  };
  visit(top, []);
  return out;
}

interface PrestateAccount {
  balance?: string;
  nonce?: number;
  code?: string;
  storage?: Record<string, string>;
}

const ZERO_WORD = `0x${"0".repeat(64)}`;

/** The prestateTracer's {pre, post} (diff mode) as Parity's stateDiff. */
function stateDiff(diff: { pre: Record<string, PrestateAccount>; post: Record<string, PrestateAccount> }): Json {
  const out: Record<string, Json> = {};
  const nonceHex = (n: number | undefined): string => q(n ?? 0);
  for (const addr of new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)])) {
    const pre = diff.pre[addr];
    const post = diff.post[addr];
    const field = (from: string | undefined, to: string | undefined, dflt: string): Json => {
      if (pre === undefined) return { "+": to ?? dflt };
      if (post === undefined) return { "-": from ?? dflt };
      if (to === undefined || to === from) return "=";
      return { "*": { from: from ?? dflt, to } };
    };
    const storage: Record<string, Json> = {};
    for (const slot of new Set([...Object.keys(pre?.storage ?? {}), ...Object.keys(post?.storage ?? {})])) {
      const from = pre?.storage?.[slot];
      const to = post?.storage?.[slot] ?? (post !== undefined && from !== undefined ? ZERO_WORD : undefined);
      if (pre === undefined) storage[slot] = { "+": to ?? ZERO_WORD };
      else if (post === undefined) storage[slot] = { "-": from ?? ZERO_WORD };
      else if (to !== undefined && to !== (from ?? ZERO_WORD)) storage[slot] = { "*": { from: from ?? ZERO_WORD, to } };
    }
    out[addr] = {
      balance: field(pre?.balance, post?.balance, "0x0"),
      nonce: field(pre === undefined ? undefined : nonceHex(pre.nonce), post?.nonce === undefined ? undefined : nonceHex(post.nonce), "0x0"),
      code: field(pre?.code ?? (pre === undefined ? undefined : "0x"), post?.code, "0x"),
      storage,
    };
  }
  return out;
}

const MUX = (types: Set<TraceType>): TraceConfig => ({
  tracer: "muxTracer",
  tracerConfig: { callTracer: {}, ...(types.has("stateDiff") ? { prestateTracer: { diffMode: true } } : {}), ...(types.has("vmTrace") ? { parityVmTracer: {} } : {}) },
});

/** A replayed transaction's trace-type result: output, trace, stateDiff, vmTrace. */
function replayResult(r: { callTracer: CallFrame; prestateTracer?: unknown; parityVmTracer?: unknown }, intrinsic: bigint, types: Set<TraceType>): Record<string, Json> {
  return {
    output: r.callTracer.output ?? "0x",
    stateDiff: types.has("stateDiff") ? stateDiff(r.prestateTracer as never) : null,
    trace: types.has("trace") ? flatTraces(r.callTracer, intrinsic, undefined) : [],
    vmTrace: types.has("vmTrace") ? ((r.parityVmTracer ?? null) as Json) : null,
  };
}

function whereOf(block: Block, index: number): Where {
  return { blockHash: bytesToHex(block.hash()), blockNumber: Number(block.header.number), transactionHash: bytesToHex(block.transactions[index].hash()), transactionPosition: index };
}

/** Every transaction's flat traces of block `n`, in block order (a failing replay is the call's error). */
async function blockTraces(node: Node, n: bigint): Promise<Json[]> {
  const block = await node.getBlock(n);
  if (block === undefined) throw new ServerError(`block #${n} not found`);
  if (n === 0n || block.transactions.length === 0) return [];
  const traces = await node.traces.block(n, { tracer: "callTracer" });
  const out: Json[] = [];
  traces.forEach((t, i) => {
    if ("error" in t) throw new ServerError(`transaction ${t.txHash}: ${t.error}`);
    out.push(...flatTraces(t.result as CallFrame, block.transactions[i].getIntrinsicGas(), whereOf(block, i)));
  });
  return out;
}

export function traceMethods({ node }: RpcDeps) {
  const located = async (h: Uint8Array) => {
    const m = await node.minedTransaction(h);
    return m === undefined ? undefined : { block: m.block, index: m.index, tx: m.tx };
  };
  return [
    method({
      name: "trace_transaction",
      access: "read",
      params: [hash],
      doc: "A mined transaction's call, create and suicide traces, flat (traceAddress, subtraces); null when unknown.",
      handler: async ([h]) => {
        const at = await located(h);
        if (at === undefined) return null;
        const top = (await node.traces.transaction(h, { tracer: "callTracer" })) as CallFrame;
        return flatTraces(top, at.tx.getIntrinsicGas(), whereOf(at.block, at.index));
      },
    }),
    method({
      name: "trace_get",
      access: "read",
      params: [hash, codec(arrayOf((x) => numberOrQuantity.parse(x), "trace indices"))],
      doc: "One trace of a transaction by its position in the flat list (Parity's indices); null when there is none.",
      handler: async ([h, indices]) => {
        const at = await located(h);
        if (at === undefined || indices.length !== 1) return null;
        const top = (await node.traces.transaction(h, { tracer: "callTracer" })) as CallFrame;
        return flatTraces(top, at.tx.getIntrinsicGas(), whereOf(at.block, at.index))[Number(indices[0])] ?? null;
      },
    }),
    method({
      name: "trace_block",
      access: "read",
      params: [blockNumberOrTag],
      doc: "Every transaction's traces of a block, flat, in block order; null when there is no such block.",
      handler: async ([b]) => {
        const n = await resolveHeight(node, b);
        return n === undefined ? null : blockTraces(node, n);
      },
    }),
    method({
      name: "trace_filter",
      access: "read",
      params: [traceFilter],
      doc: `Traces of blocks fromBlock..toBlock (at most ${FILTER_BLOCK_RANGE} blocks) whose from is in fromAddress and to in toAddress (either list absent: any); after skips, count limits.`,
      handler: async ([f]) => {
        const from = f.fromBlock === undefined ? 0n : await requireHeight(node, f.fromBlock);
        const to = f.toBlock === undefined ? node.headNumber : await requireHeight(node, f.toBlock);
        if (to < from) throw new InvalidParamsError(`fromBlock ${from} is after toBlock ${to}`);
        if (to - from >= FILTER_BLOCK_RANGE) throw new InvalidParamsError(`trace_filter covers at most ${FILTER_BLOCK_RANGE} blocks, asked for ${to - from + 1n}`);
        const fromSet = f.fromAddress === undefined ? undefined : new Set<string>(f.fromAddress.map((a) => bytesToHex(a)));
        const toSet = f.toAddress === undefined ? undefined : new Set<string>(f.toAddress.map((a) => bytesToHex(a)));
        let skip = f.after ?? 0n;
        const limit = f.count;
        const out: Json[] = [];
        const deadline = Date.now() + FILTER_DEADLINE_MS;
        for (let n = from; n <= to; n++) {
          // each block is a replay: other requests get turns between them, and the whole has a deadline
          await turnIfDue();
          if (Date.now() > deadline)
            throw new ServerError(
              `trace_filter ran past its ${FILTER_DEADLINE_MS / 1000}s deadline at block ${n} of ${from}..${to}: ask for fewer blocks (fromBlock, toBlock) or fewer traces (count)`,
            );
          for (const t of await blockTraces(node, n)) {
            const action = (t as { action: Record<string, string | null> }).action;
            const src = action.from ?? action.address;
            const dst = action.to ?? action.refundAddress ?? (t as { result?: { address?: string } }).result?.address ?? null;
            if (fromSet !== undefined && (src === null || !fromSet.has(src))) continue;
            if (toSet !== undefined && (dst === null || !toSet.has(dst))) continue;
            if (skip > 0n) {
              skip--;
              continue;
            }
            out.push(t);
            if (limit !== undefined && BigInt(out.length) >= limit) return out;
          }
        }
        return out;
      },
    }),
    method({
      name: "trace_replayTransaction",
      access: "read",
      params: [hash, traceTypes],
      doc: "Re-runs a mined transaction: {output, trace, stateDiff, vmTrace} for the trace types asked (trace, stateDiff, vmTrace).",
      handler: async ([h, types]) => {
        const at = await located(h);
        if (at === undefined) throw new ServerError("transaction not found");
        const r = (await node.traces.transaction(h, MUX(types))) as { callTracer: CallFrame; prestateTracer?: unknown };
        return replayResult(r, at.tx.getIntrinsicGas(), types);
      },
    }),
    method({
      name: "trace_replayBlockTransactions",
      access: "read",
      params: [blockNumberOrTag, traceTypes],
      doc: "trace_replayTransaction for every transaction of a block, each with its transactionHash.",
      handler: async ([b, types]) => {
        const n = await resolveHeight(node, b);
        if (n === undefined) return null;
        const block = (await node.getBlock(n)) as Block;
        if (n === 0n) return [];
        const traces = await node.traces.block(n, MUX(types));
        return traces.map((t, i) => {
          if ("error" in t) throw new ServerError(`transaction ${t.txHash}: ${t.error}`);
          return { ...replayResult(t.result as never, block.transactions[i].getIntrinsicGas(), types), transactionHash: t.txHash };
        });
      },
    }),
    method({
      name: "trace_call",
      access: "read",
      params: [txRequest, traceTypes, blockId.opt()],
      doc: "Runs a call on the state after a block (default latest) and answers as trace_replayTransaction.",
      handler: async ([req, types, b]) => {
        const n = await requireHeight(node, b);
        const r = (await node.traces.call(n, req, MUX(types))) as { callTracer: CallFrame; prestateTracer?: unknown };
        return replayResult(r, intrinsicGas(node, req.data, req.to === undefined), types);
      },
    }),
  ];
}

/** Intrinsic gas of a call with `data` (EIP-2028 prices; creation adds 32,000 and EIP-3860's words). */
function intrinsicGas(node: Node, data: Uint8Array | undefined, create: boolean): bigint {
  const c = node.common;
  let gas = c.param("txGas");
  for (const b of data ?? []) gas += b === 0 ? c.param("txDataZeroGas") : c.param("txDataNonZeroGas");
  if (create) {
    gas += c.param("txCreationGas");
    if (c.isActivatedEIP(3860)) gas += c.param("initCodeWordGas") * BigInt(Math.ceil((data?.length ?? 0) / 32));
  }
  return gas;
}
