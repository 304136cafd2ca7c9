/** Errors the chain answers with; the RPC layer turns them into JSON-RPC errors (src/rpc/dispatcher.ts). */

/** A rejected transaction or state change: the RPC layer turns it into -32000 with this text. */
export class ChainError extends Error {
  /** `hardhatMessage`: Hardhat's network's text for the same refusal (the in-process provider answers with it). */
  constructor(
    message: string,
    readonly hardhatMessage?: string,
  ) {
    super(message);
  }
}

/** The message of anything thrown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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
