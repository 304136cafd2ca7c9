/**
 * debug_trace*: geth's tracers over re-executed blocks (module begin-block and epoch hooks
 * included) and calls, plus debug_intermediateRoots and the trace-to-file methods.
 */
import { createBlockFromRLP } from "@ethereumjs/block";
import { bytesToHex } from "@ethereumjs/util";
import { randomBytes } from "node:crypto";
import { runsClientCode, type TraceConfig, type TxTrace } from "../../../chain";
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { type Access, method } from "../../method";
import { blockId, blockNumberOrTag, codec, data, hash, string } from "../../params";
import { txRequest } from "../../objects";
import { requireHeight, resolveHeight } from "../../resolve";
import { type FileRoots, readUnder, writeNew } from "./files";
import { traceConfig } from "./trace-config";

/** JSON as it goes on the wire (absent fields dropped), so in-process callers see what HTTP sees. */
function wire(v: unknown, cfg: TraceConfig | undefined): unknown {
  return cfg?.tracer === undefined || cfg.tracer === "" ? v : (JSON.parse(JSON.stringify(v) ?? "null") as unknown);
}

function wireBlock(traces: TxTrace[], cfg: TraceConfig | undefined): unknown {
  return traces.map((t) => ("error" in t ? t : { txHash: t.txHash, result: wire(t.result, cfg) }));
}

/** A trace is `read` with the tracers this node ships, `code` with a JavaScript program the client sent. */
const tracerAccess = (cfg: TraceConfig | undefined): Access => (runsClientCode(cfg) ? "code" : "read");

export function tracingMethods({ node }: RpcDeps, roots: FileRoots) {
  const blockAt = async (n: bigint | undefined, what: string): Promise<bigint> => {
    if (n === undefined) throw new ServerError(`${what} not found`);
    return n;
  };
  const std = async (n: bigint, cfg: TraceConfig & { txHash?: Uint8Array }, prefix: string): Promise<string[]> => {
    const block = await node.getBlock(n);
    if (block === undefined) throw new ServerError(`block #${n} not found`);
    const want = cfg.txHash === undefined ? undefined : bytesToHex(cfg.txHash);
    const idx = want === undefined ? undefined : block.transactions.findIndex((t) => bytesToHex(t.hash()) === want);
    if (idx === -1) throw new ServerError(`transaction ${want} not found in block ${bytesToHex(block.hash())}`);
    const traces = await node.traces.block(n, { ...cfg, jsonl: true }, (i) => idx === undefined || i === idx);
    const files: string[] = [];
    for (let k = 0; k < traces.length; k++) {
      const t = traces[k];
      const i = idx ?? k;
      const name = `${prefix}_${bytesToHex(block.hash()).slice(0, 10)}-${i}-${t.txHash.slice(0, 10)}-${randomBytes(4).toString("hex")}.jsonl`;
      const body = "error" in t ? `${JSON.stringify({ error: t.error })}\n` : (t.result as string);
      files.push(await writeNew(roots, name, body));
    }
    return files;
  };
  return [
    method({
      name: "debug_traceTransaction",
      access: "read",
      accessFor: ([, cfg]) => tracerAccess(cfg),
      raisesTo: "code",
      params: [hash, traceConfig.opt()],
      doc: "Re-executes the block of a mined transaction up to it (module begin-block and epoch hooks first, then the earlier transactions) and answers the tracer's result: the struct logger by default, or callTracer, prestateTracer, 4byteTracer, noopTracer, muxTracer, or a JavaScript tracer.",
      async handler([h, cfg]) {
        return wire(await node.traces.transaction(h, cfg ?? {}), cfg);
      },
    }),
    method({
      name: "debug_traceCall",
      access: "read",
      accessFor: ([, , cfg]) => tracerAccess(cfg),
      raisesTo: "code",
      params: [txRequest, blockId.opt(), traceConfig.opt()],
      doc: "Runs a call on the state after a block (default latest) with the tracer, like eth_call; the config also takes stateOverrides and blockOverrides.",
      async handler([req, block, cfg]) {
        const n = await requireHeight(node, block);
        const c = cfg ?? {};
        return wire(await node.traces.call(n, req, c, c.stateOverrides, c.blockOverrides), cfg);
      },
    }),
    method({
      name: "debug_traceBlockByNumber",
      access: "read",
      accessFor: ([, cfg]) => tracerAccess(cfg),
      raisesTo: "code",
      params: [blockNumberOrTag, traceConfig.opt()],
      doc: "Traces every transaction of a stored block: [{txHash, result}] or {txHash, error} per transaction, in block order.",
      async handler([b, cfg]) {
        const n = await resolveHeight(node, b);
        if (n === undefined) throw new ServerError(`block #${"number" in b ? b.number : "?"} not found`);
        return wireBlock(await node.traces.block(n, cfg ?? {}), cfg);
      },
    }),
    method({
      name: "debug_traceBlockByHash",
      access: "read",
      accessFor: ([, cfg]) => tracerAccess(cfg),
      raisesTo: "code",
      params: [hash, traceConfig.opt()],
      doc: "As debug_traceBlockByNumber, by block hash.",
      async handler([h, cfg]) {
        const n = await blockAt(await node.store.getBlockNumber(h), `block ${bytesToHex(h)}`);
        return wireBlock(await node.traces.block(n, cfg ?? {}), cfg);
      },
    }),
    method({
      name: "debug_traceBlock",
      access: "read",
      accessFor: ([, cfg]) => tracerAccess(cfg),
      raisesTo: "code",
      params: [data, traceConfig.opt()],
      doc: "Traces a block given as RLP: a block of this chain is re-executed as stored; another block whose parent is here runs its transactions on the parent's state.",
      async handler([rlp, cfg]) {
        return wireBlock(await traceRlp(rlp, cfg ?? {}), cfg);
      },
    }),
    method({
      name: "debug_traceBlockFromFile",
      params: [string, traceConfig.opt()],
      access: "private",
      doc: "As debug_traceBlock, with the block's RLP read from a file under the node's home or working directory.",
      async handler([file, cfg]) {
        let blob: Buffer;
        try {
          blob = await readUnder(roots, file);
        } catch (err) {
          throw new ServerError(`could not read file: ${(err as Error).message}`);
        }
        return wireBlock(await traceRlp(new Uint8Array(blob), cfg ?? {}), cfg);
      },
    }),
    method({
      name: "debug_standardTraceBlockToFile",
      params: [hash, codec(stdConfig).opt()],
      access: "private",
      doc: "Writes the EIP-3155 trace (geth's JSON logger lines) of each transaction of a block (or of `txHash` only) to a new file under the node's home or working directory; answers the paths.",
      async handler([h, cfg]) {
        const n = await blockAt(await node.store.getBlockNumber(h), `block ${bytesToHex(h)}`);
        return std(n, cfg ?? {}, "block");
      },
    }),
    method({
      name: "debug_standardTraceBadBlockToFile",
      params: [hash, codec(stdConfig).opt()],
      access: "private",
      doc: "Bad blocks are blocks a node received and rejected; this chain produces its own blocks and never rejects one, so every hash answers geth's not-found text.",
      handler([h]) {
        throw new ServerError(`bad block ${bytesToHex(h)} not found`);
      },
    }),
    method({
      name: "debug_getBadBlocks",
      access: "read",
      params: [],
      doc: "The blocks this node rejected: always [] (it makes its own blocks and receives none).",
      handler: () => [],
    }),
    method({
      name: "debug_intermediateRoots",
      access: "read",
      params: [hash, traceConfig.opt()],
      doc: "The state root after each transaction of a block (begin-block changes included in the first), by re-execution.",
      async handler([h]) {
        const n = await blockAt(await node.store.getBlockNumber(h), `block ${bytesToHex(h)}`);
        return node.traces.intermediateRoots(n);
      },
    }),
  ];

  async function traceRlp(rlp: Uint8Array, cfg: TraceConfig): Promise<TxTrace[]> {
    let block;
    try {
      block = createBlockFromRLP(rlp, { common: node.common, setHardfork: false });
    } catch (err) {
      throw new ServerError(`could not decode block: ${(err as Error).message}`);
    }
    const n = await node.store.getBlockNumber(block.hash());
    if (n !== undefined) return node.traces.block(n, cfg);
    return node.traces.foreignBlock(block, cfg);
  }
}

/** geth's StdTraceConfig: the struct logger's switches plus `txHash`. */
function stdConfig(v: unknown): TraceConfig & { txHash?: Uint8Array } {
  const base = traceConfig.parse(v);
  const o = v as Record<string, unknown>;
  return { ...base, tracer: undefined, txHash: o.txHash !== undefined && o.txHash !== null ? hash.parse(o.txHash) : undefined };
}
