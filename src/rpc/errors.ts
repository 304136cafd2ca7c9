import type { StackTraceEntry } from "../solidity/stack-trace";
import type { JsonRpcId, JsonRpcResponse } from "./types";

/**
 * How Hardhat's own network words a failure. The in-process provider throws that (tests see Hardhat's
 * texts); over HTTP/WS the node answers with the Evmos/geth text of the error itself.
 */
interface HardhatWording {
  /** Hardhat's message, where it is a plain text (e.g. not enough funds). */
  message?: string;
  /** A failed execution: Hardhat builds its error from the stack trace. */
  execution?: {
    error: string;
    returnValue: Uint8Array;
    transactionHash?: string;
    /** Runs the execution again with its messages recorded (only when asked: failures only). */
    stackTrace(): Promise<StackTraceEntry[] | undefined>;
  };
}

/**
 * Errors that reach the wire. Each has the code and text geth and Evmos use (docs/json-rpc.md, "Errors");
 * anything else thrown by a handler becomes -32603 without internal details.
 */
/**
 * Marks RpcErrors across copies of this module: `resetHardhatContext()` reloads the modules the config
 * loaded (src/hardhat/errors.ts and this file with it) but not the chain runtime, which keeps throwing
 * the first copy's class, so `instanceof` alone fails from the second environment on.
 */
const RPC_ERROR = Symbol.for("hardhat-epochs.RpcError");

export function isRpcError(err: unknown): err is RpcError {
  return err instanceof RpcError || (typeof err === "object" && err !== null && (err as { [RPC_ERROR]?: boolean })[RPC_ERROR] === true);
}

export class RpcError extends Error {
  /** Set where Hardhat's network says it otherwise (see HardhatWording). */
  hardhat?: HardhatWording;
  readonly [RPC_ERROR] = true;

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export class InvalidRequestError extends RpcError {
  constructor(message = "invalid request") {
    super(-32600, message);
  }
}

export class MethodNotFoundError extends RpcError {
  constructor(method: string) {
    super(-32601, `the method ${method} does not exist/is not available`);
  }
}

export class InvalidParamsError extends RpcError {
  constructor(message: string) {
    super(-32602, message);
  }
}

export class InternalError extends RpcError {
  constructor(message = "internal error") {
    super(-32603, message);
  }
}

/** -32000: execution and state errors, with the chain's own text. */
export class ServerError extends RpcError {
  constructor(message: string, data?: unknown) {
    super(-32000, message, data);
  }
}

/** A revert: code 3 with the revert data when there is data (geth), -32000 "execution reverted" without. */
export class RevertError extends RpcError {
  constructor(message: string, data: string) {
    super(data === "0x" ? -32000 : 3, message, data);
  }
}

/** EIP-1193 4100: a private method called without the bearer token. */
export class UnauthorizedError extends RpcError {
  constructor(method: string) {
    super(4100, `unauthorized: ${method} needs the bearer token`);
  }
}

/** A method the spec names that has no meaning on this chain (PoW-only, whisper, les, …). */
export class NotSupportedError extends ServerError {}

/** The error answer to request `id`: the one shape of a JSON-RPC error body (the dispatcher's answers and the transports' own). */
export function errorResponse(id: JsonRpcId, err: Pick<RpcError, "code" | "message" | "data">): JsonRpcResponse {
  const error: { code: number; message: string; data?: unknown } = { code: err.code, message: err.message };
  if (err.data !== undefined) error.data = err.data;
  return { jsonrpc: "2.0", id, error };
}
