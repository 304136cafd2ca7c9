/** Errors the chain answers with; the RPC layer turns them into JSON-RPC errors (src/rpc/dispatcher.ts). */

/**
 * What the chain refuses or cannot do, for the caller: a rejected transaction or state change, an
 * execution past its deadline, a bad trace or dump. The RPC layer answers each with its `code`
 * (default -32000, geth's server error) and this text, in one place (src/rpc/dispatcher.ts); a
 * subclass says what kind it is. Anything else thrown is a bug of the node.
 */
export class ChainError extends Error {
  /**
   * `hardhatMessage`: Hardhat's network's text for the same refusal (the in-process provider answers
   * with it); `code`: the JSON-RPC error code.
   */
  constructor(
    message: string,
    readonly hardhatMessage?: string,
    readonly code: number = -32000,
  ) {
    super(message);
  }
}

/**
 * Whether an error stops the block being made rather than failing the transaction that met it (a
 * fork's remote that could not be read: src/chain/fork/remote.ts). Read as a property, so an error
 * from another copy of the plugin's modules counts too.
 */
export function abortsBlock(err: unknown): boolean {
  return (err as { abortsBlock?: unknown } | null)?.abortsBlock === true;
}

/**
 * Whether an error thrown inside an execution ends the execution as a whole, rather than failing the
 * call it arose in: a block that cannot be made (`abortsBlock`) or a context's deadline
 * (ExecutionTimeout, src/chain/engine/context.ts). Everything else thrown inside the EVM is a failed
 * call (src/chain/engine/evm.ts, `runPrecompile`). Read as properties, like `abortsBlock`.
 */
export function endsExecution(err: unknown): boolean {
  return abortsBlock(err) || (err as { endsExecution?: unknown } | null)?.endsExecution === true;
}

export { errorText } from "../../utils/error-text";
