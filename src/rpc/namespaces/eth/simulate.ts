/**
 * eth_simulateV1 (geth's multi-block call simulation, which viem's `simulateCalls` uses): block and
 * state overrides, calls that see each other's effects, results in geth's shape (each simulated
 * block as a block object with `calls`). Runs in an execution context at the base block.
 */
import { describeFailure, type SimBlock } from "../../../chain";
import type { RpcDeps } from "../../deps";
import { InvalidParamsError, RpcError } from "../../errors";
import { type Json, formatBlock, formatLog, hex, q } from "../../format";
import { method } from "../../method";
import { stateOverride, txRequest } from "../../objects";
import { ParamError, blockId, jsonType, objectOf, parseAddress, parseHash, parseQuantity } from "../../params";
import { requireHeight } from "../../resolve";

const UNSUPPORTED_OVERRIDES = ["blobBaseFee", "withdrawals", "beaconRoot"];

const blockOverrides = objectOf("BlockOverrides", (f, raw) => {
  for (const k of UNSUPPORTED_OVERRIDES) {
    if (raw[k] !== undefined && raw[k] !== null) throw new ParamError(`${k} overrides are not supported by this node (its blocks have no blob market and no beacon chain to override)`);
  }
  return {
    number: f("number", (v) => parseQuantity(v, 64)),
    time: f("time", (v) => parseQuantity(v, 64)),
    gasLimit: f("gasLimit", (v) => parseQuantity(v, 64)),
    feeRecipient: f("feeRecipient", parseAddress),
    prevRandao: f("prevRandao", parseHash),
    baseFeePerGas: f("baseFeePerGas", parseQuantity),
  };
});

const simOpts = objectOf("simOpts", (f, raw) => {
  const list = raw.blockStateCalls;
  if (!Array.isArray(list)) throw new ParamError(`blockStateCalls: cannot unmarshal ${jsonType(list)} into an array of blocks`);
  const blocks: SimBlock[] = list.map((b, i) => {
    if (b === null || typeof b !== "object" || Array.isArray(b)) throw new ParamError(`blockStateCalls[${i}]: cannot unmarshal ${jsonType(b)} into a block`);
    const o = b as Record<string, unknown>;
    const at = <T>(what: string, parse: () => T): T => {
      try {
        return parse();
      } catch (err) {
        if (err instanceof ParamError) throw new ParamError(`blockStateCalls[${i}].${what}: ${err.message}`);
        throw err;
      }
    };
    const calls = o.calls ?? [];
    if (!Array.isArray(calls)) throw new ParamError(`blockStateCalls[${i}].calls: cannot unmarshal ${jsonType(calls)} into an array of calls`);
    return {
      blockOverrides: o.blockOverrides == null ? undefined : at("blockOverrides", () => blockOverrides.parse(o.blockOverrides)),
      stateOverrides: o.stateOverrides == null ? undefined : at("stateOverrides", () => stateOverride.parse(o.stateOverrides)),
      calls: calls.map((c, j) => at(`calls[${j}]`, () => txRequest.parse(c))),
    };
  });
  const flag = (name: string) =>
    f(name, (v) => {
      if (typeof v !== "boolean") throw new ParamError(`cannot unmarshal ${jsonType(v)} into a boolean`);
      return v;
    });
  return { blocks, traceTransfers: flag("traceTransfers") ?? false, validation: flag("validation") ?? false, returnFullTransactions: flag("returnFullTransactions") ?? false };
});

export function simulateMethods(deps: RpcDeps) {
  const { node } = deps;
  return [
    method({
      name: "eth_simulateV1",
      access: "read",
      params: [simOpts, blockId.opt()],
      doc: "Simulates a sequence of blocks on top of a block (default latest): per block, overrides of its header fields (number, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas) and of state, then calls that see each other's effects. Answers geth's shape: each block object with `calls` ({returnData, logs, gasUsed, status, error?}). `validation` checks nonces and fees as for real transactions; `traceTransfers` adds geth's Transfer log (from 0xEeee…EEeE) for each ether transfer of a call frame that did not revert (not for SELFDESTRUCT). Simulated blocks run no epoch phases.",
      async handler([opts, block]) {
        if (opts.blocks.length === 0) throw new InvalidParamsError("empty input");
        if (opts.blocks.length > node.calls.maxSimulateBlocks) throw new RpcError(-38026, "too many blocks");
        const n = await requireHeight(node, block);
        const ctx = await node.contextAt(n, { timeoutMs: deps.settings.evmTimeoutMs });
        try {
          const blocks = await node.calls.simulate(ctx, { blocks: opts.blocks, validation: opts.validation, traceTransfers: opts.traceTransfers });
          return blocks.map(({ block: b, receipts, calls }) => {
            const out = formatBlock(b, opts.returnFullTransactions, receipts) as Record<string, Json>;
            let logIndex = 0;
            out.calls = calls.map(({ result, logs }, i) => {
              const ex = result.execResult;
              const call: Record<string, Json> = {
                returnData: hex(ex.returnValue),
                logs: logs.map((l) => formatLog(l, b, i, logIndex++)),
                gasUsed: q(result.totalGasSpent),
                status: ex.exceptionError === undefined ? "0x1" : "0x0",
              };
              if (ex.exceptionError !== undefined) {
                call.error =
                  ex.exceptionError.error === "revert"
                    ? { code: 3, message: describeFailure("revert", ex.returnValue), data: hex(ex.returnValue) }
                    : { code: -32015, message: ex.exceptionError.error };
              }
              return call;
            });
            return out;
          });
        } finally {
          ctx.release();
        }
      },
    }),
  ];
}
