/**
 * The tracing core: geth's TraceConfig and the tracer factory (native tracers by name, geth's
 * built-in JavaScript ones by name, anything else as JavaScript source). `run.ts` runs them on the chain.
 */
import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, generateAddress, generateAddress2 } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { CallTracer, type CallTracerConfig } from "./call-tracer";
import { BUILTIN_JS_TRACERS } from "./builtin-js";
import { JsTracer } from "./js-tracer";
import { VmTracer } from "./vm-tracer";
import { JsonlLogger } from "./jsonl-logger";
import { precompileAt } from "./precompiles";
import { PrestateTracer, type PrestateConfig } from "./prestate-tracer";
import { FourByteTracer, MuxTracer, NoopTracer } from "./simple-tracers";
import { StructLogger, type TraceBudget } from "./struct-logger";
import { type Tracer, type TxEnv, TraceError } from "./types";

/** geth's TraceConfig (JSON names); `tracerConfig` already parsed (object or JSON string on the wire). */
export interface TraceConfig {
  tracer?: string;
  tracerConfig?: unknown;
  /** ms */
  timeout?: number;
  enableMemory?: boolean;
  disableStack?: boolean;
  disableStorage?: boolean;
  enableReturnData?: boolean;
  limit?: number;
  /** EIP-3155 lines instead of the struct logger's result (debug_standardTraceBlockToFile). */
  jsonl?: boolean;
}

export const DEFAULT_TRACE_TIMEOUT_MS = 5000;

const NATIVE = new Set(["callTracer", "prestateTracer", "4byteTracer", "noopTracer", "muxTracer", "parityVmTracer"]);

/**
 * Whether a TraceConfig's tracer is code the client sent (a JavaScript tracer program) rather than
 * the name of a tracer this node ships (native or built-in JavaScript), or an unknown name (which
 * fails with "tracer not found" before anything runs). Decides the trace's access class.
 */
export function runsClientCode(cfg: Pick<TraceConfig, "tracer"> | undefined): boolean {
  const name = cfg?.tracer;
  if (name === undefined || name === "" || NATIVE.has(name) || Object.hasOwn(BUILTIN_JS_TRACERS, name)) return false;
  return !/^[A-Za-z_$][\w$]*$/.test(name);
}

/**
 * Builds the tracer a TraceConfig names; `deadline` is when the trace must stop (ms since epoch).
 * Async because a JavaScript tracer's engine is made (and, the first time, compiled) for it. Call
 * `dispose()` on the tracer when done with it, whatever happened.
 */
export async function createTracer(cfg: TraceConfig, vm: VM, deadline: () => number, budget?: TraceBudget): Promise<Tracer> {
  const name = cfg.tracer;
  const tc = (cfg.tracerConfig ?? {}) as Record<string, unknown>;
  const loggerCfg = { enableMemory: cfg.enableMemory, disableStack: cfg.disableStack, disableStorage: cfg.disableStorage, enableReturnData: cfg.enableReturnData, limit: cfg.limit };
  if (cfg.jsonl === true) return new JsonlLogger(loggerCfg);
  if (name === undefined || name === "") {
    return new StructLogger(
      {
        enableMemory: cfg.enableMemory,
        disableStack: cfg.disableStack,
        disableStorage: cfg.disableStorage,
        enableReturnData: cfg.enableReturnData,
        limit: cfg.limit,
      },
      budget,
    );
  }
  switch (name) {
    case "callTracer":
      return new CallTracer(tc as CallTracerConfig);
    case "prestateTracer":
      return new PrestateTracer(tc as PrestateConfig);
    case "4byteTracer":
      return new FourByteTracer();
    case "noopTracer":
      return new NoopTracer();
    case "parityVmTracer":
      // Parity's vmTrace (trace_replayTransaction's "vmTrace"), also by name as an extension
      return new VmTracer();
    case "muxTracer": {
      const parts: Array<[string, Tracer]> = [];
      for (const [sub, subCfg] of Object.entries(tc)) {
        if (!NATIVE.has(sub) && sub !== "") throw new TraceError("tracer not found");
        parts.push([sub, await createTracer({ ...cfg, tracer: sub, tracerConfig: subCfg ?? {} }, vm, deadline, budget)]);
      }
      return new MuxTracer(parts);
    }
  }
  // a bare name that is none of the above is an unknown tracer; anything else is JavaScript source
  const source = Object.hasOwn(BUILTIN_JS_TRACERS, name) ? BUILTIN_JS_TRACERS[name] : name;
  if (source === name && /^[A-Za-z_$][\w$]*$/.test(name)) throw new TraceError("tracer not found");
  return JsTracer.create(source, deadline, cfg.tracerConfig, {
    precompiled: (a) => precompileAt(vm, a),
    contractAddress: (from, nonce) => generateAddress(from, nonce === 0 ? new Uint8Array() : bigBytes(BigInt(nonce))),
    contract2Address: (from, salt, code) => generateAddress2(from, salt, code),
  });
}

function bigBytes(n: bigint): Uint8Array {
  const h = n.toString(16);
  return new Uint8Array(Buffer.from(h.length % 2 === 0 ? h : `0${h}`, "hex"));
}

export function txEnv(vm: VM, tx: TypedTransaction, block: Block, a: { txIndex?: number; blockHash?: Uint8Array }): TxEnv {
  const from = tx.getSenderAddress();
  const isCreate = tx.to === undefined;
  const to = isCreate ? new Address(generateAddress(from.bytes, tx.nonce === 0n ? new Uint8Array() : bigBytes(tx.nonce))) : (tx.to as Address);
  const baseFee = block.header.baseFeePerGas ?? 0n;
  let gasPrice: bigint;
  if ("maxFeePerGas" in tx) {
    const t = tx as unknown as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    const tip = t.maxFeePerGas - baseFee < t.maxPriorityFeePerGas ? t.maxFeePerGas - baseFee : t.maxPriorityFeePerGas;
    gasPrice = baseFee + tip;
  } else gasPrice = (tx as unknown as { gasPrice: bigint }).gasPrice;
  return { vm, block, tx, from, to, isCreate, gasPrice, txIndex: a.txIndex, txHash: tx.isSigned() ? tx.hash() : undefined, blockHash: a.blockHash };
}
