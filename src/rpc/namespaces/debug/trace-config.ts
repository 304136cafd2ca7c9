/**
 * geth's TraceConfig / TraceCallConfig as a parameter codec. `tracerConfig` is taken as an object
 * or as a string holding JSON (Evmos takes only the string); `timeout` is a Go duration.
 */
import { parseGoDuration } from "../../../utils/go-duration";
import type { BlockOverrides, StateOverride, TraceConfig } from "../../../chain";
import { stateOverride } from "../../objects";
import { ParamError, codec, jsonType, parseAddress, parseHash, parseQuantity } from "../../params";

interface TraceCallConfig extends TraceConfig {
  stateOverrides?: StateOverride;
  blockOverrides?: BlockOverrides;
}

function bool(o: Record<string, unknown>, k: string): boolean | undefined {
  const v = o[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new ParamError(`json: cannot unmarshal ${jsonType(v)} into Go struct field TraceConfig.${k} of type bool`);
  return v;
}

function parseTraceConfig(v: unknown): TraceCallConfig {
  if (typeof v !== "object" || Array.isArray(v) || v === null) throw new ParamError(`json: cannot unmarshal ${jsonType(v)} into Go value of type tracers.TraceConfig`);
  const o = v as Record<string, unknown>;
  const cfg: TraceCallConfig = {
    enableMemory: bool(o, "enableMemory"),
    disableStack: bool(o, "disableStack"),
    disableStorage: bool(o, "disableStorage"),
    enableReturnData: bool(o, "enableReturnData"),
  };
  if (o.tracer !== undefined && o.tracer !== null) {
    if (typeof o.tracer !== "string") throw new ParamError(`json: cannot unmarshal ${jsonType(o.tracer)} into Go struct field TraceConfig.tracer of type string`);
    cfg.tracer = o.tracer;
  }
  if (o.limit !== undefined && o.limit !== null) {
    if (typeof o.limit !== "number" || !Number.isInteger(o.limit)) throw new ParamError(`json: cannot unmarshal ${jsonType(o.limit)} into Go struct field TraceConfig.limit of type int`);
    cfg.limit = o.limit;
  }
  if (o.timeout !== undefined && o.timeout !== null) {
    if (typeof o.timeout !== "string") throw new ParamError(`json: cannot unmarshal ${jsonType(o.timeout)} into Go struct field TraceConfig.timeout of type string`);
    cfg.timeout = goDuration(o.timeout);
  }
  const tc = o.tracerConfig;
  if (typeof tc === "string") {
    if (tc.trim() !== "") {
      try {
        cfg.tracerConfig = JSON.parse(tc) as unknown;
      } catch (err) {
        throw new ParamError(`tracerConfig: ${(err as Error).message}`);
      }
    }
  } else if (tc !== undefined && tc !== null) {
    if (typeof tc !== "object" || Array.isArray(tc)) throw new ParamError(`json: cannot unmarshal ${jsonType(tc)} into Go struct field TraceConfig.tracerConfig`);
    cfg.tracerConfig = tc;
  }
  if (o.stateOverrides !== undefined && o.stateOverrides !== null) cfg.stateOverrides = stateOverride.parse(o.stateOverrides);
  if (o.blockOverrides !== undefined && o.blockOverrides !== null) cfg.blockOverrides = parseBlockOverrides(o.blockOverrides);
  return cfg;
}

function parseBlockOverrides(v: unknown): BlockOverrides {
  if (typeof v !== "object" || Array.isArray(v) || v === null) throw new ParamError(`json: cannot unmarshal ${jsonType(v)} into Go value of type override.BlockOverrides`);
  const o = v as Record<string, unknown>;
  const q = (k: string): bigint | undefined => (o[k] === undefined || o[k] === null ? undefined : parseQuantity(o[k]));
  return {
    number: q("number"),
    time: q("time"),
    gasLimit: q("gasLimit"),
    coinbase: o.feeRecipient !== undefined ? parseAddress(o.feeRecipient) : o.coinbase !== undefined ? parseAddress(o.coinbase) : undefined,
    random: o.prevRandao !== undefined ? parseHash(o.prevRandao) : o.random !== undefined ? parseHash(o.random) : undefined,
    baseFee: q("baseFeePerGas") ?? q("baseFee"),
  };
}

export const traceConfig = codec(parseTraceConfig);

/** Go's time.ParseDuration, in ms, with Go's error texts (geth returns them as the request's error). */
function goDuration(text: string): number {
  try {
    return parseGoDuration(text);
  } catch (err) {
    throw new ParamError((err as Error).message);
  }
}
